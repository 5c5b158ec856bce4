"""The app at small terminal sizes (QA session 32 #1): at 100×30 and 80×24 everything reads, and at 60×20
it degrades without overlapping — the filter line, the status line and the key bar each on rows of their
own, and the Running pane fitting its pane (no scroll, the newest log lines) or, with no row for a log
line, leaving the log out. Snapshots at 60×20 are in test_snapshots.py."""

from __future__ import annotations

import pytest

from kctui.ui.widgets.key_bar import KeyBar
from kctui.ui.widgets.running_pane import LogTail, RunningPane
from tests.tui.fixtures import make_app, ready, settle, world

SIZES = [(100, 30), (80, 24), (60, 20)]


@pytest.fixture
def app(svc, clock, tmp_path):
    world(svc, clock, tmp_path, running=True)
    return make_app(clock)


def rows(widget) -> set[int]:
    r = widget.region
    return set(range(r.y, r.y + r.height))


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_the_filter_line_overlaps_neither_the_status_nor_the_keys(app, size):
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await pilot.press("slash")
        await settle(pilot)
        main = pilot.app.main
        bar, status, flt, panes = main.query_one(KeyBar), main.query_one("#status"), main.query_one("#filter"), \
            main.query_one("#panes")
        assert flt.display and flt.region.height == 3
        parts = [rows(panes), rows(flt), rows(status), rows(bar)]
        assert all(not (a & b) for i, a in enumerate(parts) for b in parts[i + 1:]), [p.region for p in
                                                                                      (panes, flt, status, bar)]
        assert max(rows(bar)) == size[1] - 1 and bar.plain.strip()


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_the_running_pane_fits_and_shows_the_newest_log_line(app, size):
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await pilot.press("2")
        await settle(pilot)
        pane = pilot.app.main.query_one(RunningPane)
        assert pane.max_scroll_y == 0  # nothing of it below its bottom edge
        log = pane.query_one(LogTail)
        shown = log.render().plain.splitlines()
        assert shown and shown[-1] == "match rollback.md"  # the newest line, however few fit
        assert "gather" in pane.query_one("#run-steps").render().plain


async def test_a_pane_with_no_row_for_the_log_leaves_it_out(app):
    """100×30 with the filter open: the 2×2 grid's Running pane has rows for its checklist only."""
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        await pilot.press("slash")
        await settle(pilot)
        pane = pilot.app.main.query_one(RunningPane)
        assert pane.max_scroll_y == 0
        assert pane.has_class("-no-log") and not pane.query_one(LogTail).display
        await pilot.press("escape")
        await settle(pilot)
        assert not pane.has_class("-no-log") and pane.query_one(LogTail).display
