"""The host process: `kctui serve [--host 127.0.0.1] [--port 8765] [--no-worker]`.

`ApiServer` is the host's loopback API server (uvicorn in a thread), the `server` of a
`kctui.services.host_runtime.HostRuntime` — everything else a host runs (the host lock, start-up
recovery, the built-in worker, the lease check, the watcher and scheduler) is the runtime's, and the app
embeds the same runtime. `serve` runs a headless host until SIGINT/SIGTERM.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence

import uvicorn

from kctui import paths
from kctui.api.server import create_app
from kctui.api.signals import install_stop_signals
from kctui.api.token import TokenError, load_or_create_token
from kctui.config import ConfigError
from kctui.services.context import ServiceContext
from kctui.services.host_runtime import BackgroundService, HostRuntime
from kctui.services.hostlock import HostLockHeld
from kctui.store.db import StoreError

STOP_TIMEOUT = 2.0  # everything is down within this many seconds of a stop request


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


class ApiServer:
    """The host's loopback API: uvicorn serving `create_app` in a thread, on a socket bound here (the
    `server` of a HostRuntime, which calls check, prepare, start and stop in its order)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 8765, *, max_body: int = 1 << 20) -> None:
        self.host, self.port, self.max_body = host, port, max_body
        self.url: str | None = None
        self._token: str | None = None
        self._server: uvicorn.Server | None = None
        self._server_thread: threading.Thread | None = None

    def check(self) -> None:
        """NotLoopback unless the bind address is a loopback address."""
        check_loopback_host(self.host)

    def prepare(self) -> None:
        """The bearer token, read or created (TokenError)."""
        self._token = load_or_create_token()

    def start(self, ctx_factory: Callable[[], ServiceContext]) -> None:
        """Bind, then serve until `server.started`; ServeError when it cannot."""
        assert self._token is not None
        sock = _bind(self.host, self.port)
        app = create_app(ctx_factory, self._token, max_body=self.max_body)
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

    @property
    def alive(self) -> bool:
        return self._server_thread is None or self._server_thread.is_alive()

    def stop(self) -> None:
        """Ask uvicorn to exit and wait up to STOP_TIMEOUT for it. Idempotent."""
        if self._server is not None:
            self._server.should_exit = True
            if self._server_thread is not None:
                self._server_thread.join(STOP_TIMEOUT)
            self._server = self._server_thread = None


def serve(host: str, port: int, *, worker: bool = True, extra_services: Sequence[BackgroundService] = (),
          stop_event: threading.Event | None = None, echo: Callable[[str], None] | None = None) -> int:
    """Run the host until SIGINT/SIGTERM/SIGHUP (or `stop_event`); the exit code."""
    say = echo or (lambda text: print(text, flush=True))
    fail = echo or (lambda text: print(text, file=sys.stderr, flush=True))
    stop = stop_event or threading.Event()
    runtime = HostRuntime(server=ApiServer(host, port), worker=worker, extra_services=extra_services,
                          settle_heap=True, stop_event=stop)  # headless
    restore = install_stop_signals(stop)  # before start-up: a signal at any moment stops the host
    try:
        runtime.start()
    except NotLoopback as exc:
        restore()
        fail(f"kctui: error: {exc}")
        return 2
    except (ServeError, HostLockHeld, TokenError, ConfigError, StoreError) as exc:
        restore()
        fail(f"kctui: error: {getattr(exc, 'message', None) or exc}")
        return 1
    except BaseException:
        restore()
        raise
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
