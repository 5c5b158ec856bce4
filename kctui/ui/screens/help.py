"""The `?` help screen: every key of the registry by group, with the key the user's keymap gives it
and whether it applies right now (and if not, why)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from kctui.ui.screens.dimmed import DimmedModal


@dataclass(frozen=True)
class HelpRow:
    group: str
    keys: str
    description: str
    id: str
    state: str | None  # None: applies now; else why not


class HelpScreen(DimmedModal[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 100; max-width: 100%; height: 100%; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    HelpScreen #help-title { text-style: bold; }
    HelpScreen #help-foot { color: $text-muted; }
    HelpScreen VerticalScroll { height: 1fr; }
    """
    BINDINGS = [Binding("escape", "close", "Close"), Binding("j", "scroll(1)", show=False),
                Binding("k", "scroll(-1)", show=False)]

    def __init__(self, rows: list[HelpRow], where: str, config_hint: str, muted: str = "") -> None:
        super().__init__()
        self.rows = rows
        self.where = where
        self.config_hint = config_hint
        self.muted = muted

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"kctui keys — {self.where}", id="help-title", markup=False)
            with VerticalScroll(id="help-scroll"):
                yield Static(self.table(), id="help-table")
            yield Static(f"✔ applies now · ✘ not now (and why). Rebind by id in {self.config_hint}. "
                         "esc or ? closes.", id="help-foot", markup=False)

    def table(self) -> Table:
        t = Table(box=None, show_header=True, header_style="bold", expand=True, padding=(0, 1))
        t.add_column("Key", no_wrap=True, width=10)
        t.add_column("", width=1, no_wrap=True)
        t.add_column("What it does", ratio=1)
        t.add_column("Binding id", no_wrap=True, width=14)
        group = None
        for r in self.rows:
            if r.group != group:
                group = r.group
                t.add_row(Text(group, style="bold underline"), "", "", "")
            what = Text(r.description)
            if r.state is not None:
                what.append(f"\nnot now: {r.state}", style=self.muted)
            t.add_row(Text(r.keys, style="bold"), Text("✔") if r.state is None else Text("✘", style=self.muted),
                      what, Text(r.id, style=self.muted))
        return t

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, delta: int) -> None:
        scroll = self.query_one("#help-scroll", VerticalScroll)
        scroll.scroll_relative(y=delta, animate=False)
