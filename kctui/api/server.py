"""The loopback protocol server (host.md §6, contract version "1"): a thin HTTP shell over the services.

Every rule lives in `kctui.services`; the routes (kctui.api.routes: one module per resource) only check
the shape of requests (the pydantic bodies of kctui.api.bodies), call one service, and wrap the answer in
the envelope (kctui.api.envelope):

    success  {"code": <status>, "message": "...", "data": ...}
    error    {"code": <status>, "error": "<reason phrase>", "message": "<what went wrong>"}

Every request needs `Authorization: Bearer <token>` (401 otherwise, compared in constant time); bodies
over `max_body` bytes are refused with 413, on Content-Length and while streaming (kctui.api.guard).
Service calls are blocking SQLite and file I/O, so they run in the thread pool, each thread with its own
ServiceContext (one SQLite connection per thread; kctui.api.handling). `create_app` only wires these.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from kctui.api.envelope import MAX_BODY, PREFIX, ApiError, error_response, ok
from kctui.api.guard import GuardMiddleware
from kctui.api.handling import ContextPool
from kctui.api.openapi import openapi_document
from kctui.api.routes import ROUTES
from kctui.services.context import ServiceContext

__all__ = ["MAX_BODY", "PREFIX", "ApiError", "create_app", "error_response", "ok"]


async def not_found(request: Request, exc: Exception) -> JSONResponse:
    status = getattr(exc, "status_code", 404)
    if status == 405:
        return error_response(405, f"{request.method} is not allowed on {request.url.path}")
    return error_response(status, f"no route {request.method} {request.url.path}")


def create_app(ctx_factory: Callable[[], ServiceContext], token: str, *, max_body: int = MAX_BODY) -> Starlette:
    """The ASGI app of the protocol. `ctx_factory` makes a ServiceContext (called once per thread)."""
    if not token:
        raise ValueError("an API token is required")
    pool = ContextPool(ctx_factory)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            pool.close_all()

    routes = [Route(PREFIX + r.path, r.handler, methods=[r.method]) for r in ROUTES]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: not_found})
    app.state.contexts = pool
    app.state.openapi = openapi_document(PREFIX, max_body=max_body)
    app.add_middleware(GuardMiddleware, token=token, max_body=max_body)
    return app
