"""Pilot tests of the review keys (issue 3, 13, 14): a / r on a held update, n / e / d on a conflict,
enter opens an item and esc goes back, asserting on the store. Same world as test_app_keys."""

from __future__ import annotations

import os

import pytest

from kctui import paths
from kctui.services import review, revisions
from kctui.ui.screens.main import MainScreen
from kctui.ui.screens.review_detail import ReviewDetailScreen
from tests.tui.fixtures import SIZE, make_app, notes, ready, select_item, settle, world


@pytest.fixture
def data(svc, clock, tmp_path):
    return world(svc, clock, tmp_path, running=False)


async def test_a_approves_a_held_update_publishing_only_its_page(svc, clock, data):
    ws = data["ws"]
    wiki = paths.wiki_path(ws, "langs")
    inode = os.stat(wiki).st_ino
    page_inode = os.stat(wiki / "concepts/python.md").st_ino
    before = len(revisions.page_history(svc, ws, "langs", "python"))
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        item_id = await select_item(pilot, "held")
        await pilot.press("a")
        await settle(pilot)
    assert review.get_item(svc, item_id).state == "approved"
    # only the decided page was written (a page promotion), not a copy of the whole tree
    assert os.stat(wiki).st_ino == inode and os.stat(wiki / "concepts/python.md").st_ino != page_inode
    hist = revisions.page_history(svc, ws, "langs", "python")
    assert len(hist) == before + 1 and hist[-1].author.startswith(f"review:{item_id}:approve")
    assert "2028-11-30" in (wiki / "concepts/python.md").read_text()


async def test_r_rejects_a_held_update(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        item_id = await select_item(pilot, "held")
        await pilot.press("r")
        await settle(pilot)
        assert review.get_item(svc, item_id).state == "rejected"
        assert str(item_id) not in pilot.app.main.query_one("#items").keys()  # the row left in place


@pytest.mark.parametrize("key,state,value", [("n", "resolved_new", "500"), ("e", "resolved_keep", "1000"),
                                             ("d", "dismissed", "1000")])
async def test_n_e_d_resolve_a_conflict(svc, clock, data, key, state, value):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        item_id = await select_item(pilot, "conflict")
        await pilot.press("a")  # a held-only key on a conflict: refused, in words
        await pilot.press(key)
        await settle(pilot)
        assert "is a conflict" in notes(pilot.app)
    assert review.get_item(svc, item_id).state == state
    page = (paths.wiki_path(data["ws"], "langs") / "concepts/sqlite.md").read_text()
    assert f"wal_autocheckpoint: {value}" in page


async def test_enter_opens_a_conflict_with_both_sides_and_esc_goes_back(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        item_id = await select_item(pilot, "conflict")
        await pilot.press("enter")
        await settle(pilot)
        detail = pilot.app.screen
        assert isinstance(detail, ReviewDetailScreen) and detail.data is not None
        assert detail.data["existing"]["value"] == "1000" and "wal_autocheckpoint: 500" in \
            detail.data["incoming"]["citedLines"]
        assert detail.check_action("resolve", ("approve",)) is None and detail.check_action("resolve", ("keep",))
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, MainScreen)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("n")  # resolve from the detail
        await settle(pilot)
        assert isinstance(pilot.app.screen, MainScreen)
    assert review.get_item(svc, item_id).state == "resolved_new"


async def test_enter_on_a_held_item_shows_the_diff(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_item(pilot, "held")
        await pilot.press("enter")
        await settle(pilot)
        diff = pilot.app.screen.data["diff"]
        assert "-- eol (3.12): 2028-10-31" in diff and "+- eol (3.12): 2028-11-30" in diff


async def test_each_open_shows_its_own_item_on_the_one_detail_screen(svc, clock, data):
    """The detail screen is built once and filled again on each open: the second item's screen shows
    that item (its title, its data, its keys), never the first one's, even when the first one's read
    arrives late."""
    from textual.widgets import Static

    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        held = await select_item(pilot, "held")
        await pilot.press("enter")
        await settle(pilot)
        first = pilot.app.screen
        assert isinstance(first, ReviewDetailScreen) and first.data["id"] == held
        held_data = first.data
        await pilot.press("escape")
        conflict = await select_item(pilot, "conflict")
        first.show_item(conflict)  # what enter does before it shows the screen again: empty, loading
        assert first.data is None and str(first.query_one("#detail-head", Static).render()) == (
            f"Loading review item #{conflict}…")
        assert first.check_action("resolve", ("approve",)) is None  # no key acts before the item is read
        await pilot.press("enter")
        await settle(pilot)
        detail = pilot.app.screen
        assert detail is first and detail.item_id == conflict
        assert detail.data["id"] == conflict and detail.query_one("Vertical").border_title == f"Review item #{conflict}"
        assert "is a conflict" not in str(detail.query_one("#detail-keys", Static).render())
        assert "n use the new value" in str(detail.query_one("#detail-keys", Static).render())
        detail.show_data(held_data)  # the first item's read, arriving late, is not shown
        assert detail.data["id"] == conflict
        await pilot.press("K")  # keep, in a review item (e opens the editor there; issue 35)
        await settle(pilot)
        assert isinstance(pilot.app.screen, MainScreen)
    assert review.get_item(svc, conflict).state == "resolved_keep"
    assert review.get_item(svc, held).state == "open"
