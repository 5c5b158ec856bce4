"""One compiled page opened from the search screen: its status line (a glyph AND a word, so NO_COLOR
loses nothing), its claims each with its citation (disputed ones marked), the page text, and its
revision history, newest first. Loaded in a thread worker; j/k scroll; esc goes back."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from kctui.core.glyphs import STATUS_GLYPHS
from kctui.ui import keys
from kctui.ui.format import ws_label

# a page's status -> (glyph, word, theme tone); a flag (contradicted, needs review, stale) wins
STATUS = {
    "compiled": (STATUS_GLYPHS["compiled"], "compiled", "success"),
    "contradicted": (STATUS_GLYPHS["contradicted"], "contradicted", "error"),
    "needs-review": (STATUS_GLYPHS["needs-review"], "needs review", "warning"),
    "stale": (STATUS_GLYPHS["stale"], "stale", "warning"),
}


def status_mark(status: str, flag: dict[str, Any] | None = None) -> tuple[str, str, str]:
    """(glyph, word, tone) of a page's status."""
    if status in STATUS:
        return STATUS[status]
    return ("⚠", status or "unknown", "warning") if flag else ("•", status or "unknown", "muted")


def render_head(data: dict[str, Any], tones: dict[str, str]) -> Text:
    glyph, word, tone = status_mark(data.get("status") or "", data.get("flag"))
    t = Text()
    t.append(data.get("title") or data["page"], style="bold")
    t.append(f"  ·  {data['page']}  ·  {data.get('pageClass') or 'page'}  ·  "
             f"{data['knowledgeBaseId']} ({ws_label(data['workspaceRoot'])})\n", style=tones.get("muted", ""))
    t.append("Status: ", style="bold")
    t.append(data.get("statusLine") or f"{glyph} {word}", style=f"bold {tones.get(tone, '')}".strip())
    t.append("\n")
    if data.get("description"):
        t.append(str(data["description"]).strip().replace("\n", " "), style="italic")
        t.append("\n")
    return t


def render_claims(data: dict[str, Any], tones: dict[str, str]) -> Text:
    claims = data.get("claims") or []
    t = Text()
    t.append(f"Claims ({len(claims)})\n", style="bold underline")
    if not claims:
        t.append("  (this page states no claims)\n", style=tones.get("muted", ""))
    append_claims(t, claims, tones, indent="  ", cite="      ")
    body = (data.get("body") or "").strip()
    if body:
        t.append("\nPage text\n", style="bold underline")
        t.append(body + "\n", style=tones.get("muted", ""))
    return t


def append_claims(t: Text, claims: list[dict[str, Any]], tones: dict[str, str], *, indent: str = "",
                  cite: str = "    cites ", cited_lines: bool = False) -> None:
    """Each claim (⇄ when disputed) and its citation under it; with `cited_lines`, the source lines it
    cites too (the pages screen's reader)."""
    muted = tones.get("muted", "")
    for c in claims:
        disputed = bool(c.get("conflict"))
        t.append(indent + ("⇄ " if disputed else "• "), style=tones.get("error", "") if disputed else "")
        t.append(str(c.get("text") or c.get("value") or ""))
        if disputed:
            t.append("  (disputed)", style=f"bold {tones.get('error', '')}".strip())
        t.append("\n")
        t.append(f"{cite}{c.get('citation') or '(no citation)'}\n", style=muted)
        if not cited_lines:
            continue
        lines = c.get("citedLines")
        if lines:
            for line in str(lines).splitlines():
                t.append(f"    │{line}\n", style=tones.get("accent", ""))
        elif "citedLines" in c:
            t.append("    (the cited lines cannot be read from sources/)\n", style=muted)


def render_history(data: dict[str, Any], tones: dict[str, str]) -> Text:
    history = list(reversed(data.get("history") or []))
    t = Text()
    t.append(f"Revisions ({len(history)})\n", style="bold underline")
    if not history:
        t.append("  (no revision is recorded)\n", style=tones.get("muted", ""))
    for r in history:
        at = str(r.get("at") or "").replace("T", " ").rstrip("Z")[:16]
        t.append(f"r{r.get('revision')}", style="bold")
        t.append(f"  {at}" + ("  deleted" if r.get("deleted") else "") + "\n")
        t.append(f"  {r.get('reason') or ''}\n")
        t.append(f"  by {r.get('author') or '?'}\n", style=tones.get("muted", ""))
    return t


class PageViewScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    PageViewScreen { background: $background; }
    PageViewScreen > Vertical { border: round $accent; background: $surface; height: 1fr; }
    PageViewScreen #page-head { padding: 0 1; height: auto; }
    PageViewScreen #page-columns { height: 1fr; }
    PageViewScreen #page-body { width: 1fr; padding: 0 1; }
    PageViewScreen #page-history { width: 44; padding: 0 1; border-left: solid $panel-lighten-2; }
    PageViewScreen #page-keys { padding: 0 1; height: 1; color: $text-muted; }
    """
    BINDINGS = [*keys.bindings(keys.READER), Binding("j", "scroll(1)", show=False),
                Binding("k", "scroll(-1)", show=False)]

    def __init__(self, workspace: str, kb_id: str, page: str) -> None:
        super().__init__()
        self.workspace, self.kb_id, self.page = workspace, kb_id, page
        self.data: dict[str, Any] | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Loading {self.page}…", id="page-head", markup=False)
            with Horizontal(id="page-columns"):
                with VerticalScroll(id="page-body", can_focus=True):
                    yield Static("", id="page-claims", markup=False)
                with VerticalScroll(id="page-history", can_focus=True):
                    yield Static("", id="page-revisions", markup=False)
            yield Static("j/k scroll · tab the revisions · esc back", id="page-keys", markup=False)

    def on_mount(self) -> None:
        self.query_one(Vertical).border_title = Text(self.page)
        self.query_one("#page-body").focus()
        self.load()

    def load(self) -> None:
        from kctui.services import search

        ws, kb, page = self.workspace, self.kb_id, self.page
        self.app.run_service("open page", lambda ctx: search.page_view(ctx, ws, kb, page),  # type: ignore[attr-defined]
                             then=self.show_data, on_error=self.show_error, quiet=True,
                             reads_only=True)

    def show_data(self, data: dict[str, Any]) -> None:
        self.data = data
        tones = self.app.tones()  # type: ignore[attr-defined]
        self.query_one("#page-head", Static).update(render_head(data, tones))
        self.query_one("#page-claims", Static).update(render_claims(data, tones))
        self.query_one("#page-revisions", Static).update(render_history(data, tones))

    def show_error(self) -> None:
        self.query_one("#page-head", Static).update(f"{self.page} cannot be shown (see the message); esc back")

    def action_scroll(self, delta: int) -> None:
        target = self.focused if isinstance(self.focused, VerticalScroll) else self.query_one("#page-body")
        target.scroll_relative(y=delta, animate=False)

    def action_back(self) -> None:
        self.dismiss(None)
