"""How a route handler runs: its errors become the error envelope (never a traceback in the body), and its
service calls run in the thread pool, each thread with its own ServiceContext (one SQLite connection per
thread), taken from the app's `ContextPool` (`request.app.state.contexts`)."""

from __future__ import annotations

import functools
import logging
import os
import sqlite3
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from kctui.api.envelope import ApiError, error_response
from kctui.services.context import ServiceContext
from kctui.services.errors import ServiceError
from kctui.services.workspaces import add_workspace
from kctui.store.db import StoreError

log = logging.getLogger(__name__)

Handler = Callable[[Request], Awaitable[JSONResponse]]


class ContextPool:
    """One ServiceContext (one SQLite connection) per thread of the pool. The pool's idle threads
    exit after a while, so a context whose thread has ended is closed when the next one is made;
    the rest are closed together at shutdown."""

    def __init__(self, factory: Callable[[], ServiceContext]) -> None:
        self._factory = factory
        self._local = threading.local()
        self._owned: list[tuple[threading.Thread, ServiceContext]] = []
        self._lock = threading.Lock()

    def get(self) -> ServiceContext:
        ctx = getattr(self._local, "ctx", None)
        if ctx is None:
            ctx = self._factory()
            self._local.ctx = ctx
            with self._lock:
                ended = [c for t, c in self._owned if not t.is_alive()]
                self._owned = [(t, c) for t, c in self._owned if t.is_alive()]
                self._owned.append((threading.current_thread(), ctx))
            for old in ended:
                old.close()
        return ctx

    def close_all(self) -> None:
        with self._lock:
            owned, self._owned = self._owned, []
        for _, ctx in owned:
            ctx.close()


def endpoint(handler: Handler) -> Handler:
    """`handler` with every error it raises answered as the error envelope."""

    @functools.wraps(handler)
    async def wrapped(request: Request) -> JSONResponse:
        try:
            return await handler(request)
        except ApiError as exc:
            return error_response(exc.status, exc.message)
        except ServiceError as exc:
            return error_response(exc.status, exc.message)
        except StoreError as exc:
            return error_response(500, str(exc))
        except sqlite3.Error as exc:
            log.warning("database error on %s %s: %s", request.method, request.url.path, exc)
            return error_response(500, f"database error: {exc}")
        except OSError as exc:
            where = f": {exc.filename}" if exc.filename else ""
            return error_response(500, f"I/O error: {exc.strerror or exc}{where}")
        except Exception:  # noqa: BLE001 - never a traceback in the body
            log.exception("unexpected error on %s %s", request.method, request.url.path)
            return error_response(500, "internal error in the kctui host (see its log)")

    return wrapped


async def call(request: Request, fn: Callable[[ServiceContext], Any], *, monitor: str | None = None) -> Any:
    """Run `fn` in the thread pool with this thread's context. `monitor`: a workspace the request
    names, added to the monitored set first (host.md §6) for services that do not do it themselves."""
    pool: ContextPool = request.app.state.contexts

    def run() -> Any:
        ctx = pool.get()
        if monitor is not None and os.path.isdir(monitor):
            add_workspace(ctx, monitor)
        return fn(ctx)

    return await run_in_threadpool(run)
