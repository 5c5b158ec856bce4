"""The knowledge base routes: list, create, the compilation summary, the compilation policy, and the
source changes since the accepted snapshot. Thin shells: one service call each, wrapped in the envelope."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from kctui.api import answers
from kctui.api.bodies import CreateBaseBody, PolicyBody, query_workspace, read_body
from kctui.api.envelope import ApiError, ok
from kctui.api.handling import call, endpoint
from kctui.api.route_table import GETS, ApiRoute
from kctui.core.cron import check_expression
from kctui.services import bases as bases_svc
from kctui.services.context import ServiceContext
from kctui.services.policy import update_policy
from kctui.services.scheduler import source_changes as report_changes
from kctui.services.shapes import job_json
from kctui.services.status import base_status_json


def changed_base_job(changed: bool, ctx: ServiceContext, base: Any, job: Any) -> dict[str, Any]:
    return {"changed": changed, "knowledgeBase": base_status_json(ctx, base),
            "job": job_json(job) if job is not None else None}


@endpoint
async def list_bases(request: Request) -> JSONResponse:
    ws = query_workspace(request, required=False)

    def run(ctx: ServiceContext) -> dict[str, Any]:  # list_bases, create_base and claim monitor `ws` themselves
        items = [base_status_json(ctx, b) for b in bases_svc.list_bases(ctx, ws)]
        return {"items": items, "total": len(items)}

    data = await call(request, run)
    return ok(data, f"{data['total']} knowledge base(s)")


@endpoint
async def create_base(request: Request) -> JSONResponse:
    body = await read_body(request, CreateBaseBody)

    def run(ctx: ServiceContext) -> dict[str, Any]:
        changed, base = bases_svc.create_base(ctx, body.workspace, body.name, description=body.description or "",
                                              policy=body.compilation_policy or "manual",
                                              from_paths=body.paths or [])
        return {"changed": changed, "knowledgeBase": base_status_json(ctx, base)}

    data = await call(request, run)
    kb = data["knowledgeBase"]["id"]
    return ok(data, f"knowledge base {kb} created" if data["changed"] else f"knowledge base {kb} already exists")


@endpoint
async def get_summary(request: Request) -> JSONResponse:
    kb_id = request.path_params["id"]
    ws = query_workspace(request)
    data = await call(request, lambda ctx: base_status_json(ctx, bases_svc.get_base(ctx, ws, kb_id))["compilation"],
                      monitor=ws)
    return ok(data, f"compilation state of {kb_id}")


@endpoint
async def set_policy(request: Request) -> JSONResponse:
    kb_id = request.path_params["id"]
    body = await read_body(request, PolicyBody)
    ws, policy, schedule, schedule_always = body.workspace, body.policy, body.schedule, body.schedule_always
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

    data = await call(request, run, monitor=ws)
    return ok(data, f"compilation policy is {policy}")


@endpoint
async def source_changes(request: Request) -> JSONResponse:
    kb_id = request.path_params["id"]
    ws = query_workspace(request)
    data = await call(request, lambda ctx: report_changes(ctx, ws, kb_id), monitor=ws)
    return ok(data, f"{data['totalChanged']} change(s) since the accepted snapshot")


ROUTES = [
    ApiRoute("GET", "/bases", list_bases, "listBases", "The knowledge bases", answers.BaseList,
             query="optional", errors=GETS),
    ApiRoute("POST", "/bases", create_base, "createBase", "Create a knowledge base (phase source_ready, no wiki yet)",
             answers.ChangedBase, body=CreateBaseBody,
             description="An existing base of the same id answers changed false."),
    ApiRoute("GET", "/bases/{id}/compilation", get_summary, "getCompilation", "The compilation summary",
             answers.CompilationSummary, query="required", errors=GETS),
    ApiRoute("PATCH", "/bases/{id}/compilation-policy", set_policy, "setCompilationPolicy",
             "Set the compilation policy", answers.ChangedBaseNoJob, body=PolicyBody,
             description="Switching to manual cancels a queued automatic job."),
    ApiRoute("GET", "/bases/{id}/source-changes", source_changes, "getSourceChanges",
             "Changes since the accepted snapshot (read-only)", answers.SourceChanges, query="required",
             errors=GETS),
]
