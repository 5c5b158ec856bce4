"""A quiet-focus widget's focus restyles the widget alone, unless a rule styles something inside it by
its focus; then everything inside it is restyled too, as Textual does (kctui.ui.widgets.quiet_focus)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import Static

from kctui.ui.widgets.quiet_focus import QuietFocus, focus_styles_inside


class Holder(QuietFocus, Widget, can_focus=True):
    def compose(self) -> ComposeResult:
        yield Static("inside", id="inside")


class Plain(QuietFocus, Widget, can_focus=True):
    def compose(self) -> ComposeResult:
        yield Static("inside", id="plain-inside")


class Two(App[None]):
    CSS = """
    Holder:focus > Static { color: #ff0000; }
    Holder:focus { background: #00ff00; }
    Plain:focus { background: #0000ff; }
    Static { color: #ffffff; }
    """

    def compose(self) -> ComposeResult:
        yield Holder(id="holder")
        yield Plain(id="plain")


async def test_focus_restyles_inside_only_where_a_rule_looks_inside():
    app = Two()
    async with app.run_test() as pilot:
        holder, plain = app.query_one(Holder), app.query_one(Plain)
        inside = app.query_one("#inside", Static)
        assert focus_styles_inside(holder) and not focus_styles_inside(plain)
        holder.focus()
        await pilot.pause()
        assert holder.has_focus and holder.styles.background.hex == "#00FF00"
        assert inside.styles.color.hex == "#FF0000"  # restyled by the holder's focus
        plain.focus()
        await pilot.pause()
        assert plain.styles.background.hex == "#0000FF" and holder.styles.background.hex != "#00FF00"
        assert inside.styles.color.hex == "#FFFFFF"  # and back when it lost focus
        assert app.query_one("#plain-inside", Static).styles.color.hex == "#FFFFFF"


async def test_no_rule_of_the_app_looks_inside_its_panes(svc, clock, tmp_path):
    from tests.tui.fixtures import make_app, ready, world

    world(svc, clock, tmp_path, running=True)
    app = make_app(clock)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        for pane in ("#bases", "#jobs", "#items", "#running", "#brief"):
            assert not focus_styles_inside(app.main.query_one(pane))  # a pane switch restyles the pane alone
