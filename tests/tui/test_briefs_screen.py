"""The briefs screen (`v`, issue 14 item 3): the passes of a base newest first with when, trigger,
outcome and counts; enter opens a brief in full; a running pass's checklist follows the store live
(polled, as the main screen polls). Data: the tests' deterministic world (tests/tui/fixtures.py)."""

from __future__ import annotations

import pytest

from kctui.compiler.runner import ProgressEvent
from kctui.services import briefs
from kctui.services.progress import ProgressRecorder
from kctui.ui.screens.briefs import BriefScreen, BriefsScreen
from kctui.ui.screens.main import MainScreen
from tests.tui.fixtures import make_app, ready, until, world
from tests.tui.fixtures import select_base_from_top as select_base

SIZE = (100, 30)


@pytest.fixture
def data(svc, clock, tmp_path):
    return world(svc, clock, tmp_path, running=True)


def rows(screen) -> list[str]:
    listing = screen.query_one("#briefs-list")
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


async def open_briefs(pilot, kb_id: str) -> BriefsScreen:
    await ready(pilot)
    await select_base(pilot, kb_id)
    await pilot.press("v")
    await until(pilot, lambda: isinstance(pilot.app.screen, BriefsScreen) and pilot.app.screen.passes is not None)
    return pilot.app.screen  # type: ignore[return-value]


def test_passes_newest_first_with_their_counts(svc, data):
    got = briefs.list_passes(svc, data["ws"], data["langs"].id)
    assert got["total"] == 2
    newest, first = got["items"]
    assert newest["createdUs"] > first["createdUs"]
    assert (newest["phase"], newest["trigger"], newest["pagesWritten"], newest["held"], newest["conflicts"],
            newest["hasBrief"]) == ("succeeded", "manual", 2, 1, 1, True)
    assert (first["pagesWritten"], first["held"], first["conflicts"], first["hasBrief"]) == (2, 0, 0, False)
    failed = briefs.list_passes(svc, data["ws"], data["failed"].id)["items"][0]
    assert failed["phase"] == "failed" and failed["pagesWritten"] == 0 and not failed["hasBrief"]


async def test_the_list_and_opening_a_brief_in_full(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        screen = await open_briefs(pilot, "langs")
        shown = rows(screen)
        assert len(shown) == 2
        assert "✔ succeeded" in shown[0] and "▤ brief" in shown[0] and "2 pages · 1 held · 1 conflict" in shown[0]
        assert "manual" in shown[0] and "2026-" in shown[0]
        assert "· none" in shown[1] and "0 held · 0 conflicts" in shown[1]
        assert "2 passes, newest first" in screen.query_one("#briefs-count").plain
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, BriefScreen) and pilot.app.screen.markdown)
        brief = pilot.app.screen
        assert brief.markdown.startswith("# Change brief — Langs")
        md = brief.query_one("#brief-md")
        await until(pilot, lambda: len(md.children) > 0)
        await pilot.press("escape")
        await until(pilot, lambda: pilot.app.screen is screen)
        # the older pass wrote no brief: opening it says so
        await pilot.press("j", "enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, BriefScreen))
        assert pilot.app.screen.markdown is None and not pilot.app.screen.pass_["hasBrief"]
        await pilot.press("escape", "escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, MainScreen))


async def test_a_failed_pass_says_why(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        screen = await open_briefs(pilot, "papers")
        assert "✘ failed" in rows(screen)[0]


async def test_the_running_pass_checklist_is_live(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        screen = await open_briefs(pilot, "ops-runbook")
        box = screen.query_one("#briefs-running")
        assert box.display and "▶ match" in str(box.render()) and "1/3 working" in str(box.render())
        assert "▶ running" in rows(screen)[0]
        # the compiler moves on: the screen follows without a key
        rec = ProgressRecorder(svc, min_interval=0)
        rec(data["job"].id, ProgressEvent("match", "done", 3, 3, message="match: 3 files"))
        rec(data["job"].id, ProgressEvent("update", "progress", 1, 3, current="deploy.md"))
        await until(pilot, lambda: "▶ update" in str(box.render()))
        assert "✔ match" in str(box.render())
        # a base with no running pass shows no checklist
        await pilot.press("escape")
        screen = await open_briefs(pilot, "langs")
        assert not screen.query_one("#briefs-running").display
