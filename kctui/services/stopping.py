"""Work this process runs that a signal must stop: each run registers its stop event (`stoppable`), and
a signal handler (`kctui mcp`) sets them all (`stop_all`), then waits a bounded time for the runs to
hand their jobs back (`wait_idle`) before the process exits."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

_cond = threading.Condition()
_active: set[threading.Event] = set()
_stopping = threading.Event()


@contextlib.contextmanager
def stoppable(event: threading.Event) -> Iterator[threading.Event]:
    """Register `event` for the run inside; set at once when the process is already stopping."""
    with _cond:
        _active.add(event)
        if _stopping.is_set():
            event.set()
    try:
        yield event
    finally:
        with _cond:
            _active.discard(event)
            _cond.notify_all()


def stop_all() -> None:
    """Ask every registered run to stop (and every run registered from now on)."""
    with _cond:
        _stopping.set()
        for event in _active:
            event.set()


def wait_idle(timeout: float) -> bool:
    """Wait up to `timeout` seconds for every registered run to end; whether they all did."""
    deadline = time.monotonic() + timeout
    with _cond:
        while _active:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            _cond.wait(left)
    return True


__all__ = ["stoppable", "stop_all", "wait_idle"]
