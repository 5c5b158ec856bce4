"""The app around the keys: themes as files, NO_COLOR, the embedded host (started in the background,
client mode when another host holds the lock, stopped on quit and hang-up), and live tables updated in
place with the cursor kept."""

from __future__ import annotations

import threading

import pytest

from kctui.compiler.runner import ProgressEvent
from kctui.services import jobs
from kctui.services.hostlock import HostLock
from kctui.services.progress import ProgressRecorder
from kctui.ui.host import default_runtime
from kctui.ui.keys import KeymapError, validate_keymap
from kctui.ui.themes import DEFAULT_THEME, load_themes
from tests.tui.fixtures import make_app, ready, running_base, settle, world

SIZE = (120, 36)


def notes(app) -> list[str]:
    return [n.message for n in app._notifications]


async def test_a_bad_theme_file_gives_the_default_theme_and_one_message(svc, clock, tmp_path):
    themes = tmp_path / "config" / "themes"
    themes.mkdir(parents=True)
    (themes / "mine.toml").write_text('name = "mine"\n[colors]\nprimary = "#00ff00"\nbackground = "blurple"\n')
    (themes / "broken.toml").write_text("name = [\n")
    (tmp_path / "config" / "config.toml").write_text('[ui]\ntheme = "mine"\n')
    app = make_app(clock)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert app.theme == DEFAULT_THEME
        theme_notes = [n for n in notes(app) if "theme" in n.lower()]
        assert len(theme_notes) == 1
        assert "mine.toml: colors.background: 'blurple' is not a colour" in theme_notes[0]
        assert "broken.toml" in theme_notes[0] and "Using the 'kctui-dark' theme" in theme_notes[0]


async def test_user_and_light_themes_load_from_files(svc, clock, tmp_path):
    themes = tmp_path / "config" / "themes"
    themes.mkdir(parents=True)
    (themes / "sea.toml").write_text('name = "sea"\ndark = false\n[colors]\nprimary = "teal"\n'
                                     '[variables]\n"footer-key-foreground" = "#004455"\n')
    (tmp_path / "config" / "config.toml").write_text('[ui]\ntheme = "sea"\n')
    found, errors = load_themes()
    assert {"kctui-dark", "kctui-light", "sea"} <= {t.name for t in found} and errors == []
    app = make_app(clock)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert app.theme == "sea" and not app.current_theme.dark and notes(app) == []
        app.theme = "kctui-light"
        await settle(pilot)
        assert app.tones()["error"] != ""


