"""`POST …/bases/{id}/ingest` (`{workspace, name, content}`) and `POST …/bases/{id}/ingest-path`
(`{workspace, path}` on this machine), issue 16: thin shells over `kctui.services.ingest`.

Both are behind the token like every route and answer only a loopback client (403 otherwise): 400 on a
missing field or a bad name, 413 on an oversized body or content, 409 on a name that exists (unless
`replace`).
"""

from __future__ import annotations

import ipaddress
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from kctui.api import answers
from kctui.api.bodies import IngestBody, IngestPathBody, read_body
from kctui.api.envelope import ApiError, ok
from kctui.api.handling import call, endpoint
from kctui.api.route_table import ApiRoute
from kctui.services.context import ServiceContext
from kctui.services.ingest import ingest_content, ingest_paths

INGEST_ERRORS = ("400", "401", "403", "404", "409", "413", "500")


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


def loopback_only(request: Request) -> None:
    if not is_loopback_client(request):
        raise ApiError(403, "ingest is for clients on this machine only (loopback)")


@endpoint
async def ingest(request: Request) -> JSONResponse:
    loopback_only(request)
    kb_id = request.path_params["id"]
    body = await read_body(request, IngestBody)
    try:
        data = body.content.encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(400, "field 'content' is not valid Unicode text") from None

    def run(ctx: ServiceContext) -> dict[str, Any]:
        return ingest_content(ctx, body.workspace, kb_id, body.name, data, replace=bool(body.replace)).json()

    report = await call(request, run, monitor=body.workspace)
    what = "replaced" if report["replaced"] else "added"
    return ok(report, f"{what} sources/{(report['replaced'] or report['copied'])[0]}")


@endpoint
async def ingest_path(request: Request) -> JSONResponse:
    loopback_only(request)
    kb_id = request.path_params["id"]
    body = await read_body(request, IngestPathBody)

    def run(ctx: ServiceContext) -> tuple[dict[str, Any], list[str]]:
        report = ingest_paths(ctx, body.workspace, kb_id, [body.path], replace=bool(body.replace))
        return report.json(), [s.kind for s in report.skipped]

    report, kinds = await call(request, run, monitor=body.workspace)
    added = len(report["copied"]) + len(report["replaced"])
    if not added and report["skipped"]:
        first = report["skipped"][0]
        more = f" (and {len(report['skipped']) - 1} more)" if len(report["skipped"]) > 1 else ""
        raise ApiError(ingest_status(kinds), f"nothing added: skipped {first['path']}: {first['reason']}{more}")
    return ok(report, f"added {added} file(s)" + (f", skipped {len(report['skipped'])}" if report["skipped"]
                                                    else ""))


ROUTES = [
    ApiRoute("POST", "/bases/{id}/ingest", ingest, "ingest", "Add one source file from the body's content",
             answers.IngestReport, body=IngestBody, errors=INGEST_ERRORS,
             description="Loopback clients only. 409 when the name exists (without replace), 400 on a name with "
                         "'..', absolute or NUL."),
    ApiRoute("POST", "/bases/{id}/ingest-path", ingest_path, "ingestPath",
             "Copy a file or folder on this machine into sources/", answers.IngestReport, body=IngestPathBody,
             errors=INGEST_ERRORS,
             description="Loopback clients only. Symlinks are never copied; when nothing could be added the answer "
                         "is 409 (a name exists), 413 (too large) or 400."),
]
