"""`kctui page list|history|show`: the compiled pages of a base and a page's immutable revisions."""

from __future__ import annotations

import click

from kctui.cli import main
from kctui.cli_common import KctuiGroup, open_services, print_json, table
from kctui.core.clock import rfc3339


@main.group(cls=KctuiGroup)
def page() -> None:
    """The compiled pages and their revisions."""


@page.command("list")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.option("--json", "as_json", is_flag=True)
def page_list_cmd(workspace: str, kb_id: str, as_json: bool) -> None:
    """Every compiled page, by class (sources, concepts, entities): status, open review items, title."""
    from kctui.services.pages import list_pages  # noqa: PLC0415

    data = list_pages(open_services(), workspace, kb_id)
    if as_json:
        print_json(data)
        return
    rows = [[p["pageClass"], p["status"], str(p["openItems"] or "-"), p["page"], p["title"]] for p in data["items"]]
    click.echo(table(rows, ["CLASS", "STATUS", "OPEN", "PAGE", "TITLE"]) if rows else "no compiled page yet")
    click.echo(f"{data['total']} page{'s' if data['total'] != 1 else ''}: " +
               ", ".join(f"{n} {c}" for c, n in data["counts"].items()))


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
