"""The page memo: what the last pass knew about the pages it wrote, kept in the base's compiler cache so
that an unchanged previous page is neither read nor parsed again (kctui.compiler.previous.wiki)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, TypeVar

from kctui.atomic_write import write_atomically
from kctui.compiler.previous.page_info import PageInfo
from kctui.compiler.previous.resident import keep_resident
from kctui.core.pages import KIND_DIRS

T = TypeVar("T")

MEMO_NAME = "wiki-pages-v6.txt"
_MEMO_HEADER = "kctui page memo 6"
# One JSON array per line, a line per page:
#   [slug, dev, inode, size, mtime_ns, racily clean, digest, has [[, has ](/,
#    kind, title, description, aliases, sources, compile_status, links, generated_by, passing, recurring, kept, stale]
_FIELDS = 21
_SLUG, _KIND = 0, 9
R_DEV, R_INO, R_SIZE, R_MTIME, R_RACY, R_DIGEST, R_WIKI, R_MD = 1, 2, 3, 4, 5, 6, 7, 8  # a record's stat fields
_RACY, _DIGEST, _WIKI, _MD = R_RACY, R_DIGEST, R_WIKI, R_MD


class PageMemo:
    """What the last passes knew about the pages they wrote, stored as one text file in the cache folder
    (a header line, then one JSON array per page record):

    - the page file's stat key (dev, inode, size, mtime_ns), whether the record is *racily clean* and the
      digest of the bytes the file held. A previous page whose stat key is unchanged is neither read
      nor hashed (its bytes are read when the pass needs them and then checked against the digest). As
      in the sources' stat cache (kctui/sources/statcache.py), a record whose mtime was not older than
      the moment it was recorded (minus a margin for coarse clocks) is never trusted: the file is read
      and hashed again;
    - the page's `PageInfo` and whether its bytes hold each link style: a pure function of the bytes
      (the digest), so using it never changes a result.

    The file is a journal: a pass appends the records of the pages it changed (a later record of a
    slug replaces an earlier one; a record of a page no longer listed is never consulted), and the file
    is rewritten whole before it holds a quarter more records than it needs (a restarted process reads
    them all). An append cut short by a
    kill leaves a last line without its newline, which is dropped; any other damage drops the memo (the
    next pass reads the pages). Every line is read with one `json.loads` (joined into one array: a JSON
    line holds no raw newline).

    A long-lived process (the host's worker) keeps the memo it last saved in memory (`_RESIDENT`, by
    the file's path): the next pass of the same base takes the records and summaries from there
    instead of reading and decoding the file, when the file is still the one it left (same device,
    inode, size and modification time). A memo another process wrote is read as usual."""

    def __init__(self, folder: Path | None) -> None:
        self.path = folder / MEMO_NAME if folder else None
        self._entries: dict[str, list] = {}  # slug -> its record
        self._decoded: dict[str, PageInfo] = {}  # slug -> the info decoded from its record
        self._records = 0  # records the file holds (with the ones later records replaced)
        self._stat: tuple | None = None  # the file's stat key when read
        self.generation: Generation | None = None  # the wiki this process's last save described (resident only)
        if self.path is None:
            return
        try:
            st = self.path.stat()
        except OSError:
            return
        key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        resident = _RESIDENT.get(self.path)
        if resident is not None and resident[0] == key:
            _, self._records, entries, decoded, self.generation = resident
            self._entries, self._decoded, self._stat = dict(entries), dict(decoded), key
            return
        try:
            text = self.path.read_text(encoding="utf-8")
            self._entries, self._records = _parse_memo(text)
            self._stat = key if text.endswith("\n") else None  # after an append cut short: rewritten whole
        except (OSError, ValueError, TypeError, UnicodeDecodeError, RecursionError):
            self._entries, self._records = {}, 0

    def vouched(self, slug: str, key: tuple[int, int, int, int]) -> tuple[str, PageInfo, tuple[bool, bool]] | None:
        """(digest, summary, link styles) of a page file whose stat key is the one recorded, in a record
        that was not racily clean; else None (the file is read)."""
        e = self._entries.get(slug)
        if e is None or e[_RACY] or e[1] != key[0] or e[2] != key[1] or e[3] != key[2] or e[4] != key[3]:
            return None
        info = self._decoded.get(slug)
        if info is not None:  # decoded before (a resident memo): the same record, the same summary
            return e[_DIGEST], info, (bool(e[_WIKI]), bool(e[_MD]))
        got = self._info(e, slug)
        return None if got is None else (e[_DIGEST], *got)

    def records(self) -> tuple[dict[str, list], dict[str, PageInfo]]:
        """(slug -> record, slug -> the summary decoded from it so far), for a caller that checks
        hundreds of stat keys in a loop of its own (`vouched` says what a record vouches for)."""
        return self._entries, self._decoded

    def get(self, digest: str, slug: str) -> tuple[PageInfo, tuple[bool, bool]] | None:
        """The page's summary and (has `[[`, has `](/`) for these bytes of this page, or None."""
        e = self._entries.get(slug)
        if e is None or e[_DIGEST] != digest:
            return None
        info = self._decoded.get(slug)
        if info is not None:
            return info, (bool(e[_WIKI]), bool(e[_MD]))
        return self._info(e, slug)

    def _info(self, e: list, slug: str) -> tuple[PageInfo, tuple[bool, bool]] | None:
        got = _info_of(e, slug)
        if got is not None:
            self._decoded[slug] = got[0]
        return got

    def forget(self) -> None:
        """Drop the memo (it vouched for bytes a page file no longer holds)."""
        self._entries, self._decoded, self._records, self.generation = {}, {}, 0, None
        if self.path:
            _RESIDENT.pop(self.path, None)
            try:
                self.path.unlink()
            except OSError:
                pass

    def save(self, infos: dict[str, PageInfo], digests: dict[str, str], files: dict[str, list] | None = None,
             styles: dict[str, tuple[bool, bool]] | None = None, links_resolve: bool = False) -> None:
        """Keep what describes the pages of the wiki just written: `infos` and `digests` by slug, `files`
        the record of each page file (dev, inode, size, mtime_ns, racily clean, digest; a page without
        one is kept as racily clean, so only its summary is used). Only the records that changed are
        appended; nothing is written when nothing changed. `links_resolve`: `infos` is the whole wiki
        and every link of it resolved (the next pass's link check then looks at its new pages only)."""
        if not self.path:
            return
        files, styles = files or {}, styles or {}
        entries: dict[str, list] = {}
        decoded: dict[str, PageInfo] = {}
        added: list[str] = []
        changed: list[str] = []  # the slugs whose record is not the one read
        old_entries, old_decoded = self._entries, self._decoded
        for slug, info in infos.items():
            digest = digests.get(slug)
            if not digest:
                continue
            f = files.get(slug)
            old = old_entries.get(slug)
            if (old is not None and f is not None and info is old_decoded.get(slug) and len(f) == 6 and f[5] == digest
                    and old[_DIGEST] == digest and old[1] == f[0] and old[2] == f[1] and old[3] == f[2]
                    and old[4] == f[3] and old[5] == f[4]):  # the record stands (the common case, kept short)
                entries[slug], decoded[slug] = old, info
                continue
            stamp = f[:5] if f and len(f) == 6 and f[5] == digest else [0, 0, 0, 0, True]
            if old is not None and info is old_decoded.get(slug) and old[_DIGEST] == digest and old[1:6] == stamp:
                entry = old
            else:
                wiki, md = styles.get(slug, (True, True))
                entry = [slug, *stamp, digest, int(wiki), int(md), *_info_list(info)]
                added.append(json.dumps(entry, ensure_ascii=False, separators=(",", ":")))
            entries[slug], decoded[slug] = entry, info
            changed.append(slug)
        generation = Generation.after(self.generation, entries, decoded, changed)
        if generation is not None and links_resolve and len(decoded) == len(infos):
            generation.derived["links_resolve"] = True
        if not added and self._stat is not None:  # the file stands as read: what it holds, kept in memory
            _keep_resident(self.path, (self._stat, self._records, entries, decoded, generation))
            return
        _RESIDENT.pop(self.path, None)
        try:
            records = self._append(added, len(entries)) if added and self._stat is not None else None
            if records is None:  # no memo yet, one another process changed, or one to compact
                lines = [json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in entries.values()]
                write_atomically(self.path, "\n".join([_MEMO_HEADER, *lines]) + "\n", durable=False)
                records = len(lines)
            st = self.path.stat()
        except OSError:
            return
        # what this process left, for its next pass (a record's summary is the info it was made of)
        _keep_resident(self.path, ((st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns), records, entries, decoded,
                                   generation))

    def _append(self, lines: list[str], needed: int) -> int | None:
        """Append the records to the file read (the number of records it then holds), or None when it
        must be rewritten whole instead: it changed since it was read, or it would hold a quarter more
        records than the wiki needs (and 64)."""
        if self._records + len(lines) > needed + needed // 4 + 64:
            return None
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns) != self._stat:
                return None
            os.write(fd, ("\n".join(lines) + "\n").encode("utf-8"))
        finally:
            os.close(fd)
        return self._records + len(lines)


