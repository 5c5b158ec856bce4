"""The app stops within 2 s of SIGTERM, SIGHUP (its terminal went away) or SIGINT, whatever it is doing:
starting up, compiling, promoting, or stuck writing to a terminal that is gone.

The handlers are plain `signal.signal` handlers, installed before Textual starts: they run in the main
thread even while it is blocked (a write to a dead terminal waits on a full queue forever, and an
asyncio signal callback would never run then). The first signal starts a thread that asks the app to
exit, stops the embedded host (the running job is handed back for a retry; a promotion is finished by
its journal or rolled back at the next start) and, if the process is still here at the deadline, ends it
with `os._exit`. A second signal ends it at once."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
import time
from typing import Any

log = logging.getLogger(__name__)

EXIT_WITHIN_S = 1.5  # the process is gone by then (the acceptance: within 2 s)
HOST_STOP_S = 1.0    # of which the host gets this long to hand its job back
STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, n))


class StopOnSignals:
    """Installed on the main thread for one app run; `loop` is set once the app's event loop runs."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.loop: asyncio.AbstractEventLoop | None = None
        self.signalled_at: float | None = None
        self._previous: dict[int, Any] = {}

    def install(self) -> StopOnSignals:
        if threading.current_thread() is threading.main_thread():
            for sig in STOP_SIGNALS:
                self._previous[sig] = signal.signal(sig, self._handler)
        return self

    def restore(self) -> None:
        for sig, old in self._previous.items():
            try:
                signal.signal(sig, old)
            except (TypeError, ValueError):
                pass
        self._previous.clear()

    def _handler(self, signum: int, frame: object) -> None:
        if self.signalled_at is not None:
            os._exit(128 + signum)  # a second signal: now
        self.signalled_at = time.monotonic()
        self.app.hung_up = True
        threading.Thread(target=self._stop, args=(signum,), name="kctui-stop-on-signal", daemon=True).start()

    def _stop(self, signum: int) -> None:
        assert self.signalled_at is not None
        deadline = self.signalled_at + EXIT_WITHIN_S
        log.info("signal %d: stopping the app (the host hands its job back)", signum)
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self.app.exit)
            except RuntimeError:  # the loop closed meanwhile: the app is on its way out
                pass
        try:
            self.app.shutdown(quick=True)
        except Exception:  # noqa: BLE001 - the exit below happens anyway
            log.exception("stopping the app after signal %d failed", signum)
        log.info("signal %d: the host stopped %.2f s after the signal", signum, time.monotonic() - self.signalled_at)
        left = deadline - time.monotonic()
        if left > 0:
            time.sleep(left)  # an app that exits on its own ends this daemon thread with it
        log.warning("the app did not exit within %.1f s of signal %d (its terminal is gone?); exiting now",
                    EXIT_WITHIN_S, signum)
        logging.shutdown()
        os._exit(0)
