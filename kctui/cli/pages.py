"""`kctui page list|history|show`: the compiled pages of a base and a page's immutable revisions;
`kctui page append|revise`: a person's direct edits (issue 15, through the trust boundary and promotion)."""

from __future__ import annotations

import click

from kctui.cli.common import KctuiGroup, open_services, print_json, table
from kctui.core.clock import rfc3339


@click.group(cls=KctuiGroup)
def page() -> None:
    """The compiled pages, their revisions, and a person's direct edits."""


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


def _edit_text(text: str | None, file: str | None) -> str:
    if (text is None) == (file is None):
        raise click.UsageError("give the text with exactly one of --text or --file")
    if file is not None:
        try:
            with open(file, encoding="utf-8") as fh:
                return fh.read(64 * 1024)
        except (OSError, UnicodeDecodeError) as exc:
            raise click.UsageError(f"cannot read {file}: {exc}") from None
    return text or ""


def _print_edit(data: dict, as_json: bool) -> None:
    if as_json:
        print_json(data)
        return
    e = data["edit"]
    cite = f" citing {e['citation']}" if e.get("citation") else ""
    click.echo(f"{data['page']}: {data['operation']} {e['id']} ({e['kind']}{cite}) by {data['author']}; "
               f"now revision {data['revision']}")


@page.command("append")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.argument("slug")
@click.option("--text", help="The statement or note.")
@click.option("--file", "file", type=click.Path(dir_okay=False), help="Read the text from this file.")
@click.option("--note", "as_note", is_flag=True, help="A note (the writer's own words, no citation).")
@click.option("--cite", help="A source line range the statement rests on: PATH:Lstart-Lend (must contain its value).")
@click.option("--value", help="The words the cited lines must contain (default: the text).")
@click.option("--expected-revision", type=click.IntRange(min=1), help="Refuse if the page moved past this revision.")
@click.option("--json", "as_json", is_flag=True)
def page_append_cmd(workspace: str, kb_id: str, slug: str, text: str | None, file: str | None, as_note: bool,
                    cite: str | None, value: str | None, expected_revision: int | None, as_json: bool) -> None:
    """Append a statement (optionally citing source lines) or a note to page SLUG, as a person."""
    from kctui.services.page_edit import edit_page  # noqa: PLC0415

    data = edit_page(open_services(), workspace, kb_id, slug, op="append", text=_edit_text(text, file),
                     kind="note" if as_note else "statement", citation=cite, value=value,
                     expected_revision=expected_revision)
    _print_edit(data, as_json)


@page.command("revise")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.argument("slug")
@click.option("--section", help="The section (of those people write on the page) to set.")
@click.option("--edit", "edit_id", metavar="ID", help="Rewrite this earlier statement or note instead (e.g. e2).")
@click.option("--text", help="The section's new text.")
@click.option("--file", "file", type=click.Path(dir_okay=False), help="Read the text from this file.")
@click.option("--expected-revision", type=click.IntRange(min=1), help="Refuse if the page moved past this revision.")
@click.option("--json", "as_json", is_flag=True)
def page_revise_cmd(workspace: str, kb_id: str, slug: str, section: str | None, edit_id: str | None,
                    text: str | None, file: str | None, expected_revision: int | None, as_json: bool) -> None:
    """Revise (set) a section people write on page SLUG, or rewrite an earlier statement or note
    (--edit ID); refused on a human-confirmed page."""
    from kctui.services.page_edit import edit_page  # noqa: PLC0415

    if (section is None) == (edit_id is None):
        raise click.UsageError("give exactly one of --section NAME or --edit ID")
    data = edit_page(open_services(), workspace, kb_id, slug, op="revise", text=_edit_text(text, file),
                     kind="section" if section is not None else None, section=section, edit_id=edit_id,
                     expected_revision=expected_revision)
    _print_edit(data, as_json)


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


@click.command("brief")
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
