"""`kctui compile WORKSPACE KB --dry-run [--json]`: a whole pass here, its change brief printed, nothing
promoted, filed, recorded or emitted (kctui.services.dry_run)."""

from __future__ import annotations

import sys

import click

from kctui.cli.common import print_json
from kctui.services.context import ServiceContext
from kctui.services.dry_run import run_dry_run, summary_line
from kctui.services.status import base_status_json


def dry_run_cmd(svc: ServiceContext, workspace: str, kb_id: str, as_json: bool) -> None:
    run = run_dry_run(svc, workspace, kb_id)
    if as_json:
        from kctui.services.bases import get_base  # noqa: PLC0415

        base = get_base(svc, run.workspace, run.base_id)
        print_json({"changed": False, "knowledgeBase": base_status_json(svc, base), "job": run.to_json()})
    elif run.phase == "succeeded":
        click.echo(run.brief["markdown"], nl=False)
        click.echo(summary_line(run), err=True)
    else:
        if run.brief:  # the pass ran; its candidate would be refused: the brief says what and why
            click.echo(run.brief["markdown"], nl=False)
        click.echo(f"kctui: error: {summary_line(run)}", err=True)
    if run.phase != "succeeded":
        sys.exit(1)
