"""`kctui page history|show`: a page's immutable revisions."""

from __future__ import annotations

import click

from kctui.cli import main
from kctui.cli_common import KctuiGroup, open_services, print_json, table
from kctui.core.clock import rfc3339


@main.group(cls=KctuiGroup)
def page() -> None:
    """A compiled page's revisions."""


@page.command("history")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.argument("slug")
@click.option("--json", "as_json", is_flag=True)
def page_history_cmd(workspace: str, kb_id: str, slug: str, as_json: bool) -> None:
    """List every revision of page SLUG (or its path, e.g. concepts/x.md): number, author, time, reason."""
    from kctui.services.revisions import page_history  # noqa: PLC0415

    revs = page_history(open_services(), workspace, kb_id, slug)
    if as_json:
        print_json({"items": [r.json() for r in revs], "total": len(revs)})
        return
    rows = [[str(r.number), rfc3339(r.at) or "", r.author, ("(removed) " if r.deleted else "") + r.reason] for r in revs]
    click.echo(f"{revs[0].page_path}")
    click.echo(table(rows, ["REV", "AT", "AUTHOR", "REASON"]))


@page.command("show")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.argument("slug")
@click.option("--revision", "number", type=click.IntRange(min=1), help="Show this revision (default: the latest).")
@click.option("--json", "as_json", is_flag=True)
def page_show_cmd(workspace: str, kb_id: str, slug: str, number: int | None, as_json: bool) -> None:
    """Print page SLUG as it is now, or as it was at --revision N."""
    from kctui.services.revisions import page_revision  # noqa: PLC0415

    rev = page_revision(open_services(), workspace, kb_id, slug, number)
    if as_json:
        print_json(rev.json(with_body=True))
        return
    click.echo(rev.body, nl=not rev.body.endswith("\n"))


@main.command("brief")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.argument("job_id", metavar="[JOB]", required=False)
@click.option("--json", "as_json", is_flag=True)
def brief_cmd(workspace: str, kb_id: str, job_id: str | None, as_json: bool) -> None:
    """Print the change brief of JOB (default: the base's latest pass that wrote one)."""
    from kctui.services.briefs import find_brief  # noqa: PLC0415

    data = find_brief(open_services(), workspace, kb_id, job_id)
    if as_json:
        print_json(data)
        return
    click.echo(data["markdown"], nl=not data["markdown"].endswith("\n"))
