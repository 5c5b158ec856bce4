"""The host process: `kctui serve [--host 127.0.0.1] [--port 8765] [--no-worker]`.

`HostRuntime` is everything a host runs, started and stopped together (the app can use it as well):
the host lock, start-up recovery, the loopback API server (uvicorn in a thread), the built-in worker
(the shared `run_worker` loop with the in-process `LocalTransport`), the periodic lease check, and any
`extra_services` (the source watcher and scheduler plug in here: anything with start()/stop()).

On stop, the built-in worker's running job is stopped and reported as a transient failure (the loop
does it when its stop event is set), so no job is left `running`.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Protocol

import uvicorn

from kctui import paths
from kctui.api.server import create_app
from kctui.api.signals import install_stop_signals
from kctui.api.token import TokenError, load_or_create_token
from kctui.config import ConfigError, Settings, load_settings
from kctui.services import recovery
from kctui.services.context import ServiceContext
from kctui.services.heap import HeapSettler
from kctui.services.hostlock import HostLock, HostLockHeld
from kctui.services.local_transport import LocalTransport
from kctui.services.progress import ProgressRecorder
from kctui.services.worker import run_worker
from kctui.store.db import StoreError

log = logging.getLogger(__name__)

STOP_TIMEOUT = 2.0  # everything is down within this many seconds of a stop request


class BackgroundService(Protocol):
    """Something the host runs beside the server (the source watcher and scheduler): started after
    recovery and the worker, stopped first. `kctui.services.scheduler.Scheduler` is one."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


class ServeError(Exception):
    """The host cannot start; one line for a person."""


class NotLoopback(ServeError):
    """The bind address is not a loopback address."""


def check_loopback_host(host: str) -> str:
    """The bind address if it is loopback (127.0.0.0/8, ::1, 'localhost'); else ServeError."""
    bare = host.strip().strip("[]")
    if bare.lower() == "localhost":
        return "localhost"
    try:
        if ipaddress.ip_address(bare).is_loopback:
            return bare
    except ValueError:
        pass
    raise NotLoopback(
        f"refusing to listen on {host!r}: the kctui API is loopback only (127.0.0.0/8, ::1 or localhost), "
        "so other machines cannot reach it"
    )


def _bind(host: str, port: int) -> socket.socket:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except socket.gaierror as exc:
        raise ServeError(f"cannot resolve {host}: {exc}") from None
    infos.sort(key=lambda i: i[0] != socket.AF_INET)  # 'localhost': prefer 127.0.0.1
    family, _, _, _, address = infos[0]
    if not ipaddress.ip_address(address[0]).is_loopback:
        raise ServeError(f"{host} resolves to {address[0]}, which is not a loopback address")
    # proto=IPPROTO_TCP: asyncio sets TCP_NODELAY on accepted sockets only then (else every answer
    # waits ~40 ms for a delayed ACK)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def _url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


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

    def stop(self) -> None:
        self.request_stop()
        if self.thread is not None:
            self.thread.join(self.join_timeout)
            if self.thread.is_alive():
                log.warning("%s did not stop within %.1f s", self.name, self.join_timeout)


