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
    from kctui.cli_wait import wait_for_job  # noqa: PLC0415
    from kctui.services import bases as bases_svc  # noqa: PLC0415
    from kctui.services import jobs as jobs_svc  # noqa: PLC0415

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
    _, base, job = jobs_svc.request_compile(svc, ws, base.id)
    if job is not None and job.phase in ("queued", "running"):
        final = wait_for_job(svc, job.id)
        click.echo(f"compile {final.id}: {phase_text(final.phase)}" + (f" — {final.error}" if final.error else ""))
        if final.phase != "succeeded":
            sys.exit(1)
    click.echo(f"wiki: {paths.wiki_path(ws.resolve(), base.id)}")
    svc.close()
    if not no_tui:
        _open_app()
