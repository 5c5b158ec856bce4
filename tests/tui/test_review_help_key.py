"""`?` inside a review item shows the help (a modal screen stops the app's own bindings), and help says
which of the item's keys apply now."""

from __future__ import annotations

import pytest

from kctui.ui.screens.help import HelpScreen
from kctui.ui.screens.review_detail import ReviewDetailScreen
from tests.tui.fixtures import SIZE, make_app, ready, select_item, settle, until, world


@pytest.fixture
def data(svc, clock, tmp_path):
    return world(svc, clock, tmp_path, running=False)


async def test_question_mark_inside_a_review_item_shows_help(svc, clock, data):
    app = make_app(clock)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_item(pilot, "held")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReviewDetailScreen))
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        state = {r.id: r.state for r in app.screen.rows}
        assert state["help"] is None and state["compile"] == "only on the main screen"
        title = str(app.screen.query_one("#help-title").render())
        assert title == "kctui keys — review item" and "Screen" not in title
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ReviewDetailScreen))
