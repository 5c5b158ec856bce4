"""`POST …/bases/{id}/ingest` (`{workspace, name, content}`) and `POST …/bases/{id}/ingest-path`
(`{workspace, path}` on this machine), issue 16: thin shells over `kctui.services.ingest`.

Both are behind the token like every route and answer only a loopback client (403 otherwise): 400 on a
missing field or a bad name, 413 on an oversized body or content, 409 on a name that exists (unless
`replace`). `create_app` builds them with its own helpers (`make_ingest_routes`), so this module does
not import the server.
"""

from __future__ import annotations

import ipaddress
from typing import Any, Callable

from starlette.requests import Request
from starlette.routing import Route

from kctui.services.ingest import ingest_content, ingest_paths


def is_loopback_client(request: Request) -> bool:
    """A client on this machine: a loopback address, or no address at all (a Unix socket)."""
    client = request.client
    if client is None or not client.host:
        return True
    host = client.host
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def ingest_status(skipped_kinds: list[str]) -> int:
    """When nothing was added: 409 if a name exists, 413 if a file is too large, else 400."""
    if "exists" in skipped_kinds:
        return 409
    if "too_large" in skipped_kinds:
        return 413
    return 400


def make_ingest_routes(prefix: str, *, endpoint: Callable, call: Callable, read_body: Callable, ok: Callable,
                       api_error: type[Exception], absolute: Callable) -> list[Route]:
    def loopback_only(request: Request) -> None:
        if not is_loopback_client(request):
            raise api_error(403, "ingest is for clients on this machine only (loopback)")

    @endpoint
    async def ingest(request: Request) -> Any:
        loopback_only(request)
        kb_id = request.path_params["id"]
        body = await read_body(request)
        ws = body.workspace()
        name = body.get("name", str, required=True)
        content = body.get("content", str, required=True)
        replace = bool(body.get("replace", bool))
        try:
            data = content.encode("utf-8")
        except UnicodeEncodeError:
            raise api_error(400, "field 'content' is not valid Unicode text") from None

        def run(ctx: Any) -> dict[str, Any]:
            return ingest_content(ctx, ws, kb_id, name, data, replace=replace).json()

        report = await call(run, monitor=ws)
        what = "replaced" if report["replaced"] else "added"
        return ok(report, f"{what} sources/{(report['replaced'] or report['copied'])[0]}")

    @endpoint
    async def ingest_path(request: Request) -> Any:
        loopback_only(request)
        kb_id = request.path_params["id"]
        body = await read_body(request)
        ws = body.workspace()
        path = absolute("path", body.get("path", str, required=True))
        replace = bool(body.get("replace", bool))

        def run(ctx: Any) -> tuple[dict[str, Any], list[str]]:
            report = ingest_paths(ctx, ws, kb_id, [path], replace=replace)
            return report.json(), [s.kind for s in report.skipped]

        report, kinds = await call(run, monitor=ws)
        added = len(report["copied"]) + len(report["replaced"])
        if not added and report["skipped"]:
            first = report["skipped"][0]
            more = f" (and {len(report['skipped']) - 1} more)" if len(report["skipped"]) > 1 else ""
            raise api_error(ingest_status(kinds), f"nothing added: skipped {first['path']}: {first['reason']}{more}")
        return ok(report, f"added {added} file(s)" + (f", skipped {len(report['skipped'])}" if report["skipped"]
                                                        else ""))

    return [
        Route(f"{prefix}/bases/{{id}}/ingest", ingest, methods=["POST"]),
        Route(f"{prefix}/bases/{{id}}/ingest-path", ingest_path, methods=["POST"]),
    ]
