"""A pane's border subtitle (kctui/ui/widgets/border.py): the same subtitle again repaints nothing, a new
one repaints only the border's bottom row and shows there, as Textual's setter shows it."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from kctui.ui.widgets.border import set_border_subtitle


class Boxed(App):
    CSS = "Static { border: round white; height: 6; }"

    def compose(self) -> ComposeResult:
        yield Static("body", id="box")
        yield Static("body", id="plain")


def bottom(app: App, wid: str) -> str:
    box = app.query_one(f"#{wid}")
    return "".join(s.text for s in app.screen._compositor.render_strips()[box.region.bottom - 1]._segments)


async def test_the_same_subtitle_repaints_nothing_and_a_new_one_only_the_bottom_row():
    app = Boxed()
    async with app.run_test(size=(40, 14)) as pilot:
        box = app.query_one("#box")
        set_border_subtitle(box, Text("3 unread / 7"))
        await pilot.pause()
        assert "3 unread / 7" in bottom(app, "box")
        set_border_subtitle(box, Text("3 unread / 7"))
        assert not box._repaint_regions
        set_border_subtitle(box, "[b]2[/b] unread / 7")  # a str is markup, as for Textual's setter
        width, height = box.outer_size
        assert [(r.y, r.height, r.width) for r in box._repaint_regions] == [(height - 1, 1, width)]
        await pilot.pause()
        assert "2 unread / 7" in bottom(app, "box")
        plain = app.query_one("#plain")
        plain.border_subtitle = "[b]2[/b] unread / 7"
        await pilot.pause()
        assert box._border_subtitle == plain._border_subtitle
