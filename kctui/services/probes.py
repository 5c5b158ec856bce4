"""What the file system and /proc say, for garbage collection and `kctui doctor`: sizes of trees, whether
a process lives, which files some process has open, and whether a lock file's flock is held."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


def human_size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{int(size)} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"  # pragma: no cover - the loop always returns


def tree_size(path: Path) -> int:
    """Bytes of every regular file under `path` (links never followed); 0 when it is gone."""
    try:
        st = os.lstat(path)
    except OSError:
        return 0
    if not os.path.isdir(path) or os.path.islink(path):
        return st.st_size
    total = 0
    for dirpath, _dirs, files in os.walk(path, followlinks=False):
        for name in files:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                continue
    return total


def pid_alive(pid: int | None) -> bool:
    if not pid or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie is gone in all but name
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


def open_files() -> set[str]:
    """Every path some process of this user has open (read from /proc; empty where there is none)."""
    found: set[str] = set()
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return found
    for pid in pids:
        fd_dir = f"/proc/{pid}/fd"
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue
        for fd in fds:
            try:
                found.add(os.readlink(f"{fd_dir}/{fd}"))
            except OSError:
                continue
    return found


def lock_holder_text(path: Path) -> tuple[bool, str]:
    """(whether some process holds the flock on `path`, the file's text)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return False, ""
    try:
        text = os.pread(fd, 400, 0).decode("utf-8", "replace").strip()
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True, text
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False, text
    finally:
        os.close(fd)


class OpenFiles:
    """`open_files()`, read once and only when a temporary file old enough to be garbage is found."""

    def __init__(self) -> None:
        self._paths: set[str] | None = None

    def __contains__(self, path: object) -> bool:
        if self._paths is None:
            self._paths = open_files()
        return path in self._paths


__all__ = ["OpenFiles", "human_size", "lock_holder_text", "open_files", "pid_alive", "tree_size"]
