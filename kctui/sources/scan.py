"""The scanner and the snapshot digest of a knowledge base's `sources/` (host.md §2).

`scan_sources` walks `sources/` without ever following a symlink, skips excluded names, hashes each
regular file (or reuses the stat cache), and computes the snapshot digest that identifies a
generation — byte-for-byte the reference host's for any tree without editor leftovers:

    sha256( b"a3s-knowledge-source-snapshot-v1\\0"
            + for each file in byte order of its UTF-8 relative path:
              u64le(len(path)) path  u64le(len(digest)) digest  u64le(8) u64le(size) )

Nothing here decides anything: the scan reports what it saw (unstable files, skipped names, a missing
root, a limit passed) and the scheduler decides (kctui.core.schedule).
"""

from __future__ import annotations

import hashlib
import os
import stat as stat_mod
import struct
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path

from kctui.sources.excludes import is_excluded_name, is_excluded_relpath
from kctui.sources.statcache import FileEntry, StatCache
from kctui.sources.walk import TreeWalk, hash_file

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_FILES",
    "FileEntry",
    "ScanResult",
    "SNAPSHOT_TAG",
    "hash_file",
    "is_excluded_name",
    "is_excluded_relpath",
    "scan_sources",
    "snapshot_digest",
]

SNAPSHOT_TAG = b"a3s-knowledge-source-snapshot-v1\0"
DEFAULT_MAX_FILES = 20_000
DEFAULT_MAX_BYTES = 1 << 30

_u64 = struct.Struct("<Q").pack
_SIZE_FIELD_LEN = _u64(8)


# -- the digest --------------------------------------------------------------------------------------


def _record(path: str, digest: str, size: int) -> bytes:
    """The three length-prefixed fields one file contributes to the snapshot digest."""
    p = path.encode("utf-8")
    d = digest.encode("ascii")
    return b"".join((_u64(len(p)), p, _u64(len(d)), d, _SIZE_FIELD_LEN, _u64(size)))


def snapshot_digest(entries: Iterable[tuple[str, str, int]]) -> str:
    """`sha256:<hex>` of (path, file digest, size) triples; they are put in path byte order first.

    Python orders `str` by code point, which is the byte order of their UTF-8 encoding.
    """
    h = hashlib.sha256(SNAPSHOT_TAG)
    h.update(b"".join(_record(p, d, s) for p, d, s in sorted(entries, key=lambda e: e[0])))
    return "sha256:" + h.hexdigest()


# -- results -----------------------------------------------------------------------------------------


@dataclass
class ScanResult:
    """What one scan of `sources/` saw. Check `root_ok` and `limit_error` before using `digest`."""

    root_ok: bool
    root_error: str | None
    files: dict[str, FileEntry]  # path -> entry, inserted in byte order of the paths
    digest: str | None  # None when the root is missing/unreadable or a limit was passed
    total_bytes: int
    unstable_paths: list[str]  # recent mtime, changed while read, or vanished during the scan
    # (display path, reason), reason one of: symlink | non_utf8_name | unreadable | special_file;
    # a folder that is skipped is reported once, with what it holds
    skipped: list[tuple[str, str]]
    limit_error: str | None
    file_count: int = 0  # files counted (when a limit was passed: the count at which the walk stopped)
    hashed_count: int = 0  # files whose bytes were read in this scan (the others came from the cache)
    scanned_at_us: int = 0  # the `now` used for the stability window
    changed_while_read: list[str] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        """The digest describes the whole tree: root readable and within the limits."""
        return self.root_ok and self.limit_error is None

    @property
    def stable(self) -> bool:
        return self.usable and not self.unstable_paths

    def file_states(self) -> dict[str, tuple[str, int]]:
        """{path: (digest, size)}: the form in which an accepted snapshot is kept."""
        return {p: (e.digest, e.size) for p, e in self.files.items()}


def _failed(error: str, now_us: int) -> ScanResult:
    return ScanResult(False, error, {}, None, 0, [], [], None, scanned_at_us=now_us)


# -- the scan ----------------------------------------------------------------------------------------


def _root_problem(root: Path, root_b: bytes) -> str | None:
    try:
        st = os.stat(root_b)
    except FileNotFoundError:
        return f"the sources folder {root} is missing"
    except OSError as exc:
        return f"the sources folder {root} cannot be read: {exc.strerror or exc}"
    if not stat_mod.S_ISDIR(st.st_mode):
        return f"the sources path {root} is not a folder"
    return None


