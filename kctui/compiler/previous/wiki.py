"""The previous wiki as compiler state (wiki.md §4: rebuildable from `previousWikiPath` alone).

Every page is summarised as a `PageInfo` (class, title, aliases, sources with digests, outgoing links)
and its bytes are available (to copy it unchanged when nothing touches it). The summaries may come from
a memo keyed by the page's own digest — a pure function of the bytes, so it never changes a result —
and a page file whose stat key the memo recorded (and which was not racily clean then) is not read at
all until the pass needs its bytes (`PageMemo` in kctui.compiler.previous.page_memo, `PageBytes`).
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISREG
from typing import TypeVar

from kctui.compiler.contract import CompileFailure
from kctui.compiler.previous.page_info import PageInfo, link_styles, page_info
from kctui.compiler.previous.page_memo import MEMO_NAME, Generation, MemoRecord, PageMemo  # noqa: F401 - MEMO_NAME re-exported for the tests
from kctui.compiler.previous.tables import WikiTables
from kctui.core.frontmatter import FrontmatterError
from kctui.core.pages import KIND_DIRS

T = TypeVar("T")


@dataclass
class PreviousWiki:
    pages: dict[str, PageInfo] = field(default_factory=dict)  # slug -> info
    raw: Mapping[str, bytes] = field(default_factory=dict)  # slug -> bytes of the page file (PageBytes: lazy)
    digests: dict[str, str] = field(default_factory=dict)  # slug -> sha256 of the bytes
    identities: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)  # slug -> stat_key when read
    racy: dict[str, bool] = field(default_factory=dict)  # slug -> whether that stat key was racily clean
    styles: dict[str, tuple[bool, bool]] = field(default_factory=dict)  # slug -> link_styles(bytes)
    log_text: str | None = None
    problems: list[str] = field(default_factory=list)
    generation: Generation | None = None  # the generation this process wrote, when the files are it
    _tables: WikiTables | None = field(default=None, repr=False, compare=False)

    def carried(self, name: str, make: Callable[[dict[str, PageInfo], dict | None], T],
                patch: Callable[[T, Generation, Generation, list[str]], bool]) -> T:
        """`make(pages, styles)` for these pages: when they are the generation this process wrote, the
        value kept with it, carried forward from the last one (`Generation.carried`); else made here
        (`styles` None: not every page's link styles are known)."""
        generation = self.generation
        if generation is None:
            return make(self.pages, None)
        return generation.carried(name, lambda: make(generation.pages, generation.styles), patch)

    @property
    def tables(self) -> WikiTables:
        """The pages' lookups by source (kctui.compiler.previous.tables), made once."""
        if self._tables is None:
            self._tables = self.carried("tables", WikiTables, WikiTables.patch)
        return self._tables

    def source_digests(self) -> dict[str, str]:
        """resource -> digest, from the source pages (what the previous pass compiled)."""
        return dict(self.tables.digest_of)

    def source_page_of(self) -> dict[str, str]:
        """resource -> the slug of its source page."""
        return dict(self.tables.page_of)

    def archived_pages(self) -> list[str]:
        """The archived source pages, in listing order."""
        archived = self.tables.archived
        return [slug for slug in self.pages if slug in archived] if archived else []

    def restyle(self, style: str) -> set[str]:
        """The pages written in the other link style than `style`: re-rendered."""
        found = self.tables.restyle(style)
        return found if found is not None else {slug for slug in self.pages if self.wrong_style(slug, style)}

    def wrong_style(self, slug: str, style: str) -> bool:
        """A previous page written with the other link style must be re-rendered."""
        wiki, md = self.styles.get(slug) or link_styles(self.raw[slug])
        return wiki if style == "markdown" else md


class PreviousWikiChanged(CompileFailure):
    def __init__(self, message: str) -> None:
        super().__init__("previous_wiki_changed", message, transient=True)


class PageBytes(Mapping):
    """slug -> bytes of the previous page file, read on first use for pages the memo vouched for (then
    checked against the recorded digest: a mismatch fails the pass, transiently, and drops the memo)."""

    def __init__(self, digests: dict[str, str], memo: PageMemo | None) -> None:
        self._data: dict[str, bytes] = {}
        self._paths: dict[str, str] = {}
        self._order: dict[str, None] = {}
        self._digests = digests
        self._memo = memo
        self._root, self._kinds = "", None  # a generation found as written (`written`): its pages' paths

    def loaded(self, slug: str, data: bytes) -> None:
        self._data[slug] = data
        self._order[slug] = None

    def deferred(self, slug: str, path: str) -> None:
        self._paths[slug] = path
        self._order[slug] = None

    def written(self, root: Path, pages: dict[str, PageInfo]) -> None:
        """Every page of a generation found as written: each file is read on first use, as `deferred`."""
        self._order.update(dict.fromkeys(pages))
        self._root, self._kinds = str(root), pages

    def _path(self, slug: str) -> str:
        path = self._paths.get(slug)
        if path is None and self._kinds is not None and slug in self._kinds:  # the scandir path of the page
            path = os.path.join(os.path.join(self._root, KIND_DIRS[self._kinds[slug].kind]), f"{slug}.md")
        if path is None:
            raise KeyError(slug)
        return path

    def __getitem__(self, slug: str) -> bytes:
        data = self._data.get(slug)
        if data is not None:
            return data
        path = self._path(slug)
        try:
            data, _ = _read_stable(path)
        except OSError as exc:
            raise PreviousWikiChanged(f"previous page {path} could not be read again ({exc})") from None
        if hashlib.sha256(data).hexdigest() != self._digests.get(slug):
            if self._memo is not None:
                self._memo.forget()
            raise PreviousWikiChanged(f"previous page {path} changed under the compiler; the pass is retried")
        self._data[slug] = data
        return data

    def __iter__(self):  # noqa: ANN204
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, slug: object) -> bool:
        return slug in self._order


