"""Raw evidence for context packets: excerpts of a knowledge base's `sources/` for the query terms no
compiled page covers, labelled as evidence. Bounded in files, bytes read and excerpts; no symlink is
ever followed or read; deterministic order."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kctui.search.query import Group, fold, group_in, quick_needles, tokens

# Bounds of the raw-evidence fallback.
MAX_SOURCE_FILES = 5000
MAX_SOURCE_BYTES = 512 * 1024  # read at most this much of one file
MAX_SCAN_BYTES = 64 * 1024 * 1024  # and of all files together
MAX_EXCERPTS = 24
MAX_EXCERPTS_PER_FILE = 3
CONTEXT_LINES = 1
MAX_LINE_CHARS = 400


@dataclass
class _Excerpt:
    path: str
    start: int
    end: int
    lines: list[str]
    covers: list[int]


def _source_files(root: Path) -> list[tuple[str, str]]:
    """(relative path, absolute path) of regular files under sources/, no symlink followed or read."""
    try:
        st = os.lstat(root)
    except OSError:
        return []
    if not stat.S_ISDIR(st.st_mode):
        return []
    real_root = os.path.realpath(root)
    out: list[tuple[str, str]] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                             and not os.path.islink(os.path.join(dirpath, d)))
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            if name.startswith(".") or os.path.islink(full):
                continue
            if not os.path.realpath(full).startswith(real_root + os.sep):
                continue
            out.append((os.path.relpath(full, root).replace(os.sep, "/"), full))
            if len(out) >= MAX_SOURCE_FILES:
                return out
    return out


def _read_bounded(full: str) -> str | None:
    try:
        fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return None
        data = fh.read(MAX_SOURCE_BYTES)
    if b"\0" in data[:8192]:
        return None  # binary
    return data.decode("utf-8", errors="replace")


def find_evidence(sources: Path, groups: list[Group], group_ids: list[int]) -> list[dict[str, Any]]:
    """Excerpts of raw sources for the query terms no compiled page covers (`group_ids` index
    `groups`). Bounded in files, bytes read and excerpts; deterministic order."""
    if not group_ids:
        return []
    needles = {gi: quick_needles(groups[gi]) for gi in group_ids}
    found: list[_Excerpt] = []
    scanned = 0
    for rel, full in _source_files(sources):
        if scanned >= MAX_SCAN_BYTES:
            break
        text = _read_bounded(full)
        if text is None:
            continue
        scanned += len(text)
        lines = text.splitlines()
        hits: dict[int, list[int]] = {}
        for n, line in enumerate(lines):
            folded = fold(line)
            cand = [gi for gi in group_ids if any(nd in folded for nd in needles[gi])]
            if not cand:
                continue
            toks = tokens(line)
            matched = [gi for gi in cand if group_in(groups[gi], toks)]
            if matched:
                hits[n] = matched
        per_file: list[_Excerpt] = []
        for n in sorted(hits):
            lo, hi = max(0, n - CONTEXT_LINES), min(len(lines) - 1, n + CONTEXT_LINES)
            if per_file and lo <= per_file[-1].end:  # overlapping windows merge (1-based end)
                last = per_file[-1]
                last.lines += lines[last.end:hi + 1]
                last.end = hi + 1
                last.covers = sorted(set(last.covers) | set(hits[n]))
                continue
            per_file.append(_Excerpt(rel, lo + 1, hi + 1, lines[lo:hi + 1], list(hits[n])))
        per_file.sort(key=lambda e: (-len(e.covers), e.start))
        found += per_file[:MAX_EXCERPTS_PER_FILE]
    found.sort(key=lambda e: (-len(e.covers), e.path, e.start))
    items = []
    for e in found[:MAX_EXCERPTS]:
        while len(e.lines) > 1 and not e.lines[0].strip():  # no blank edges
            e.lines.pop(0)
            e.start += 1
        while len(e.lines) > 1 and not e.lines[-1].strip():
            e.lines.pop()
        text = "\n".join(ln if len(ln) <= MAX_LINE_CHARS else ln[:MAX_LINE_CHARS] + "…" for ln in e.lines[:12])
        items.append({"kind": "evidence", "label": "raw source excerpt (evidence, not compiled knowledge)",
                      "source": e.path, "lines": [e.start, e.start + min(len(e.lines), 12) - 1],
                      "citation": f"^[{e.path}:L{e.start}-L{e.start + min(len(e.lines), 12) - 1}]",
                      "covers": [groups[gi].label for gi in e.covers], "text": text})
    return items
