"""The "add workspace" dialog: a ModalScreen[str | None] returning a normalised workspace folder."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from kctui.services.errors import ServiceError
from kctui.services.workspaces import normalise_workspace
from kctui.ui.screens.dimmed import DimmedModal

FORM_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 80; max-width: 95%; height: auto; max-height: 95%;
    border: thick $primary; background: $surface; padding: 1 2;
}}
{name} .form-title {{ text-style: bold; margin-bottom: 1; }}
{name} .form-label {{ margin-top: 1; }}
{name} .form-error {{ color: $error; margin-top: 1; }}
{name} .form-hint {{ color: $text-muted; margin-top: 1; }}
"""


class AddWorkspaceScreen(DimmedModal[str | None]):
    DEFAULT_CSS = FORM_CSS.format(name="AddWorkspaceScreen")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, initial: str = "") -> None:
        super().__init__()
        self.initial = initial

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Add a workspace", classes="form-title")
            yield Static("A folder whose knowledge bases kctui keeps compiled (bases live in "
                         ".a3s/kb/bases/ inside it).", markup=False)
            yield Static("Folder", classes="form-label")
            yield Input(value=self.initial, placeholder="~/projects/notes", id="ws-path")
            yield Static("", id="ws-error", classes="form-error")
            yield Static("enter = add    esc = cancel", classes="form-hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            ws = normalise_workspace(event.value.strip())
        except ServiceError as exc:
            self.query_one("#ws-error", Static).update(exc.message)
            return
        self.dismiss(ws)

    def action_cancel(self) -> None:
        self.dismiss(None)
