"""The search screen (`s` on a base with a compiled wiki): type a query, the hits follow as you type
(debounced; each query runs in a thread worker on the screen's own store connection, never on the UI
thread, and an answer to an older query is dropped). ↑/↓ choose a hit, enter opens it in the page view,
esc goes back."""

from __future__ import annotations

import threading
from functools import partial
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from kctui.services.context import ServiceContext
from kctui.services.errors import ServiceError
from kctui.ui import keys
from kctui.ui.format import ws_label
from kctui.ui.screens.page_view import PageViewScreen, status_mark

DEBOUNCE = 0.15  # seconds of quiet typing before a query runs
LIMIT = 20


def marked(snippet: str, style: str) -> Text:
    """A snippet with «matches» shown in `style` (the marks themselves removed)."""
    t = Text(no_wrap=True, overflow="ellipsis")
    rest = snippet
    while "«" in rest:
        before, _, after = rest.partition("«")
        word, sep, rest = after.partition("»")
        t.append(before)
        t.append(word, style=style)
        if not sep:
            rest = ""
    t.append(rest)
    return t


def hit_text(hit: dict[str, Any], tones: dict[str, str]) -> Text:
    glyph, word, tone = status_mark(hit.get("status") or "", hit.get("flag"))
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(f"{glyph} ", style=tones.get(tone, ""))
    t.append(hit.get("title") or hit["page"], style="bold")
    t.append(f"  {hit['page']}", style=tones.get("muted", ""))
    t.append(f"  {word}\n", style=tones.get(tone, ""))
    t.append("  ")
    snippet = marked((hit.get("snippet") or hit.get("description") or "").replace("\n", " "),
                     f"bold {tones.get('accent', '')}".strip())
    t.append_text(snippet)
    claim = next(iter(hit.get("claims") or ()), None)
    if claim:
        text = str(claim.get("text", ""))
        # (a snippet that is the claim's whole text is not said twice: its citation follows it)
        t.append(" " if " ".join(snippet.plain.split()) == " ".join(text.split()) else f"\n  {text} ", style="")
        t.append(str(claim.get("citation") or ""), style=tones.get("muted", ""))
    return t


class SearchScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    SearchScreen { background: $background; }
    SearchScreen > Vertical { border: round $accent; background: $surface; height: 1fr; }
    SearchScreen #search-input { margin: 0 1; }
    SearchScreen #search-status { padding: 0 1; height: 1; color: $text-muted; }
    SearchScreen #search-results { height: 1fr; margin: 0 1; border: none; background: $surface; }
    SearchScreen #search-keys { padding: 0 1; height: 1; color: $text-muted; }
    """
    BINDINGS = [*keys.bindings(keys.READER), Binding("down", "move(1)", show=False),
                Binding("up", "move(-1)", show=False)]

    class Results(Message):
        def __init__(self, seq: int, query: str, hits: list[dict[str, Any]], error: str | None) -> None:
            super().__init__()
            self.seq, self.query, self.hits, self.error = seq, query, hits, error

    def __init__(self, workspace: str, kb_id: str, name: str) -> None:
        super().__init__()
        self.workspace, self.kb_id, self.kb_name = workspace, kb_id, name
        self.hits: list[dict[str, Any]] = []
        self.query_text = ""  # the query whose hits are shown
        self._seq = 0
        self._timer: Timer | None = None
        self._lock = threading.Lock()
        self._ctx: ServiceContext | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Input(placeholder="search: words, \"a phrase\", prefix*", id="search-input")
            yield Static("Type to search the compiled wiki.", id="search-status", markup=False)
            yield OptionList(id="search-results")
            yield Static("type to search · ↑↓ choose · enter open the page · esc back", id="search-keys",
                         markup=False)

    def on_mount(self) -> None:
        self.query_one(Vertical).border_title = Text(f"Search {self.kb_name} ({ws_label(self.workspace)})")
        self.query_one(Input).focus()

    def on_unmount(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._seq += 1  # a query still running is answered to nobody
        threading.Thread(target=self._close, name="kctui-search-close", daemon=True).start()

    def _close(self) -> None:
        with self._lock:
            if self._ctx is not None:
                self._ctx.close()
                self._ctx = None

    # -- querying -------------------------------------------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._seq += 1
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, partial(self._start, self._seq, event.value))

    def _start(self, seq: int, query: str) -> None:
        if seq != self._seq:
            return
        if not query.strip():
            self.show_hits([], "", "Type to search the compiled wiki.")
            return
        self.query_one("#search-status", Static).update(f"searching “{query.strip()}”…")
        self.run_worker(partial(self._query_thread, seq, query), thread=True, group="search", name="search",
                        exit_on_error=False)

    def _query_thread(self, seq: int, query: str) -> None:
        from kctui.services import search

        with self._lock:
            if seq != self._seq:  # typing went on: a newer query follows
                return
            try:
                if self._ctx is None:
                    self._ctx = self.app.ctx_factory()  # type: ignore[attr-defined]
                found = search.hits(self._ctx, self.workspace, self.kb_id, query, limit=LIMIT)
                self.post_message(self.Results(seq, query, found, None))
            except ServiceError as exc:
                self.post_message(self.Results(seq, query, [], exc.message))
            except Exception as exc:  # noqa: BLE001 - shown, never raised into the UI
                self.post_message(self.Results(seq, query, [], f"search failed: {type(exc).__name__}: {exc}"))

    def on_search_screen_results(self, message: Results) -> None:
        if message.seq != self._seq:
            return
        q = message.query.strip()
        if message.error:
            status = message.error
        elif not message.hits:
            status = f"no compiled page matches “{q}”: try fewer words or a prefix*"
        else:
            n = len(message.hits)
            status = f"{n}{'+' if n >= LIMIT else ''} page{'s' if n != 1 else ''} match “{q}”"
        self.show_hits(message.hits, q, status)

    def show_hits(self, hits: list[dict[str, Any]], query: str, status: str) -> None:
        self.hits, self.query_text = hits, query
        tones = self.app.tones()  # type: ignore[attr-defined]
        results = self.query_one("#search-results", OptionList)
        results.clear_options()
        results.add_options([Option(hit_text(h, tones), id=h["page"]) for h in hits])
        if hits:
            results.highlighted = 0
        self.query_one("#search-status", Static).update(status)

    # -- choosing and opening -------------------------------------------------------------------------

    def action_move(self, delta: int) -> None:
        results = self.query_one("#search-results", OptionList)
        if results.option_count:
            cur = results.highlighted if results.highlighted is not None else -delta
            results.highlighted = max(0, min(results.option_count - 1, cur + delta))

    def selected_page(self) -> str | None:
        results = self.query_one("#search-results", OptionList)
        if results.highlighted is None or not self.hits:
            return None
        return self.hits[results.highlighted]["page"]

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.open_selected()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.open_selected()

    def open_selected(self) -> None:
        page = self.selected_page()
        if page is None:
            self.app.notify("no page is chosen: type a query, then ↑↓ to choose a hit", severity="warning",
                            timeout=4)
            return
        self.app.push_screen(PageViewScreen(self.workspace, self.kb_id, page))

    def action_back(self) -> None:
        self.dismiss(None)
