"""`kctui demo`: a demo workspace with a knowledge base of the bundled sample sources, compiled here."""

from __future__ import annotations

import shutil
import sys
from importlib import resources
from pathlib import Path

import click

from kctui import paths
from kctui.cli.common import fail, open_app, open_services, phase_text
from kctui.services import bases as bases_svc

DEMO_KB_NAME = "Demo notes"


def _demo_sources() -> list[Path]:
    root = resources.files("kctui") / "demo_sources"
    return sorted(Path(str(p)) for p in root.iterdir() if p.is_file())


@click.command("demo")
@click.option("--dir", "directory", type=click.Path(file_okay=False),
              help="Where to create the demo workspace (default: <state dir>/demo-workspace).")
@click.option("--no-tui", is_flag=True, help="Create and compile the demo, then exit instead of opening the app.")
def demo_cmd(directory: str | None, no_tui: bool) -> None:
    """Create a demo workspace with a knowledge base of bundled sample sources, compile it, open the app."""
    from kctui.cli.wait import compile_and_wait  # noqa: PLC0415 - the compiler loads only to compile here

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
        open_app()
