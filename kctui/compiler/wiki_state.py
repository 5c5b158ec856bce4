"""The previous wiki as compiler state (wiki.md §4: rebuildable from `previousWikiPath` alone).

Every page is read as bytes (to copy it unchanged when nothing touches it) and summarised as a
`PageInfo` (class, title, aliases, sources with digests, outgoing links). The summaries may come from
a memo keyed by the page's own digest — a pure function of the bytes, so it never changes a result.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from kctui.atomic_write import write_atomically
from kctui.core.frontmatter import FrontmatterError, parse_document
from kctui.core.pages import KIND_DIRS, TYPE_KINDS, outgoing_links

MEMO_NAME = "wiki-pages-v2.json"


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


@dataclass
class PreviousWiki:
    pages: dict[str, PageInfo] = field(default_factory=dict)  # slug -> info
    raw: dict[str, bytes] = field(default_factory=dict)  # slug -> bytes of the page file
    digests: dict[str, str] = field(default_factory=dict)  # slug -> sha256 of the bytes
    identities: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)  # slug -> file_identity
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
    )


class PageMemo:
    """PageInfo by page digest, stored as one JSON file in the cache folder."""

    def __init__(self, folder: Path | None) -> None:
        self.path = folder / MEMO_NAME if folder else None
        self.entries: dict[str, dict] = {}
        if self.path and self.path.is_file():
            try:
                loaded = json.loads(self.path.read_text(encoding="utf-8"))
                if isinstance(loaded, dict):
                    self.entries = loaded
            except (OSError, ValueError):
                self.entries = {}

    def get(self, digest: str, slug: str) -> PageInfo | None:
        entry = self.entries.get(digest)
        if not entry or entry.get("slug") != slug:
            return None
        try:
            return PageInfo(**{**entry, "aliases": tuple(entry["aliases"]), "links": tuple(entry["links"]),
                               "sources": tuple(tuple(s) for s in entry["sources"])})
        except (KeyError, TypeError):
            return None

    def save(self, infos: dict[str, PageInfo], digests: dict[str, str]) -> None:
        if not self.path:
            return
        data: dict[str, dict] = {}
        for slug, info in infos.items():
            digest = digests.get(slug)
            if digest:
                data[digest] = self.entries.get(digest) or _info_dict(info)
        if data.keys() == self.entries.keys():
            return
        try:
            write_atomically(self.path, json.dumps(data, sort_keys=True), durable=False)
        except OSError:
            pass


def _info_dict(info: PageInfo) -> dict:
    return {"kind": info.kind, "slug": info.slug, "title": info.title, "description": info.description,
            "aliases": list(info.aliases), "sources": [list(s) for s in info.sources],
            "compile_status": info.compile_status, "links": list(info.links), "generated_by": info.generated_by}


def load_previous(root: Path | None, memo: PageMemo | None, should_stop) -> PreviousWiki:  # noqa: ANN001
    prev = PreviousWiki()
    if root is None or not root.is_dir():
        return prev
    log = root / "log.md"
    if log.is_file() and not log.is_symlink():
        try:
            prev.log_text = log.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            prev.problems.append(f"log.md could not be read ({exc}); a new log is started")
    for kind, folder in KIND_DIRS.items():
        directory = root / folder
        if not directory.is_dir():
            continue
        for entry in sorted(os.scandir(directory), key=lambda e: e.name.encode("utf-8", "surrogateescape")):
            if should_stop():
                return prev
            if not entry.name.endswith(".md") or not entry.is_file(follow_symlinks=False):
                continue
            slug = entry.name[:-3]
            try:
                raw, identity = _read_stable(entry.path)
                digest = hashlib.sha256(raw).hexdigest()
                info = memo.get(digest, slug) if memo else None
                if info is None:
                    info = page_info(raw.decode("utf-8"), slug)
            except (OSError, UnicodeDecodeError, FrontmatterError, ValueError) as exc:
                prev.problems.append(f"{folder}/{entry.name}: previous page not readable ({exc}); dropped")
                continue
            if info.kind != kind or slug in prev.pages:
                prev.problems.append(f"{folder}/{entry.name}: page class does not match its folder; dropped")
                continue
            prev.pages[slug] = info
            prev.raw[slug] = raw
            prev.digests[slug] = digest
            if identity is not None:
                prev.identities[slug] = identity
    return prev


def file_identity(st: os.stat_result) -> tuple[int, int, int, int]:
    """What says a file still holds the bytes read from it: same inode, size and modification time."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _read_stable(path: str) -> tuple[bytes, tuple[int, int, int, int] | None]:
    """The file's bytes, and its identity when it did not change while being read."""
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
    return data, file_identity(after) if same else None
