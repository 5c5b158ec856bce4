"""esc then a key typed within the terminal's escape time (tmux: 500 ms) arrive as one alt+key: both run,
as if typed apart (QA session 32 #2: the first c after esc did nothing, "alt+c: no key here is bound")."""

from __future__ import annotations

import pytest

from kctui.services import jobs
from kctui.ui.screens.main import MainScreen
from tests.tui.fixtures import SIZE, make_app, ready, select_base, settle, world


@pytest.fixture
def data(svc, clock, tmp_path):
    return world(svc, clock, tmp_path, running=False)


def queued(svc) -> list[str]:
    return [j.base_id for j in jobs.list_jobs(svc) if j.phase == "queued"]


@pytest.mark.parametrize("before", [(), ("slash", "x"), ("g",), ("question_mark",)],
                         ids=["queue", "filter", "pages-screen", "help-screen"])
async def test_esc_and_c_read_as_alt_c_compile(svc, clock, data, before):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "inbox")
        for key in before:
            await pilot.press(key)
            await settle(pilot)
        await pilot.press("alt+c")  # what the terminal sends for esc, c typed fast
        await settle(pilot)
        assert isinstance(pilot.app.screen, MainScreen)  # esc closed the screen on top
        assert not any(pilot.app.main.needle.values()) and not pilot.app.main.query_one("#filter").display
        assert queued(svc) == ["inbox"]  # and the c compiled the selected base


async def test_esc_and_a_digit_read_as_one_key_run_both(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("3")
        await settle(pilot)
        await pilot.press("alt+1")  # esc (back to the queue), then 1
        await settle(pilot)
        assert pilot.app.main.active == "queue" and pilot.app.main.current_stop() == "bases"
