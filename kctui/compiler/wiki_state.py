"""The previous wiki as compiler state (wiki.md §4: rebuildable from `previousWikiPath` alone).

Every page is summarised as a `PageInfo` (class, title, aliases, sources with digests, outgoing links)
and its bytes are available (to copy it unchanged when nothing touches it). The summaries may come from
a memo keyed by the page's own digest — a pure function of the bytes, so it never changes a result —
and a page file whose stat key the memo recorded (and which was not racily clean then) is not read at
all until the pass needs its bytes (`PageMemo`, `PageBytes`).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kctui.atomic_write import write_atomically
from kctui.compiler.contract import CompileFailure
from kctui.core.frontmatter import FrontmatterError, parse_document
from kctui.core.pages import KIND_DIRS, MENTIONED_ONCE_KEY, RECURRING_KEY, TYPE_KINDS, outgoing_links

MEMO_NAME = "wiki-pages-v5.txt"


@dataclass(frozen=True)
class PageInfo:
    kind: str
    slug: str
    title: str
    description: str
    aliases: tuple[str, ...]
    sources: tuple[tuple[str, str], ...]  # (resource, digest)
    compile_status: str
    links: tuple[str, ...]  # slugs the body links to
    generated_by: str = ""
    passing: tuple[str, ...] = ()  # a source page: the names its source mentions once (frontmatter `mentioned_once`)
    recurring: tuple[str, ...] = ()  # … and those of them another source names too (`mentioned_elsewhere`)


@dataclass
class PreviousWiki:
    pages: dict[str, PageInfo] = field(default_factory=dict)  # slug -> info
    raw: Mapping[str, bytes] = field(default_factory=dict)  # slug -> bytes of the page file (PageBytes: lazy)
    digests: dict[str, str] = field(default_factory=dict)  # slug -> sha256 of the bytes
    identities: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)  # slug -> file_identity
    stamps: dict[str, tuple] = field(default_factory=dict)  # slug -> (*stat_key, racily clean) when read
    styles: dict[str, tuple[bool, bool]] = field(default_factory=dict)  # slug -> link_styles(bytes)
    log_text: str | None = None
    problems: list[str] = field(default_factory=list)

    def source_digests(self) -> dict[str, str]:
        """resource -> digest, from the source pages (what the previous pass compiled)."""
        out: dict[str, str] = {}
        for info in self.pages.values():
            if info.kind == "source":
                for resource, digest in info.sources:
                    out[resource] = digest
        return out

    def source_page_of(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for info in self.pages.values():
            if info.kind == "source":
                for resource, _ in info.sources:
                    out[resource] = info.slug
        return out

    def wrong_style(self, slug: str, style: str) -> bool:
        """A previous page written with the other link style must be re-rendered."""
        wiki, md = self.styles.get(slug) or link_styles(self.raw[slug])
        return wiki if style == "markdown" else md


def _names(value: object) -> tuple[str, ...]:
    return tuple(str(n) for n in value) if isinstance(value, list) else ()


def page_info(text: str, slug: str) -> PageInfo:
    data, body, _ = parse_document(text)
    data = data or {}
    kind = TYPE_KINDS.get(str(data.get("type")))
    if not kind:
        raise ValueError(f"not a compiled page (type {data.get('type')!r})")
    sources = tuple(
        (str(s.get("resource", "")), str(s.get("digest", "")))
        for s in data.get("sources") or []
        if isinstance(s, dict)
    )
    return PageInfo(
        kind=kind,
        slug=slug,
        title=str(data.get("title", slug)),
        description=str(data.get("description", "")),
        aliases=tuple(str(a) for a in data.get("aliases") or []),
        sources=sources,
        compile_status=str(data.get("compile_status", "compiled")),
        links=tuple(sorted(outgoing_links(body))),
        generated_by=str((data.get("generated") or {}).get("by", "")) if isinstance(data.get("generated"), dict) else "",
        passing=_names(data.get(MENTIONED_ONCE_KEY)) if kind == "source" else (),
        recurring=_names(data.get(RECURRING_KEY)) if kind == "source" else (),
    )


class PageMemo:
    """What the last pass knew about the pages it wrote, stored as one text file in the cache folder (a
    header line, the JSON of `files`, then one `<digest> <JSON>` line per page of `infos`):

    - `infos`: the `PageInfo` of a page and whether its bytes hold each link style, by the page's
      digest (a pure function of the bytes, so a hit never changes a result);
    - `files`: by slug, the page file's stat key (dev, inode, size, mtime_ns, ctime_ns), whether the
      entry is *racily clean* and the digest of the bytes the file held. A previous page whose stat
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

    def trusted(self, slug: str, key: tuple[int, int, int, int, int]) -> str | None:
        """The digest recorded for a page file whose stat key is unchanged and not racily clean."""
        entry = self.files.get(slug)
        if not entry or len(entry) != 7 or entry[5] or tuple(entry[:5]) != key:
            return None
        return entry[6] if isinstance(entry[6], str) else None

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


