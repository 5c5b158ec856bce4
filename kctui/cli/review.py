"""`kctui review …`: the review queue of held updates and conflicts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from kctui.cli.common import KctuiGroup, open_services, print_json, table
from kctui.core.glyphs import ITEM_GLYPHS

if TYPE_CHECKING:
    from kctui.services.review_bulk import BulkOutcome, Selection


@click.group(cls=KctuiGroup)
def review() -> None:
    """Held updates and conflicts waiting for a person."""


@review.command("list")
@click.argument("workspace", required=False, type=click.Path())
@click.option("--all", "show_all", is_flag=True, help="Include resolved items.")
@click.option("--limit", type=int, default=50, show_default=True, help="At most this many items.")
@click.option("--offset", type=int, default=0, show_default=True, help="Skip this many items first (paging).")
@click.option("--json", "as_json", is_flag=True, help="{items, total, limit, offset, next, counts}.")
def review_list(workspace: str | None, show_all: bool, limit: int, offset: int, as_json: bool) -> None:
    """List open review items (of WORKSPACE, or everywhere), oldest first, a page at a time."""
    from kctui.services.review_queue import list_page  # noqa: PLC0415

    page = list_page(open_services(), workspace, state=None if show_all else "open", limit=limit, offset=offset)
    if as_json:
        print_json(page.json())
        return
    if not page.total:
        click.echo("nothing to review")
        return
    rows = [[str(i.id), i.base_id, f"{ITEM_GLYPHS.get(i.kind, '•')} {i.kind}",
             i.page_path if len(i.page_list) <= 1 else i.label,
             i.reason, i.state_words] for i in page.items]
    if rows:
        click.echo(table(rows, ["ID", "KB", "KIND", "PAGE", "REASON", "STATE"]))
    shown = f"{page.offset + 1}–{page.offset + len(page.items)}" if page.items else "none"
    more = f"; --offset {page.next} for more" if page.next is not None else ""
    click.echo(f"{page.counts.words()} · showing {shown} of {page.total}{more}")


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
    click.echo(f"#{data['id']} {data['kind']} on {data['page']} ({data['knowledgeBaseId']}) — {data.get('stateWords') or data['state']}")
    click.echo(f"reason: {data['reason']} — {data['reasonWords']}")
    if data["summary"]:
        click.echo(f"summary: {data['summary']}")
    click.echo(f"page revision seen: {data['expectedRevision']} (current {data['currentRevision']})")
    if data["kind"] == "held":
        click.echo("")
        click.echo(data["diff"] or "(no textual difference)")
        for h in data.get("hunks") or []:
            click.echo(f"hunk {h['hunk']}: {h['what']} in {h['page']}"
                       + (f" § {h['section']}" if h["section"] else "")
                       + (f"  ^[{', '.join(h['citations'])}]" if h["citations"] else ""))
        return
    for side, label in (("existing", "the page says"), ("incoming", "the new source says")):
        s = data.get(side)
        if s:
            click.echo(f"\n{label}: {s['value']}   ^[{s['citation']}]")
            if s.get("citedLines"):
                click.echo(s["citedLines"])


def _resolve(item_id: str, action: str, expected: int | None, as_json: bool, hunks: str | None = None,
             yes: bool = False) -> None:
    from kctui.services.review import resolve  # noqa: PLC0415

    chosen = None
    if hunks is not None:
        from kctui.core.hunks import parse_hunk_numbers  # noqa: PLC0415
        from kctui.services.errors import InvalidInput  # noqa: PLC0415

        try:
            chosen = parse_hunk_numbers(hunks)
        except ValueError as exc:
            raise InvalidInput(f"--hunks: {exc}") from None
    ctx = open_services()
    total = None
    if chosen is not None:
        from kctui.services.review_partial import hunk_total  # noqa: PLC0415

        total = hunk_total(ctx, item_id)
    elif action == "approve":
        _say_overrides(ctx, [item_id], yes)
    item = resolve(ctx, item_id, action, expected_revision=expected, hunks=chosen)
    if as_json:
        print_json(item.json())
    elif chosen is not None and total:
        from kctui.core.hunks import partial_words  # noqa: PLC0415

        click.echo(f"#{item.id} {partial_words(action, chosen, total)}: {item.page_path}")
    else:
        click.echo(f"#{item.id} {item.state_words}: {item.page_path}")


def _say_overrides(ctx, item_ids: list, yes: bool) -> None:  # noqa: ANN001
    """Before an approval publishes: the values a person kept that it would replace (QA s31 item 2), on
    stderr; for a single item without --yes, asked first (a bulk action asks once, after this)."""
    from kctui.services.review_bulk import select_items  # noqa: PLC0415
    from kctui.services.review_kept import kept_overrides, overrides_words  # noqa: PLC0415
    from kctui.services.review_queue import get_item  # noqa: PLC0415

    items = ([get_item(ctx, item_ids[0])] if len(item_ids) == 1
             else list(select_items(ctx, item_ids=[int(i) for i in item_ids]).items))
    words = overrides_words(kept_overrides(items))
    for line in words:
        click.echo(line, err=True)
    if words and not yes:
        click.confirm("Approve it all the same?", abort=True, err=True)


def _bulk(action: str, item_id: str | None, expected: int | None, job: str | None, source: str | None,
          every: bool, filter_text: str | None, workspace: str | None, kb: str | None, yes: bool,
          as_json: bool, hunks: str | None = None) -> None:
    """One item by ID, or a bulk action over a selection: count, confirm, one promotion per base."""
    chosen = [name for name, on in (("ID", item_id is not None), ("--job", job is not None),
                                    ("--source", source is not None), ("--all", every)) if on]
    if len(chosen) > 1:
        raise click.UsageError(f"give one of ID, --job, --source or --all (not {' and '.join(chosen)})")
    if item_id is not None:
        if filter_text is not None:
            raise click.UsageError("--filter narrows --job, --source or --all, not a single ID")
        _resolve(item_id, action, expected, as_json, hunks, yes)
        return
    if hunks is not None:
        raise click.UsageError("--hunks goes with a single ID")
    if not chosen:
        raise click.UsageError("give an item ID, or choose items with --job JOB, --source PATH or --all")
    if expected is not None:
        raise click.UsageError("--expected-revision goes with a single ID; a bulk action checks each item's own")
    from kctui.services.review_bulk import bulk_resolve, select_items  # noqa: PLC0415

    ctx = open_services()
    selection = select_items(ctx, workspace=workspace, kb_id=kb, job_id=job, source=source, everything=every,
                             filter_text=filter_text)
    if not selection.count:
        _say_nothing_selected(action, selection, as_json)
        return
    if action == "approve":
        _say_overrides(ctx, [i.id for i in selection.items], True)
    if not yes:
        click.confirm(f"{selection.describe(action).capitalize()}?", abort=True, err=True)
    outcome = bulk_resolve(ctx, selection.items, action, progress=_bulk_progress(as_json))
    _say_outcome(action, selection, outcome, as_json)
    if outcome.failed:
        from kctui.services.errors import IOFailure  # noqa: PLC0415

        raise IOFailure("; ".join(f"{b}: {e}" for b, e in outcome.failed))


def _say_nothing_selected(action: str, selection: Selection, as_json: bool) -> None:
    """No open held update matched the selection: say so (and how many matching conflicts were left)."""
    n = len(selection.conflicts)
    left = f" ({n} matching conflict{'s need' if n != 1 else ' needs'} its own choice)" if n else ""
    if as_json:
        print_json({"action": action, "selected": 0, "applied": [], "appliedCount": 0, "skipped": [],
                    "failed": [], "pages": 0, "promotions": 0})
    else:
        click.echo(f"no open held update matches{left}; nothing changed")


def _bulk_progress(as_json: bool) -> Callable[[str, int, int], None]:
    """A progress callback for bulk_resolve: on stderr, for 200 items or more, every tenth while deciding."""
    shown = {"last": -1}

    def progress(phase: str, done: int, total: int) -> None:
        if total < 200 or as_json:
            return
        step = (done * 10) // max(total, 1)
        if phase != "deciding" or step != shown["last"]:
            shown["last"] = step
            click.echo(f"  {phase} {done}/{total}", err=True)

    return progress


def _say_outcome(action: str, selection: Selection, outcome: BulkOutcome, as_json: bool) -> None:
    """What a bulk action did: applied, skipped (the first 20 with their reasons), or the JSON of it."""
    if as_json:
        print_json({"selected": selection.count, **outcome.json()})
        return
    word = {"approve": "approved", "reject": "rejected"}[action]
    click.echo(f"{len(outcome.applied)} {word} ({outcome.pages} page(s) in {outcome.promotions} promotion(s), "
               f"{outcome.seconds:.2f} s); {len(outcome.skipped)} skipped")
    for iid, why in outcome.skipped[:20]:
        click.echo(f"  #{iid} skipped: {why}")
    if len(outcome.skipped) > 20:
        click.echo(f"  … and {len(outcome.skipped) - 20} more")


_expected = click.option("--expected-revision", "expected", type=int,
                         help="The page revision you reviewed (default: the one the item was shown with).")
_json = click.option("--json", "as_json", is_flag=True)


def _bulk_options(fn):  # noqa: ANN001, ANN202
    for opt in reversed([
        click.argument("item_id", metavar="[ID]", required=False),
        _expected,
        click.option("--job", help="Every open held update filed by this job."),
        click.option("--source", help="Every open held update whose change comes from this source path."),
        click.option("--all", "every", is_flag=True, help="Every open held update."),
        click.option("--filter", "filter_text", help="Only items whose row contains TEXT (as the pane's / filter)."),
        click.option("--workspace", type=click.Path(), help="Only items of this workspace."),
        click.option("--kb", help="Only items of this knowledge base id."),
        click.option("--yes", is_flag=True, help="Do not ask for confirmation (scripts)."),
        click.option("--hunks", help="Only these hunks of the item (1,3 or 2-4, as `review show` numbers them); "
                                     "the others get the opposite decision."),
        _json,
    ]):
        fn = opt(fn)
    return fn


@review.command("approve")
@_bulk_options
def review_approve(item_id: str | None, expected: int | None, job: str | None, source: str | None, every: bool,
                   filter_text: str | None, workspace: str | None, kb: str | None, yes: bool, hunks: str | None,
                   as_json: bool) -> None:
    """Apply held updates exactly as proposed: one by ID (--hunks: only those), or --job/--source/--all."""
    _bulk("approve", item_id, expected, job, source, every, filter_text, workspace, kb, yes, as_json, hunks)


@review.command("reject")
@_bulk_options
def review_reject(item_id: str | None, expected: int | None, job: str | None, source: str | None, every: bool,
                  filter_text: str | None, workspace: str | None, kb: str | None, yes: bool, hunks: str | None,
                  as_json: bool) -> None:
    """Drop held updates (the pages' needs-review flags cleared): one by ID (--hunks: only those), or
    --job/--source/--all."""
    _bulk("reject", item_id, expected, job, source, every, filter_text, workspace, kb, yes, as_json, hunks)


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


@review.command("undo")
@click.argument("item_id", metavar="[ID]", required=False)
@click.option("--decision", "decision_id", type=int, help="Undo this decision (by its number).")
@_json
def review_undo(item_id: str | None, decision_id: int | None, as_json: bool) -> None:
    """Undo the latest review decision (of item ID): its pages' previous revisions restored through
    promotion, byte for byte, and its items open again."""
    from kctui.services.review_undo import undo_decision  # noqa: PLC0415

    if item_id is not None and decision_id is not None:
        raise click.UsageError("give an item ID or --decision, not both")
    iid = None
    if item_id is not None:
        try:
            iid = int(item_id)
        except ValueError:
            from kctui.services.errors import InvalidInput  # noqa: PLC0415

            raise InvalidInput(f"'{item_id}' is not a review item id (a number)") from None
    done = undo_decision(open_services(), item_id=iid, decision_id=decision_id)
    if as_json:
        print_json(done.json())
        return
    pages = ", ".join(f"{p} (revision {b} restored)" if b else f"{p} (removed)" for p, b, _ in done.pages)
    click.echo(f"undone decision {done.id} ({done.words}); reopened "
               f"{', '.join('#' + str(i) for i, _ in done.items)}" + (f"; {pages}" if pages else ""))