def scan_sources(
    root: Path,
    *,
    cache: StatCache | None = None,
    now_us: int | None = None,
    stability_window_s: float = 5.0,
    max_files: int = DEFAULT_MAX_FILES,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> ScanResult:
    """Scan `root` (a base's `sources/`), reusing `cache` where stats are unchanged and updating it.

    `now_us` is the time the stability window is measured from (the scheduler's clock); it defaults
    to the wall clock. `stability_window_s=0` lists nothing as unstable (a person's explicit rescan).
    """
    started_ns = time.time_ns()
    if now_us is None:
        now_us = started_ns // 1000
    root = Path(root)
    root_b = os.fsencode(root)
    problem = _root_problem(root, root_b)
    if problem:
        return _failed(problem, now_us)
    walk = _tree_walk(cache, started_ns, max_files, max_bytes)
    try:
        walk.run(root_b)
    except OSError as exc:
        return _failed(_root_problem(root, root_b) or f"the sources folder {root} cannot be read: {exc}", now_us)
    if walk.limit_error:
        return ScanResult(True, None, {}, None, walk.total_bytes, [], sorted(walk.skipped), walk.limit_error,
                          file_count=len(walk.relpaths), scanned_at_us=now_us)

    if _root_problem(root, root_b):  # unmounted while we walked it: never "everything deleted"
        return _failed(_root_problem(root, root_b) or f"the sources folder {root} vanished", now_us)
    memo = cache.recall_listing(walk.relpaths, walk.keys) if cache is not None else None
    if memo is not None:
        files, digest = dict(memo[0]), memo[1]
        changed: list[str] = []
        skipped = walk.skipped
        unstable = set(walk.vanished)
        hashed = 0
    else:
        files, digest, skipped, unstable, changed, hashed = _hash_listing(root_b, walk, cache, started_ns)
    unstable.update(_recently_modified(files, now_us, stability_window_s))

    late = _root_problem(root, root_b)
    if late:
        return _failed(late, now_us)
    if cache is not None:
        cache.folders = walk.new_folders
        if memo is None:
            _keep_in_cache(cache, walk, files, digest, changed)
    return ScanResult(
        root_ok=True,
        root_error=None,
        files=files,
        digest=digest,
        total_bytes=sum(map(_SIZE, files.values())),
        unstable_paths=sorted(unstable),
        skipped=sorted(skipped),
        limit_error=None,
        file_count=len(files),
        hashed_count=hashed,
        scanned_at_us=now_us,
        changed_while_read=changed,
    )


def _tree_walk(cache: StatCache | None, started_ns: int, max_files: int, max_bytes: int) -> TreeWalk:
    return TreeWalk(
        max_files,
        max_bytes,
        folders=cache.folders if cache is not None else None,
        racy_before_ns=started_ns - cache.racy_margin_ns if cache is not None else None,
    )


def _recently_modified(files: dict[str, FileEntry], now_us: int, stability_window_s: float) -> list[str]:
    """Unstable: |now - mtime| < window, in whole microseconds (the scheduler's unit)."""
    window_us = int(round(stability_window_s * 1_000_000))
    if window_us <= 0 or not files:
        return []
    lo, hi = (now_us - window_us + 1) * 1000, (now_us + window_us) * 1000
    mtimes = list(map(_MTIME, files.values()))
    if max(mtimes) < lo:
        return []
    return [p for p, m in zip(files, mtimes) if lo <= m < hi]


def _keep_in_cache(cache: StatCache, walk: TreeWalk, files: dict[str, FileEntry], digest: str,
                   changed: list[str]) -> None:
    """After a listing hashed here (not recalled from the cache): forget files that are gone, and keep
    the listing itself when it is whole and nothing changed while it was read."""
    cache.retain(files)
    if len(files) == len(walk.relpaths) and not changed:
        cache.remember_listing(walk.relpaths, walk.keys, dict(files), digest)


def _hash_listing(
    root_b: bytes, walk: TreeWalk, cache: StatCache | None, started_ns: int
) -> tuple[dict[str, FileEntry], str, list[tuple[str, str]], set[str], list[str], int]:
    """Order the walk's files, take unchanged ones from the cache, hash the rest, digest the lot.

    Hashes computed here are recorded in the cache; the caller prunes it once the root is known
    to be still there."""
    order = sorted(range(len(walk.relpaths)), key=walk.relpaths.__getitem__)  # code point = UTF-8 byte order
    relpaths = list(map(walk.relpaths.__getitem__, order))
    keys = list(map(walk.keys.__getitem__, order))
    if cache is not None:
        found, _ = cache.lookup_all(relpaths, keys)
    else:
        found = [None] * len(relpaths)
    skipped = list(walk.skipped)
    unstable: set[str] = set(walk.vanished)
    changed: list[str] = []
    misses = [i for i, e in enumerate(found) if e is None]
    for i in misses:
        rel = relpaths[i]
        result = hash_file(root_b + b"/" + rel.encode("utf-8"))
        if result.outcome in ("ok", "changed"):
            assert result.key is not None and result.digest is not None
            entry = found[i] = FileEntry(rel, result.key[0], result.digest, result.key[1])
            if result.outcome == "ok":
                if cache is not None:
                    cache.record(rel, result.key, entry, recorded_ns=started_ns)
            else:  # kept changing while read: listed and unstable, never cached
                changed.append(rel)
                unstable.add(rel)
                if cache is not None:
                    cache.forget(rel)
        elif result.outcome == "vanished":
            unstable.add(rel)
        else:
            skipped.append((rel, result.outcome))
    entries = [e for e in found if e is not None]
    files = dict(zip(map(_PATH, entries), entries))
    h = hashlib.sha256(SNAPSHOT_TAG)
    h.update(b"".join([_record(e.path, e.digest, e.size) for e in entries]))
    digest = "sha256:" + h.hexdigest()
    return files, digest, skipped, unstable, changed, len(misses)


_PATH = attrgetter("path")
_SIZE = attrgetter("size")
_MTIME = attrgetter("mtime_ns")
