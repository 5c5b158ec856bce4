"""The key bar, the queue's header and the status line are not cut at 100×30 and 80×24 (QA 21): the bar
drops the last of the screen's keys, never ? and q; the queue's Note column keeps its header."""

from __future__ import annotations

import pytest
from rich.text import Text

from kctui.ui.widgets.key_bar import KeyBar, fit
from tests.tui.fixtures import make_app, ready, world


def _e(words: str, app: bool = False, enabled: bool = True) -> tuple[Text, bool, bool]:
    return Text(words), enabled, app


@pytest.mark.parametrize(("width", "shown"), [
    (80, ["c Compile", "D Dry run", "x Cancel", "? Help", "q Quit"]),
    (40, ["c Compile", "D Dry run", "? Help", "q Quit"]),  # x does not apply now: it goes first
    (30, ["c Compile", "? Help", "q Quit"]),
    (10, ["? Help", "q Quit"]),
])
def test_the_bar_keeps_help_and_quit(width: int, shown: list[str]) -> None:
    entries = [_e("c Compile"), _e("D Dry run"), _e("x Cancel", enabled=False), _e("? Help", True), _e("q Quit", True)]
    assert [t.plain for t in fit(entries, width)] == shown


@pytest.fixture
def data(svc, clock, tmp_path):
    return world(svc, clock, tmp_path, running=False)


@pytest.mark.parametrize("size", [(100, 30), (80, 24)])
async def test_nothing_cut_at_the_small_sizes(svc, clock, data, size):
    async with make_app(clock).run_test(size=size) as pilot:
        await ready(pilot)
        await pilot.pause(0.1)
        bar = pilot.app.main.query_one(KeyBar)
        assert bar.plain.endswith("? Help  q Quit") and "…" not in bar.plain
        assert bar.content_size.width >= len(bar.plain)
        screen = "\n".join(strip.text for strip in pilot.app.screen._compositor.render_strips())
        assert "Rev  Note" in screen


async def test_a_rebound_key_keeps_its_place_in_the_bar(svc, clock, data, tmp_path):
    """QA s31 #17: Textual moves a rebound binding to the end of its map; the narrow bar dropped Compile."""
    (tmp_path / "config").mkdir(exist_ok=True)
    (tmp_path / "config" / "config.toml").write_text('[keys]\ncompile = "C"\n', encoding="utf-8")
    async with make_app(clock).run_test(size=(80, 24)) as pilot:  # too narrow for every key
        await ready(pilot)
        await pilot.pause(0.1)
        bar = pilot.app.main.query_one(KeyBar).plain
        assert "C Compile" in bar and "c Compile" not in bar, bar
