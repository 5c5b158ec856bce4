"""A yes/no question before anything destructive: `ConfirmScreen(...)` is a ModalScreen[bool]."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from kctui.ui import keys
from kctui.ui.screens.dimmed import DimmedModal


class ConfirmScreen(DimmedModal[bool]):
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
            yes = keys.keys_text(keys.BY_ID["confirm-yes"], self.app_keymap())
            no = keys.keys_text(keys.BY_ID["confirm-no"], self.app_keymap())
            yield Static(f"{yes} = {self.yes}    {no} or esc = no", id="confirm-hint", markup=False)

    def app_keymap(self) -> dict[str, str]:
        return getattr(self.app, "user_keymap", {})

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)
