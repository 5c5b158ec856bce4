# size: the journal, its named records and the generation they describe are read and written together, one format in one place.
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

MEMO_NAME = "wiki-pages-v8.txt"
_MEMO_HEADER = "kctui page memo 10"  # 9: a page's decided values; 10: a source page's companies (`own_companies`)


class PageFile(NamedTuple):
    """A page file as the pass that wrote (or read) it saw it: its stat key, whether that key was racily
    clean when recorded (then the bytes are read and checked again), and the digest of its bytes."""

    dev: int
    ino: int
    size: int
    mtime_ns: int
    racy: bool
    digest: str


class MemoRecord(NamedTuple):
    """One line of the memo, a JSON array of these fields in this order: the page file (`PageFile`'s
    fields), whether its bytes hold each link style, and its summary (`PageInfo`'s fields but the slug;
    tests/unit/test_page_memo_journal.py checks the two stay in step, and that a summary comes back
    whole through a record)."""

    slug: str
    dev: int
    ino: int
    size: int
    mtime_ns: int
    racy: bool
    digest: str
    wiki: int  # the bytes hold a `[[` link
    md: int  # … a `](/` link
    kind: str
    title: str
    description: str
    aliases: list
    sources: list
    compile_status: str
    links: list
    generated_by: str
    passing: list
    recurring: list
    kept: list
    stale: list | None
    own: list | None
    people: list
    decided: list
    companies: list

    @property
    def file(self) -> PageFile:
        return PageFile(self.dev, self.ino, self.size, self.mtime_ns, bool(self.racy), self.digest)

    @property
    def styles(self) -> tuple[bool, bool]:
        return bool(self.wiki), bool(self.md)


INFO_FIELDS = MemoRecord._fields[MemoRecord._fields.index("kind"):]  # PageInfo's fields but the slug


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
        self._entries: dict[str, MemoRecord] = {}  # slug -> its record
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
        if e is None or e.racy or e.dev != key[0] or e.ino != key[1] or e.size != key[2] or e.mtime_ns != key[3]:
            return None
        info = self._decoded.get(slug)
        if info is not None:  # decoded before (a resident memo): the same record, the same summary
            return e.digest, info, e.styles
        got = self._info(e, slug)
        return None if got is None else (e.digest, *got)

    def records(self) -> tuple[dict[str, MemoRecord], dict[str, PageInfo]]:
        """(slug -> record, slug -> the summary decoded from it so far), for a caller that checks
        hundreds of stat keys in a loop of its own (`vouched` says what a record vouches for)."""
        return self._entries, self._decoded

    def get(self, digest: str, slug: str) -> tuple[PageInfo, tuple[bool, bool]] | None:
        """The page's summary and (has `[[`, has `](/`) for these bytes of this page, or None."""
        e = self._entries.get(slug)
        if e is None or e.digest != digest:
            return None
        info = self._decoded.get(slug)
        if info is not None:
            return info, e.styles
        return self._info(e, slug)

    def _info(self, e: MemoRecord, slug: str) -> tuple[PageInfo, tuple[bool, bool]] | None:
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

    def save(self, infos: dict[str, PageInfo], digests: dict[str, str], files: dict[str, PageFile] | None = None,
             styles: dict[str, tuple[bool, bool]] | None = None, links_resolve: bool = False) -> None:
        """Keep what describes the pages of the wiki just written: `infos` and `digests` by slug, `files`
        the `PageFile` of each page (see `_records_of`). Only the records that changed are appended;
        nothing is written when nothing changed. `links_resolve`: `infos` is the whole wiki and every
        link of it resolved (the next pass's link check then looks at its new pages only)."""
        if not self.path:
            return
        entries, decoded, added, changed = self._records_of(infos, digests, files or {}, styles or {})
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

    def _records_of(self, infos: dict[str, PageInfo], digests: dict[str, str], files: dict[str, PageFile],
                    styles: dict[str, tuple[bool, bool]]) -> tuple[dict[str, MemoRecord], dict[str, PageInfo],
                                                                   list[str], list[str]]:
        """(slug -> record, slug -> summary, the new records' lines, the slugs whose record is not the one
        read): a record that stands is the one read (the common case, kept short); a page without its
        file's record is kept as racily clean."""
        entries: dict[str, MemoRecord] = {}
        decoded: dict[str, PageInfo] = {}
        added: list[str] = []
        changed: list[str] = []
        old_entries, old_decoded = self._entries, self._decoded
        for slug, info in infos.items():
            digest = digests.get(slug)
            if not digest:
                continue
            f = files.get(slug)
            old = old_entries.get(slug)
            same = old is not None and info is old_decoded.get(slug) and old.digest == digest
            stamp = f[:5] if f is not None and f.digest == digest else (0, 0, 0, 0, True)
            if same and f is not None and f.digest == digest and old[1:6] == stamp:  # the record stands
                entries[slug], decoded[slug] = old, info
                continue
            if same and old[1:6] == stamp:
                entry = old
            else:
                wiki, md = styles.get(slug, (True, True))
                entry = MemoRecord(slug, *stamp, digest, int(wiki), int(md), *_info_values(info))
                added.append(json.dumps(entry, ensure_ascii=False, separators=(",", ":")))
            entries[slug], decoded[slug] = entry, info
            changed.append(slug)
        return entries, decoded, added, changed

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
    files: dict[str, PageFile]  # slug -> the page file written
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
    def of(cls, entries: dict[str, MemoRecord], infos: dict[str, PageInfo]) -> Generation | None:
        """From the records a save keeps (`entries`) and their summaries, by slug."""
        by_kind: dict[str, list[str]] = {kind: [] for kind in KIND_DIRS}
        files: dict[str, PageFile] = {}
        styles: dict[str, tuple[bool, bool]] = {}
        for slug, info in infos.items():
            e = entries.get(slug)
            if e is None or not e.ino or info.kind not in by_kind:  # no stat key: the file was not recorded
                return None
            files[slug], styles[slug] = e.file, e.styles
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
        return cls(pages, files, styles, {slug: f.digest for slug, f in files.items()},
                   {slug: f[:4] for slug, f in files.items()}, expected, {})

    @classmethod
    def after(cls, before: Generation | None, entries: dict[str, MemoRecord], infos: dict[str, PageInfo],
              changed: list[str]) -> Generation | None:
        """`of(entries, infos)`, from the generation the last save described when the pages are the same
        (by slug and class) and only the records of `changed` are new: its listing order stands."""
        if before is None or len(infos) != len(before.pages):
            return cls.of(entries, infos)
        for slug in changed:
            old = before.pages.get(slug)
            if old is None or old.kind != infos[slug].kind or not entries[slug].ino:
                return cls.of(entries, infos)
        pages, files, styles = dict(before.pages), dict(before.files), dict(before.styles)
        digests, identities = dict(before.digests), dict(before.identities)
        expected = {folder: dict(names) for folder, names in before.expected.items()}
        for slug in changed:
            e = entries[slug]
            pages[slug] = infos[slug]
            f = files[slug] = e.file
            styles[slug] = e.styles
            digests[slug], identities[slug] = f.digest, f[:4]
            expected[KIND_DIRS[infos[slug].kind]][f"{slug}.md"] = _expected_of(f)
        before.derived.pop("parent", None)  # one generation back at most
        before.derived.pop("changed", None)
        return cls(pages, files, styles, digests, identities, expected, {"parent": before, "changed": list(changed)})


