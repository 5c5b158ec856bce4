"""A disk that fills up at the k-th write (issue 33): while active, the k-th call that writes to the
filesystem (a file opened for writing, `os.write`, a hard link, a folder made, a rename, an fsync)
fails with ENOSPC (or EROFS), as a full (or read-only) filesystem would answer it; every later call that
needs new space (a file opened for writing, a write, a link, a folder) fails too, as a full disk stays
full, while a rename or an fsync after the fault — which allocate nothing on the usual filesystems —
goes through (so a promotion can still put the old generation back, as it would on a real full disk). Mounting a small tmpfs is not allowed on every machine that runs
the tests, so the fault is injected at the calls instead. SQLite writes from C and are not counted."""

from __future__ import annotations

import builtins
import errno
import io
import os
from typing import Any

import pytest

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class FullDisk:
    """`with FullDisk(k):` — the k-th write and every one after it fail; `writes` counts
    the writes that were attempted, `fired` says whether the disk filled up."""

    def __init__(self, k: int, *, code: int = errno.ENOSPC) -> None:
        self.mp, self.k, self.code = pytest.MonkeyPatch(), k, code
        self.writes = 0
        self.fired = False
        self.active = False

    def _count(self, path: Any = None, *, allocates: bool = True) -> None:
        if not self.active:
            return
        self.writes += 1
        if self.writes == self.k or (self.writes > self.k and allocates):
            self.fired = True
            raise OSError(self.code, os.strerror(self.code), None if path is None or isinstance(path, int) else str(path))

    def __enter__(self) -> FullDisk:
        real = {name: getattr(os, name) for name in ("open", "write", "link", "mkdir", "rename", "replace", "fsync")}
        real_open = builtins.open

        def os_open(path: Any, flags: int, *args: Any, **kw: Any) -> int:
            if flags & _WRITE_FLAGS:
                self._count(path)
            return real["open"](path, flags, *args, **kw)

        def wrap(name: str) -> Any:
            def call(*args: Any, **kw: Any) -> Any:
                self._count(args[1] if name in ("link", "rename", "replace") and len(args) > 1 else
                            (args[0] if args else None), allocates=name in ("write", "link", "mkdir"))
                return real[name](*args, **kw)
            return call

        def file_open(file: Any, mode: str = "r", *args: Any, **kw: Any) -> Any:
            if any(c in mode for c in "wax+"):
                self._count(file)
            return real_open(file, mode, *args, **kw)

        self.mp.setattr(os, "open", os_open)
        for name in ("write", "link", "mkdir", "rename", "replace", "fsync"):
            self.mp.setattr(os, name, wrap(name))
        self.mp.setattr(builtins, "open", file_open)
        self.mp.setattr(io, "open", file_open)
        self.active = True
        return self

    def __exit__(self, *exc: object) -> None:
        self.active = False
        self.mp.undo()
