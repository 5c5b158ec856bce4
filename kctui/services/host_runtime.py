"""The host runtime: everything a host process runs, started and stopped together (`kctui serve`, and the
app's embedded host): the host lock, start-up recovery, the built-in worker (the shared `run_worker` loop
with the in-process `LocalTransport`), the periodic lease check, any `extra_services` (the source watcher
and scheduler plug in here: anything with start()/stop()), and a `server` in front of it all. The server
is given, not built here: the loopback HTTP API is `kctui.api.serve.ApiServer`; without one the host
serves nothing (the app with its API off).

On stop, the built-in worker's running job is stopped and reported as a transient failure (the loop
does it when its stop event is set), so no job is left `running`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Protocol

from kctui.config import Settings, load_settings
from kctui.services import recovery
from kctui.services.context import ServiceContext
from kctui.services.gc import collect_after_job
from kctui.services.heap import HeapSettler
from kctui.services.hostlock import HostLock
from kctui.services.local_transport import LocalTransport
from kctui.services.progress import ProgressRecorder
from kctui.services.worker import run_worker

log = logging.getLogger(__name__)


class BackgroundService(Protocol):
    """Something the host runs beside the server (the source watcher and scheduler): started after
    recovery and the worker, stopped first. `kctui.services.scheduler.Scheduler` is one."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


class HostServer(Protocol):
    """What the host serves its clients through (`kctui.api.serve.ApiServer`). `check` runs before
    anything else and `prepare` after the settings are read, both before the host lock is taken, so a
    server that cannot start refuses with nothing touched; `start` runs after recovery, before the
    worker; `stop` after every other service, and more than once is harmless."""

    url: str | None  # where clients reach it, once started

    def check(self) -> None: ...

    def prepare(self) -> None: ...

    def start(self, ctx_factory: Callable[[], ServiceContext]) -> None: ...

    def stop(self) -> None: ...

    @property
    def alive(self) -> bool: ...


class ThreadService:
    """A BackgroundService running `target(stop_event)` in a daemon thread."""

    def __init__(self, name: str, target: Callable[[threading.Event], None], join_timeout: float = 1.5) -> None:
        self.name, self.target, self.join_timeout = name, target, join_timeout
        self.stop_event = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.thread = threading.Thread(target=self.target, args=(self.stop_event,), name=self.name, daemon=True)
        self.thread.start()

    def request_stop(self) -> None:
        self.stop_event.set()

    def stop(self, timeout: float | None = None) -> None:
        self.request_stop()
        wait = self.join_timeout if timeout is None else min(timeout, self.join_timeout)
        if self.thread is not None:
            self.thread.join(wait)
            if self.thread.is_alive():
                log.warning("%s did not stop within %.1f s", self.name, wait)


def _last_completion(ctx: ServiceContext) -> int | None:
    try:
        row = ctx.store.query_one("SELECT MAX(completed_at) AS done FROM jobs")
    except Exception:  # noqa: BLE001 - the next tick asks again
        return None
    return row["done"] if row else None


