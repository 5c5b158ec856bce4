"""The text a citation points at in the current sources, read as the compiler reads it: a line citation
(`^[notes.md:L3-L4]`) is those lines of the file; a page citation (`^[report.pdf:p2]`, evidence unit
"page") is the text of that page as the source reader extracts it (`kctui.compiler.readers`, the same
reader a pass uses, and the compiler's `extraction.cited_lines`: a page citation is its first page).

Never through a symlink: a path that is absolute, climbs with "..", or passes a symlink on the way
under `source_root` reads as nothing (None), as does a file that cannot be read or parsed.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from kctui.compiler.readers import Document, read_source, size_cap
from kctui.core.source_text import source_lines


def inside(source_root: Path, rel: str) -> Path | None:
    """`source_root / rel` when every step of it is a real entry under the root (no symlink on the way,
    no absolute path, no ".."); None otherwise."""
    if not rel or rel.startswith("/") or ".." in rel.split("/"):
        return None
    cur = source_root
    try:
        for part in Path(rel).parts:
            cur = cur / part
            if cur.is_symlink():
                return None
    except OSError:
        return None
    return cur


def file_lines(source_root: Path, rel: str) -> list[str] | None:
    """Every line of the source `rel` as the compiler numbered them; None for a path out of the root or a
    file that cannot be read."""
    target = inside(source_root, rel)
    if target is None:
        return None
    try:
        return source_lines(target)
    except OSError:
        return None


def cited_lines(source_root: Path, rel: str, start: int, end: int) -> list[str] | None:
    """Lines `start`..`end` of the source `rel` as it is now; None for a path out of the root or a file
    that cannot be read."""
    lines = file_lines(source_root, rel)
    return None if lines is None else lines[max(0, start - 1): end]


def cited_pages(source_root: Path, rel: str, start: int) -> list[str] | None:
    """The text of page `start` of the source `rel` as the source reader extracts it (one entry, as the
    compiler's `cited_lines` gives a page citation); None for a path out of the root, a file that cannot
    be read, or one the reader skips."""
    target = inside(source_root, rel)
    if target is None:
        return None
    try:
        st = target.stat()
    except OSError:
        return None
    if st.st_size > size_cap(rel):
        return None
    pages = _pages(str(target), rel, st.st_mtime_ns, st.st_size, st.st_ino)
    if pages is None or start < 1:
        return None
    return list(pages[start - 1: start])


@lru_cache(maxsize=8)  # one result cites one PDF's pages many times: parse it once per revision
def _pages(path: str, rel: str, mtime_ns: int, size: int, inode: int) -> tuple[str, ...] | None:
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    doc = read_source(rel, data, "")
    return tuple(doc.lines) if isinstance(doc, Document) else None


def cited_span(source_root: Path, rel: str, unit: str, start: int, end: int) -> list[str] | None:
    """What a citation of `unit` ("line" or "page") points at; None when it cannot be read (see above)."""
    if unit == "page":
        return cited_pages(source_root, rel, start)
    if unit == "line":
        return cited_lines(source_root, rel, start, end)
    return None


__all__ = ["cited_lines", "cited_pages", "cited_span", "file_lines", "inside"]
