"""One source file of a pass (`SourceFile`: its path, stat stamp, digest and, when small, its bytes) and
reading it for extraction — the built-in rules and the model alike: the size cap, the digest check of a
file whose digest came from the stat memo, the format's reader."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from kctui.compiler.readers import Document, Skipped, read_source, size_cap, too_large_detail

_CHUNK = 1024 * 1024


@dataclass
class SourceFile:
    path: str  # relative POSIX path
    abs_path: Path | str  # the listing's own path string (a Path per file costs more than the scan)
    size: int
    digest: str = ""
    data: bytes | None = None  # kept when small enough to extract without a second read
    stamp: tuple[int, int, int, int] = (0, 0, 0, 0)  # (size, mtime_ns, ctime_ns, inode) when listed



def digest_file(source: SourceFile, keep_limit: int | None = None) -> None:
    """Fill `digest` (sha256, streamed) and keep the bytes when the file is under its size cap."""
    keep_limit = size_cap(source.path) if keep_limit is None else keep_limit
    h = hashlib.sha256()
    if source.size <= keep_limit:
        with open(source.abs_path, "rb") as fh:
            data = fh.read()
        h.update(data)
        source.data = data
        source.size = len(data)
    else:
        size = 0
        with open(source.abs_path, "rb") as fh:
            while chunk := fh.read(_CHUNK):
                h.update(chunk)
                size += len(chunk)
        source.size = size
    source.digest = "sha256:" + h.hexdigest()


def read_for_extraction(source: SourceFile) -> bytes | None:
    """The bytes of a file whose digest came from the memo; None when they no longer match it."""
    with open(source.abs_path, "rb") as fh:
        data = fh.read()
    if "sha256:" + hashlib.sha256(data).hexdigest() != source.digest:
        return None
    return data




def read_document(source: SourceFile) -> Document | Skipped:
    """One source as the built-in extract step reads it (size cap, memo-digest check, reader)."""
    cap = size_cap(source.path)
    if source.size > cap:
        return Skipped(source.path, "too_large", too_large_detail(source.size, cap, source.path))
    data = source.data
    if data is None:
        try:
            data = read_for_extraction(source)
        except OSError as exc:
            return Skipped(source.path, "unreadable", exc.strerror or str(exc))
        if data is None:
            return Skipped(source.path, "unreadable", "the file changed while the pass read it; the next pass takes it")
    try:
        doc = read_source(source.path, data, source.digest)
    except (MemoryError, RecursionError) as exc:
        return Skipped(source.path, "unreadable", f"the reader gave up ({type(exc).__name__})")
    except (ValueError, UnicodeError, LookupError, OSError) as exc:
        return Skipped(source.path, "unreadable", f"the reader failed ({type(exc).__name__}: {str(exc)[:120]})")
    source.data = None
    return doc