class Generation(NamedTuple):
    """The wiki a pass of this process wrote, page by page, as `load_previous` would list it (its class
    folders in order, each by name): what the next pass takes whole when every page file is still the
    one written (kctui.compiler.previous.wiki; a racily clean one is read and checked against its digest,
    as always). Only for a wiki whose every page has its file's record; otherwise there is none and
    the pages are checked one by one."""

    pages: dict[str, PageInfo]  # slug -> summary, in listing order
    files: dict[str, list]  # slug -> [dev, inode, size, mtime_ns, racily clean, digest]
    styles: dict[str, tuple[bool, bool]]  # slug -> (has [[, has ](/)
    digests: dict[str, str]  # slug -> sha256 of the bytes written
    identities: dict[str, tuple[int, int, int, int]]  # slug -> stat key (dev, inode, size, mtime_ns)
    expected: dict[str, dict[str, tuple]]  # folder -> file name -> (inode, size, mtime_ns, dev, racily clean)
    # what the passes made from these pages and may carry forward (kctui.compiler.steps.registry: the registry's
    # base), and until then the generation this one follows with the slugs that changed since
    derived: dict

    def carried(self, name: str, make: Callable[[], T],
                patch: Callable[[T, Generation, Generation, list[str]], bool]) -> T:
        """What `make()` gives for this generation's pages, kept under `name`: the one the generation
        before it had (this process's last pass made it), turned into this one's by `patch(value, before,
        this, changed)` when that says True; else made. The value is shared: never changed by its user."""
        kept = self.derived
        value = kept.get(name)
        if value is None:
            parent = kept.get("parent")
            last = parent.derived.pop(name, None) if parent is not None else None
            value = last if last is not None and patch(last, parent, self, kept.get("changed", [])) else make()
            kept[name] = value
        return value

    @classmethod
    def of(cls, entries: dict[str, list], infos: dict[str, PageInfo]) -> Generation | None:
        """From the records a save keeps (`entries`) and their summaries, by slug."""
        by_kind: dict[str, list[str]] = {kind: [] for kind in KIND_DIRS}
        files: dict[str, list] = {}
        styles: dict[str, tuple[bool, bool]] = {}
        for slug, info in infos.items():
            e = entries.get(slug)
            if e is None or not e[R_INO] or info.kind not in by_kind:  # no stat key: the file was not recorded
                return None
            files[slug], styles[slug] = _file_of(e), _styles_of(e)
            by_kind[info.kind].append(slug)
        pages: dict[str, PageInfo] = {}
        expected: dict[str, dict[str, tuple[int, int, int, int]]] = {}
        for kind, folder in KIND_DIRS.items():
            slugs = by_kind[kind]
            # load_previous's order: the names bytewise (a str's order is its UTF-8 order)
            slugs.sort(key=(lambda x: x + ".md") if all(x.isascii() for x in slugs)
                       else (lambda x: (x + ".md").encode("utf-8", "surrogateescape")))
            for slug in slugs:
                pages[slug] = infos[slug]
            expected[folder] = {f"{slug}.md": _expected_of(files[slug]) for slug in slugs}
        files = {slug: files[slug] for slug in pages}
        return cls(pages, files, styles, {slug: f[5] for slug, f in files.items()},
                   {slug: (f[0], f[1], f[2], f[3]) for slug, f in files.items()}, expected, {})

    @classmethod
    def after(cls, before: Generation | None, entries: dict[str, list], infos: dict[str, PageInfo],
              changed: list[str]) -> Generation | None:
        """`of(entries, infos)`, from the generation the last save described when the pages are the same
        (by slug and class) and only the records of `changed` are new: its listing order stands."""
        if before is None or len(infos) != len(before.pages):
            return cls.of(entries, infos)
        for slug in changed:
            old = before.pages.get(slug)
            if old is None or old.kind != infos[slug].kind or not entries[slug][R_INO]:
                return cls.of(entries, infos)
        pages, files, styles = dict(before.pages), dict(before.files), dict(before.styles)
        digests, identities = dict(before.digests), dict(before.identities)
        expected = {folder: dict(names) for folder, names in before.expected.items()}
        for slug in changed:
            e = entries[slug]
            pages[slug] = infos[slug]
            f = files[slug] = _file_of(e)
            styles[slug] = _styles_of(e)
            digests[slug], identities[slug] = f[5], (f[0], f[1], f[2], f[3])
            expected[KIND_DIRS[infos[slug].kind]][f"{slug}.md"] = _expected_of(f)
        before.derived.pop("parent", None)  # one generation back at most
        before.derived.pop("changed", None)
        return cls(pages, files, styles, digests, identities, expected, {"parent": before, "changed": list(changed)})


