"""A persistent stat cache: reuse a source file's hash while its stat has not changed (host.md §2).

The key is (size, mtime_ns, ctime_ns, inode). As in git, a *racily clean* entry is never trusted: when
a file's mtime is not older than the moment its stat was recorded (minus a margin for coarse
filesystem clocks: the kernel stamps files from a clock that lags the wall clock by a tick, and FAT or
some network filesystems keep 1–2 s granularity), a later write within the same timestamp tick could
leave the stat unchanged, so the file is hashed again on the next scan. Per entry we keep the verdict,
computed when the entry was recorded, which is stricter than git's single index write time.

The cache is one JSON file, written atomically (temp file, fsync, rename, fsync of the folder). A
cache file that cannot be read or parsed is discarded — the next scan hashes everything — and never
stops anything. In memory it also keeps what makes an unchanged rescan cheap and is never saved: the
scanner's folder listings and the last complete listing with its digest.

One cache belongs to one base's `sources/`, and one scan uses it at a time (it is not locked).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kctui.atomic_write import write_atomically

FORMAT_NAME = "kctui-statcache"
FORMAT_VERSION = 1
DEFAULT_RACY_MARGIN_NS = 2_000_000_000  # 2 s: coarse kernel clock ticks, FAT's 2 s mtime granularity


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One source file of a snapshot: its relative POSIX path, size, `sha256:<hex>` digest and mtime."""

    path: str
    size: int
    digest: str
    mtime_ns: int


StatKey = tuple[int, int, int, int]  # (size, mtime_ns, ctime_ns, inode)


def stat_key(st: os.stat_result) -> StatKey:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


