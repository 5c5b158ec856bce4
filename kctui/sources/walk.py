"""Reading a `sources/` tree: the walk (one lstat per file, no symlink ever followed) and the hash
of one file (streamed, re-read when it changes while read). Used by kctui.sources.scan.

A rescan is dominated by one lstat per file, so the walk works a folder at a time with C-level
map/compress calls; a folder with anything unusual in it (a non-ASCII or excluded name, a symlink,
a special file, an error) goes through the careful per-entry path instead.
"""

from __future__ import annotations

import codecs
import errno
import hashlib
import os
import stat as stat_mod
import sys
import threading
from functools import partial
from itertools import compress
from operator import attrgetter, itemgetter, methodcaller, not_
from pathlib import Path
from typing import NamedTuple

from kctui.sources.excludes import (
    EDITOR_PREFIXES,
    EDITOR_PROBE_NAMES,
    EDITOR_SUFFIXES,
    REFERENCE_EXCLUDED_NAMES,
    REFERENCE_EXCLUDED_PREFIXES,
    REFERENCE_EXCLUDED_SUFFIXES,
    is_excluded_name,
)
from kctui.sources.statcache import StatKey

HASH_BUFFER = 1 << 20  # bytes read per call when hashing (the spec asks for >= 64 KiB)
READ_ATTEMPTS = 3  # a file that changes while it is read is read again, this many times in all
_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


# -- hashing one file --------------------------------------------------------------------------------


class FileHash(NamedTuple):
    outcome: str  # ok | changed | vanished | symlink | special_file | unreadable
    key: StatKey | None = None
    digest: str | None = None
    detail: str | None = None


_tls = threading.local()


def _buffer() -> tuple[bytearray, memoryview]:
    buf = getattr(_tls, "buf", None)
    if buf is None:
        b = bytearray(HASH_BUFFER)
        buf = _tls.buf = (b, memoryview(b))
    return buf


def _read_once(path: bytes) -> FileHash:
    try:
        fd = os.open(path, _OPEN_FLAGS)  # O_NOFOLLOW: a symlink swapped in after the walk is refused
    except FileNotFoundError:
        return FileHash("vanished")
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return FileHash("symlink")
        return FileHash("unreadable", detail=exc.strerror or str(exc))
    try:
        before = os.fstat(fd)
        if not stat_mod.S_ISREG(before.st_mode):  # a FIFO or device swapped in: never read it
            return FileHash("special_file")
        size = before.st_size
        buf, view = _buffer()
        h = hashlib.sha256()
        n = 0
        while n < size:  # a file that grows or shrinks meanwhile is caught by the sizes below
            k = os.readv(fd, [buf])
            if not k:
                break
            h.update(view[:k])
            n += k
        after = os.fstat(fd)
    except OSError as exc:
        return FileHash("unreadable", detail=exc.strerror or str(exc))
    finally:
        os.close(fd)
    key = (size, before.st_mtime_ns, before.st_ctime_ns, before.st_ino)
    digest = "sha256:" + h.hexdigest()
    if n != size or key != (after.st_size, after.st_mtime_ns, after.st_ctime_ns, after.st_ino):
        return FileHash("changed", key, digest)
    return FileHash("ok", key, digest)


def hash_file(path: bytes | str | Path) -> FileHash:
    """Hash one regular file without following a symlink; re-read a file that changes while read."""
    p = os.fsencode(path)
    result = _read_once(p)
    for _ in range(READ_ATTEMPTS - 1):
        if result.outcome != "changed":
            break
        result = _read_once(p)
    return result


# -- the walk ----------------------------------------------------------------------------------------

_NAME = attrgetter("name")
_MODE = attrgetter("st_mode")
_KEY = attrgetter("st_size", "st_mtime_ns", "st_ctime_ns", "st_ino")
_IS_DIR = methodcaller("is_dir", follow_symlinks=False)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_EXACT_EXCLUDED = REFERENCE_EXCLUDED_NAMES | EDITOR_PROBE_NAMES
_PREFIX_PROBES = tuple("\n" + p for p in REFERENCE_EXCLUDED_PREFIXES + EDITOR_PREFIXES)
_SUFFIX_PROBES = tuple(s + "\n" for s in REFERENCE_EXCLUDED_SUFFIXES + EDITOR_SUFFIXES)
_FS_ENCODING_IS_UTF8 = codecs.lookup(sys.getfilesystemencoding()).name == "utf-8"