def load_previous(root: Path | None, memo: PageMemo | None, should_stop) -> PreviousWiki:  # noqa: ANN001
    """The previous wiki at `root` as compiler state: the generation this process wrote when the folders
    still hold it (`_as_written`), else page by page, a page whose stat key the memo recorded not read."""
    prev = PreviousWiki()
    prev.raw = PageBytes(prev.digests, memo)
    if root is None or not root.is_dir():
        return prev
    _read_log(root, prev)
    generation = memo.generation if memo is not None else None
    if generation is not None and _as_written(root, generation, prev):
        return prev
    records, summaries = memo.records() if memo is not None else ({}, {})
    for n, (kind, folder, entry, slug) in enumerate(_listing(root)):
        if n % 64 == 0 and should_stop():
            return prev
        record = records.get(slug)
        key = _vouched_key(entry, record) if record is not None else None
        if key is not None:  # a page whose stat key the memo recorded is not read
            info = summaries.get(slug)
            if info is not None and info.kind == kind and slug not in prev.pages:  # the common case, kept short
                _take_recorded(prev, slug, entry.path, info, record, key)
                continue
        _add_page(prev, memo, kind, folder, entry, slug, key)
    return prev


def _read_log(root: Path, prev: PreviousWiki) -> None:
    log = root / "log.md"
    if log.is_file() and not log.is_symlink():
        try:
            prev.log_text = log.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            prev.problems.append(f"log.md could not be read ({exc}); a new log is started")


def _listing(root: Path) -> list[tuple[str, str, os.DirEntry, str]]:
    """(class, folder, entry, slug) of every page file, folder by folder, in bytewise name order."""
    listing: list[tuple[str, str, os.DirEntry, str]] = []
    for kind, folder in KIND_DIRS.items():
        try:
            entries = [e for e in os.scandir(root / folder) if e.name.endswith(".md")]
        except (FileNotFoundError, NotADirectoryError):
            continue
        # bytewise order: a str's code point order is its UTF-8 order, but not for an undecodable name
        entries.sort(key=(lambda e: e.name) if all(e.name.isascii() for e in entries)
                     else (lambda e: e.name.encode("utf-8", "surrogateescape")))
        listing += [(kind, folder, e, e.name[:-3]) for e in entries if e.is_file(follow_symlinks=False)]
    return listing


