"""`kctui search` and `kctui context`: query a knowledge base's promoted wiki."""

from __future__ import annotations

import click

from kctui.cli.common import open_services, print_json
from kctui.core.glyphs import status_glyph
from kctui.search.context import DEFAULT_BUDGET, MAX_BUDGET, MIN_BUDGET
from kctui.services.search import DEFAULT_LIMIT, MAX_LIMIT


def _print_hit(hit: dict) -> None:
    status = hit["status"]
    mark = f"{status_glyph(status, True)} {status}" if hit["flag"] else status
    click.echo(f"{hit['rank']:>2}. {hit['title']}  {hit['page']}  [{mark}]")
    if hit["flag"]:
        click.echo(f"    ⚠ {hit['flag']['why']}")
        for c in hit["flag"].get("conflicts", [])[:4]:
            click.echo(f"      disputed: {c['text']} {c['citation']}")
    snippet = " ".join(hit["snippet"].split())
    if snippet:
        click.echo(f"    {snippet}")
    for c in hit["claims"]:
        click.echo(f"    * {c['text']} {c['citation']}")


@click.command("search")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.argument("query")
@click.option("--limit", default=DEFAULT_LIMIT, show_default=True, type=click.IntRange(1, MAX_LIMIT),
              help="At most this many pages.")
@click.option("--json", "as_json", is_flag=True, help="Print {items, total, match, nextActions, …} as JSON.")
def search_cmd(workspace: str, kb_id: str, query: str, limit: int, as_json: bool) -> None:
    """Search the compiled wiki of KB for QUERY (words, "quoted phrases", word* for a prefix).

    Only promoted pages are searched, never sources/ or staged output. Each hit shows the page, its
    status (⚠ when not plainly current), a snippet and the claims naming the query's terms, with
    their citations."""
    from kctui.services.search import search

    result = search(open_services(), workspace, kb_id, query, limit=limit)
    if as_json:
        print_json(result)
        return
    if not result["items"]:
        click.echo(f"no compiled page matches “{result['query']}”")
    else:
        shown = len(result["items"])
        how = {"all": "all terms", "all-prefix": "all terms (as prefixes)", "any": "any term"}[result["match"]]
        click.echo(f"{result['total']} page{'s' if result['total'] != 1 else ''} match {how}"
                   + (f"; the best {shown} shown" if result["total"] > shown else ""))
        for hit in result["items"]:
            click.echo("")
            _print_hit(hit)
    if result["nextActions"]:
        click.echo("")
    for action in result["nextActions"]:
        click.echo(f"next: {action}")


@click.command("context")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.argument("query")
@click.option("--budget", default=DEFAULT_BUDGET, show_default=True, type=int,
              help=f"Largest packet in bytes ({MIN_BUDGET:,}–{MAX_BUDGET:,}).")
@click.option("--json", "as_json", is_flag=True, help="Print the packet as one JSON object.")
def context_cmd(workspace: str, kb_id: str, query: str, budget: int, as_json: bool) -> None:
    """A context packet about QUERY for an assistant or a person, at most --budget bytes.

    Both layers in one ranking: the compiled pages' claims (a page the query names first, one that is
    not plainly current, contradicted, needs-review or stale, flagged inline with why) and the raw
    source passages (paragraphs, list items, table rows, conversation turns, labelled EVIDENCE with
    their lines), each source line once. One line per statement under one header per page or source
    section; a relative time in a dated section is given as the date it means. A truncated packet
    says so and what budget holds the next statement."""
    from kctui.services.search import context

    text = context(open_services(), workspace, kb_id, query, budget=budget, fmt="json" if as_json else "text")
    click.echo(text, nl=False)  # both forms end with a newline, inside the budget
