"""More `kctui` commands: demo (and, in later modules, serve, resume, worker)."""

from __future__ import annotations

import shutil
import sys
from importlib import resources
from pathlib import Path

import click

from kctui import paths
from kctui.cli import main, _open_app
from kctui.cli_common import fail, open_services, phase_text

DEMO_KB_NAME = "Demo notes"


def _demo_sources() -> list[Path]:
    root = resources.files("kctui") / "demo_sources"
    return sorted(Path(str(p)) for p in root.iterdir() if p.is_file())


@main.command("demo")
@click.option("--dir", "directory", type=click.Path(file_okay=False),
              help="Where to create the demo workspace (default: <state dir>/demo-workspace).")
@click.option("--no-tui", is_flag=True, help="Create and compile the demo, then exit instead of opening the app.")
def demo_cmd(directory: str | None, no_tui: bool) -> None:
    """Create a demo workspace with a knowledge base of bundled sample sources, compile it, open the app."""
    from kctui.cli_wait import compile_and_wait  # noqa: PLC0415
    from kctui.services import bases as bases_svc  # noqa: PLC0415

    ws = Path(directory).expanduser() if directory else paths.state_dir() / "demo-workspace"
    try:
        ws.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot create {ws}: {exc.strerror or exc}")
    svc = open_services()
    changed, base = bases_svc.create_base(svc, ws, DEMO_KB_NAME, description="Sample notes bundled with kctui.")
    sources = paths.sources_path(ws.resolve(), base.id)
    for src in _demo_sources():
        target = sources / src.name
        if not target.exists():
            shutil.copyfile(src, target)
    click.echo(f"demo workspace: {ws.resolve()}")
    click.echo(f"knowledge base: {base.id} ({'created' if changed else 'exists'}), sources in {sources}")
    _, base, final = compile_and_wait(svc, str(ws), base.id)
    if final is not None:
        click.echo(f"compile {final.id}: {phase_text(final.phase)}" + (f" — {final.error}" if final.error else ""))
        if final.phase != "succeeded":
            sys.exit(1)
    click.echo(f"wiki: {paths.wiki_path(ws.resolve(), base.id)}")
    svc.close()
    if not no_tui:
        _open_app()


@main.command("resume")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.option("--no-compile", is_flag=True, help="Accept the current sources as the new baseline without compiling.")
@click.option("--json", "as_json", is_flag=True)
def resume_cmd(workspace: str, kb_id: str, no_compile: bool, as_json: bool) -> None:
    """Clear KB's bulk-change pause: rescan, accept the snapshot, and queue a manual compile."""
    from kctui.cli_common import print_json  # noqa: PLC0415
    from kctui.services.scheduler import resume_base  # noqa: PLC0415
    from kctui.services.shapes import job_json  # noqa: PLC0415
    from kctui.services.status import base_status_json  # noqa: PLC0415

    from kctui.services.bases import get_base  # noqa: PLC0415

    svc = open_services()
    was = get_base(svc, workspace, kb_id)
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


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Loopback address to listen on (127.0.0.1 or ::1 only).")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="Port (0 picks a free one).")
@click.option("--no-worker", is_flag=True, help="Run no built-in compiler: external compilers claim all work.")
@click.option("--no-watch", is_flag=True, help="Do not watch sources or schedule automatic compiles.")
def serve_cmd(host: str, port: int, no_worker: bool, no_watch: bool) -> None:
    """Run the headless host: API server, watcher, scheduler, retries and the built-in compiler worker,
    until Ctrl-C or SIGTERM."""
    import logging  # noqa: PLC0415

    from kctui.api.serve import serve  # noqa: PLC0415
    from kctui.services.scheduler import SchedulerService  # noqa: PLC0415

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    extra = [] if no_watch else [SchedulerService()]
    sys.exit(serve(host, port, worker=not no_worker, extra_services=extra))


@main.command("worker")
@click.option("--url", required=True, help="The host's base URL, e.g. http://127.0.0.1:8765")
@click.option("--token-file", type=click.Path(dir_okay=False), help="Bearer token file (default: the state dir's api-token).")
@click.option("--once", is_flag=True, help="Handle at most one claim, then exit.")
def worker_cmd(url: str, token_file: str | None, once: bool) -> None:
    """Run the built-in compiler as a protocol worker against any host that speaks contract version 1."""
    from kctui.api.client import run_worker_cli  # noqa: PLC0415

    sys.exit(run_worker_cli(url, token_file, once))