def _vouched_key(entry: os.DirEntry, record: MemoRecord) -> tuple[int, int, int, int] | None:
    """The file's stat key when it is the one the memo's record holds and the record was not racily
    clean (PageMemo.vouched, inlined: hundreds of pages per pass), else None (the file is read)."""
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError:
        return None
    if (not record.racy and record.ino == st.st_ino and record.mtime_ns == st.st_mtime_ns
            and record.size == st.st_size and record.dev == st.st_dev):
        return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)  # stat_key
    return None


def _take_recorded(prev: PreviousWiki, slug: str, path: str, info: PageInfo, record: MemoRecord,
                   key: tuple[int, int, int, int]) -> None:
    """A page the memo vouches for, with the summary it decoded before: nothing read."""
    prev.pages[slug] = info
    prev.raw._paths[slug] = path  # PageBytes.deferred
    prev.raw._order[slug] = None
    prev.digests[slug] = record.digest
    prev.styles[slug] = record.styles
    prev.identities[slug] = key
    prev.racy[slug] = False


def _add_page(prev: PreviousWiki, memo: PageMemo | None, kind: str, folder: str, entry: os.DirEntry, slug: str,
              key: tuple[int, int, int, int] | None) -> None:
    """One page: its summary from the memo's record when `key` is vouched for (or the bytes read hash to
    a recorded digest), else parsed from its bytes; a page that cannot be read, or sits in the wrong
    folder, is dropped with a problem noted."""
    hit = memo.vouched(slug, key) if key is not None and memo is not None else None
    raw = None
    try:
        if hit is not None:
            digest, got = hit[0], hit[1:]
            identity: tuple | None = key
            was_racy = False
        else:
            read_at = time.time_ns()
            raw, after = _read_stable(entry.path)
            digest = hashlib.sha256(raw).hexdigest()
            got = memo.get(digest, slug) if memo else None
            if got is None:
                got = page_info(raw.decode("utf-8"), slug), link_styles(raw)
            identity = stat_key(after) if after is not None else None
            was_racy = after is not None and racily_clean(after.st_mtime_ns, read_at)
        info, style = got
    except (OSError, UnicodeDecodeError, FrontmatterError, ValueError) as exc:
        prev.problems.append(f"{folder}/{entry.name}: previous page not readable ({exc}); dropped")
        return
    if info.kind != kind or slug in prev.pages:
        prev.problems.append(f"{folder}/{entry.name}: page class does not match its folder; dropped")
        return
    prev.pages[slug] = info
    if raw is None:
        prev.raw.deferred(slug, entry.path)
    else:
        prev.raw.loaded(slug, raw)
    prev.digests[slug] = digest
    prev.styles[slug] = style
    if identity is not None:
        prev.identities[slug] = identity
        prev.racy[slug] = was_racy


def _as_written(root: Path, generation: Generation, prev: PreviousWiki) -> bool:
    """The previous wiki is the generation this process wrote (the page memo's, kept in memory) when its
    class folders list exactly that generation's page files, each a regular file with the stat key
    written (device, inode, size, mtime) and, where that key was racily clean, the bytes written (read
    and hashed, as any racily clean page is): then `prev` takes its summaries, digests and stat keys
    whole, reading no other page, and True. Otherwise nothing is filled and False: the pages are
    checked one by one."""
    racy: list[tuple[str, str]] = []  # (slug, path) of the pages whose stat key cannot vouch for them
    for folder, expected in generation.expected.items():
        if not _folder_as_written(root / folder, expected, racy):
            return False
    files = generation.files
    reread: list[tuple[str, bytes, tuple[int, int, int, int], bool]] = []
    for slug, path in racy:
        try:
            read_at = time.time_ns()
            raw, after = _read_stable(path)
        except OSError:
            return False
        if after is None or hashlib.sha256(raw).hexdigest() != files[slug].digest:
            return False
        reread.append((slug, raw, stat_key(after), racily_clean(after.st_mtime_ns, read_at)))
    prev.pages.update(generation.pages)
    prev.digests.update(generation.digests)
    prev.identities.update(generation.identities)
    prev.racy.update(dict.fromkeys(files, False))
    prev.styles.update(generation.styles)
    prev.raw.written(root, generation.pages)
    prev.generation = generation
    for slug, raw, identity, was_racy in reread:
        prev.raw.loaded(slug, raw)
        prev.identities[slug], prev.racy[slug] = identity, was_racy
    return True


