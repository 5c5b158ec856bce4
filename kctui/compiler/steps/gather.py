"""Gather: walk `sources/` (never following links, excluded names skipped as the host skips them),
digest every file, and classify what changed since the previous wiki (added, modified, deleted, renamed).
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from kctui.compiler.readers import Skipped, size_cap
from kctui.sources.excludes import is_excluded_name

MAX_FILES = 20_000
MAX_TOTAL_BYTES = 1024 * 1024 * 1024
_CHUNK = 1024 * 1024


class SourceLimitExceeded(Exception):
    pass


@dataclass
class SourceFile:
    path: str  # relative POSIX path
    abs_path: Path | str  # the listing's own path string (a Path per file costs more than the scan)
    size: int
    digest: str = ""
    data: bytes | None = None  # kept when small enough to extract without a second read
    stamp: tuple[int, int, int, int] = (0, 0, 0, 0)  # (size, mtime_ns, ctime_ns, inode) when listed


@dataclass
class SourceChanges:
    added: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)  # (old path, new path), content equal
    unchanged: list[str] = field(default_factory=list)


def scan_sources(root: Path, should_stop) -> tuple[list[SourceFile], list[Skipped]]:  # noqa: ANN001
    """All regular files under `root` in byte order of their relative paths, plus what was skipped."""
    files: list[SourceFile] = []
    skipped: list[Skipped] = []
    total = 0
    stack: list[tuple[str, str]] = [(str(root), "")]
    while stack:
        if should_stop():
            return files, skipped
        directory, prefix = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError as exc:
            skipped.append(Skipped(prefix.rstrip("/") or ".", "unreadable", f"folder cannot be listed ({exc.strerror})"))
            continue
        for entry in entries:
            name = entry.name
            if is_excluded_name(name):
                continue
            try:
                name.encode("utf-8")
            except UnicodeEncodeError:
                shown = os.fsencode(prefix + name).decode("utf-8", "backslashreplace")
                skipped.append(Skipped(shown, "bad_name", "the file name is not valid UTF-8 and cannot be cited"))
                continue
            rel = prefix + name
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError as exc:
                skipped.append(Skipped(rel, "unreadable", exc.strerror or "cannot stat"))
                continue
            if stat.S_ISLNK(st.st_mode):
                skipped.append(Skipped(rel, "symlink", "symlinks are never followed"))
            elif stat.S_ISDIR(st.st_mode):
                stack.append((entry.path, rel + "/"))
            elif stat.S_ISREG(st.st_mode):
                files.append(SourceFile(rel, entry.path, st.st_size,
                                        stamp=(st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)))
                total += st.st_size
                if len(files) > MAX_FILES:
                    raise SourceLimitExceeded(f"more than {MAX_FILES} source files")
                if total > MAX_TOTAL_BYTES:
                    raise SourceLimitExceeded(f"sources larger than {MAX_TOTAL_BYTES} bytes")
            else:
                skipped.append(Skipped(rel, "unreadable", "not a regular file"))
    files.sort(key=lambda f: f.path.encode("utf-8"))
    skipped.sort(key=lambda s: s.path.encode("utf-8", "surrogateescape"))
    return files, skipped


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


def classify(current: dict[str, str], previous: dict[str, str]) -> SourceChanges:
    """Change classes between the previous wiki's sources and the current files (path -> digest)."""
    changes = SourceChanges()
    for path in sorted(current, key=lambda p: p.encode("utf-8")):
        if path not in previous:
            changes.added.append(path)
        elif previous[path] != current[path]:
            changes.modified.append(path)
        else:
            changes.unchanged.append(path)
    changes.deleted = sorted((p for p in previous if p not in current), key=lambda p: p.encode("utf-8"))
    deleted_by_digest: dict[str, list[str]] = {}
    for path in changes.deleted:
        deleted_by_digest.setdefault(previous[path], []).append(path)
    for path in changes.added:
        olds = deleted_by_digest.get(current[path])
        if olds:
            changes.renamed.append((olds.pop(0), path))
    return changes