class HostRuntime:
    """Everything a host process runs, started and stopped together (`kctui serve`; the app too)."""

    def __init__(self, *, server: HostServer | None = None, worker: bool = True,
                 extra_services: Sequence[BackgroundService] = (), settings: Settings | None = None,
                 ctx_factory: Callable[[], ServiceContext] | None = None, lease_check_interval: float | None = None,
                 worker_poll_max: float = 1.0, worker_join_timeout: float = 1.0, settle_heap: bool = False,
                 stop_event: threading.Event | None = None, role: str = "kctui serve") -> None:
        self.server, self.worker = server, worker
        self.role = role  # what `kctui status` calls the process holding the host lock
        # set by a signal (`kctui serve`) while starting: start-up stops at its next step
        self.stop_event = stop_event or threading.Event()
        # a process with no UI freezes what survives each job out of the collector's walks (services/heap.py)
        self.settle_heap = settle_heap
        self.worker_poll_max = worker_poll_max  # an idle worker asks for work at least this often
        self.worker_join_timeout = worker_join_timeout
        self.settings = settings
        self.ctx_factory = ctx_factory
        self.extra_services = list(extra_services)
        self.lease_check_interval = lease_check_interval
        self.recovery: recovery.RecoveryReport | None = None
        self._lock: HostLock | None = None
        self._services: list[BackgroundService] = []

    @property
    def url(self) -> str | None:
        """Where the server listens (None without one, or before it started)."""
        return self.server.url if self.server is not None else None

    # -- start ------------------------------------------------------------------------------------

    def start(self) -> None:
        """Lock, recover, start the server, then the worker, the lease check and the extra services.
        Raises what the server refuses with (ServeError, TokenError) or HostLockHeld / ConfigError /
        StoreError, with nothing left running."""
        if self.server is not None:
            self.server.check()
        if self.ctx_factory is None:
            settings = self.settings or load_settings()
            self.settings = settings
            self.ctx_factory = lambda: ServiceContext.open(settings=settings)
        if self.server is not None:
            self.server.prepare()
        self._lock = HostLock(role=self.role).acquire()
        try:
            if self.stop_event.is_set():
                return  # stopped before it began: the next host recovers
            ctx = self.ctx_factory()
            try:
                self.settings = ctx.settings
                self.recovery = recovery.recover_at_startup(ctx)
            finally:
                ctx.close()
            if self.stop_event.is_set():
                return  # stopped while recovering: serve nothing, claim nothing
            if self.server is not None:
                self.server.start(self.ctx_factory)
                if self.server.url:
                    self._lock.note_url(self.server.url)
            if self.worker and not self.stop_event.is_set():
                self._start(ThreadService("kctui-builtin-worker", self._run_builtin_worker,
                                          join_timeout=self.worker_join_timeout))
            self._start(ThreadService("kctui-lease-check", self._run_lease_check))
            for service in self.extra_services:
                self._start(service)
        except BaseException:
            self.stop()
            raise

    def _start(self, service: BackgroundService) -> None:
        service.start()
        self._services.append(service)

    def _run_builtin_worker(self, stop: threading.Event) -> None:
        assert self.ctx_factory is not None
        ctx = self.ctx_factory()
        settler = HeapSettler() if self.settle_heap else None

        def after_job() -> None:  # the worker is idle: collect what the job left, then settle the heap
            collect_after_job(ctx)
            if settler is not None:
                settler()

        try:
            while not stop.is_set():
                try:
                    run_worker(LocalTransport(ctx), stop_event=stop, progress=ProgressRecorder(ctx),
                               poll_max=self.worker_poll_max, after_job=after_job)
                except Exception:  # noqa: BLE001 - keep the host's worker alive; the job recovers
                    log.exception("the built-in worker stopped on an error; restarting it")
                    stop.wait(1.0)
        finally:
            ctx.close()

    def _run_lease_check(self, stop: threading.Event) -> None:
        assert self.ctx_factory is not None and self.settings is not None
        interval = self.lease_check_interval or min(30.0, max(0.2, self.settings.lease_seconds / 4))
        ctx = self.ctx_factory()
        last_done = _last_completion(ctx)
        try:
            while not stop.wait(interval):
                try:
                    expired = recovery.expire_leases(ctx)
                except Exception:  # noqa: BLE001 - try again at the next tick
                    log.exception("the lease check failed")
                    continue
                if expired:
                    log.info("external job(s) past their lease failed for retry: %s", ", ".join(expired))
                done = _last_completion(ctx)
                if done != last_done:  # a job ended (an external worker's too): collect what it left
                    last_done = done
                    collect_after_job(ctx)
        finally:
            ctx.close()

    # -- stop -------------------------------------------------------------------------------------

    def _hand_back(self) -> None:
        """A job this process still has `running` (its worker did not wind down in time) fails as
        transient now, for a retry: the host never exits with a job of its own left running."""
        assert self.ctx_factory is not None
        try:
            ctx = self.ctx_factory()
        except Exception:  # noqa: BLE001 - the next start-up recovers it
            log.exception("cannot open the store to hand the running job back")
            return
        try:
            handed = recovery.hand_back_own_jobs(ctx)
            if handed:
                log.info("handed back for retry: %s", ", ".join(handed))
        except Exception:  # noqa: BLE001 - the next start-up recovers it
            log.exception("handing the running job back failed")
        finally:
            ctx.close()

    @property
    def server_alive(self) -> bool:
        return self.server is None or self.server.alive

    def stop(self, join_timeout: float | None = None) -> None:
        """Extra services first (they may queue work), then the worker (it reports its job; a job it
        has not reported within `join_timeout`, or its own timeout, is handed back here), then the
        server; the lock last. Idempotent."""
        services, self._services = self._services, []
        for service in reversed(services):
            if isinstance(service, ThreadService):
                service.request_stop()  # the worker and the lease check wind down together
        for service in reversed(services):
            try:
                if isinstance(service, ThreadService):
                    service.stop(join_timeout)
                else:
                    service.stop()
            except Exception:  # noqa: BLE001 - stop everything else anyway
                log.exception("stopping %s failed", getattr(service, "name", service))
        if self._lock is not None and self.ctx_factory is not None:
            self._hand_back()
        if self.server is not None:
            self.server.stop()
        if self._lock is not None:
            self._lock.release()
            self._lock = None