def _folder_as_written(folder: Path, expected: dict[str, tuple], racy: list[tuple[str, str]]) -> bool:
    """The class folder lists exactly the page files `expected` names, each a regular file with the
    stat key written; the racily clean ones are added to `racy` (to be read and hashed)."""
    try:
        entries = os.scandir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return not expected
    with entries:
        seen = 0
        for entry in entries:
            name = entry.name
            if not name.endswith(".md"):
                continue
            want = expected.get(name)
            if want is None or not _is_written_file(entry, want):
                return False
            if want[4]:
                racy.append((name[:-3], entry.path))
            seen += 1
    return seen == len(expected)


def _is_written_file(entry: os.DirEntry, want: tuple) -> bool:
    """The entry is a regular file with the stat key (inode, size, mtime_ns, dev) written."""
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError:
        return False
    return (st.st_ino == want[0] and st.st_mtime_ns == want[2] and st.st_size == want[1] and st.st_dev == want[3]
            and S_ISREG(st.st_mode))


COARSE_RACY_NS = 2_000_000_000  # a filesystem keeping whole seconds (FAT's 2 s, ext3, HFS+)
FINE_RACY_NS = 100_000_000  # sub-second timestamps: the kernel's coarse clock tick (≤ 10 ms), with room


def racily_clean(mtime_ns: int, recorded_ns: int) -> bool:
    """Whether a file whose stat was recorded at `recorded_ns` (wall clock) could still be written
    within the same timestamp tick, leaving its stat unchanged: its mtime is not older than that moment
    minus the filesystem's granularity. An mtime without a sub-second part says the filesystem keeps
    whole seconds (or it is a 1-in-10⁹ coincidence, which only costs a re-read): 2 s, as for sources
    (kctui/sources/statcache.py); otherwise 100 ms covers the kernel's clock tick. (The residual case:
    a network filesystem whose clock runs over 100 ms behind this host's, and a foreign write to a
    page of the previous wiki inside the tick of the compiler's own write, with the same size.)"""
    margin = COARSE_RACY_NS if mtime_ns % 1_000_000_000 == 0 else FINE_RACY_NS
    return mtime_ns + margin >= recorded_ns


def file_identity(st: os.stat_result) -> tuple[int, int, int, int]:
    """A page file's stat key in the memo: device, inode, size and mtime — the file identity the carry
    of an unchanged page relies on. Not the ctime: every promotion changes it (deleting the old
    generation drops the link count of each page carried into the new one by a hard link), so a key
    with it vouched for no page after a promotion and every pass read the whole wiki again. What is
    given up: an edit in place that keeps the size and then sets the mtime back (`touch -d`), which no
    editor does; a page the pass needs is still checked against its digest (`PageBytes`). The same
    key says a file still holds the bytes read from it (`_read_stable`, the carry of a page)."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


stat_key = file_identity  # the name the memo's records use


def _read_stable(path: str) -> tuple[bytes, os.stat_result | None]:
    """The file's bytes, and its stat when it did not change while being read."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        before = os.fstat(fd)
        chunks = []
        while chunk := os.read(fd, max(before.st_size, 65536) + 1):
            chunks.append(chunk)
        after = os.fstat(fd)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    same = file_identity(before) == file_identity(after) and after.st_size == len(data)
    return data, after if same else None
