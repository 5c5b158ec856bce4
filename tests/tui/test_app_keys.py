"""Pilot tests for every key of the app, asserting on the store: the app runs with no embedded host,
a fake clock and no watcher; the data is made through the services (tests/tui/fixtures.py). The keys
of the review pane and the review detail are in test_review_keys.py."""

from __future__ import annotations

import pytest

from kctui.services import bases, jobs, workspaces
from kctui.ui.screens.confirm import ConfirmScreen
from kctui.ui.screens.help import HelpScreen
from kctui.ui.screens.main import MainScreen
from tests.tui.fixtures import (
    SIZE,
    make_app,
    make_base,
    notes,
    ready,
    select_base,
    settle,
    world,
)


@pytest.fixture
def data(svc, clock, tmp_path):
    return world(svc, clock, tmp_path, running=False)


async def test_number_keys_and_tab_move_between_panes(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        main = pilot.app.main
        for key, pane, stop in (("2", "running", "running"), ("3", "review", "items"), ("4", "brief", "brief"),
                                ("1", "queue", "bases")):
            await pilot.press(key)
            assert main.active == pane and main.current_stop() == stop
        seen = []
        for _ in range(5):
            await pilot.press("tab")
            seen.append(main.current_stop())
        assert seen == ["jobs", "running", "items", "brief", "bases"]
        await pilot.press("shift+tab")
        assert main.current_stop() == "brief" and main.active == "brief"


async def test_narrow_terminal_shows_one_pane_at_a_time(svc, clock, data):
    async with make_app(clock).run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        assert pilot.app.main.has_class("-narrow")
        await pilot.press("3")
        await pilot.pause()
        assert pilot.app.query_one("#review").display and not pilot.app.query_one("#queue").display
        assert pilot.app.main.current_stop() == "items"


async def test_j_k_and_arrows_move_the_selection(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        main = pilot.app.main
        first = main.selected_base().id
        await pilot.press("j")
        second = main.selected_base().id
        await pilot.press("down")
        third = main.selected_base().id
        assert len({first, second, third}) == 3
        await pilot.press("k")
        assert main.selected_base().id == second
        await pilot.press("up")
        assert main.selected_base().id == first


async def test_c_queues_a_compile_of_the_selected_base(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "inbox")
        await pilot.press("c")
        await settle(pilot)
        queued = [j for j in jobs.list_jobs(svc) if j.phase == "queued"]
        assert [(j.base_id, j.trigger) for j in queued] == [("inbox", "manual")]
        assert "compile" in notes(pilot.app) and "queued" in notes(pilot.app)
        # the row appeared in place; the Running pane takes the job up once it runs
        assert queued[0].id in pilot.app.main.queue.jobs.keys() and pilot.app.main.follow


async def test_x_cancels_the_selected_job_after_confirming(svc, clock, data):
    jobs.request_compile(svc, data["ws"], "inbox")
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "inbox")
        await pilot.press("x")
        await settle(pilot)
        assert isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press("n")  # no: nothing changes
        await settle(pilot)
        assert [j.phase for j in jobs.list_jobs(svc, kb_id="inbox")] == ["queued"]
        await pilot.press("x")
        await pilot.press("y")
        await settle(pilot)
        [job] = jobs.list_jobs(svc, kb_id="inbox")
        assert job.phase == "cancelled" and job.error_code == "cancelled"
        assert isinstance(pilot.app.screen, MainScreen)


async def test_x_in_the_jobs_table_cancels_that_job(svc, clock, data):
    _, _, job = jobs.request_compile(svc, data["ws"], "papers")
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("1", "tab")
        assert pilot.app.main.current_stop() == "jobs"
        assert pilot.app.main.queue.jobs.cursor_key == job.id  # queued jobs come first
        await pilot.press("x", "y")
        await settle(pilot)
        assert jobs.get_job(svc, job.id).phase == "cancelled"


async def test_u_clears_the_pause_after_showing_the_change_counts(svc, clock, data):
    assert bases.get_base(svc, data["ws"], "team-notes").phase == "paused"
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "team-notes")
        await pilot.press("u")
        await settle(pilot)
        dialog = pilot.app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert "25 deleted" in str(dialog.body) and "of 30 files changed" in str(dialog.body)
        await pilot.press("y")
        await settle(pilot)
        base = bases.get_base(svc, data["ws"], "team-notes")
        assert base.phase == "queued" and base.paused_reason is None
        assert [j.phase for j in jobs.list_jobs(svc, kb_id="team-notes")][0] == "queued"


async def test_keys_that_do_not_apply_are_greyed_and_say_why(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "inbox")
        main = pilot.app.main
        assert main.check_action("clear_pause", ()) is None  # greyed out in the footer
        assert main.active_bindings["u"].enabled is False
        assert main.check_action("resolve", ("approve",)) is False  # another pane's key: hidden here
        await pilot.press("u")
        await pilot.press("a")
        await settle(pilot)
        assert bases.get_base(svc, data["ws"], "inbox").phase == "source_ready"
        text = notes(pilot.app)
        assert "Inbox is not paused" in text and "works in the Review (3) pane" in text
        await pilot.press("2", "c")  # compile belongs to the queue pane
        assert "works in the Queue (1) pane" in notes(pilot.app)
        assert not [j for j in jobs.list_jobs(svc) if j.phase == "queued"]


async def test_p_toggles_the_compilation_policy(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "inbox")
        await pilot.press("p")
        await settle(pilot)
        assert bases.get_base(svc, data["ws"], "inbox").policy == "smart_auto"
        await pilot.press("p")
        await settle(pilot)
        assert bases.get_base(svc, data["ws"], "inbox").policy == "manual"