def _may_need_care(names: list[str]) -> bool:
    """False when no name can be excluded or be other than UTF-8 (a few searches over the folder).

    Names are joined with newlines; a name holding a newline can only make this answer True
    (and send the folder down the careful path), never hide an excluded name.
    """
    joined = "\n" + "\n".join(names) + "\n"
    if not joined.isascii():
        if not _FS_ENCODING_IS_UTF8:
            return True
        try:
            joined.encode("utf-8")  # a name that is not UTF-8 on disk holds surrogate escapes
        except UnicodeEncodeError:
            return True
    if not _EXACT_EXCLUDED.isdisjoint(names):
        return True
    if any(p in joined for p in _PREFIX_PROBES):
        return True
    lowered = joined.lower()
    return any(s in lowered for s in _SUFFIX_PROBES)


class FolderListing(NamedTuple):
    """What a plain folder (UTF-8, non-excluded names; regular files and folders only) held.

    Reused while the folder's (mtime_ns, ctime_ns, inode) are unchanged, as git's untracked cache
    does: adding, removing or renaming an entry, or replacing a file by a symlink, changes the
    folder's mtime and ctime. Its files are still lstat'ed one by one on every scan.
    """

    key: tuple[int, int, int]
    names: list[str]  # file names, as given to lstat
    relpaths: list[str]  # the same files as paths relative to sources/
    subdirs: list[tuple[bytes, str]]  # (absolute path, relative prefix) of the sub-folders