def _expected_of(f: PageFile) -> tuple:
    """What the listing of a page file must show: (inode, size, mtime_ns, dev, racily clean)."""
    return f.ino, f.size, f.mtime_ns, f.dev, f.racy


def _keep_resident(path: Path, kept: tuple) -> None:
    keep_resident(_RESIDENT, path, kept)


# memo file -> (its stat key when left, records it holds, latest records, summaries, the generation it
# describes): this process's last save
_RESIDENT: dict[Path, tuple] = {}  # (insertion order: the most recent save last)

_tuple_new = tuple.__new__  # PageInfo's own __new__ without its Python frame (a pass decodes hundreds)


def _strings(value: list | None) -> tuple:
    return tuple(value) if value else ()


def _pairs(value: list | None) -> tuple:
    return tuple(map(tuple, value)) if value else ()


def _clock(value: list | None) -> tuple | None:
    if value is not None and len(value) != 3:
        raise ValueError("not a clock")
    return None if value is None else tuple(value)


# how a summary field comes back from its JSON form (a field not named here is a plain value)
_DECODE: dict[str, Callable] = {"aliases": _strings, "sources": lambda v: tuple(map(tuple, v)), "links": _strings,
                                "passing": _strings, "recurring": _strings, "kept": _pairs, "stale": _clock,
                                "own": lambda v: None if v is None else tuple(v), "people": _strings,
                                "decided": _strings, "companies": _strings}


def _info_of(e: MemoRecord, slug: str) -> tuple[PageInfo, tuple[bool, bool]] | None:
    try:
        if e.slug != slug or e.kind not in KIND_DIRS:
            return None
        info = _tuple_new(PageInfo, tuple(slug if name == "slug" else (_DECODE[name](getattr(e, name)) if name in _DECODE
                                                                         else getattr(e, name))
                                          for name in PageInfo._fields))
    except (TypeError, ValueError):
        return None
    return info, e.styles


def _parse_memo(text: str) -> tuple[dict[str, MemoRecord], int]:
    """slug -> its latest record, and the number of records the text holds."""
    lines = text.split("\n")
    if lines[0] != _MEMO_HEADER:
        raise ValueError("not a page memo")
    lines = lines[1:-1]  # the last line has no newline after it: empty, or an append cut short
    entries = json.loads("[" + ",".join(lines) + "]") if lines else []
    if not isinstance(entries, list) or len(entries) != len(lines):  # a line holding more than one value
        raise ValueError("not a page memo")
    by_slug: dict[str, MemoRecord] = {}
    width = len(MemoRecord._fields)
    for e in entries:
        if not isinstance(e, list) or len(e) != width or not isinstance(e[0], str):
            raise ValueError("not a page memo")
        by_slug[e[0]] = _record_new(MemoRecord, e)
    return by_slug, len(entries)


_record_new = tuple.__new__  # MemoRecord's own __new__ without its Python frame (a memo holds hundreds)


def _info_values(info: PageInfo) -> tuple:
    """The summary's fields as a record holds them (tuples are JSON arrays)."""
    return tuple(getattr(info, name) for name in INFO_FIELDS)