def _file_of(e: list) -> list:
    """A record's page file: [dev, inode, size, mtime_ns, racily clean, digest]."""
    return [e[R_DEV], e[R_INO], e[R_SIZE], e[R_MTIME], bool(e[_RACY]), e[_DIGEST]]


def _styles_of(e: list) -> tuple[bool, bool]:
    return bool(e[_WIKI]), bool(e[_MD])


def _expected_of(f: list) -> tuple:
    """What the listing of a page file must show: (inode, size, mtime_ns, dev, racily clean)."""
    return f[1], f[2], f[3], f[0], f[4]


def _keep_resident(path: Path, kept: tuple) -> None:
    keep_resident(_RESIDENT, path, kept)


# memo file -> (its stat key when left, records it holds, latest records, summaries, the generation it
# describes): this process's last save
_RESIDENT: dict[Path, tuple] = {}  # (insertion order: the most recent save last)

_tuple_new = tuple.__new__  # PageInfo's own __new__ without its Python frame (a pass decodes hundreds)


def _info_of(e: list, slug: str) -> tuple[PageInfo, tuple[bool, bool]] | None:
    try:
        (kind, title, description, aliases, sources, status, links, by, passing, recurring, kept,
         stale) = e[_KIND:]
        if e[_SLUG] != slug or kind not in KIND_DIRS or not (stale is None or len(stale) == 3):
            return None
        info = _tuple_new(PageInfo, (kind, slug, title, description, tuple(aliases) if aliases else (),
                                     tuple(map(tuple, sources)), status, tuple(links) if links else (), by,
                                     tuple(passing) if passing else (), tuple(recurring) if recurring else (),
                                     tuple(map(tuple, kept)) if kept else (), None if stale is None else tuple(stale)))
    except (TypeError, ValueError):
        return None
    return info, (bool(e[_WIKI]), bool(e[_MD]))


def _parse_memo(text: str) -> tuple[dict[str, list], int]:
    """slug -> its latest record, and the number of records the text holds."""
    lines = text.split("\n")
    if lines[0] != _MEMO_HEADER:
        raise ValueError("not a page memo")
    lines = lines[1:-1]  # the last line has no newline after it: empty, or an append cut short
    entries = json.loads("[" + ",".join(lines) + "]") if lines else []
    if not isinstance(entries, list) or len(entries) != len(lines):  # a line holding more than one value
        raise ValueError("not a page memo")
    by_slug: dict[str, list] = {}
    for e in entries:
        if not isinstance(e, list) or len(e) != _FIELDS or not isinstance(e[_SLUG], str):
            raise ValueError("not a page memo")
        by_slug[e[_SLUG]] = e
    return by_slug, len(entries)


def _info_list(info: PageInfo) -> list:
    return [info.kind, info.title, info.description, list(info.aliases), [list(s) for s in info.sources],
            info.compile_status, list(info.links), info.generated_by, list(info.passing), list(info.recurring),
            [list(k) for k in info.kept], None if info.stale is None else list(info.stale)]
