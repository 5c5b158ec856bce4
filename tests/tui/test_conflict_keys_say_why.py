"""No key is ignored silently on a conflict (QA 15): in a conflict item s, ] and space say why they do not
apply, and `a` names the keys that do there (K keeps: e opens the editor); in the review pane space on a
conflict row says why instead of doing nothing, and help marks it ✘ with that reason."""

from __future__ import annotations

import pytest

from kctui.ui.screens.help import HelpScreen
from kctui.ui.screens.review_detail import ReviewDetailScreen
from kctui.ui.widgets.review_pane import ReviewPane
from tests.tui.fixtures import SIZE, make_app, notes, ready, select_item, settle, until, world


@pytest.fixture
def data(svc, clock, tmp_path):
    return world(svc, clock, tmp_path, running=False)


async def test_keys_of_held_items_say_why_in_a_conflict_item(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        item_id = await select_item(pilot, "conflict")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, ReviewDetailScreen) and pilot.app.screen.data)
        for key in ("s", "right_square_bracket", "space"):
            pilot.app.clear_notifications()
            await pilot.press(key)
            await settle(pilot)
            assert f"item #{item_id} is a conflict: it has no hunks or page diff" in notes(pilot.app), key
        pilot.app.clear_notifications()
        await pilot.press("a")
        await settle(pilot)
        said = notes(pilot.app)
        assert "n (use the new value), K (keep the page) or d (dismiss)" in said and " e " not in said
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        assert str(pilot.app.screen.query_one("#help-title").render()) == "kctui keys — review item"


async def test_space_on_a_conflict_row_says_why_and_marks_nothing(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        item_id = await select_item(pilot, "conflict")
        await pilot.press("space")
        await settle(pilot)
        assert f"item #{item_id} is a conflict: marks gather held updates" in notes(pilot.app)
        assert pilot.app.main.query_one(ReviewPane).marked == set()
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        state = {r.id: r.state for r in pilot.app.screen.rows}
        assert state["mark"].startswith(f"item #{item_id} is a conflict")
        assert str(pilot.app.screen.query_one("#help-title").render()) == "kctui keys — main screen"
