"""The Queue pane's dry-run key (id `dry-run`, D): a dry run of the selected base whose brief opens in a
screen; nothing is queued, promoted or filed."""

from __future__ import annotations

import pytest

from kctui import paths
from kctui.services import jobs
from kctui.ui import keys
from kctui.ui.screens.dry_run import DryRunScreen
from kctui.ui.screens.main import MainScreen
from tests.tui.fixtures import make_app, notes, ready, select_base, settle, world

SIZE = (120, 36)


@pytest.fixture
def data(svc, clock, tmp_path):
    return world(svc, clock, tmp_path, running=False)


def test_the_key_is_registered_by_id_and_shown_in_the_footer() -> None:
    entry = keys.BY_ID["dry-run"]
    assert (entry.key, entry.action, entry.show, entry.group) == ("D", "dry_run", True, "Queue")


async def test_d_runs_a_dry_run_and_shows_its_brief(svc, clock, data):
    before = [(j.id, j.phase) for j in jobs.list_jobs(svc)]
    ws = data["ws"]
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "inbox")
        wiki_existed = paths.wiki_path(ws, "inbox").exists()
        await pilot.press("D")
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, DryRunScreen), notes(pilot.app)
        assert "**Dry run**" in screen.markdown and "/.a3s/dry-run/" in screen.markdown
        assert "dry run" in notes(pilot.app) and "would create" in notes(pilot.app)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(pilot.app.screen, MainScreen)
        await pilot.press("2", "D")  # the queue pane's key
        assert "works in the Queue (1) pane" in notes(pilot.app)
    assert [(j.id, j.phase) for j in jobs.list_jobs(svc)] == before
    assert paths.wiki_path(ws, "inbox").exists() == wiki_existed