class TreeWalk:
    """Every regular file below a root, with its stat key; what was skipped and why.

    `folders` (path -> FolderListing) comes from the previous walk; `new_folders` is for the next.
    """

    def __init__(
        self,
        max_files: int,
        max_bytes: int,
        *,
        folders: dict[bytes, FolderListing] | None = None,
        racy_before_ns: int | None = None,
    ) -> None:
        self.max_files = max_files
        self.max_bytes = max_bytes
        self.relpaths: list[str] = []
        self.keys: list[StatKey] = []
        self.skipped: list[tuple[str, str]] = []
        self.vanished: list[str] = []
        self.total_bytes = 0
        self.limit_error: str | None = None
        self.new_folders: dict[bytes, FolderListing] = {}
        self._folders = folders
        self._racy_before_ns = racy_before_ns  # a folder modified after this is listed again next time
        self._stack: list[tuple[bytes, str]] = []

    def run(self, root: bytes) -> None:
        """Walk `root`; raises OSError only when `root` itself cannot be opened or listed."""
        self._stack.append((root, ""))
        while self._stack and self.limit_error is None:
            dir_path, prefix = self._stack.pop()
            try:
                fd = os.open(dir_path, _DIR_FLAGS)
            except OSError as exc:
                if not prefix:
                    raise
                self._skip_dir(prefix, exc)
                continue
            try:
                st = os.fstat(fd)
                key = (st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
                if not self._folder_from_listing(fd, dir_path, key):
                    with os.scandir(fd) as it:
                        entries = list(it)
                    self._folder(fd, dir_path, prefix, entries, key)
            except OSError as exc:
                if not prefix:
                    raise
                self._skip_dir(prefix, exc)
            finally:
                os.close(fd)

    def _skip_dir(self, prefix: str, exc: OSError) -> None:
        if isinstance(exc, FileNotFoundError):
            self.vanished.append(prefix[:-1])
        else:
            self.skipped.append((prefix[:-1], "symlink" if exc.errno == errno.ELOOP else "unreadable"))

    def _folder_from_listing(self, fd: int, dir_path: bytes, key: tuple[int, int, int]) -> bool:
        listing = self._folders.get(dir_path) if self._folders is not None else None
        if listing is None or listing.key != key:
            return False
        try:
            stats = list(map(partial(os.lstat, dir_fd=fd), listing.names))
        except OSError:
            return False  # list it afresh
        keys = list(map(_KEY, stats))
        self.relpaths.extend(listing.relpaths)
        self.keys.extend(keys)
        self._stack.extend(listing.subdirs)
        self.new_folders[dir_path] = listing
        self.total_bytes += sum(map(itemgetter(0), keys))
        self._check_limits()
        return True

    def _folder(
        self, fd: int, dir_path: bytes, prefix: str, entries: list[os.DirEntry[str]], key: tuple[int, int, int]
    ) -> None:
        names = list(map(_NAME, entries))
        if _may_need_care(names):
            self._folder_with_care(fd, dir_path, prefix, entries)
            return
        is_dir = list(map(_IS_DIR, entries))
        files = names
        subdirs: list[tuple[bytes, str]] = []
        if any(is_dir):
            files = list(compress(names, map(not_, is_dir)))
            base = dir_path.rstrip(b"/") + b"/"
            subdirs = [(base + n.encode("utf-8"), prefix + n + "/") for n in compress(names, is_dir)]
            self._stack.extend(subdirs)
        try:
            stats = list(map(partial(os.lstat, dir_fd=fd), files))
        except OSError:
            self._folder_with_care(fd, dir_path, prefix, [e for e, d in zip(entries, is_dir) if not d])
            return
        if not all(map(stat_mod.S_ISREG, map(_MODE, stats))):
            self._folder_with_care(fd, dir_path, prefix, [e for e, d in zip(entries, is_dir) if not d])
            return
        keys = list(map(_KEY, stats))
        relpaths = list(map(prefix.__add__, files)) if prefix else files
        self.relpaths.extend(relpaths)
        self.keys.extend(keys)
        self.total_bytes += sum(map(itemgetter(0), keys))
        if self._racy_before_ns is not None and key[0] < self._racy_before_ns:
            self.new_folders[dir_path] = FolderListing(key, files, relpaths, subdirs)
        self._check_limits()

    def _folder_with_care(self, fd: int, dir_path: bytes, prefix: str, entries: list[os.DirEntry[str]]) -> None:
        for entry in entries:
            name = entry.name
            raw = os.fsencode(name)  # the bytes on disk, whatever the filesystem encoding
            try:
                utf8_name = raw.decode("utf-8")
            except UnicodeDecodeError:
                self.skipped.append((prefix + raw.decode("utf-8", "backslashreplace"), "non_utf8_name"))
                continue
            if is_excluded_name(utf8_name):
                continue
            rel = prefix + utf8_name
            try:
                st = os.stat(raw, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                self.vanished.append(rel)
                continue
            except OSError:
                self.skipped.append((rel, "unreadable"))
                continue
            mode = st.st_mode
            if stat_mod.S_ISLNK(mode):
                self.skipped.append((rel, "symlink"))
            elif stat_mod.S_ISDIR(mode):
                self._stack.append((dir_path.rstrip(b"/") + b"/" + raw, rel + "/"))
            elif not stat_mod.S_ISREG(mode):
                self.skipped.append((rel, "special_file"))
            else:
                self.relpaths.append(rel)
                self.keys.append(_KEY(st))
                self.total_bytes += st.st_size
        self._check_limits()

    def _check_limits(self) -> None:
        if len(self.relpaths) > self.max_files:
            self.limit_error = (
                f"sources/ holds more than {self.max_files:,} files, the limit of a knowledge base;"
                " nothing is compiled until files are removed or the limit is raised"
            )
        elif self.total_bytes > self.max_bytes:
            self.limit_error = (
                f"sources/ holds more than {_human_bytes(self.max_bytes)}, the limit"
                " of a knowledge base; nothing is compiled until files are removed or the limit is raised"
            )


def _human_bytes(n: int) -> str:
    """`1 GiB (1,073,741,824 bytes)` for a whole number of units, else `2,047 bytes`."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit} ({n:,} bytes)"
    return f"{n:,} bytes"