async def test_enter_on_a_base_then_a_job_shows_its_checklist_and_brief(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "langs")
        await pilot.press("enter")
        main = pilot.app.main
        assert main.current_stop() == "jobs" and main.selected_job().base_id == "langs"
        await pilot.press("enter")
        await settle(pilot)
        assert main.active == "running" and main.snapshot.detail.job.base_id == "langs"
        assert "Change brief" in main.query_one("#brief")._shown


async def test_slash_filters_rows_and_escape_clears(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        table = pilot.app.main.queue.bases
        assert table.row_count == 4
        await pilot.press("slash")
        await pilot.press(*"paus")
        assert [k.split("\0")[1] for k in table.keys()] == ["team-notes"]
        await pilot.press("enter")  # keep the filter, back to the table
        assert pilot.app.main.current_stop() == "bases" and table.row_count == 1
        await pilot.press("escape")
        assert table.row_count == 4 and not pilot.app.main.needle["queue"]


async def test_question_mark_shows_help_with_every_key(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("question_mark")
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        ids = {r.id for r in help_screen.rows}
        assert {"compile", "cancel", "clear-pause", "approve", "use-new", "filter", "quit"} <= ids
        states = {r.id: r.state for r in help_screen.rows}
        assert states["compile"] is None and "not paused" in states["clear-pause"]
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, MainScreen)


async def test_w_adds_a_workspace(svc, clock, data, tmp_path):
    other = tmp_path / "other-ws"
    other.mkdir()
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("w")
        await pilot.press(*str(tmp_path / "missing"), "enter")  # refused in words, dialog stays
        assert "does not exist" in str(pilot.app.screen.query_one("#ws-error").render())
        inp = pilot.app.screen.query_one("#ws-path")
        inp.value = ""
        await pilot.press(*str(other), "enter")
        await settle(pilot)
    assert str(other.resolve()) in workspaces.list_workspaces(svc)


async def test_b_creates_a_knowledge_base(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("b")
        await pilot.pause()
        await pilot.press(*"Field guide", "enter")
        await settle(pilot)
        assert bases.get_base(svc, data["ws"], "field-guide").name == "Field guide"
        assert "created Field guide" in notes(pilot.app)
        assert any(k.endswith("\0field-guide") for k in pilot.app.main.queue.bases.keys())


async def test_q_quits_at_once_when_nothing_runs(svc, clock, data):
    app = make_app(clock)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert not app._exit
        await pilot.press("q")
        await pilot.pause()
        assert app._exit and app.return_code == 0


async def test_q_asks_first_while_a_job_runs(svc, clock, data):
    make_base(svc, data["ws"], "Busy", {"x.md": "# x\n"})
    jobs.request_compile(svc, data["ws"], "busy")
    jobs.claim(svc)
    app = make_app(clock)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen) and "compiling" in str(app.screen.body)
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen) and not app._exit
        await pilot.press("q", "y")
        await pilot.pause()
        assert app._exit


async def test_command_palette_runs_registry_actions(svc, clock, data):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "inbox")
        commands = [c.title for c in pilot.app.get_system_commands(pilot.app.screen)]
        assert any(t.startswith("Compile (c)") for t in commands)
        pilot.app.run_registry_action("compile")
        await settle(pilot)
        assert [j.base_id for j in jobs.list_jobs(svc) if j.phase == "queued"] == ["inbox"]
        pilot.app.run_registry_action("clear-pause")  # does not apply: says why
        await settle(pilot)
        assert "Inbox is not paused" in notes(pilot.app)


async def test_user_keymap_rebinds_by_id(svc, clock, data, tmp_path):
    cfg = tmp_path / "config"
    cfg.mkdir(exist_ok=True)
    (cfg / "config.toml").write_text('[keys]\ncompile = "f5"\n', encoding="utf-8")
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "inbox")
        await pilot.press("f5")
        await settle(pilot)
        assert [j.base_id for j in jobs.list_jobs(svc) if j.phase == "queued"] == ["inbox"]


@pytest.mark.parametrize("table,words", [('compil = "c"', "'compil' is not a binding id"),
                                         ('compile = "ctrl+k"', "ctrl/alt/meta"),
                                         ('compile = "x"', "bound to both compile and cancel")])
async def test_a_bad_keymap_keeps_the_defaults_and_says_why(svc, clock, data, tmp_path, table, words):
    cfg = tmp_path / "config"
    cfg.mkdir(exist_ok=True)
    (cfg / "config.toml").write_text(f"[keys]\n{table}\n", encoding="utf-8")
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert words in notes(pilot.app) and pilot.app.user_keymap == {}
        await select_base(pilot, "inbox")
        await pilot.press("c")
        await settle(pilot)
        assert [j.base_id for j in jobs.list_jobs(svc) if j.phase == "queued"] == ["inbox"]


async def test_service_errors_are_reported_in_words(svc, clock, data):
    empty = make_base(svc, data["ws"], "Empty", {})
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, empty.id)
        await pilot.press("c")
        await settle(pilot)
        assert "its sources/ folder has no files" in notes(pilot.app)


async def test_f2_opens_the_command_palette_and_runs_a_command(svc, clock, data):
    """Every palette title holds a key label such as `Filter [/]`; none may be read as markup."""
    from textual.command import CommandPalette

    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "inbox")
        await pilot.press("f2")
        await settle(pilot)
        assert isinstance(pilot.app.screen, CommandPalette)
        await pilot.press(*"filter")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("f2")
        await settle(pilot)
        await pilot.press(*"compile", "enter")
        await settle(pilot)
        await settle(pilot)
        assert not isinstance(pilot.app.screen, CommandPalette)
        assert [j.base_id for j in jobs.list_jobs(svc) if j.phase == "queued"] == ["inbox"]