async def test_no_color_is_honoured(svc, clock, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(clock)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert app.no_color


def test_keymap_validation_messages():
    assert validate_keymap({"compile": "F5", "quit": "q,f10"}) == {"compile": "f5", "quit": "q,f10"}
    for table, words in [({"compile": "alt+c"}, "ctrl/alt/meta"), ({"compile": 3}, "must be a string"),
                         ({"help": "q"}, "bound to both help and quit")]:
        with pytest.raises(KeymapError, match=words.replace("/", ".")):
            validate_keymap(table)


class FakeRuntime:
    def __init__(self, api: bool = True) -> None:
        self.api, self.url = api, "http://127.0.0.1:9" if api else None
        self.started = threading.Event()
        self.stops = 0

    def start(self) -> None:
        self.started.set()

    def stop(self) -> None:
        self.stops += 1


async def test_the_host_starts_in_the_background_and_stops_on_quit(svc, clock):
    runtime = FakeRuntime()
    app = make_app(clock, runtime_factory=lambda api: runtime)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert runtime.started.wait(5)
        await settle(pilot)
        assert app.host_text.startswith("host: this app") and "127.0.0.1:9" in app.host_text
    app.shutdown()
    app.shutdown()
    assert runtime.stops == 1


async def test_a_hang_up_stops_the_host_and_exits(svc, clock):
    runtime = FakeRuntime()
    app = make_app(clock, runtime_factory=lambda api: runtime)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert runtime.started.wait(5)
        app.hang_up()
        await pilot.pause()
        assert app._exit and app.hung_up
    for _ in range(100):
        if runtime.stops:
            break
        threading.Event().wait(0.02)
    assert runtime.stops == 1


async def test_client_mode_when_another_host_holds_the_lock(svc, clock):
    lock = HostLock(role="kctui serve").acquire()
    try:
        app = make_app(clock, runtime_factory=default_runtime)
        async with app.run_test(size=SIZE) as pilot:
            await ready(pilot)
            for _ in range(200):
                if app.host.state != "starting":
                    break
                await pilot.pause(0.02)
            await settle(pilot)
            assert app.host.state == "client" and app.host_text.startswith("client: another kctui host")
            assert "client: another kctui host" in str(app.main.query_one("#status").render())
        app.shutdown()
    finally:
        lock.release()


async def test_live_rows_update_in_place_and_keep_the_cursor(svc, clock, tmp_path):
    data = world(svc, clock, tmp_path, running=False)
    _, _, queued = jobs.request_compile(svc, data["ws"], "inbox")
    app = make_app(clock, poll_interval=0.05)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        table = app.main.queue.jobs
        await pilot.press("1", "tab", "j")  # the user picks the second job row
        picked = table.cursor_key
        rows_before = table.row_count
        jobs.cancel(svc, data["ws"], "inbox", queued.id)  # another process changes the store
        jobs.request_compile(svc, data["ws"], "papers")  # and a new job arrives on top
        app.poller.poll_now()
        await settle(pilot)
        assert table.row_count == rows_before + 1 and table.cursor_key == picked
        row = [c.plain for c in table.get_row(queued.id)]
        assert row[-1].strip() == "⊘ cancelled"


async def test_the_running_pane_follows_live_progress(svc, clock, tmp_path):
    data = world(svc, clock, tmp_path, running=False)
    _, job = running_base(svc, clock, data["ws"], steps_done=1)
    app = make_app(clock, poll_interval=0.05)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        steps = app.main.query_one("#run-steps")
        assert "▶ extract" in steps.render().plain and "#5" in app.main.query_one("#run-head").render().plain
        rec = ProgressRecorder(svc, min_interval=0)
        for s in ("extract", "match", "update", "flag", "brief"):
            rec(job.id, ProgressEvent(s, "done", 3, 3, message=f"{s} done"))
        app.poller.poll_now()
        await settle(pilot)
        text = steps.render().plain
        assert text.count("✔") == 6 and "brief done" in app.main.query_one("#run-log").render().plain


async def test_the_running_pane_takes_up_a_job_queued_here_even_if_it_ends_between_polls(svc, clock, tmp_path):
    from kctui.services import results

    data = world(svc, clock, tmp_path, running=False)
    app = make_app(clock)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("1", "c")  # Inbox is the first base
        await settle(pilot)
        [job] = [j for j in jobs.list_jobs(svc) if j.phase == "queued"]
        jobs.claim(svc)  # a fast compiler: claimed and finished before the app polls again
        results.report_result(svc, data["ws"], job.base_id, job.id, "succeeded")
        app.poller.poll_now()
        await settle(pilot)
        assert app.main.wanted_job() == job.id and app.main.snapshot.detail.job.phase != "queued"


async def test_the_running_pane_takes_up_an_automatic_job_that_ran_between_polls(svc, clock, tmp_path):
    """QA s31 #19: the Running pane kept showing `#13 ✔ succeeded` after automatic job #14 had run."""
    from kctui.services import results

    data = world(svc, clock, tmp_path, running=False)
    app = make_app(clock)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("1", "c")
        await settle(pilot)
        [first] = [j for j in jobs.list_jobs(svc) if j.phase == "queued"]
        jobs.claim(svc)
        results.report_result(svc, data["ws"], first.base_id, first.id, "succeeded")
        app.poller.poll_now()
        await settle(pilot)
        assert app.main.wanted_job() == first.id
        clock.advance(5)
        _, _, auto = jobs.request_compile(svc, data["ws"], first.base_id)  # (as an automatic job would)
        jobs.claim(svc)  # claimed and finished before the app polls again
        results.report_result(svc, data["ws"], first.base_id, auto.id, "succeeded")
        app.poller.poll_now()
        await settle(pilot)
        assert app.main.wanted_job() == auto.id
