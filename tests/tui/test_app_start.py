"""The app on screen first (issue 32): the panes are drawn before the first read of the store arrives,
each says "starting…" meanwhile, and a key pressed then is kept and answered once the rows are in."""

from __future__ import annotations

import threading

from kctui.config import Settings
from kctui.services import jobs
from kctui.services.context import ServiceContext
from kctui.ui.app import KctuiApp
from kctui.ui.words import STARTING
from tests.tui.fixtures import SIZE, make_base, notes, settle, until


def _slow_store_app(clock, gate: threading.Event) -> KctuiApp:
    def ctx_factory() -> ServiceContext:
        if threading.current_thread() is not threading.main_thread():
            gate.wait(20)  # the poll thread's first read waits here, as a slow disk would
        return ServiceContext.open(clock=clock, settings=Settings())

    return KctuiApp(ctx_factory=ctx_factory)


async def test_panes_show_starting_until_the_store_is_read_and_an_early_key_is_answered(svc, clock, tmp_path):
    (tmp_path / "ws").mkdir()
    make_base(svc, tmp_path / "ws", "Notes", {"a.md": "# A\n\nText.\n"})
    gate = threading.Event()
    app = _slow_store_app(clock, gate)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        main = app.main
        assert not main.loaded
        for pane in ("queue", "running", "review", "brief"):
            assert str(main.query_one(f"#{pane}").border_subtitle) == STARTING
        await pilot.press("c")  # compile, before the bases are known
        assert "starting" in notes(app) and main.deferred
        assert jobs.list_jobs(svc) == []
        gate.set()
        await until(pilot, lambda: main.loaded and not main.deferred)
        await until(pilot, lambda: any(j.base_id == "notes" for j in jobs.list_jobs(svc)))
        await settle(pilot)
        assert str(main.query_one("#queue").border_subtitle) != STARTING


async def test_an_early_key_that_does_not_apply_says_why_once_loaded(svc, clock, tmp_path):
    gate = threading.Event()
    app = _slow_store_app(clock, gate)  # no base at all: compile has nothing to act on
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("c")
        gate.set()
        await until(pilot, lambda: app.main.loaded and not app.main.deferred)
        await until(pilot, lambda: "no knowledge base is selected" in notes(app))
        assert jobs.list_jobs(svc) == []
