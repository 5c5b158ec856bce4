"""Snapshot tests of the app's layout at explicit terminal sizes (120×36, 100×30, 80×24 and 60×20): each pane with
data, the help screen, a conflict and a held diff opened, and NO_COLOR. The data is deterministic: a
fake clock and a workspace folder called `notes` (only its name is ever shown, never the tmp path).

Update the baselines after a deliberate change with `pytest tests/tui/test_snapshots.py --snapshot-update`
and look at the SVGs in tests/tui/__snapshots__/ before committing them."""

from __future__ import annotations

import pytest

from tests.tui.fixtures import make_app, ready, settle, world

WIDE, MID, NARROW, SMALL = (120, 36), (100, 30), (80, 24), (60, 20)


@pytest.fixture
def app(svc, clock, tmp_path):
    world(svc, clock, tmp_path, running=True)
    return make_app(clock)


def keys_then_settle(*keys: str):
    async def run_before(pilot) -> None:
        await ready(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        await pilot.pause(0.05)
        await settle(pilot)

    return run_before


# pane 4 shows the brief of the job picked in the jobs table (#2, a compile of Langs)
PANE_KEYS = {"1": ("1",), "2": ("2",), "3": ("3",), "4": ("1", "tab", "j", "j", "j", "4")}


@pytest.mark.parametrize("pane", ["1", "2", "3", "4"])
def test_wide_pane(snap_compare, app, pane):
    assert snap_compare(app, terminal_size=WIDE, run_before=keys_then_settle(*PANE_KEYS[pane]))


@pytest.mark.parametrize("pane", ["1", "2", "3", "4"])
def test_narrow_pane(snap_compare, app, pane):
    assert snap_compare(app, terminal_size=NARROW, run_before=keys_then_settle(*PANE_KEYS[pane]))


def test_wide_jobs_table_selected(snap_compare, app):
    assert snap_compare(app, terminal_size=WIDE, run_before=keys_then_settle("1", "tab", "j", "j"))


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["wide", "narrow"])
def test_help_screen(snap_compare, app, size):
    assert snap_compare(app, terminal_size=size, run_before=keys_then_settle("question_mark"))


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["wide", "narrow"])
def test_conflict_detail(snap_compare, app, size):
    assert snap_compare(app, terminal_size=size, run_before=keys_then_settle("3", "j", "enter"))


def test_held_diff(snap_compare, app):
    assert snap_compare(app, terminal_size=WIDE, run_before=keys_then_settle("3", "enter"))


def test_paused_base_confirm(snap_compare, app):
    """u on the paused base: the question shows the change counts."""
    assert snap_compare(app, terminal_size=WIDE, run_before=keys_then_settle("1", "j", "j", "j", "j", "u"))


def test_no_color(snap_compare, svc, clock, tmp_path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    world(svc, clock, tmp_path, running=True)
    assert snap_compare(make_app(clock), terminal_size=WIDE, run_before=keys_then_settle("1"))


# 100×30: nothing essential is cut (the review pane's Why, the status counts, the running job's time)
@pytest.mark.parametrize("pane", ["1", "2", "3", "4"])
def test_mid_pane(snap_compare, app, pane):
    assert snap_compare(app, terminal_size=MID, run_before=keys_then_settle(*PANE_KEYS[pane]))


@pytest.mark.parametrize("size", [MID, NARROW], ids=["mid", "narrow"])
def test_new_kb_dialog(snap_compare, app, size):
    """Every field's label, the last field and the keys' hint are on screen (the fields scroll)."""
    async def run_before(pilot) -> None:
        await keys_then_settle("b")(pilot)
        pilot.app.screen.query_one("#kb-workspace").value = "~/notes"  # not the test's tmp path
        steady_cursors(pilot)
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [MID, NARROW], ids=["mid", "narrow"])
def test_held_diff_skips_front_matter(snap_compare, app, size):
    assert snap_compare(app, terminal_size=size, run_before=keys_then_settle("3", "enter"))


@pytest.mark.parametrize("size", [MID, NARROW], ids=["mid", "narrow"])
def test_filtered_review_pane_says_so(snap_compare, app, size):
    """A filter shows in the pane's subtitle with the rows shown / loaded."""
    assert snap_compare(app, terminal_size=size, run_before=keys_then_settle("3", "slash", "p", "y", "enter"))


# 60×20 degrades without garbage (QA session 32 #1): one pane at a time, the Running pane's checklist and
# newest log lines with no scroll bar, the filter line above the status line and the key bar
@pytest.mark.parametrize("pane", ["1", "2", "3", "4"])
def test_small_pane(snap_compare, app, pane):
    assert snap_compare(app, terminal_size=SMALL, run_before=keys_then_settle(*PANE_KEYS[pane]))


@pytest.mark.parametrize("size", [MID, SMALL], ids=["mid", "small"])
def test_filter_line_open(snap_compare, app, size):
    async def run_before(pilot) -> None:
        await keys_then_settle("1", "slash", "p")(pilot)
        steady_cursors(pilot)
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def steady_cursors(pilot) -> None:
    """An input's cursor shown, not blinking: a snapshot taken half a second later is the same."""
    from textual.widgets import Input

    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
