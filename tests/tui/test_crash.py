"""An unexpected exception in the app: its traceback goes to `crash.log` in the state directory, the
terminal gets one line naming it, and `kctui` exits non-zero (Textual alone exits 0 after a crash)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from textual.app import App

from kctui.ui.app import CRASH_LOG, KctuiApp
from kctui.ui.screens.main import MainScreen
from tests.tui.fixtures import make_app, ready, world


class Boom(RuntimeError):
    pass


async def test_an_exception_from_a_key_is_logged_and_the_app_exits_non_zero(svc, clock, tmp_path, state_dir,
                                                                            monkeypatch, capsys):
    world(svc, clock, tmp_path, running=False)

    def explode(self) -> None:
        raise Boom("the compile key broke\nsecond line")

    monkeypatch.setattr(MainScreen, "action_compile", explode)
    app = make_app(clock)
    with pytest.raises(Boom):
        async with app.run_test(size=(100, 30)) as pilot:
            await ready(pilot)
            await pilot.press("c")
            await pilot.pause()
    assert app.return_code == 1
    log = (state_dir / CRASH_LOG).read_text(encoding="utf-8")
    assert "Boom: the compile key broke" in log and "explode" in log  # the whole traceback
    assert app.crash_line is not None and "\n" not in app.crash_line
    assert "Boom: the compile key broke" in app.crash_line and str(state_dir / CRASH_LOG) in app.crash_line
    # what reached the terminal: that one line, not Textual's traceback
    assert capsys.readouterr().err.strip() == app.crash_line


def test_kctui_exits_non_zero_after_a_crash(state_dir, monkeypatch):
    from kctui.cli import main

    def headless(self, *a, **kw):
        return App.run(self, headless=True, size=(100, 30))

    def explode(self) -> None:
        raise Boom("mount failed")

    monkeypatch.setattr(KctuiApp, "run", headless)
    monkeypatch.setattr(MainScreen, "on_mount", explode)
    result = CliRunner().invoke(main, [])
    assert result.exit_code == 1, result.output
    assert "Boom: mount failed" in (state_dir / CRASH_LOG).read_text(encoding="utf-8")
