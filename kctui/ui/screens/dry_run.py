"""A dry run's change brief (kctui.services.dry_run), opened by the Queue pane's dry-run key: what a
real pass would create, revise, hold, conflict and skip, and where its candidate tree is. j/k scroll;
esc goes back."""

from __future__ import annotations

from rich.markdown import Markdown
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from kctui.ui import keys


class DryRunScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    DryRunScreen { background: $background; }
    DryRunScreen > Vertical { border: round $accent; background: $surface; height: 1fr; }
    DryRunScreen #dry-run-body { padding: 0 1; height: 1fr; }
    DryRunScreen #dry-run-keys { padding: 0 1; height: 1; color: $text-muted; }
    """
    BINDINGS = [*keys.bindings(keys.READER), Binding("j", "scroll(1)", show=False),
                Binding("k", "scroll(-1)", show=False)]

    def __init__(self, title: str, markdown: str) -> None:
        super().__init__()
        self.title_text, self.markdown = title, markdown

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll(id="dry-run-body", can_focus=True):
                yield Static(Markdown(self.markdown, hyperlinks=False), id="dry-run-brief")
            yield Static("j/k scroll · esc back · nothing was promoted, filed or recorded", id="dry-run-keys",
                         markup=False)

    def on_mount(self) -> None:
        self.query_one(Vertical).border_title = Text(self.title_text)  # a base's name is never read as markup
        self.query_one("#dry-run-body").focus()

    def action_scroll(self, delta: int) -> None:
        self.query_one("#dry-run-body", VerticalScroll).scroll_relative(y=delta, animate=False)

    def action_back(self) -> None:
        self.dismiss(None)
