"""SIGINT/SIGTERM/SIGHUP handling shared by `kctui serve` and `kctui worker`: the first signal asks for a
clean stop (the running job is handed back for a retry); with `second_interrupts`, a second one stops
waiting for the job to wind down. SIGHUP (the terminal went away) stops the process like SIGTERM."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def install_stop_signals(stop: threading.Event, *, second_interrupts: bool = False) -> Callable[[], None]:
    """Route SIGINT, SIGTERM and SIGHUP to `stop`; returns a function restoring the previous handlers."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}

    def handler(signum: int, frame: object) -> None:
        if second_interrupts and stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    for sig in previous:
        signal.signal(sig, handler)

    def restore() -> None:
        for sig, old in previous.items():
            signal.signal(sig, old)

    return restore
