"""What the last pass knew, behind one door: `PreviousStore`.

A pass asks the store for three things and hands it one back:

- `digest_of(source)`: the digest the last pass recorded for a source file whose stat is unchanged (the
  source digest memo, kctui.compiler.previous.digest_memo), else None and the file is read;
- `load(root)`: the previous generation as compiler state (`PreviousWiki`, kctui.compiler.previous.wiki),
  its unchanged pages vouched for by the page memo (kctui.compiler.previous.page_memo) instead of read
  and parsed, or, in a long-lived worker, taken whole from the generation it wrote last (resident copies,
  kctui.compiler.previous.resident); what a pass derives from those pages alone is carried with it;
- `prelink`: the staged wiki's unchanged page folders hard-linked ahead by a process of its own
  (kctui.compiler.previous.prelink), started with the pass;
- `save(written)`: what this pass wrote (`WrittenGeneration`), for the next pass.

Each of these only saves work: a store opened with `enabled=False` (`compile_pass(previous_store=False)`,
or `KCTUI_PREVIOUS_STORE=off` in the environment) reads every source and previous page, links each page
itself and records nothing, and the pass writes byte for byte what it writes with the store on
(tests/integration/test_compile_golden.py). A dry run reads the memos but never writes them, and copies
unchanged pages instead of linking them (a link would move the live files' ctime).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from kctui.compiler.previous.digest_memo import DigestMemo, SourceFile
from kctui.compiler.previous.page_info import PageInfo
from kctui.compiler.previous.page_memo import PageFile, PageMemo
from kctui.compiler.previous.prelink import Prelink
from kctui.compiler.previous.wiki import PreviousWiki, load_previous

ENV_SWITCH = "KCTUI_PREVIOUS_STORE"  # "off": the pass works without what the last pass knew


def enabled_by_default() -> bool:
    return os.environ.get(ENV_SWITCH, "").strip().lower() not in ("off", "0", "false", "no")


@dataclass(frozen=True)
class WrittenGeneration:
    """What a pass wrote, as the next pass wants to find it: every page's summary and digest, the memo
    record of each file written, the link styles each page holds, and whether every link resolved."""

    infos: dict[str, PageInfo]
    digests: dict[str, str]
    files: dict[str, PageFile]
    styles: dict[str, tuple[bool, bool]]
    links_resolve: bool


class PreviousStore:
    def __init__(self, cache_folder: Path | None, *, dry_run: bool = False, enabled: bool = True) -> None:
        self.enabled = enabled
        self.dry_run = dry_run
        folder = cache_folder if enabled else None
        self._digests = DigestMemo(folder)
        self._pages = PageMemo(folder) if folder else None
        self.prelink: Prelink | None = None

    def start_prelink(self, previous_wiki: Path | None, output: Path) -> None:
        """Link the previous generation's page folders into the staged wiki while the pass works (from
        the start: a link changes a file's ctime only, which no stat key the pass checks holds; a page
        replaced meanwhile is another inode, which the writer does not carry). Never in a dry run."""
        if self.enabled and not self.dry_run:
            self.prelink = Prelink.start(previous_wiki, output)

    def digest_of(self, source: SourceFile) -> str | None:
        return self._digests.lookup(source)

    def keep_digests(self, readable: Sequence[SourceFile]) -> None:
        if not self.dry_run:
            self._digests.save(list(readable))

    def load(self, root: Path | None, should_stop: Callable[[], bool]) -> PreviousWiki:
        return load_previous(root, self._pages, should_stop)

    def save(self, written: WrittenGeneration) -> None:
        if self._pages is not None and not self.dry_run:
            self._pages.save(written.infos, written.digests, written.files, written.styles,
                             links_resolve=written.links_resolve)

    def close(self, *, failed: bool) -> None:
        """The end of the pass, however it ends: a failed pass leaves no links to the live wiki behind."""
        if self.prelink is not None:
            if failed:
                self.prelink.discard()
            self.prelink.close()
