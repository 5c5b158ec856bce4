"""The compilation routes: ask for a compilation (or a dry run), read one job, cancel it, claim the next
one, and report its single terminal result. Thin shells: one service call each, wrapped in the envelope."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from kctui.api import answers
from kctui.api.bodies import ClaimBody, CompilationBody, ResultBody, WorkspaceBody, query_workspace, read_body
from kctui.api.envelope import ok
from kctui.api.handling import call, endpoint
from kctui.api.route_table import GETS, ApiRoute
from kctui.api.routes_bases import changed_base_job
from kctui.core.models import CLAIMED_BY_EXTERNAL
from kctui.services import bases as bases_svc
from kctui.services import jobs as jobs_svc
from kctui.services import results as results_svc
from kctui.services.context import ServiceContext
from kctui.services.dry_run import last_dry_run, run_dry_run, summary_line
from kctui.services.errors import NotFound
from kctui.services.policy import compile_options_json
from kctui.services.shapes import claim_json, job_json
from kctui.services.status import base_status_json


@endpoint
async def request_compilation(request: Request) -> JSONResponse:
    kb_id = request.path_params["id"]
    body = await read_body(request, CompilationBody)
    ws = body.workspace
    if body.dry_run:
        return await dry_run(request, kb_id, ws)

    def run(ctx: ServiceContext) -> dict[str, Any]:
        changed, base, job = jobs_svc.request_compile(ctx, ws, kb_id)
        return changed_base_job(changed, ctx, base, job)

    data = await call(request, run, monitor=ws)
    job = data["job"]
    if not data["changed"]:
        words = "this generation is already being compiled"
    elif job and job["phase"] == "queued":
        words = f"compilation {job['id']} queued"
    else:
        words = "a compilation follows the running one"
    return ok(data, words)


async def dry_run(request: Request, kb_id: str, ws: str) -> JSONResponse:
    def run(ctx: ServiceContext) -> tuple[dict[str, Any], str]:
        done = run_dry_run(ctx, ws, kb_id)
        base = bases_svc.get_base(ctx, done.workspace, done.base_id)
        return {"changed": False, "knowledgeBase": base_status_json(ctx, base), "job": done.to_json()}, \
            summary_line(done)

    data, words = await call(request, run, monitor=ws)
    return ok(data, words)


@endpoint
async def get_job(request: Request) -> JSONResponse:
    """Ours, beyond the reference: one job of a base (a compiler can read its job's phase)."""
    kb_id, job_id = request.path_params["id"], request.path_params["jobId"]
    ws = query_workspace(request)

    def run(ctx: ServiceContext) -> dict[str, Any]:
        base = bases_svc.get_base(ctx, ws, kb_id)
        if job_id.startswith("dry-run-"):  # the base's kept dry run (kctui.services.dry_run)
            kept = last_dry_run(ctx, base.workspace, base.id)
            if kept is None or kept.get("id") != job_id:
                raise NotFound(f"no dry run '{job_id}' kept for knowledge base {kb_id} (only the last one is)")
            return kept
        job = jobs_svc.get_job(ctx, job_id)
        if job.workspace != base.workspace or job.base_id != base.id:
            raise NotFound(f"no job '{job_id}' in knowledge base {kb_id}")
        return job_json(job)

    data = await call(request, run, monitor=ws)
    return ok(data, f"job {job_id} is {data['phase']}")


@endpoint
async def cancel(request: Request) -> JSONResponse:
    kb_id, job_id = request.path_params["id"], request.path_params["jobId"]
    ws = (await read_body(request, WorkspaceBody)).workspace

    def run(ctx: ServiceContext) -> dict[str, Any]:
        changed, base, job = jobs_svc.cancel(ctx, ws, kb_id, job_id)
        return changed_base_job(changed, ctx, base, job)

    data = await call(request, run, monitor=ws)
    return ok(data, f"job {job_id} cancelled" if data["changed"] else f"job {job_id} had already ended")


@endpoint
async def claim(request: Request) -> JSONResponse:
    ws = (await read_body(request, ClaimBody)).workspace

    def run(ctx: ServiceContext) -> dict[str, Any]:
        out = claim_json(jobs_svc.claim(ctx, claimed_by=CLAIMED_BY_EXTERNAL, workspace=ws))
        if out["claimed"]:
            # A kctui extension (clients ignore unknown fields; the reference fields are unchanged):
            # the base's trust policy and compile options, so a remote `kctui worker` compiles
            # under the policy the base is set to, not the default one.
            out["compileOptions"] = compile_options_json(ctx, out["workspaceRoot"], out["job"]["knowledgeBaseId"])
        return out

    data = await call(request, run)
    return ok(data, f"claimed job {data['job']['id']}" if data["claimed"] else "no work to claim")


@endpoint
async def result(request: Request) -> JSONResponse:
    kb_id, job_id = request.path_params["id"], request.path_params["jobId"]
    body = await read_body(request, ResultBody)
    ws = body.workspace

    def run(ctx: ServiceContext) -> dict[str, Any]:
        changed, base, job = results_svc.report_result(
            ctx, ws, kb_id, job_id, body.outcome, transient=body.transient or False, error=body.error,
            compiler_version=body.compiler_version, error_code=body.error_code)  # errorCode: ours, a closed set
        return changed_base_job(changed, ctx, base, job)

    data = await call(request, run, monitor=ws)
    return ok(data, f"job {job_id} {data['job']['phase']}")


ROUTES = [
    ApiRoute("POST", "/bases/{id}/compilations", request_compilation, "requestCompilation", "Ask for a compilation",
             answers.ChangedBaseJob, body=CompilationBody,
             description="`job` is null when nothing new was queued. With `dryRun: true` a dry run runs at once "
                         "(outside the queue: it never blocks or delays a job) and `job` is its DryRunJob, whose "
                         "result carries the change brief; 409 while another dry run of the base runs."),
    ApiRoute("GET", "/bases/{id}/compilations/{jobId}", get_job, "getJob",
             "One job of a base (ours, beyond the reference)", (answers.Job, answers.DryRunJob), query="required",
             errors=GETS, description="A `dry-run-…` id names the base's kept dry run (only the last one is kept)."),
    ApiRoute("POST", "/bases/{id}/compilations/{jobId}/cancel", cancel, "cancelJob", "Cancel a queued or running job",
             answers.ChangedBaseWithJob, body=WorkspaceBody),
    ApiRoute("POST", "/compilations/claim", claim, "claim", "Claim the next job (one runs at a time across workspaces)",
             answers.Claim, body=ClaimBody, body_required=False,
             description="Manual before retry before smart_auto and scheduled; a second claim while one runs "
                         "answers claimed false."),
    ApiRoute("POST", "/bases/{id}/compilations/{jobId}/result", result, "reportResult",
             "The job's single terminal result", answers.ChangedBaseWithJob, body=ResultBody,
             description="A succeeded result validates and promotes the staged wiki (a rejected tree fails the job "
                         "permanently); a failed one with transient true is retried (the fourth is final). 409 when "
                         "the job is not the running one."),
]
