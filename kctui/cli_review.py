"""`kctui review …`: the review queue of held updates and conflicts."""

from __future__ import annotations

import click

from kctui.cli import main
from kctui.cli_common import KctuiGroup, open_services, print_json, table


@main.group(cls=KctuiGroup)
def review() -> None:
    """Held updates and conflicts waiting for a person."""


@review.command("list")
@click.argument("workspace", required=False, type=click.Path())
@click.option("--all", "show_all", is_flag=True, help="Include resolved items.")
@click.option("--json", "as_json", is_flag=True)
def review_list(workspace: str | None, show_all: bool, as_json: bool) -> None:
    """List open review items (of WORKSPACE, or everywhere)."""
    from kctui.services.review import list_items  # noqa: PLC0415

    items = list_items(open_services(), workspace, state=None if show_all else "open")
    if as_json:
        print_json({"items": [i.json() for i in items], "total": len(items)})
        return
    if not items:
        click.echo("nothing to review")
        return
    rows = [[str(i.id), i.base_id, "⚠ conflict" if i.kind == "conflict" else "✋ held", i.page_path,
             i.reason, i.state] for i in items]
    click.echo(table(rows, ["ID", "KB", "KIND", "PAGE", "REASON", "STATE"]))


@review.command("show")
@click.argument("item_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True)
def review_show(item_id: str, as_json: bool) -> None:
    """Show an item: the diff of a held update, or both values of a conflict with their cited lines."""
    from kctui.services.review import show_item  # noqa: PLC0415

    data = show_item(open_services(), item_id)
    if as_json:
        print_json(data)
        return
    click.echo(f"#{data['id']} {data['kind']} on {data['page']} ({data['knowledgeBaseId']}) — {data['state']}")
    click.echo(f"reason: {data['reason']} — {data['reasonWords']}")
    if data["summary"]:
        click.echo(f"summary: {data['summary']}")
    click.echo(f"page revision seen: {data['expectedRevision']} (current {data['currentRevision']})")
    if data["kind"] == "held":
        click.echo("")
        click.echo(data["diff"] or "(no textual difference)")
        return
    for side, label in (("existing", "the page says"), ("incoming", "the new source says")):
        s = data.get(side)
        if s:
            click.echo(f"\n{label}: {s['value']}   ^[{s['citation']}]")
            if s.get("citedLines"):
                click.echo(s["citedLines"])


def _resolve(item_id: str, action: str, expected: int | None, as_json: bool) -> None:
    from kctui.services.review import resolve  # noqa: PLC0415

    item = resolve(open_services(), item_id, action, expected_revision=expected)
    if as_json:
        print_json(item.json())
    else:
        click.echo(f"#{item.id} {item.state}: {item.page_path}")


_expected = click.option("--expected-revision", "expected", type=int,
                         help="The page revision you reviewed (default: the one the item was shown with).")
_json = click.option("--json", "as_json", is_flag=True)


@review.command("approve")
@click.argument("item_id", metavar="ID")
@_expected
@_json
def review_approve(item_id: str, expected: int | None, as_json: bool) -> None:
    """Apply a held update exactly as it was proposed (published through promotion)."""
    _resolve(item_id, "approve", expected, as_json)


@review.command("reject")
@click.argument("item_id", metavar="ID")
@_expected
@_json
def review_reject(item_id: str, expected: int | None, as_json: bool) -> None:
    """Drop a held update; the page's needs-review flag is cleared."""
    _resolve(item_id, "reject", expected, as_json)


@review.command("resolve")
@click.argument("item_id", metavar="ID")
@click.option("--use-new", "choice", flag_value="use_new", help="Take the new source's value (page confirmed).")
@click.option("--keep", "choice", flag_value="keep", help="Keep what the page says (page confirmed).")
@click.option("--dismiss", "choice", flag_value="dismiss", help="Dismiss the conflict (flag cleared).")
@_expected
@_json
def review_resolve(item_id: str, choice: str | None, expected: int | None, as_json: bool) -> None:
    """Resolve a conflict: --use-new, --keep or --dismiss."""
    if choice is None:
        raise click.UsageError("choose one of --use-new, --keep or --dismiss")
    _resolve(item_id, choice, expected, as_json)
