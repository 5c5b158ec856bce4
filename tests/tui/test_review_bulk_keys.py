"""Pilot tests of the review pane's bulk actions (issue 13): space marks rows, a / r act on the marked
rows after a confirmation with the counts, A / R act on every held update matching the filter; the
pane's title counts add up; the detail screen resolves against the revision it showed."""

from __future__ import annotations

import pytest

from kctui import paths
from kctui.services import review
from kctui.ui.screens.confirm import ConfirmScreen
from kctui.ui.widgets.review_pane import ReviewPane, title_words
from tests.tui.fixtures import SIZE, make_app, notes, ready, select_item, settle, world


@pytest.fixture
def data(svc, clock, tmp_path):
    return world(svc, clock, tmp_path, running=False)


async def test_title_counts_add_up(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        pane = pilot.app.main.query_one(ReviewPane)
        open_items = review.list_items(svc)
        held = sum(1 for i in open_items if i.kind == "held")
        conflicts = len(open_items) - held
        assert pane.border_subtitle.startswith(f"{len(open_items)} open: {held} held, {conflicts} conflict")


async def test_space_marks_and_a_approves_the_marked_rows_after_confirming(svc, clock, data):
    ws = data["ws"]
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        pane = pilot.app.main.query_one(ReviewPane)
        item_id = await select_item(pilot, "held")
        await pilot.press("space")
        assert pane.marked == {item_id} and "1 marked" in pane.border_subtitle
        await pilot.press("a")
        await settle(pilot)
        dialog = pilot.app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert "Approve 1 marked held update in 1 knowledge base" in str(dialog.body)
        await pilot.press("y")
        await settle(pilot)
        assert review.get_item(svc, item_id).state == "approved"
        assert not pane.marked and not pane.query_one("#review-progress").display
        assert "1 approved in 1 promotion" in notes(pilot.app)
    assert "2028-11-30" in (paths.wiki_path(ws, "langs") / "concepts/python.md").read_text()


async def test_declining_the_dialog_changes_nothing(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        item_id = await select_item(pilot, "held")
        await pilot.press("space", "r")
        await settle(pilot)
        assert isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press("n")
        await settle(pilot)
        assert review.get_item(svc, item_id).state == "open"
        assert pilot.app.main.query_one(ReviewPane).marked == {item_id}  # still marked


async def test_shift_a_approves_every_held_update_matching_the_filter(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("3", "slash", *"langs", "enter")
        await pilot.press("A")
        await settle(pilot)
        dialog = pilot.app.screen
        assert isinstance(dialog, ConfirmScreen)
        held = [i for i in review.list_items(svc) if i.kind == "held" and i.base_id == "langs"]
        body = str(dialog.body)
        assert f"Approve {len(held)} matching “langs” held update" in body and "conflict" in body
        await pilot.press("y")
        await settle(pilot)
        assert all(review.get_item(svc, i.id).state == "approved" for i in held)
        assert [i.kind for i in review.list_items(svc) if i.base_id == "langs"] == ["conflict"]


async def test_mark_applies_only_in_the_review_pane_and_says_why(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("1", "space")
        await settle(pilot)
        assert "works in the Review (3) pane" in notes(pilot.app)
        assert not pilot.app.main.query_one(ReviewPane).marked


def test_title_words_say_what_is_open_and_what_is_shown() -> None:
    from dataclasses import replace

    from kctui.ui.messages import EMPTY

    snap = replace(EMPTY, items=tuple(range(500)), items_total=5999, counts={"held": 5499, "conflicts": 500})
    assert title_words(snap, 500, False, 0) == "5999 open: 5499 held, 500 conflicts · showing 500"
    assert title_words(snap, 12, True, 3, "python") == (
        "5999 open: 5499 held, 500 conflicts · ⧩ filter “python”: 12 / 500 shown (of the first 500) · 3 marked")
    assert title_words(replace(snap, items=(), counts={}), 0, False, 0) == ""


async def test_the_second_conflict_on_a_page_resolves_from_its_detail_at_the_first_try(svc, clock, tmp_path):
    """Issue 13 #3 on the detail screen: it resolves against the revision it showed, not a stale one."""
    from kctui.core.page_status import set_page_status
    from kctui.ui.screens.review_detail import ReviewDetailScreen
    from tests.tui.fixtures import compile_pass, make_base, page

    ws = (tmp_path / "ws")
    ws.mkdir()
    ws = ws.resolve()
    b = make_base(svc, ws, "Db", {"sqlite.md": "# SQLite\nwal: 1000\npage: 4096\n", "notes.md": "# N\nwal: 500\npage: 8192\n"})
    old = page("SQLite", "wal", "1000", "sqlite.md:L2-L2")
    compile_pass(svc, ws, b.id, {"concepts/sqlite.md": old})
    clock.advance(60)
    (paths.sources_path(ws, b.id) / "extra.md").write_text("# extra\n", encoding="utf-8")
    side = {"existing": {"value": "1000", "citation": "sqlite.md:L2-L2", "source": "sqlite.md"},
            "incoming": {"value": "500", "citation": "notes.md:L2-L2", "source": "notes.md"}}
    compile_pass(svc, ws, b.id, {"concepts/sqlite.md": set_page_status(old, "contradicted")}, [
        {"kind": "conflict", "page": "concepts/sqlite.md", "title": "SQLite", "reason": "contradiction",
         "summary": f"conflict {n}", "proposedBody": page("SQLite", "wal", "500", "notes.md:L2-L2"),
         **side, "fingerprint": f"fp{n}"} for n in (1, 2)])
    first, second = review.list_items(svc)
    review.resolve(svc, first.id, "dismiss", actor="human:ada")  # the page moves on to a new revision
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_item(pilot, "conflict")
        await pilot.press("enter")
        await settle(pilot)
        detail = pilot.app.screen
        assert isinstance(detail, ReviewDetailScreen) and detail.item_id == second.id
        await pilot.press("d")
        await settle(pilot)
        assert "changed since revision" not in notes(pilot.app)
    assert review.get_item(svc, second.id).state == "dismissed"
