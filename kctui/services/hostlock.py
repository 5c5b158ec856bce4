"""One host process per state directory, enforced with an advisory lock file (host.md §1, ours)."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from kctui import paths


class HostLockHeld(Exception):
    """Another process is the host for this state directory."""


class HostLock:
    def __init__(self, path: Path | None = None, role: str = "host") -> None:
        self.path = Path(path) if path else paths.host_lock_file()
        self.role = role
        self._fd: int | None = None

    def acquire(self) -> HostLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = self._read_holder(fd)
            os.close(fd)
            raise HostLockHeld(
                f"another kctui host ({holder}) already runs for the state directory {self.path.parent}"
            ) from None
        self._fd = fd
        self._write(f"pid={os.getpid()} role={self.role}\n")
        return self

    def note_url(self, url: str) -> None:
        """Where the holder answers (its API), for `kctui doctor` to ask whether it still does."""
        if self._fd is not None:
            self._write(f"pid={os.getpid()} url={url} role={self.role}\n")

    def _write(self, text: str) -> None:
        assert self._fd is not None
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, text.encode(), 0)
        os.fsync(self._fd)

    def try_acquire(self) -> bool:
        try:
            self.acquire()
        except HostLockHeld:
            return False
        return True

    @staticmethod
    def _read_holder(fd: int) -> str:
        try:
            text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
        except OSError:
            text = ""
        return text.replace("role=", "") or "unknown process"

    def release(self) -> None:
        if self._fd is not None:
            try:
                try:  # a released lock names nobody (a stale pid could be reused by another process)
                    os.ftruncate(self._fd, 0)
                except OSError:
                    pass
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            finally:
                os.close(self._fd)
                self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def __enter__(self) -> HostLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()
