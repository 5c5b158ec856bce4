"""A pool worker ends when the process that started the pool is gone (QA session 30 #7).

A worker's parent is the forkserver, not the pass's process, and it holds the write ends of the pool's
queue and of the forkserver's "alive" pipe: after a kill -9 of the pass's process nothing it waits on
ever closes, so the workers, the forkserver and the resource tracker lived on for good. Each worker
watches the pass's process instead — a pidfd (Linux 5.3+: no pid reuse can fool it) or, else, a poll
of the pid — and exits when it is gone; the forkserver then reads EOF on its pipe and exits, and the
resource tracker follows once its last holder is gone."""

from __future__ import annotations

import os
import select
import threading

POLL = 0.5  # seconds between looks at the pid, where no pidfd can be had


def gone(pid: int) -> bool:
    """Whether process `pid` no longer exists (a zombie counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except (OSError, IndexError):
        return False


def _wait_for_exit(pid: int) -> None:
    pidfd = None
    if hasattr(os, "pidfd_open"):
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:
            pidfd = None
    if pidfd is not None:
        try:
            poller = select.poll()
            poller.register(pidfd, select.POLLIN)
            while not poller.poll():  # readable once the process has exited
                pass
        finally:
            os.close(pidfd)
        return
    while not gone(pid):
        threading.Event().wait(POLL)


def _watch(pid: int) -> None:
    try:
        _wait_for_exit(pid)
    except OSError:
        return  # cannot watch: the pass's own stop (SIGTERM) still ends this worker
    os._exit(1)  # the pass is gone: nothing will read this worker's result


def watch_parent(pid: int) -> None:
    """In a pool worker: exit as soon as process `pid` (the pass's) is gone, checked from a daemon thread."""
    if pid <= 1 or pid == os.getpid():
        return
    if gone(pid):
        os._exit(1)
    threading.Thread(target=_watch, args=(pid,), name="kctui-parent-watch", daemon=True).start()
