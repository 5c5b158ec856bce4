"""Snapshot tests of the pages, page, policy and briefs screens (issue 14) at 100×30 and 80×24, on
deterministic data: a fake clock, the demo sources compiled by the built-in compiler (pages) or the
tests' world (policy, briefs), in a workspace folder called `notes`.

Update the baselines after a deliberate change with
`pytest tests/tui/test_screen_snapshots.py --snapshot-update` and look at the SVGs first."""

from __future__ import annotations

import pytest

from kctui.ui.screens.briefs import BriefsScreen
from kctui.ui.screens.policy import PolicyScreen
from tests.tui.fixtures import make_app, open_pages, open_python, ready, settle, until, world
from tests.tui.fixtures import select_base_from_top as select_base

SIZES = [(100, 30), (80, 24)]
IDS = ["100x30", "80x24"]


async def calm(pilot) -> None:
    from textual.widgets import Input

    for box in pilot.app.screen.query(Input):  # a blinking cursor would make the picture depend on timing
        box.cursor_blink = False
    await pilot.pause(0.05)
    await settle(pilot)
    pilot.app.screen.refresh_bindings()  # the footer as the focus now leaves it, whatever came first
    await pilot.pause(0.1)
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_pages_screen(snap_compare, svc, clock, demo, size):
    async def run_before(pilot) -> None:
        await open_pages(pilot)
        await calm(pilot)

    assert snap_compare(make_app(clock), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_page_text(snap_compare, svc, clock, demo, size):
    async def run_before(pilot) -> None:
        page = await open_python(pilot)
        md = page.query_one("#read-md")
        await until(pilot, lambda: len(md.children) > 0)
        await calm(pilot)

    assert snap_compare(make_app(clock), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_page_claims(snap_compare, svc, clock, demo, size):
    async def run_before(pilot) -> None:
        await open_python(pilot)
        await pilot.press("c")
        await calm(pilot)

    assert snap_compare(make_app(clock), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_policy_screen(snap_compare, svc, clock, tmp_path, size):
    world(svc, clock, tmp_path, running=True)

    async def run_before(pilot) -> None:
        await ready(pilot)
        await select_base(pilot, "langs")
        await pilot.press("o")
        await until(pilot, lambda: isinstance(pilot.app.screen, PolicyScreen) and pilot.app.screen.data is not None)
        await calm(pilot)

    assert snap_compare(make_app(clock), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_briefs_screen(snap_compare, svc, clock, tmp_path, size):
    world(svc, clock, tmp_path, running=True)

    async def run_before(pilot) -> None:
        await ready(pilot)
        await select_base(pilot, "ops-runbook")
        await pilot.press("v")
        await until(pilot, lambda: isinstance(pilot.app.screen, BriefsScreen) and pilot.app.screen.passes is not None)
        await calm(pilot)

    assert snap_compare(make_app(clock), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_brief_in_full(snap_compare, svc, clock, tmp_path, size):
    world(svc, clock, tmp_path, running=True)

    async def run_before(pilot) -> None:
        await ready(pilot)
        await select_base(pilot, "langs")
        await pilot.press("v")
        await until(pilot, lambda: isinstance(pilot.app.screen, BriefsScreen) and pilot.app.screen.passes is not None)
        await pilot.press("enter")
        await until(pilot, lambda: getattr(pilot.app.screen, "markdown", None))
        md = pilot.app.screen.query_one("#brief-md")
        await until(pilot, lambda: len(md.children) > 0)
        await calm(pilot)

    assert snap_compare(make_app(clock), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_ask_screen(snap_compare, svc, clock, demo, size):
    """The ask screen with an extractive answer (no model): the verdict in words, the answer, the page's
    flag, the citations."""
    from kctui.ui.screens.ask import AskScreen
    from tests.tui.fixtures import select_base as select_in_queue

    async def run_before(pilot) -> None:
        await ready(pilot)
        await select_in_queue(pilot, demo["demo"])
        await pilot.press("i")
        await until(pilot, lambda: isinstance(pilot.app.screen, AskScreen))
        await pilot.press(*"when does Python 3.12 reach end of life", "enter")
        await until(pilot, lambda: pilot.app.screen.result is not None)
        await calm(pilot)

    assert snap_compare(make_app(clock), terminal_size=size, run_before=run_before)
