"""The pages screen (`g` on a base with a compiled wiki): every compiled page of the base, grouped by
class (sources, concepts, entities), each with its status as a glyph AND a word and its open review
items. Typing filters (title, path, class or status; "showing N / total" says how many are shown);
↑/↓ (j/k in the list) choose, enter opens the page (`PageScreen`), esc clears the filter, then goes back.

The list is read once through `services.pages.list_pages` in a thread worker (and again when the screen
comes back from a page, since a review decision may have changed it)."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from kctui.ui import keys
from kctui.ui.format import ws_label
from kctui.ui.screens.page_view import status_mark
from kctui.ui.widgets.key_bar import KeyBar, Line

CLASS_WORDS = {"source": "Sources", "concept": "Concepts", "entity": "Entities", "page": "Other pages"}
STATUS_WIDTH = 16


def matches(page: dict[str, Any], needle: str) -> bool:
    if not needle:
        return True
    _glyph, word, _tone = status_mark(page.get("status") or "", {"why": page["why"]} if page.get("why") else None)
    hay = " ".join((page.get("title") or "", page["page"], page.get("pageClass") or "", word,
                    CLASS_WORDS.get(page.get("pageClass") or "", ""))).lower()
    return all(part in hay for part in needle.lower().split())


def page_row(page: dict[str, Any], tones: dict[str, str]) -> Text:
    glyph, word, tone = status_mark(page.get("status") or "", {"why": page["why"]} if page.get("why") else None)
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(f"  {glyph} {word:<{STATUS_WIDTH - 2}}", style=tones.get(tone, ""))
    t.append(page.get("title") or page["page"], style="bold")
    t.append(f"  {page['page']}", style=tones.get("muted", ""))
    n = page.get("openItems") or 0
    if n:
        t.append(f"  ✎ {n} open review item{'s' if n != 1 else ''}", style=tones.get("warning", ""))
    return t


def group_head(page_class: str, shown: int, total: int) -> Text:
    t = Text(no_wrap=True)
    t.append(f"{CLASS_WORDS.get(page_class, page_class)} ", style="bold underline")
    t.append(f"({shown} of {total})" if shown != total else f"({total})")
    return t


class PagesScreen(Screen[None]):
    DEFAULT_CSS = """
    PagesScreen { background: $background; }
    PagesScreen > Vertical { border: round $accent; background: $surface; height: 1fr; }
    PagesScreen #pages-filter { margin: 0 1; }
    PagesScreen #pages-count { padding: 0 1; color: $text-muted; }
    PagesScreen #pages-list { height: 1fr; margin: 0 1; border: none; background: $surface; text-wrap: nowrap; text-overflow: ellipsis; }
    """
    KEY_SCOPES = (keys.PAGES,)
    BINDINGS = [*keys.bindings(keys.PAGES), Binding("down", "move(1)", show=False),
                Binding("up", "move(-1)", show=False)]

    def __init__(self, workspace: str, kb_id: str, name: str) -> None:
        super().__init__()
        self.workspace, self.kb_id, self.kb_name = workspace, kb_id, name
        self.pages: list[dict[str, Any]] | None = None  # None until loaded
        self.shown: list[str | None] = []  # the option rows: a page path, or None for a group heading
        self.needle = ""
        self.error: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Input(placeholder="filter: type words of a title, path, class or status · esc clears",
                        id="pages-filter")
            yield Line("Loading the compiled pages…", id="pages-count")
            yield OptionList(id="pages-list")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Vertical).border_title = escape(f"Pages of {self.kb_name} ({ws_label(self.workspace)})")
        self.query_one(Input).focus()
        self.load()

    def on_screen_resume(self) -> None:
        if self.pages is not None:
            self.load()

    def load(self) -> None:
        from kctui.services import pages as pages_svc

        ws, kb = self.workspace, self.kb_id
        self.app.run_service("list pages", lambda ctx: pages_svc.list_pages(ctx, ws, kb),  # type: ignore[attr-defined]
                             then=self.show_pages, on_error=self.show_error, quiet=True)

    def show_pages(self, data: dict[str, Any]) -> None:
        self.pages = data["items"]
        self.error = None
        self.render_list()

    def show_error(self) -> None:
        self.error = "the pages cannot be listed (see the message); esc back"
        self.query_one("#pages-count", Line).set(self.error)

    # -- the list -------------------------------------------------------------------------------------

    def render_list(self) -> None:
        if self.pages is None:
            return
        tones = self.app.tones()  # type: ignore[attr-defined]
        keep = self.selected_page()
        chosen = [p for p in self.pages if matches(p, self.needle)]
        totals: dict[str, int] = {}
        for p in self.pages:
            totals[p["pageClass"]] = totals.get(p["pageClass"], 0) + 1
        options: list[Option] = []
        self.shown = []
        group = None
        for p in chosen:
            if p["pageClass"] != group:
                group = p["pageClass"]
                shown_in = sum(1 for q in chosen if q["pageClass"] == group)
                options.append(Option(group_head(group, shown_in, totals[group]), disabled=True))
                self.shown.append(None)
            options.append(Option(page_row(p, tones), id=p["page"]))
            self.shown.append(p["page"])
        listing = self.query_one("#pages-list", OptionList)
        listing.clear_options()
        listing.add_options(options)
        if chosen:
            at = self.shown.index(keep) if keep is not None and keep in self.shown else self.shown.index(chosen[0]["page"])
            listing.highlighted = at
        total = len(self.pages)
        if not total:
            text = "This base has no compiled page yet: compile it (c on the main screen)."
        elif self.needle:
            text = f"showing {len(chosen)} / {total} pages · filter “{self.needle}”" + (
                "" if chosen else " matches none: esc clears it")
        else:
            text = f"showing {total} / {total} pages · " + " · ".join(
                f"{n} {CLASS_WORDS.get(c, c).lower()}" for c, n in totals.items())
        self.query_one("#pages-count", Line).set(text)

    def selected_page(self) -> str | None:
        listing = self.query_one("#pages-list", OptionList)
        at = listing.highlighted
        if at is None or not 0 <= at < len(self.shown):
            return None
        return self.shown[at]

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.needle = event.value.strip()
        self.render_list()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_open()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_open()

    # -- keys -----------------------------------------------------------------------------------------

    def why_not(self, action: str, parameters: tuple[object, ...] = ()) -> str | None:
        if action == "open" and self.selected_page() is None:
            return "no page is chosen" + (": the filter matches none" if self.pages else "")
        if action == "move" and not any(self.shown):
            return "no page is listed"
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return True if self.why_not(action, parameters) is None else None

    def action_move(self, delta: int) -> None:
        listing = self.query_one("#pages-list", OptionList)
        rows = [i for i, p in enumerate(self.shown) if p is not None]
        if not rows:
            return
        cur = listing.highlighted if listing.highlighted is not None else rows[0]
        later = [i for i in rows if (i > cur if delta > 0 else i < cur)]
        if later:
            listing.highlighted = later[0] if delta > 0 else later[-1]

    def action_open(self) -> None:
        from kctui.ui.screens.page_read import PageScreen

        page = self.selected_page()
        if page is None:
            self.app.notify(f"enter (Open): {self.why_not('open')}", severity="warning", timeout=4, markup=False)
            return
        self.app.push_screen(PageScreen(self.workspace, self.kb_id, page))

    def action_filter(self) -> None:
        self.query_one(Input).focus()

    def action_back(self) -> None:
        f = self.query_one(Input)
        if f.value:
            f.value = ""
            self.needle = ""
            self.render_list()
            f.focus()
            return
        self.dismiss(None)
