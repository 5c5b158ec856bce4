"""`kctui compile|cancel|status|jobs|resume`: ask for compiles, follow and cancel jobs, clear a pause."""

from __future__ import annotations

import click

from kctui.cli.common import open_services, phase_text, print_json, table
from kctui.cli.kb import print_base
from kctui.cli.llm import compile_estimate_cmd
from kctui.core.handed_back import handed_back
from kctui.services import bases as bases_svc
from kctui.services import jobs as jobs_svc
from kctui.services.shapes import job_json
from kctui.services.status import base_status_json


@click.command("compile")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.option("--wait", is_flag=True, help="Wait for the job to end (running the built-in compiler here "
              "when no host is running); exit non-zero if it failed.")
@click.option("--json", "as_json", is_flag=True, help="Print {changed, knowledgeBase, job} as JSON.")
@click.option("--estimate", is_flag=True, help="With a model-backed base: print the tokens and cost this pass "
              "would spend, and queue nothing.")
@click.option("--dry-run", "dry_run", is_flag=True, help="Run a whole pass here and print its change brief "
              "without promoting, filing review items, recording revisions or emitting events; the candidate "
              "tree is kept under the base's .a3s/dry-run/ until the next dry run.")
@click.pass_context
def compile_cmd(ctx: click.Context, workspace: str, kb_id: str, wait: bool, as_json: bool, estimate: bool,
                dry_run: bool) -> None:
    """Request a manual compile of KB now (ignores the smart-auto windows and clears a pause)."""
    if dry_run:
        from kctui.cli.dry_run import dry_run_cmd  # noqa: PLC0415 - the compiler loads only to compile here

        dry_run_cmd(open_services(), workspace, kb_id, as_json)
        return
    if estimate:
        ctx.invoke(compile_estimate_cmd, workspace=workspace, kb_id=kb_id, full=False, as_json=as_json)
        return
    svc = open_services()
    if wait:
        from kctui.cli.wait import compile_and_report  # noqa: PLC0415 - the compiler loads only to compile here

        compile_and_report(svc, workspace, kb_id, as_json)
        return
    changed, base, job = jobs_svc.request_compile(svc, workspace, kb_id)
    if not wait:
        if as_json:
            print_json({"changed": changed, "knowledgeBase": base_status_json(svc, base),
                        "job": job_json(job) if job else None})
        else:
            what = "queued" if job and job.phase == "queued" else "follow-up requested" if base.follow_up else "already compiling"
            click.echo(f"{what}: {job.id if job else '-'} ({base.id})")
        return


@click.command("cancel")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.argument("job_id", metavar="[JOB]", required=False)
@click.option("--json", "as_json", is_flag=True)
def cancel_cmd(workspace: str, kb_id: str, job_id: str | None, as_json: bool) -> None:
    """Cancel KB's queued or running job (or the given JOB)."""
    svc = open_services()
    changed, base, job = jobs_svc.cancel(svc, workspace, kb_id, job_id)
    if as_json:
        print_json({"changed": changed, "knowledgeBase": base_status_json(svc, base), "job": job_json(job) if job else None})
    elif job is None:
        click.echo(f"{base.id}: nothing queued or running")
    elif changed:
        click.echo(f"cancelled {job.id}; {base.id} is now {phase_text(base.phase)}")
    else:
        click.echo(f"{job.id} had already ended ({job.phase})")


@click.command("status")
@click.argument("workspace", required=False, type=click.Path())
@click.option("--json", "as_json", is_flag=True)
def status_cmd(workspace: str | None, as_json: bool) -> None:
    """Show every knowledge base's compilation state."""
    from kctui.services.hoststatus import host_status  # noqa: PLC0415

    svc = open_services()
    data = host_status(svc, workspace)
    if as_json:
        print_json(data)
        return
    host = data["host"]
    click.echo(f"host: {host['state']}" + (f" ({host['detail']})" if host.get('detail') else ""))
    if host["state"] == "running":
        click.echo(f"watcher: {host.get('watcher') or 'unknown'}" + (f" — {host['watcherMessage']}" if host.get("watcherMessage") else ""))
    else:
        click.echo("watcher: not running (no host; start one with `kctui` or `kctui serve`)")
    if not data["items"]:
        click.echo("no knowledge bases yet — create one with `kctui kb create WORKSPACE NAME`")
    for item in data["items"]:
        click.echo("")
        print_base(item)


@click.command("jobs")
@click.option("--json", "as_json", is_flag=True)
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 10_000))
def jobs_cmd(as_json: bool, limit: int) -> None:
    """List running, queued and recent jobs."""
    svc = open_services()
    items = [job_json(j) for j in jobs_svc.list_jobs(svc, limit=limit)]
    if as_json:
        print_json({"items": items, "total": len(items)})
        return
    if not items:
        click.echo("no jobs yet")
        return
    rows = [[j["id"], j["knowledgeBaseId"], j["trigger"],
             "◔ stopped (handed back)" if handed_back(j["phase"], j["errorCode"], j["error"]) else phase_text(j["phase"]),
             j["createdAt"] or "",
             (f"[{j['errorCode']}] " if j["errorCode"] else "") + (j["error"] or "")[:60]] for j in items]
    click.echo(table(rows, ["JOB", "KB", "TRIGGER", "PHASE", "CREATED", "ERROR"]))


@click.command("resume")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.option("--no-compile", is_flag=True, help="Accept the current sources as the new baseline without compiling.")
@click.option("--json", "as_json", is_flag=True)
def resume_cmd(workspace: str, kb_id: str, no_compile: bool, as_json: bool) -> None:
    """Clear KB's bulk-change pause: rescan, accept the snapshot, and queue a manual compile."""
    from kctui.services.scheduler import resume_base  # noqa: PLC0415

    svc = open_services()
    was = bases_svc.get_base(svc, workspace, kb_id)
    base, job, counts = resume_base(svc, workspace, kb_id, compile=not no_compile)
    if as_json:
        print_json({"changed": True, "knowledgeBase": base_status_json(svc, base),
                    "job": job_json(job) if job else None, "sourceChanges": counts})
        return
    if was.paused_reason:
        click.echo(f"pause cleared ({was.paused_reason})")
    click.echo(f"accepted: {counts['currentFiles']} files — {counts['added']} added, {counts['modified']} modified, "
               f"{counts['deleted']} deleted, {counts['renamed']} renamed since the last accepted snapshot")
    click.echo(f"queued {job.id}" if job else f"{base.id} is now {phase_text(base.phase)}")