_MEMO_HEADER = "kctui page memo 5"


def _info_of(entry: object, slug: str) -> tuple[PageInfo, tuple[bool, bool]] | None:
    try:
        kind, eslug, title, description, aliases, sources, status, links, by, passing, recurring, wiki, md = entry  # type: ignore[misc]
        if eslug != slug or kind not in KIND_DIRS:
            return None
        info = PageInfo(kind, slug, title, description, tuple(aliases), tuple(map(tuple, sources)), status,
                        tuple(links), by, tuple(passing), tuple(recurring))
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
            info.compile_status, list(info.links), info.generated_by, list(info.passing), list(info.recurring), int(wiki), int(md)]


def link_styles(raw: bytes) -> tuple[bool, bool]:
    """Whether the bytes hold a wikilink (`[[`) and a Markdown site link (`](/`)."""
    return b"[[" in raw, b"](/" in raw


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

    def loaded(self, slug: str, data: bytes) -> None:
        self._data[slug] = data
        self._order[slug] = None

    def deferred(self, slug: str, path: str) -> None:
        self._paths[slug] = path
        self._order[slug] = None

    def __getitem__(self, slug: str) -> bytes:
        data = self._data.get(slug)
        if data is not None:
            return data
        path = self._paths[slug]
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
    prev = PreviousWiki()
    prev.raw = PageBytes(prev.digests, memo)
    if root is None or not root.is_dir():
        return prev
    log = root / "log.md"
    if log.is_file() and not log.is_symlink():
        try:
            prev.log_text = log.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            prev.problems.append(f"log.md could not be read ({exc}); a new log is started")
    listing: list[tuple[str, str, os.DirEntry, str]] = []
    for kind, folder in KIND_DIRS.items():
        directory = root / folder
        if not directory.is_dir():
            continue
        for entry in sorted(os.scandir(directory), key=lambda e: e.name.encode("utf-8", "surrogateescape")):
            if entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
                listing.append((kind, folder, entry, entry.name[:-3]))
    vouched: dict[str, tuple[os.stat_result, str, tuple[PageInfo, tuple[bool, bool]]]] = {}
    if memo is not None:  # pages whose stat key the memo recorded: not read (their summaries decoded at once)
        keyed: list[tuple[str, os.stat_result, str]] = []
        for _, _, entry, slug in listing:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            digest = memo.trusted(slug, stat_key(st))
            if digest is not None:
                keyed.append((slug, st, digest))
        for (slug, st, digest), got in zip(keyed, memo.get_many([(d, s) for s, _, d in keyed])):
            if got is not None:
                vouched[slug] = (st, digest, got)
    for kind, folder, entry, slug in listing:
        if should_stop():
            return prev
        raw = None
        try:
            if slug in vouched:
                st, digest, got = vouched[slug]
                identity: tuple | None = file_identity(st)
                stamp: tuple | None = (*stat_key(st), False)
            else:
                read_at = time.time_ns()
                raw, after = _read_stable(entry.path)
                digest = hashlib.sha256(raw).hexdigest()
                got = memo.get(digest, slug) if memo else None
                if got is None:
                    got = page_info(raw.decode("utf-8"), slug), link_styles(raw)
                identity = file_identity(after) if after is not None else None
                stamp = (*stat_key(after), racily_clean(after.st_mtime_ns, read_at)) if after is not None else None
            info, styles = got
        except (OSError, UnicodeDecodeError, FrontmatterError, ValueError) as exc:
            prev.problems.append(f"{folder}/{entry.name}: previous page not readable ({exc}); dropped")
            continue
        if info.kind != kind or slug in prev.pages:
            prev.problems.append(f"{folder}/{entry.name}: page class does not match its folder; dropped")
            continue
        prev.pages[slug] = info
        if raw is None:
            prev.raw.deferred(slug, entry.path)
        else:
            prev.raw.loaded(slug, raw)
        prev.digests[slug] = digest
        prev.styles[slug] = styles
        if identity is not None:
            prev.identities[slug] = identity
            prev.stamps[slug] = stamp
    return prev


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


def stat_key(st: os.stat_result) -> tuple[int, int, int, int, int]:
    """A page file's stat key in the memo: device, inode, size, mtime and ctime."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def file_identity(st: os.stat_result) -> tuple[int, int, int, int]:
    """What says a file still holds the bytes read from it: same inode, size and modification time."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


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
