"""A yes/no question before anything destructive: `ConfirmScreen(...)` is a ModalScreen[bool], and
`ask(app, …)` puts one on screen. One question screen serves every ask: built on the first, its three
lines set again after (composing and styling a new screen was a third of the time a question took)."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from kctui.ui import keys
from kctui.ui.screens.dimmed import DimmedModal
from kctui.ui.screens.resume import KeepStylesOnResume


class ConfirmScreen(KeepStylesOnResume, DimmedModal[bool]):
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical {
        width: 72; max-width: 95%; height: auto; max-height: 90%;
        border: thick $warning; background: $surface; padding: 1 2;
    }
    ConfirmScreen #confirm-title { text-style: bold; margin-bottom: 1; }
    ConfirmScreen #confirm-hint { margin-top: 1; color: $text-muted; }
    """
    BINDINGS = [*keys.bindings(keys.DIALOG), Binding("escape", "answer(False)", "No", show=False)]

    def __init__(self, title: str, body: str | Text, yes: str = "yes") -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"⚠ {self.title_text}", id="confirm-title", markup=False)
            yield Static(self.body, id="confirm-body", markup=False)
            yield Static(self.hint(), id="confirm-hint", markup=False)

    def hint(self) -> str:
        yes = keys.keys_text(keys.BY_ID["confirm-yes"], self.app_keymap())
        no = keys.keys_text(keys.BY_ID["confirm-no"], self.app_keymap())
        return f"{yes} = {self.yes}    {no} or esc = no"

    def ask_again(self, title: str, body: str | Text, yes: str) -> None:
        """Make this (dismissed) screen ask another question before it is shown again."""
        self.title_text, self.body, self.yes = title, body, yes
        self.query_one("#confirm-title", Static).update(f"⚠ {title}")
        self.query_one("#confirm-body", Static).update(body)
        self.query_one("#confirm-hint", Static).update(self.hint())

    def app_keymap(self) -> dict[str, str]:
        return getattr(self.app, "user_keymap", {})

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


QUESTION = "confirm"


def ask(app: App, title: str, body: str | Text, yes: str, answer: Callable[[bool | None], None]) -> None:
    """Ask `title` (with `body`, the yes key labelled `yes`); `answer` gets True, or False for no."""
    if not app.is_screen_installed(QUESTION):
        app.install_screen(ConfirmScreen(title, body, yes=yes), QUESTION)
        app.push_screen(QUESTION, answer)
        return
    screen = app.get_screen(QUESTION)
    if screen in app.screen_stack:  # a question over the question: one of its own
        app.push_screen(ConfirmScreen(title, body, yes=yes), answer)
        return
    screen.ask_again(title, body, yes)
    app.push_screen(screen, answer)
