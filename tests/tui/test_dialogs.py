"""Dialogs: one over the main screen shows it dimmed exactly as Textual's ModalScreen draws it (kctui
draws the dimmed copy itself, faster: kctui.ui.screens.dimmed); the one question screen asks each
question with its own words and hands each answer to that question's callback."""

from __future__ import annotations

from textual._context import visible_screen_stack
from textual.renderables.background_screen import BackgroundScreen
from textual.visual import RenderOptions, RichVisual

from kctui.ui.screens.confirm import ConfirmScreen, ask
from kctui.ui.screens.dimmed import DimmedScreen
from tests.tui.fixtures import make_app, ready, settle, world


def both(dialog, main, width: int, height: int):
    token = visible_screen_stack.set([])
    try:
        color = dialog.styles.background
        options = RenderOptions(dialog._get_style, dialog.styles, None, None)
        ours = DimmedScreen(dialog, main, color).render_strips(width, height, dialog.visual_style, options)
        theirs = RichVisual(dialog, BackgroundScreen(main, color)).render_strips(width, height, dialog.visual_style,
                                                                                options)
    finally:
        visible_screen_stack.reset(token)
    return [list(s) for s in ours], [list(s) for s in theirs]


async def test_the_dimmed_main_screen_is_textuals_to_the_segment(svc, clock, tmp_path):
    world(svc, clock, tmp_path, running=True)
    app = make_app(clock)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        for key in ("1", "tab", "j", "3"):  # a focused table, a highlighted row, the other panes filled
            await pilot.press(key)
            await settle(pilot)
        app.push_screen(ConfirmScreen("Cancel job #2?", "The queued compile is removed.", yes="cancel"))
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert dialog.styles.background.a < 1  # translucent: the main screen shows through
        ours, theirs = both(dialog, app.main, 120, 36)
        assert len(ours) == 36 and any(seg.style is not None and seg.style.bgcolor for line in ours for seg in line)
        assert ours == theirs
        # and again after the styles of the screen beneath changed (the theme), from the memo of tints
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await settle(pilot)
        ours, theirs = both(dialog, app.main, 120, 36)
        assert ours == theirs


async def test_each_question_has_its_own_words_and_its_own_answer(svc, clock, tmp_path):
    from textual.widgets import Static

    world(svc, clock, tmp_path, running=True)
    app = make_app(clock)
    answers: list[tuple[str, bool | None]] = []
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)

        def words(screen) -> list[str]:
            return [str(screen.query_one(f"#confirm-{part}", Static).render()) for part in ("title", "body", "hint")]

        ask(app, "Cancel job #2?", "The queued compile is removed.", "cancel the job",
            lambda yes: answers.append(("cancel", yes)))
        await settle(pilot)
        first = app.screen
        assert words(first) == ["⚠ Cancel job #2?", "The queued compile is removed.",
                                "y = cancel the job    n or esc = no"]
        await pilot.press("n")
        await settle(pilot)
        ask(app, "Quit while a compile runs?", "It goes on in the host that runs it.", "quit",
            lambda yes: answers.append(("quit", yes)))
        await settle(pilot)
        assert app.screen is first  # the same screen, asking the second question
        assert words(first) == ["⚠ Quit while a compile runs?", "It goes on in the host that runs it.",
                                "y = quit    n or esc = no"]
        await pilot.press("y")
        await settle(pilot)
        assert app.screen is app.main
    assert answers == [("cancel", False), ("quit", True)]


async def test_a_question_asked_again_shows_the_main_screen_as_it_is_now(svc, clock, tmp_path):
    """The one question screen, pushed again after the main screen changed under no question, draws
    the dimmed main screen anew (it keeps its styles, never its drawn rows: they are the main screen's)."""
    world(svc, clock, tmp_path, running=True)
    app = make_app(clock)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        ask(app, "Cancel job #2?", "The queued compile is removed.", "cancel the job", lambda yes: None)
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        await pilot.press("3")  # the main screen changes: another pane is active
        await settle(pilot)
        ask(app, "Cancel job #2?", "The queued compile is removed.", "cancel the job", lambda yes: None)
        await settle(pilot)
        shown = app.export_screenshot()
        app.screen.refresh()  # everything drawn again
        await settle(pilot)
        assert app.export_screenshot() == shown
        assert "▶&#160;3&#160;Review" in shown  # the pane made active while no question was asked
