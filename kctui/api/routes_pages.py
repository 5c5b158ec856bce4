"""`POST …/bases/{id}/pages/{slug}/edits` (issue 15): a direct page edit — append a statement or a note,
or revise a section — through the trust boundary, recorded as `author` (default `agent:api`: the boundary
of an unattended writer). A thin shell over `kctui.services.page_edit`."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from kctui.api import answers
from kctui.api.bodies import PageEditBody, read_body
from kctui.api.envelope import ok
from kctui.api.handling import call, endpoint
from kctui.api.route_table import ApiRoute
from kctui.services.context import ServiceContext
from kctui.services.page_edit import edit_page as edit


@endpoint
async def edit_page(request: Request) -> JSONResponse:
    kb_id, slug = request.path_params["id"], request.path_params["slug"]
    body = await read_body(request, PageEditBody)

    def run(ctx: ServiceContext) -> dict[str, Any]:
        return edit(ctx, body.workspace, kb_id, slug, op=body.operation, text=body.text,
                    author=body.author or "agent:api", expected_revision=body.expected_revision, kind=body.kind,
                    citation=body.citation, value=body.value, section=body.section, edit_id=body.edit_id)

    data = await call(request, run, monitor=body.workspace)
    return ok(data, f"{data['page']}: {data['operation']} {data['edit']['id']} is revision {data['revision']}")


ROUTES = [
    ApiRoute("POST", "/bases/{id}/pages/{slug}/edits", edit_page, "editPage",
             "Append to or revise a compiled page directly (ours)", answers.PageEdit, body=PageEditBody,
             description="Through classify_update: supersede is refused, a human-confirmed page takes appends only; "
                         "a statement's citation must contain its value. 409: refused by the trust boundary, a "
                         "compile is running, or the page moved past expectedRevision."),
]