class HostRuntime:
    """Everything a host process runs, started and stopped together (`kctui serve`; the app too)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 8765, *, api: bool = True, worker: bool = True,
                 extra_services: Sequence[BackgroundService] = (), settings: Settings | None = None,
                 ctx_factory: Callable[[], ServiceContext] | None = None, lease_check_interval: float | None = None,
                 max_body: int = 1 << 20, worker_poll_max: float = 1.0, worker_join_timeout: float = 1.5,
                 settle_heap: bool = False) -> None:
        self.host, self.port, self.api, self.worker = host, port, api, worker
        # a process with no UI freezes what survives each job out of the collector's walks (services/heap.py)
        self.settle_heap = settle_heap
        self.worker_poll_max = worker_poll_max  # an idle worker asks for work at least this often
        self.worker_join_timeout = worker_join_timeout
        self.settings = settings
        self.ctx_factory = ctx_factory
        self.extra_services = list(extra_services)
        self.lease_check_interval = lease_check_interval
        self.max_body = max_body
        self.url: str | None = None
        self.recovery: recovery.RecoveryReport | None = None
        self._lock: HostLock | None = None
        self._server: uvicorn.Server | None = None
        self._server_thread: threading.Thread | None = None
        self._services: list[BackgroundService] = []

    # -- start ------------------------------------------------------------------------------------

    def start(self) -> None:
        """Lock, recover, listen, then start the worker, the lease check and the extra services.
        Raises ServeError (or HostLockHeld / TokenError / ConfigError / StoreError) with nothing left running."""
        if self.api:
            check_loopback_host(self.host)
        if self.ctx_factory is None:
            settings = self.settings or load_settings()
            self.settings = settings
            self.ctx_factory = lambda: ServiceContext.open(settings=settings)
        token = load_or_create_token() if self.api else None
        self._lock = HostLock(role="kctui serve").acquire()
        try:
            ctx = self.ctx_factory()
            try:
                self.settings = ctx.settings
                self.recovery = recovery.recover_at_startup(ctx)
            finally:
                ctx.close()
            if self.api:
                assert token is not None
                self._start_server(_bind(self.host, self.port), token)
            if self.worker:
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

    def _start_server(self, sock: socket.socket, token: str) -> None:
        app = create_app(self.ctx_factory, token, max_body=self.max_body)
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                                timeout_graceful_shutdown=1, timeout_keep_alive=5)
        self._server = uvicorn.Server(config)
        self.url = _url(sock)
        # In a thread, uvicorn installs no signal handlers: the host owns SIGINT/SIGTERM.
        self._server_thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]},
                                               name="kctui-api", daemon=True)
        self._server_thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if not self._server_thread.is_alive() or time.monotonic() > deadline:
                sock.close()
                raise ServeError(f"the API server did not start on {self.url}")
            time.sleep(0.01)

    def _run_builtin_worker(self, stop: threading.Event) -> None:
        assert self.ctx_factory is not None
        ctx = self.ctx_factory()
        settler = HeapSettler() if self.settle_heap else None
        try:
            while not stop.is_set():
                try:
                    run_worker(LocalTransport(ctx), stop_event=stop, progress=ProgressRecorder(ctx),
                               poll_max=self.worker_poll_max, after_job=settler)
                except Exception:  # noqa: BLE001 - keep the host's worker alive; the job recovers
                    log.exception("the built-in worker stopped on an error; restarting it")
                    stop.wait(1.0)
        finally:
            ctx.close()

    def _run_lease_check(self, stop: threading.Event) -> None:
        assert self.ctx_factory is not None and self.settings is not None
        interval = self.lease_check_interval or min(30.0, max(0.2, self.settings.lease_seconds / 4))
        ctx = self.ctx_factory()
        try:
            while not stop.wait(interval):
                try:
                    expired = recovery.expire_leases(ctx)
                except Exception:  # noqa: BLE001 - try again at the next tick
                    log.exception("the lease check failed")
                    continue
                if expired:
                    log.info("external job(s) past their lease failed for retry: %s", ", ".join(expired))
        finally:
            ctx.close()

    # -- stop -------------------------------------------------------------------------------------

    @property
    def server_alive(self) -> bool:
        return self._server_thread is None or self._server_thread.is_alive()

    def stop(self) -> None:
        """Extra services first (they may queue work), then the worker (it reports its job), then the
        server; the lock last. Idempotent."""
        services, self._services = self._services, []
        for service in reversed(services):
            if isinstance(service, ThreadService):
                service.request_stop()  # the worker and the lease check wind down together
        for service in reversed(services):
            try:
                service.stop()
            except Exception:  # noqa: BLE001 - stop everything else anyway
                log.exception("stopping %s failed", getattr(service, "name", service))
        if self._server is not None:
            self._server.should_exit = True
            if self._server_thread is not None:
                self._server_thread.join(STOP_TIMEOUT)
            self._server = self._server_thread = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None


def serve(host: str, port: int, *, worker: bool = True, extra_services: Sequence[BackgroundService] = (),
          stop_event: threading.Event | None = None, echo: Callable[[str], None] | None = None) -> int:
    """Run the host until SIGINT/SIGTERM (or `stop_event`); the exit code."""
    say = echo or (lambda text: print(text, flush=True))
    fail = echo or (lambda text: print(text, file=sys.stderr, flush=True))
    stop = stop_event or threading.Event()
    runtime = HostRuntime(host, port, worker=worker, extra_services=extra_services, settle_heap=True)  # headless
    try:
        runtime.start()
    except NotLoopback as exc:
        fail(f"kctui: error: {exc}")
        return 2
    except (ServeError, HostLockHeld, TokenError, ConfigError, StoreError) as exc:
        fail(f"kctui: error: {getattr(exc, 'message', None) or exc}")
        return 1
    restore = install_stop_signals(stop)
    try:
        say(f"kctui host listening on {runtime.url}")
        say(f"bearer token in {paths.api_token_file()} (mode 0600)")
        say("built-in worker: " + ("on" if worker else "off (--no-worker): external compilers claim all work"))
        if runtime.recovery is not None and runtime.recovery.summary() != "nothing to recover":
            say(f"recovery: {runtime.recovery.summary()}")
        while not stop.wait(0.2):
            if not runtime.server_alive:
                fail("kctui: error: the API server stopped unexpectedly")
                return 1
        return 0
    finally:
        runtime.stop()
        restore()


def run_serve(host: str, port: int, no_worker: bool) -> int:
    """Entry point of `kctui serve`; the exit code (0 after SIGINT/SIGTERM, 1 on an error at start,
    2 for a non-loopback address)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return serve(host, port, worker=not no_worker)
