"""The loopback protocol server (host.md §6, contract version "1"): a thin HTTP shell over the services.

Every rule lives in `kctui.services`; this module only checks the shape of requests (types, required
fields), calls one service, and wraps the answer in the envelope:

    success  {"code": <status>, "message": "...", "data": ...}
    error    {"code": <status>, "error": "<reason phrase>", "message": "<what went wrong>"}

Every request needs `Authorization: Bearer <token>` (401 otherwise, compared in constant time); bodies
over `max_body` bytes are refused with 413, on Content-Length and while streaming. Service calls are
blocking SQLite and file I/O, so they run in the thread pool, each thread with its own ServiceContext
(one SQLite connection per thread).
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import os
import sqlite3
import threading
from http import HTTPStatus
from typing import Any, AsyncIterator, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kctui.api.ingest_routes import make_ingest_routes
from kctui.api.openapi import openapi_document
from kctui.core.models import CLAIMED_BY_EXTERNAL
from kctui.services import bases as bases_svc
from kctui.services import jobs as jobs_svc
from kctui.services import results as results_svc
from kctui.services.context import ServiceContext
from kctui.services.errors import NotFound, ServiceError
from kctui.core.cron import check_expression
from kctui.services.policy import compile_options_json, update_policy
from kctui.services.shapes import claim_json, job_json
from kctui.services.status import base_status_json
from kctui.services.workspaces import add_workspace
from kctui.store.db import StoreError

log = logging.getLogger(__name__)

PREFIX = "/api/v1/knowledge"
MAX_BODY = 1 << 20


# -- envelope --------------------------------------------------------------------------------------


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def ok(data: Any, message: str = "ok", status: int = 200) -> JSONResponse:
    return JSONResponse({"code": status, "message": message, "data": data}, status_code=status)


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"code": status, "error": _reason(status), "message": message},
                        status_code=status, headers=headers)


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class BodyTooLarge(ApiError):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {limit} bytes")


# -- request parsing -------------------------------------------------------------------------------

_TYPE_WORDS = {str: "a string", bool: "a boolean (true or false)", list: "a list of strings"}


class Body:
    """A JSON object from the client: typed access by field name; unknown fields are ignored."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def get(self, name: str, kind: type, *, required: bool = False) -> Any:
        value = self.data.get(name)
        if value is None:
            if required:
                raise ApiError(400, f"field '{name}' is required")
            return None
        if kind is bool and not isinstance(value, bool) or kind is str and not isinstance(value, str):
            raise ApiError(400, f"field '{name}' must be {_TYPE_WORDS[kind]}")
        if kind is list and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise ApiError(400, f"field '{name}' must be {_TYPE_WORDS[list]}")
        return value

    def workspace(self, *, required: bool = True) -> str | None:
        return _absolute("workspace", self.get("workspace", str, required=required))


def _absolute(name: str, value: str | None) -> str | None:
    if value is not None and not os.path.isabs(value):
        raise ApiError(400, f"field '{name}' must be an absolute path")
    return value


