"""Durable filesystem steps both kinds of promotion use: `renameat2` through ctypes (an atomic
exchange, a rename that never replaces), fsync of files, folders and whole trees (links never
followed), a file written and fsynced in place, and the inode that identifies a generation."""

from __future__ import annotations

import ctypes
import errno
import os
import stat
from pathlib import Path
from typing import Any

AT_FDCWD = -100
RENAME_NOREPLACE = 1
RENAME_EXCHANGE = 2
EXCHANGE_UNSUPPORTED = {errno.EINVAL, errno.ENOSYS, errno.EXDEV, errno.ENOTSUP, errno.EOPNOTSUPP}


def _load_renameat2() -> Any:
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError, TypeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


_renameat2 = _load_renameat2()


def exchange_available() -> bool:
    """True when libc offers `renameat2` (whether the filesystem honours the flag shows at call time)."""
    return _renameat2 is not None


def rename2(src: Path, dst: Path, flags: int) -> None:
    if _renameat2 is None:
        raise OSError(errno.ENOSYS, "renameat2 is not available", str(src))
    if _renameat2(AT_FDCWD, os.fsencode(src), AT_FDCWD, os.fsencode(dst), flags) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), str(src), None, str(dst))


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _raise(exc: OSError) -> None:
    raise exc


def fsync_tree(root: Path) -> None:
    """fsync every regular file and folder under `root` (links never followed), then its parent."""
    for dirpath, _dirnames, filenames in os.walk(root, topdown=False, onerror=_raise, followlinks=False):
        for name in filenames:
            path = os.path.join(dirpath, name)
            if not stat.S_ISREG(os.lstat(path).st_mode):
                continue
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        fsync_dir(Path(dirpath))
    fsync_dir(Path(root).parent)


def write_file(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Write `data` to `path` (created or truncated, never through a symlink), fsynced unless
    `sync=False`. Only for a temporary or staged file that is renamed into place afterwards."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)


def identity(path: Path) -> int | None:
    """The inode at `path` (None when nothing is there). Inodes, unlike device numbers, survive a
    reboot, and preflight checked that every path involved is on the one filesystem."""
    try:
        return os.lstat(path).st_ino
    except FileNotFoundError:
        return None
