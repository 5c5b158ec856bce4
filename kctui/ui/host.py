"""The host embedded in the app: `kctui.services.host_runtime.HostRuntime` (recovery, the built-in
worker, lease checks, the source scheduler and the API server) started in a background thread so the UI
never waits for it, and stopped on quit or hang-up with the running job handed back. When another
process holds the host lock the app is a client of the store and says so."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

RuntimeFactory = Callable[[bool], Any]  # api enabled -> an object with start() / stop() (HostRuntime)


WORKER_POLL_MAX = 0.5  # an idle worker asks for work at least this often, so `c` starts within half a second
WORKER_JOIN_TIMEOUT = 10.0  # on quit or hang-up, time for the running job to stop and be reported


def default_runtime(api: bool = True, server_factory: Callable[[str, int], Any] | None = None) -> Any:
    """HostRuntime with the scheduler/watcher, a built-in worker that records progress and, when `api`
    and the settings enable it, the loopback API server `server_factory(host, port)` makes (the cli hands
    in kctui.api.serve.ApiServer; the UI itself never imports the API)."""
    from kctui.config import load_settings
    from kctui.services.context import ServiceContext
    from kctui.services.host_runtime import HostRuntime

    settings = load_settings()

    def ctx_factory() -> ServiceContext:
        return ServiceContext.open(settings=settings)

    extra: list[Any] = []
    try:
        from kctui.services.scheduler import SchedulerService

        extra.append(SchedulerService(ctx_factory))
    except ImportError:
        pass
    server = None
    if api and settings.api_enabled and server_factory is not None:
        server = server_factory(settings.api_host, settings.api_port)
    return HostRuntime(server=server, worker=True, extra_services=extra, settings=settings, ctx_factory=ctx_factory,
                       worker_poll_max=WORKER_POLL_MAX, worker_join_timeout=WORKER_JOIN_TIMEOUT, role="the kctui app")


class HostController:
    """start() returns at once; on_change(state, text) is called from the start thread with state one of
    starting | running | client | failed | stopped."""

    def __init__(self, factory: RuntimeFactory, on_change: Callable[[str, str], None]) -> None:
        self.factory = factory
        self.on_change = on_change
        self.runtime: Any = None
        self.state = "off"
        self._lock = threading.Lock()
        self._stopping = False
        self._runtime_starting: Any = None
        self._stop_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.api_reason = ""  # why the loopback API is off, in full (the status line has a few words)

    @property
    def owns_worker(self) -> bool:
        return self.state == "running"

    def start(self) -> None:
        self._set("starting", "host: starting…")
        self._thread = threading.Thread(target=self._start, name="kctui-host-start", daemon=True)
        self._thread.start()

    def _set(self, state: str, text: str) -> None:
        self.state = state
        try:
            self.on_change(state, text)
        except Exception:  # noqa: BLE001 - the app may be gone already
            pass

    def _start(self) -> None:
        from kctui.services.hostlock import HostLockHeld

        runtime, api_note = None, ""
        try:
            try:
                runtime = self._starting(self.factory(True))
                runtime.start()
            except HostLockHeld:
                raise
            except Exception as exc:
                if type(exc).__name__ not in ("ServeError",):
                    raise
                api_note = api_off_note(str(exc))
                self.api_reason = f"API off: {exc}; the app and its host run without it"
                runtime = self._starting(self.factory(False))
                runtime.start()
        except HostLockHeld as exc:
            self._set("client", f"client: {exc}; this app reads and writes the store, that host compiles")
            return
        except Exception as exc:
            log.exception("the embedded host did not start")
            msg = getattr(exc, "message", None) or str(exc)
            self._set("failed", f"host: could not start ({msg}); jobs wait for a host")
            return
        with self._lock:
            if self._stopping:
                runtime.stop()
                return
            self.runtime = runtime
        url = getattr(runtime, "url", None)
        # short enough for the status line at 100 columns: the address without its scheme
        api = f", API {url.removeprefix('http://')}" if url else ""
        self._set("running", f"host: this app{api}{api_note}")

    def _starting(self, runtime: Any) -> Any:
        """The runtime being started: a stop from now on cuts its start-up short (no worker is started)."""
        with self._lock:
            self._runtime_starting = runtime
            if self._stopping and getattr(runtime, "stop_event", None) is not None:
                runtime.stop_event.set()
        return runtime

    def stop(self, timeout: float = 15.0, *, worker_timeout: float | None = None) -> None:
        """Idempotent; waits for a start in progress (up to `timeout`), then stops the runtime (the
        running job is handed back; `worker_timeout` bounds the wait for the worker to report it)."""
        with self._lock:
            self._stopping = True
            starting = getattr(self, "_runtime_starting", None)
            if getattr(starting, "stop_event", None) is not None:
                starting.stop_event.set()  # a start-up in progress claims nothing from now on
        # a second caller (the app's exit while a signal's stop runs) waits for the first to finish:
        # returning early would let the process end before the job was handed back
        with self._stop_lock:
            if self._thread is not None and self._thread is not threading.current_thread():
                self._thread.join(timeout)
            with self._lock:
                runtime, self.runtime = self.runtime, None
            if runtime is not None:
                try:
                    runtime.stop(worker_timeout) if worker_timeout is not None else runtime.stop()
                finally:
                    self.state = "stopped"


def api_off_note(reason: str) -> str:
    """The status line's few words for an API that could not listen (the full reason is a notification:
    QA s31 #19, "API off: cannot listen on 127.0.0.1:8765: Ad…" was cut at 100 columns)."""
    short = reason.removeprefix("cannot listen on ").replace(": Address already in use", " in use")
    return f" (API off: {short})"