async def read_body(request: Request) -> Body:
    raw = await request.body()  # the size limit is enforced by the middleware while this streams
    if not raw.strip():
        return Body({})
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ApiError(400, f"the body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return Body(data)


def query_workspace(request: Request, *, required: bool = True) -> str | None:
    value = request.query_params.get("workspace")
    if not value:
        if required:
            raise ApiError(400, "query parameter 'workspace' is required")
        return None
    return _absolute("workspace", value)


# -- per-thread service contexts -------------------------------------------------------------------


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


# -- middleware: token and body size ---------------------------------------------------------------


class GuardMiddleware:
    """401 without the right bearer token (every route, before anything else); 413 over `max_body`."""

    def __init__(self, app: ASGIApp, token: str, max_body: int) -> None:
        self.app = app
        self.expected = token.encode("latin-1")
        self.max_body = max_body

    def _authorised(self, header: bytes) -> bool:
        scheme, _, given = header.partition(b" ")
        ok_scheme = scheme.lower() == b"bearer"  # the scheme is case-insensitive (RFC 9110 §11.1)
        return hmac.compare_digest(given.strip(), self.expected) and ok_scheme

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        given = headers.get(b"authorization", b"")
        if not self._authorised(given):
            words = "a bearer token is required" if not given else "the bearer token is wrong"
            await error_response(401, f"{words} (see the api-token file in kctui's state directory)",
                                 {"WWW-Authenticate": "Bearer"})(scope, receive, send)
            return
        length = headers.get(b"content-length")
        if length is not None:
            if not length.isdigit():
                await error_response(400, "the Content-Length header is not a number")(scope, receive, send)
                return
            if int(length) > self.max_body:
                await error_response(413, str(BodyTooLarge(self.max_body)))(scope, receive, send)
                return
        await self.app(scope, self._limited(receive), send)

    def _limited(self, receive: Receive) -> Receive:
        seen = 0

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge(self.max_body)
            return message

        return limited_receive


# -- the routes ------------------------------------------------------------------------------------


def create_app(ctx_factory: Callable[[], ServiceContext], token: str, *, max_body: int = MAX_BODY) -> Starlette:
    """The ASGI app of the protocol. `ctx_factory` makes a ServiceContext (called once per thread)."""
    if not token:
        raise ValueError("an API token is required")
    pool = ContextPool(ctx_factory)

    def endpoint(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
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

    async def call(fn: Callable[[ServiceContext], Any], *, monitor: str | None = None) -> Any:
        """Run `fn` in the thread pool with this thread's context. `monitor`: a workspace the request
        names, added to the monitored set first (host.md §6) for services that do not do it themselves."""

        def run() -> Any:
            ctx = pool.get()
            if monitor is not None and os.path.isdir(monitor):
                add_workspace(ctx, monitor)
            return fn(ctx)

        return await run_in_threadpool(run)

    def changed_base_job(changed: bool, ctx: ServiceContext, base, job) -> dict[str, Any]:
        return {"changed": changed, "knowledgeBase": base_status_json(ctx, base),
                "job": job_json(job) if job is not None else None}

    @endpoint
    async def list_bases(request: Request) -> JSONResponse:
        ws = query_workspace(request, required=False)

        def run(ctx: ServiceContext) -> dict[str, Any]:  # list_bases, create_base and claim monitor `ws` themselves
            items = [base_status_json(ctx, b) for b in bases_svc.list_bases(ctx, ws)]
            return {"items": items, "total": len(items)}

        data = await call(run)
        return ok(data, f"{data['total']} knowledge base(s)")

    @endpoint
    async def create_base(request: Request) -> JSONResponse:
        body = await read_body(request)
        ws = body.workspace()
        name = body.get("name", str, required=True)
        description = body.get("description", str) or ""
        policy = body.get("compilationPolicy", str) or "manual"
        from_paths = body.get("paths", list) or []
        for i, p in enumerate(from_paths):
            _absolute(f"paths[{i}]", p)

        def run(ctx: ServiceContext) -> dict[str, Any]:
            changed, base = bases_svc.create_base(ctx, ws, name, description=description, policy=policy,
                                                  from_paths=from_paths)
            return {"changed": changed, "knowledgeBase": base_status_json(ctx, base)}

        data = await call(run)
        kb = data["knowledgeBase"]["id"]
        return ok(data, f"knowledge base {kb} created" if data["changed"] else f"knowledge base {kb} already exists")

    @endpoint
    async def request_compilation(request: Request) -> JSONResponse:
        kb_id = request.path_params["id"]
        body = await read_body(request)
        ws = body.workspace()
        if body.get("dryRun", bool):
            return await dry_run(kb_id, ws)

        def run(ctx: ServiceContext) -> dict[str, Any]:
            changed, base, job = jobs_svc.request_compile(ctx, ws, kb_id)
            return changed_base_job(changed, ctx, base, job)

        data = await call(run, monitor=ws)
        job = data["job"]
        if not data["changed"]:
            words = "this generation is already being compiled"
        elif job and job["phase"] == "queued":
            words = f"compilation {job['id']} queued"
        else:
            words = "a compilation follows the running one"
        return ok(data, words)

    async def dry_run(kb_id: str, ws: str | None) -> JSONResponse:
        from kctui.services.dry_run import run_dry_run, summary_line  # noqa: PLC0415

        def run(ctx: ServiceContext) -> tuple[dict[str, Any], str]:
            done = run_dry_run(ctx, ws, kb_id)
            base = bases_svc.get_base(ctx, done.workspace, done.base_id)
            return {"changed": False, "knowledgeBase": base_status_json(ctx, base), "job": done.to_json()}, \
                summary_line(done)

        data, words = await call(run, monitor=ws)
        return ok(data, words)

    @endpoint
    async def get_summary(request: Request) -> JSONResponse:
        kb_id = request.path_params["id"]
        ws = query_workspace(request)
        data = await call(lambda ctx: base_status_json(ctx, bases_svc.get_base(ctx, ws, kb_id))["compilation"],
                          monitor=ws)
        return ok(data, f"compilation state of {kb_id}")

    @endpoint
    async def set_policy(request: Request) -> JSONResponse:
        kb_id = request.path_params["id"]
        body = await read_body(request)
        ws = body.workspace()
        policy = body.get("policy", str, required=True)
        schedule, schedule_always = body.get("schedule", str), body.get("scheduleAlways", bool)
        if schedule is not None:
            try:
                check_expression(schedule)  # validated before anything changes
            except ValueError as exc:
                raise ApiError(400, str(exc)) from None

        def run(ctx: ServiceContext) -> dict[str, Any]:
            changed, base = bases_svc.set_compilation_policy(ctx, ws, kb_id, policy)
            if schedule is not None or schedule_always is not None:
                scheduled, _ = update_policy(ctx, ws, kb_id, schedule=schedule, schedule_always=schedule_always)
                changed, base = changed or scheduled, bases_svc.get_base(ctx, ws, kb_id)
            return changed_base_job(changed, ctx, base, None)

        data = await call(run, monitor=ws)
        return ok(data, f"compilation policy is {policy}")

    @endpoint
    async def edit_page(request: Request) -> JSONResponse:
        """A direct page edit (issue 15): append a statement or a note, or revise a section, through the
        trust boundary; recorded as `author` (default `agent:api`: the boundary of an unattended writer)."""
        from kctui.services.page_edit import edit_page as edit  # noqa: PLC0415

        kb_id, slug = request.path_params["id"], request.path_params["slug"]
        body = await read_body(request)
        ws = body.workspace()
        fields = {name: body.get(name, str) for name in ("kind", "citation", "value", "section")}
        fields["edit_id"] = body.get("editId", str)
        op = body.get("operation", str, required=True)
        text = body.get("text", str, required=True)
        author = body.get("author", str) or "agent:api"
        expected = body.data.get("expectedRevision")
        if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool) or expected < 1):
            raise ApiError(400, "field 'expectedRevision' must be a revision number (1 or more)")

        def run(ctx: ServiceContext) -> dict[str, Any]:
            return edit(ctx, ws, kb_id, slug, op=op, text=text, author=author, expected_revision=expected, **fields)

        data = await call(run, monitor=ws)
        return ok(data, f"{data['page']}: {data['operation']} {data['edit']['id']} is revision {data['revision']}")

    @endpoint
    async def source_changes(request: Request) -> JSONResponse:
        kb_id = request.path_params["id"]
        ws = query_workspace(request)
        from kctui.services.scheduler import source_changes as report  # noqa: PLC0415 - the sources service

        data = await call(lambda ctx: report(ctx, ws, kb_id), monitor=ws)
        return ok(data, f"{data['totalChanged']} change(s) since the accepted snapshot")

    @endpoint
    async def get_job(request: Request) -> JSONResponse:
        """Ours, beyond the reference: one job of a base (a compiler can read its job's phase)."""
        kb_id, job_id = request.path_params["id"], request.path_params["jobId"]
        ws = query_workspace(request)

        def run(ctx: ServiceContext) -> dict[str, Any]:
            base = bases_svc.get_base(ctx, ws, kb_id)
            if job_id.startswith("dry-run-"):  # the base's kept dry run (kctui.services.dry_run)
                from kctui.services.dry_run import last_dry_run  # noqa: PLC0415

                kept = last_dry_run(ctx, base.workspace, base.id)
                if kept is None or kept.get("id") != job_id:
                    raise NotFound(f"no dry run '{job_id}' kept for knowledge base {kb_id} (only the last one is)")
                return kept
            job = jobs_svc.get_job(ctx, job_id)
            if job.workspace != base.workspace or job.base_id != base.id:
                raise NotFound(f"no job '{job_id}' in knowledge base {kb_id}")
            return job_json(job)

        data = await call(run, monitor=ws)
        return ok(data, f"job {job_id} is {data['phase']}")

    @endpoint
    async def cancel(request: Request) -> JSONResponse:
        kb_id, job_id = request.path_params["id"], request.path_params["jobId"]
        ws = (await read_body(request)).workspace()

        def run(ctx: ServiceContext) -> dict[str, Any]:
            changed, base, job = jobs_svc.cancel(ctx, ws, kb_id, job_id)
            return changed_base_job(changed, ctx, base, job)

        data = await call(run, monitor=ws)
        return ok(data, f"job {job_id} cancelled" if data["changed"] else f"job {job_id} had already ended")

    @endpoint
    async def claim(request: Request) -> JSONResponse:
        ws = (await read_body(request)).workspace(required=False)

        def run(ctx: ServiceContext) -> dict[str, Any]:
            out = claim_json(jobs_svc.claim(ctx, claimed_by=CLAIMED_BY_EXTERNAL, workspace=ws))
            if out["claimed"]:
                # A kctui extension (clients ignore unknown fields; the reference fields are unchanged):
                # the base's trust policy and compile options, so a remote `kctui worker` compiles
                # under the policy the base is set to, not the default one.
                out["compileOptions"] = compile_options_json(ctx, out["workspaceRoot"], out["job"]["knowledgeBaseId"])
            return out

        data = await call(run)
        return ok(data, f"claimed job {data['job']['id']}" if data["claimed"] else "no work to claim")

    @endpoint
    async def result(request: Request) -> JSONResponse:
        kb_id, job_id = request.path_params["id"], request.path_params["jobId"]
        body = await read_body(request)
        ws = body.workspace()
        outcome = body.get("outcome", str, required=True)
        transient = body.get("transient", bool) or False
        error = body.get("error", str)
        compiler_version = body.get("compilerVersion", str)
        error_code = body.get("errorCode", str)  # ours: a code from the closed set

        def run(ctx: ServiceContext) -> dict[str, Any]:
            changed, base, job = results_svc.report_result(
                ctx, ws, kb_id, job_id, outcome, transient=transient, error=error,
                compiler_version=compiler_version, error_code=error_code)
            return changed_base_job(changed, ctx, base, job)

        data = await call(run, monitor=ws)
        return ok(data, f"job {job_id} {data['job']['phase']}")

    document = openapi_document(PREFIX, max_body=max_body)

    async def openapi_json(request: Request) -> JSONResponse:
        """The OpenAPI description of these routes (kctui.api.openapi), raw: tools read it as is."""
        return JSONResponse(document)

    async def not_found(request: Request, exc: Exception) -> JSONResponse:
        status = getattr(exc, "status_code", 404)
        if status == 405:
            return error_response(405, f"{request.method} is not allowed on {request.url.path}")
        return error_response(status, f"no route {request.method} {request.url.path}")

    routes = [
        Route(f"{PREFIX}/bases", list_bases, methods=["GET"]),
        Route(f"{PREFIX}/bases", create_base, methods=["POST"]),
        Route(f"{PREFIX}/bases/{{id}}/compilations", request_compilation, methods=["POST"]),
        Route(f"{PREFIX}/bases/{{id}}/compilation", get_summary, methods=["GET"]),
        Route(f"{PREFIX}/bases/{{id}}/compilation-policy", set_policy, methods=["PATCH"]),
        Route(f"{PREFIX}/bases/{{id}}/source-changes", source_changes, methods=["GET"]),
        Route(f"{PREFIX}/bases/{{id}}/pages/{{slug}}/edits", edit_page, methods=["POST"]),
        Route(f"{PREFIX}/bases/{{id}}/compilations/{{jobId}}", get_job, methods=["GET"]),
        Route(f"{PREFIX}/bases/{{id}}/compilations/{{jobId}}/cancel", cancel, methods=["POST"]),
        Route(f"{PREFIX}/compilations/claim", claim, methods=["POST"]),
        Route(f"{PREFIX}/bases/{{id}}/compilations/{{jobId}}/result", result, methods=["POST"]),
        Route(f"{PREFIX}/openapi.json", openapi_json, methods=["GET"]),
        *make_ingest_routes(PREFIX, endpoint=endpoint, call=call, read_body=read_body, ok=ok, api_error=ApiError,
                            absolute=_absolute),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            pool.close_all()

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: not_found})
    app.state.contexts = pool
    app.add_middleware(GuardMiddleware, token=token, max_body=max_body)
    return app
