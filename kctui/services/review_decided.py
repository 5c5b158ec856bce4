"""A conflict's decision beyond its own page (QA session 32, T; `kctui.core.decided_values`).

`keep` / `use-new` records the decision on the decided page (the value chosen, the value rejected and
every line stating it: `kctui.compiler.trust.decided_pages`) and flags, in the same promotion, every other
live page that states either value from those lines: a source page saying the rejected date, another
entity's page citing the same line. A held proposal waiting on such a page carries the flags too, so
approving it later does not take them off. A later pass flags the pages it builds from the same records.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kctui import paths
from kctui.compiler.trust.decided_pages import decided_page, decision_of
from kctui.core.decided_values import flag_text, span

# wiki files that are not compiled pages (kctui.publish: the index, the log, kept answers)
_NOT_PAGES = ("index.md", "log.md")


def apply_decision(decided: str, seen: str, details: dict[str, Any], action: str, *, by: str, at: str
                   ) -> tuple[str, dict[str, Any] | None]:
    """(the decided page's text with the decision recorded and its claims flagged, the record); the text
    as it is and None when the decision covers no other value (`dismiss`, an edit's dispute)."""
    rec = decision_of(seen, details, action, by=by, at=at)
    if rec is None:
        return decided, None
    return decided_page(decided, rec, seen), rec


def flagged_pages(wiki: Path, rec: dict[str, Any], skip: str, text_of: Callable[[str], str | None]) -> dict[str, str]:
    """rel -> text of every other page of `wiki` whose claims the decision `rec` covers, flagged
    (`text_of(rel)`: the page as the batch has it). Only a page whose file cites one of the decision's
    sources is read as a page."""
    lines = [*(rec.get("rejected_lines") or []), str(rec.get("chosen_citation") or "")]
    cited = {at[0] for at in (span(x) for x in lines) if at is not None}
    needles = [f"^[{p.replace(chr(92), chr(92) * 2).replace(']', chr(92) + ']')}:".encode() for p in sorted(cited)]
    out: dict[str, str] = {}
    for rel in _citing(wiki, needles):
        if rel == skip:
            continue
        text = text_of(rel)
        if text:
            new = flag_text(text, [rec])
            if new != text:
                out[rel] = new
    return out


def _citing(wiki: Path, needles: list[bytes]) -> list[str]:
    """The compiled pages of a wiki (no kept answer, index or log; never through a symlink) whose bytes
    hold one of `needles`, by their path under it, in path order."""
    out: list[str] = []
    stack = [("", str(wiki))]
    while stack:
        prefix, folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for e in entries:
            rel = f"{prefix}{e.name}"
            if e.name.startswith(".") or e.is_symlink():
                continue
            if e.is_dir():
                if rel != "outputs":
                    stack.append((f"{rel}/", e.path))
            elif e.name.endswith(".md") and rel not in _NOT_PAGES and _holds_any(e.path, needles):
                out.append(rel)
    return sorted(out)


def _holds_any(path: str, needles: list[bytes]) -> bool:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return False
    return any(n in data for n in needles)


def wiki_of(workspace: str, kb_id: str) -> Path:
    return paths.wiki_path(Path(workspace), kb_id)


__all__ = ["apply_decision", "flagged_pages", "wiki_of"]
