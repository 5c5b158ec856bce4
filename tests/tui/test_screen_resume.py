"""The one review-detail screen, pushed again, keeps its styles when nothing they depend on changed
(kctui.ui.screens.resume): it looks exactly as a full restyle would make it look, and a theme changed
while it was away is restyled in."""

from __future__ import annotations

from textual.screen import Screen

from kctui.ui.screens.review_detail import ReviewDetailScreen
from tests.tui.fixtures import SIZE, make_app, ready, select_item, settle, world


async def test_the_detail_pushed_again_looks_as_a_full_restyle_makes_it(svc, clock, tmp_path, monkeypatch):
    world(svc, clock, tmp_path, running=True)
    restyled: list[bool] = []
    original = Screen._on_screen_resume

    def spy(self, event):
        if isinstance(self, ReviewDetailScreen):
            restyled.append(event.refresh_styles)
        return original(self, event)

    monkeypatch.setattr(Screen, "_on_screen_resume", spy)
    app = make_app(clock)

    async def looks_restyled() -> None:
        kept = app.export_screenshot()
        app.screen.update_node_styles(animate=False)  # a full restyle changes nothing on screen
        app.screen.refresh()
        await settle(pilot)
        assert app.export_screenshot() == kept

    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_item(pilot, "held")
        for _ in range(2):
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, ReviewDetailScreen)
            await looks_restyled()
            await pilot.press("escape")
            await settle(pilot)
        assert restyled == [True, False]  # the second open kept the styles of the first
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"  # while the detail is away
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert restyled == [True, False, True]
        await looks_restyled()
