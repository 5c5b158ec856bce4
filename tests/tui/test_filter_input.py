"""The filter line (kctui.ui.widgets.filter_input) scrolls with a filter longer than itself, as Textual's
Input does, without asking for a layout of the screen on each character; the rows narrow as they did."""

from __future__ import annotations

from kctui.ui.widgets.filter_input import FilterInput
from tests.tui.fixtures import make_app, ready, world


async def test_a_long_filter_scrolls_the_line_and_lays_nothing_out(svc, clock, tmp_path):
    world(svc, clock, tmp_path, running=False)
    async with make_app(clock).run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        main = pilot.app.main
        await pilot.press("slash")
        line = main.query_one("#filter", FilterInput)
        await pilot.press(*"team")
        assert main.needle["queue"] == "team"
        assert [k.split("\0")[1] for k in main.queue.bases.keys()] == ["team-notes"]
        await pilot.press(*("x" * 90))  # wider than the line: it scrolls, the cursor stays in view
        await pilot.pause()
        assert main.queue.bases.row_count == 0
        assert line.virtual_size.width > line.size.width and 0 < line.scroll_x == line.max_scroll_x
        layouts, scrolled = line._layout_updates, line.scroll_x
        await pilot.press(*("y" * 20))
        await pilot.pause()
        assert line.value == "team" + "x" * 90 + "y" * 20
        assert line.scroll_x == line.max_scroll_x == scrolled + 20
        assert line._layout_updates == layouts  # no character asked for a new layout of the screen
        await pilot.press("escape")
        assert main.queue.bases.row_count == 4
