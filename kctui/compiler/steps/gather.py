"""Gather: walk `sources/` (never following links, excluded names skipped as the host skips them),
digest every file, and classify what changed since the previous wiki (added, modified, deleted, renamed).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from kctui.compiler.readers import Skipped
from kctui.compiler.readers.source import SourceFile
from kctui.sources.excludes import is_excluded_name

MAX_FILES = 20_000
MAX_TOTAL_BYTES = 1024 * 1024 * 1024


class SourceLimitExceeded(Exception):
    pass


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