class StatCache:
    """path -> (stat key, file entry), with the racily-clean paths; optionally bound to a file.

    The maps are kept side by side so that the scanner can check a whole unchanged listing with a
    few C-level operations (`lookup_all`) instead of one Python call per file.
    """

    def __init__(self, path: Path | None = None, *, racy_margin_ns: int = DEFAULT_RACY_MARGIN_NS) -> None:
        self.path = Path(path) if path is not None else None
        self.racy_margin_ns = racy_margin_ns
        self._keys: dict[str, StatKey] = {}
        self._entries: dict[str, FileEntry] = {}
        self._racy: set[str] = set()  # mtime not older than when the hash was recorded: hash again
        self._generation = 0  # bumped by every change, to know when a remembered snapshot is still valid
        self._listing: tuple[int, list[str], list[StatKey], dict[str, FileEntry], str] | None = None
        self.dirty = False
        self.discarded_reason: str | None = None  # why a cache file on disk was not used, if it was not
        # The scanner's folder listings (kctui.sources.walk.FolderListing by folder path); in memory only.
        self.folders: dict[bytes, Any] = {}

    # -- lookups and updates (called by the scanner) -------------------------------------------------

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, relpath: object) -> bool:
        return relpath in self._keys

    def is_racy(self, relpath: str) -> bool:
        return relpath in self._racy

    def lookup(self, relpath: str, key: StatKey) -> FileEntry | None:
        """The cached entry when the stat is unchanged and the entry is not racily clean, else None."""
        if relpath in self._racy or self._keys.get(relpath) != key:
            return None
        return self._entries[relpath]

    def lookup_all(self, relpaths: list[str], keys: list[StatKey]) -> tuple[list[FileEntry | None], bool]:
        """`lookup` for a whole listing; the flag is True when every file was a hit."""
        if list(map(self._keys.get, relpaths)) == keys and (not self._racy or self._racy.isdisjoint(relpaths)):
            return list(map(self._entries.__getitem__, relpaths)), True
        return [self.lookup(p, k) for p, k in zip(relpaths, keys)], False

    def record(self, relpath: str, key: StatKey, entry: FileEntry, *, recorded_ns: int) -> None:
        """Remember a hash computed from content read after `recorded_ns` (a wall-clock time_ns())."""
        self._keys[relpath] = key
        self._entries[relpath] = entry
        if key[1] + self.racy_margin_ns >= recorded_ns:
            self._racy.add(relpath)
        else:
            self._racy.discard(relpath)
        self._changed()

    def forget(self, relpath: str) -> None:
        if self._keys.pop(relpath, None) is not None:
            del self._entries[relpath]
            self._racy.discard(relpath)
            self._changed()

    def retain(self, relpaths: Iterable[str]) -> None:
        """Drop every entry whose path is not in `relpaths` (files that are gone)."""
        if isinstance(relpaths, (dict, set, frozenset)) and len(relpaths) == len(self._keys):
            if all(map(relpaths.__contains__, self._keys)):
                return
        keep = relpaths if isinstance(relpaths, (dict, set, frozenset)) else set(relpaths)
        for p in [p for p in self._keys if p not in keep]:
            self.forget(p)

    def clear(self) -> None:
        if self._keys:
            self._keys.clear()
            self._entries.clear()
            self._racy.clear()
            self._changed()

    def _changed(self) -> None:
        self.dirty = True
        self._generation += 1
        self._listing = None

    # -- the last complete listing, reused while nothing in it changed ------------------------------
    #
    # A scan that finds the same paths in the same walk order with the same stat keys, while no
    # entry is racily clean and the cache has not changed since, has the same files and digest as
    # the scan that recorded them: two list comparisons instead of a lookup per file.

    def remember_listing(
        self, walk_paths: list[str], walk_keys: list[StatKey], files: dict[str, FileEntry], digest: str
    ) -> None:
        self._listing = (self._generation, walk_paths, walk_keys, files, digest)

    def recall_listing(
        self, walk_paths: list[str], walk_keys: list[StatKey]
    ) -> tuple[dict[str, FileEntry], str] | None:
        memo = self._listing
        if memo is None or self._racy or memo[0] != self._generation:
            return None
        if memo[1] != walk_paths or memo[2] != walk_keys:
            return None
        return memo[3], memo[4]

    # -- persistence ---------------------------------------------------------------------------------

    @classmethod
    def load(cls, path: Path, *, racy_margin_ns: int = DEFAULT_RACY_MARGIN_NS) -> StatCache:
        """Read a cache file; a missing one gives an empty cache, a corrupt one is discarded."""
        cache = cls(path, racy_margin_ns=racy_margin_ns)
        try:
            raw = Path(path).read_bytes()
        except FileNotFoundError:
            return cache
        except OSError as exc:
            cache.discarded_reason = f"stat cache {path} could not be read: {exc}"
            return cache
        try:
            cache._keys, cache._entries, cache._racy = _decode(raw)
        except (ValueError, TypeError, KeyError, IndexError, UnicodeDecodeError) as exc:
            cache._keys, cache._entries, cache._racy = {}, {}, set()
            cache.discarded_reason = f"stat cache {path} was corrupt and is discarded: {exc}"
            cache.dirty = True  # overwrite the corrupt file on the next save
        return cache

    def save(self, path: Path | None = None, *, force: bool = False) -> bool:
        """Write the cache atomically when it changed since it was loaded or saved; True if written."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("this stat cache has no file: pass a path")
        if not (self.dirty or force) and target == self.path:
            return False
        write_atomically(target, self._encode())
        if target == self.path:
            self.dirty = False
        return True

    def _encode(self) -> bytes:
        paths = list(self._keys)
        keys = list(self._keys.values())
        doc = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "paths": paths,
            "sizes": [k[0] for k in keys],
            "mtimes": [k[1] for k in keys],
            "ctimes": [k[2] for k in keys],
            "inodes": [k[3] for k in keys],
            "digests": [self._entries[p].digest for p in paths],
            "racy": sorted(self._racy),
        }
        return json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _decode(raw: bytes) -> tuple[dict[str, StatKey], dict[str, FileEntry], set[str]]:
    doc = json.loads(raw)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT_NAME:
        raise ValueError("not a kctui stat cache")
    if doc.get("version") != FORMAT_VERSION:
        raise ValueError(f"unsupported version {doc.get('version')!r}")
    paths, digests, racy = doc["paths"], doc["digests"], doc["racy"]
    columns = [doc["sizes"], doc["mtimes"], doc["ctimes"], doc["inodes"]]
    _check_columns(paths, digests, racy, columns)
    keys = dict(zip(paths, zip(*columns))) if paths else {}
    entries = dict(zip(paths, map(FileEntry, paths, columns[0], digests, columns[1])))
    racy_set = set(racy)
    if not racy_set <= keys.keys():
        raise ValueError("racy paths that are not in the cache")
    return keys, entries, racy_set


def _check_columns(paths: Any, digests: Any, racy: Any, columns: list[Any]) -> None:
    """Lists of one length: unique paths, sha256 digests, integer stat fields (else TypeError or ValueError)."""
    for col in (paths, digests, racy, *columns):
        if not isinstance(col, list):
            raise TypeError("a column is not a list")
    if any(len(col) != len(paths) for col in (digests, *columns)):
        raise ValueError("columns of different lengths")
    if not all(type(p) is str for p in paths) or len(set(paths)) != len(paths):
        raise ValueError("bad paths")
    if not all(type(d) is str and d.startswith("sha256:") and len(d) == 71 for d in digests):
        raise ValueError("bad digests")
    if not all(type(n) is int for col in columns for n in col):
        raise TypeError("a stat field is not an integer")
