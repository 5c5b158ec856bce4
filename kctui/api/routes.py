"""Every route of the protocol (no two of them match the same path and method): the route table `create_app` serves and
`openapi_document()` describes."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse

from kctui.api import ingest_routes, routes_bases, routes_jobs, routes_pages
from kctui.api.route_table import ApiRoute


async def openapi_json(request: Request) -> JSONResponse:
    """The OpenAPI description of these routes (kctui.api.openapi), raw: tools read it as is."""
    return JSONResponse(request.app.state.openapi)


ROUTES: list[ApiRoute] = [
    *routes_bases.ROUTES,
    *routes_jobs.ROUTES,
    *routes_pages.ROUTES,
    *ingest_routes.ROUTES,
    ApiRoute("GET", "/openapi.json", openapi_json, "getOpenApi", "This document (raw, not wrapped in the envelope)",
             None, errors=("401", "413", "500")),
]
