"""The page memo: what the last pass knew about the pages it wrote, kept in the base's compiler cache so
that an unchanged previous page is neither read nor parsed again (kctui.compiler.wiki_state)."""

from __future__ import annotations

import json
from pathlib import Path

from kctui.atomic_write import write_atomically
from kctui.compiler.page_info import PageInfo
from kctui.core.pages import KIND_DIRS

MEMO_NAME = "wiki-pages-v6.txt"


class PageMemo:
    """What the last pass knew about the pages it wrote, stored as one text file in the cache folder (a
    header line, the JSON of `files`, then one `<digest> <JSON>` line per page of `infos`):

    - `infos`: the `PageInfo` of a page and whether its bytes hold each link style, by the page's
      digest (a pure function of the bytes, so a hit never changes a result);
    - `files`: by slug, the page file's stat key (dev, inode, size, mtime_ns), whether the entry is
      *racily clean* and the digest of the bytes the file held. A previous page whose stat
      key is unchanged is neither read nor hashed (its bytes are read when the pass needs them and then
      checked against the digest). As in the sources' stat cache (kctui/sources/statcache.py), an
      entry whose mtime was not older than the moment it was recorded (minus a margin for coarse
      clocks) is never trusted: the file is read and hashed again."""


    def __init__(self, folder: Path | None) -> None:
        self.path = folder / MEMO_NAME if folder else None
        self.infos: dict[str, str] = {}  # digest -> its line's JSON text (parsed when asked for)
        self.files: dict[str, list] = {}
        self._text = ""
        self._slug_of: dict[str, str] = {}  # digest -> slug of the lines decoded (written back as read)
        if self.path and self.path.is_file():
            try:
                self._text = self.path.read_text(encoding="utf-8")
                self.files, self.infos = _parse_memo(self._text)
            except (OSError, ValueError, TypeError, UnicodeDecodeError):
                self.infos, self.files, self._text = {}, {}, ""

    def get(self, digest: str, slug: str) -> tuple[PageInfo, tuple[bool, bool]] | None:
        """The page's summary and (has `[[`, has `](/`) for these bytes, or None."""
        text = self.infos.get(digest)
        if not text:
            return None
        try:
            got = _info_of(json.loads(text), slug)
        except ValueError:
            return None
        if got is not None:
            self._slug_of[digest] = slug
        return got

    def get_many(self, keys: list[tuple[str, str]]) -> list[tuple[PageInfo, tuple[bool, bool]] | None]:
        """`get` for many (digest, slug) pairs, their lines decoded in one go."""
        texts = [self.infos.get(digest) for digest, _ in keys]
        if not all(texts):
            return [self.get(digest, slug) for digest, slug in keys]
        try:
            entries = json.loads("[" + ",".join(texts) + "]")  # type: ignore[arg-type]
        except ValueError:
            return [self.get(digest, slug) for digest, slug in keys]
        if len(entries) != len(keys):
            return [self.get(digest, slug) for digest, slug in keys]
        out = [_info_of(entry, slug) for entry, (_, slug) in zip(entries, keys)]
        self._slug_of.update((digest, slug) for got, (digest, slug) in zip(out, keys) if got is not None)
        return out

    def trusted(self, slug: str, key: tuple[int, int, int, int]) -> str | None:
        """The digest recorded for a page file whose stat key is unchanged and not racily clean."""
        entry = self.files.get(slug)
        if not entry or len(entry) != 6 or entry[4] or tuple(entry[:4]) != key:
            return None
        return entry[5] if isinstance(entry[5], str) else None

    def forget(self) -> None:
        """Drop the memo (it vouched for bytes a page file no longer holds)."""
        self.infos, self.files = {}, {}
        if self.path:
            try:
                self.path.unlink()
            except OSError:
                pass

    def save(self, infos: dict[str, PageInfo], digests: dict[str, str], files: dict[str, list] | None = None,
             styles: dict[str, tuple[bool, bool]] | None = None) -> None:
        """Keep what describes the pages of the wiki just written (one line per page: an unchanged
        page's line is written back as read); nothing is written when nothing changed."""
        if not self.path:
            return
        lines = [_MEMO_HEADER, json.dumps(files or {}, ensure_ascii=False, separators=(",", ":"))]
        for slug, info in infos.items():
            digest = digests.get(slug)
            if not digest:
                continue
            text = self.infos.get(digest) if self._slug_of.get(digest) == slug else None
            if text is None:
                wiki, md = (styles or {}).get(slug, (True, True))
                text = json.dumps(_info_list(info, wiki, md), ensure_ascii=False, separators=(",", ":"))
            lines.append(f"{digest} {text}")
        data = "\n".join(lines) + "\n"
        if data == self._text:
            return
        try:
            write_atomically(self.path, data, durable=False)
        except OSError:
            pass


_MEMO_HEADER = "kctui page memo 6"


def _info_of(entry: object, slug: str) -> tuple[PageInfo, tuple[bool, bool]] | None:
    try:
        kind, eslug, title, description, aliases, sources, status, links, by, passing, recurring, kept, stale, wiki, md = entry  # type: ignore[misc]
        if eslug != slug or kind not in KIND_DIRS or not (stale is None or len(stale) == 3):
            return None
        info = PageInfo(kind, slug, title, description, tuple(aliases), tuple(map(tuple, sources)), status,
                        tuple(links), by, tuple(passing), tuple(recurring), tuple(map(tuple, kept)),
                        None if stale is None else tuple(stale))
    except (TypeError, ValueError):
        return None
    return info, (bool(wiki), bool(md))


def _parse_memo(text: str) -> tuple[dict[str, list], dict[str, str]]:
    lines = text.split("\n")
    if lines[0] != _MEMO_HEADER or len(lines) < 2:
        raise ValueError("not a page memo")
    files = json.loads(lines[1])
    if not isinstance(files, dict):
        raise ValueError("not a page memo")
    infos: dict[str, str] = {}
    for line in lines[2:]:
        digest, sep, entry = line.partition(" ")
        if sep:
            infos[digest] = entry
    return files, infos


def _info_list(info: PageInfo, wiki: bool, md: bool) -> list:
    return [info.kind, info.slug, info.title, info.description, list(info.aliases), [list(s) for s in info.sources],
            info.compile_status, list(info.links), info.generated_by, list(info.passing), list(info.recurring),
            [list(k) for k in info.kept], None if info.stale is None else list(info.stale), int(wiki), int(md)]
