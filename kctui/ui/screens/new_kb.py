"""The "new knowledge base" dialog: a ModalScreen[NewKb | None]. The service validates (name length,
policy); the dialog only checks that the required fields are filled."""

from __future__ import annotations

from dataclasses import dataclass, field

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Input, Select, Static

from kctui.ui.screens.add_workspace import FORM_CSS
from kctui.ui.screens.dimmed import DimmedModal


@dataclass(frozen=True)
class NewKb:
    workspace: str
    name: str
    description: str = ""
    policy: str = "manual"
    from_paths: list[str] = field(default_factory=list)


class NewKbScreen(DimmedModal[NewKb | None]):
    # compact: the title and the keys' hint always show, the fields scroll when the terminal is short
    DEFAULT_CSS = FORM_CSS.format(name="NewKbScreen") + """
    NewKbScreen > Vertical { padding: 0 2; }
    NewKbScreen .form-title { margin: 0; }
    NewKbScreen .form-label { margin-top: 0; }
    NewKbScreen .form-error { margin-top: 0; height: auto; }
    NewKbScreen .form-hint { margin-top: 0; }
    NewKbScreen #kb-fields { height: auto; max-height: 70vh; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, workspaces: list[str], default_workspace: str | None = None) -> None:
        super().__init__()
        self.workspaces = workspaces
        self.default_workspace = default_workspace or (workspaces[0] if workspaces else "")

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("New knowledge base", classes="form-title")
            with VerticalScroll(id="kb-fields"):
                yield from self.fields()
            yield Static("", id="kb-error", classes="form-error", markup=False)
            yield Static("tab = next field    enter = create    esc = cancel", classes="form-hint")

    def fields(self) -> ComposeResult:
        yield Static("Workspace folder", classes="form-label")
        yield Input(value=self.default_workspace, placeholder="~/projects/notes", id="kb-workspace")
        yield Static("Name", classes="form-label")
        yield Input(placeholder="Team notes", id="kb-name")
        yield Static("Description (optional)", classes="form-label")
        yield Input(placeholder="What the sources are about", id="kb-description")
        yield Static("Compilation", classes="form-label")
        yield Select([("manual: compile when I press c", "manual"),
                      ("smart_auto: compile after source changes settle", "smart_auto")],
                     value="manual", allow_blank=False, id="kb-policy")
        yield Static("Copy sources from (optional, comma-separated files or folders)", classes="form-label")
        yield Input(placeholder="~/notes/a.md, ~/papers", id="kb-from")

    def on_mount(self) -> None:
        self.query_one("#kb-name" if self.default_workspace else "#kb-workspace", Input).focus()

    def value(self) -> NewKb | None:
        ws = self.query_one("#kb-workspace", Input).value.strip()
        name = self.query_one("#kb-name", Input).value.strip()
        error = self.query_one("#kb-error", Static)
        if not ws:
            error.update("Give the workspace folder.")
            return None
        if not name:
            error.update("Give the knowledge base a name.")
            return None
        sources = [p.strip() for p in self.query_one("#kb-from", Input).value.split(",") if p.strip()]
        policy = self.query_one("#kb-policy", Select).value
        return NewKb(workspace=ws, name=name, description=self.query_one("#kb-description", Input).value.strip(),
                     policy=str(policy), from_paths=sources)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        result = self.value()
        if result is not None:
            self.dismiss(result)

    def action_cancel(self) -> None:
        self.dismiss(None)
