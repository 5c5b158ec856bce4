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
BATCH = 200  # rows added to the list at a time
MORE = "\0more"  # the marker of the "… N more" row in `shown`


def haystack(page: dict[str, Any]) -> str:
    """What the filter looks in: the title, path, class and status word, lower-cased."""
    _glyph, word, _tone = status_mark(page.get("status") or "", {"why": page["why"]} if page.get("why") else None)
    return " ".join((page.get("title") or "", page["page"], page.get("pageClass") or "", word,
                     CLASS_WORDS.get(page.get("pageClass") or "", ""))).lower()


def matches(page: dict[str, Any], needle: str) -> bool:
    hay = haystack(page)
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
        self._rows: dict[str, Option] = {}
        self._hay: list[tuple[dict[str, Any], str]] = []
        self._totals: dict[str, int] = {}
        self._shown_in: dict[str, int] = {}
        self._chosen: list[dict[str, Any]] = []
        self._group: str | None = None

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
        self._rows = {}
        self._hay = [(p, haystack(p)) for p in self.pages]
        self._totals = {}
        for p in self.pages:
            self._totals[p["pageClass"]] = self._totals.get(p["pageClass"], 0) + 1
        self.error = None
        self.render_list()

    def show_error(self) -> None:
        self.error = "the pages cannot be listed (see the message); esc back"
        self.query_one("#pages-count", Line).set(self.error)

    # -- the list -------------------------------------------------------------------------------------

    def render_list(self) -> None:
        """Show the pages the filter matches. Rows are added BATCH at a time (more as the highlight
        nears the end), so a base of thousands of pages costs what a few hundred do per keystroke."""
        if self.pages is None:
            return
        keep = self.selected_page()
        chosen = self.choose(self.pages)
        listing = self.query_one("#pages-list", OptionList)
        listing.clear_options()
        self.extend(BATCH)
        if chosen:
            listing.highlighted = self.highlight_row(keep, chosen)
        self.query_one("#pages-count", Line).set(self.count_text(chosen, len(self.pages)))

    def choose(self, pages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The pages the filter matches, counted by class; the list starts again with none shown."""
        words = self.needle.lower().split()
        chosen = [p for p, hay in self._hay if all(w in hay for w in words)] if words else list(pages)
        self._shown_in = {}
        for p in chosen:
            self._shown_in[p["pageClass"]] = self._shown_in.get(p["pageClass"], 0) + 1
        self._chosen, self._group, self.shown = chosen, None, []
        return chosen

    def highlight_row(self, keep: str | None, chosen: list[dict[str, Any]]) -> int:
        """The row to highlight: the page that was highlighted, while the filter still matches it (the
        rows down to it are listed first), else the first page."""
        if keep is not None and keep not in self.shown:
            paths = [p["page"] for p in chosen]
            if keep in paths:
                self.extend(paths.index(keep) + 1 - sum(1 for x in self.shown if x is not None and x != MORE))
        return self.shown.index(keep) if keep is not None and keep in self.shown else self.shown.index(chosen[0]["page"])

    def count_text(self, chosen: list[dict[str, Any]], total: int) -> str:
        """The line above the list: how many pages are shown of how many, and by which filter."""
        if not total:
            return "This base has no compiled page yet: compile it (c on the main screen)."
        if self.needle:
            return f"showing {len(chosen)} / {total} pages · filter “{self.needle}”" + (
                "" if chosen else " matches none: esc clears it")
        return f"showing {total} / {total} pages · " + " · ".join(
            f"{n} {CLASS_WORDS.get(c, c).lower()}" for c, n in self._totals.items())

    def extend(self, n: int) -> None:
        """Add the next `n` chosen pages to the list (with their class headings)."""
        listing = self.query_one("#pages-list", OptionList)
        done = sum(1 for x in self.shown if x is not None and x != MORE)
        batch = self._chosen[done:done + max(0, n)]
        if not batch:
            return
        tones = self.app.tones()  # type: ignore[attr-defined]
        if self.shown and self.shown[-1] == MORE:
            listing.remove_option_at_index(len(self.shown) - 1)
            self.shown.pop()
        options: list[Option] = []
        for p in batch:  # the service lists the pages by class, so each class is one run
            if p["pageClass"] != self._group:
                self._group = p["pageClass"]
                options.append(Option(group_head(self._group, self._shown_in[self._group], self._totals[self._group]),
                                      disabled=True))
                self.shown.append(None)
            options.append(self.option(p, tones))
            self.shown.append(p["page"])
        left = len(self._chosen) - done - len(batch)
        if left > 0:
            options.append(Option(Text(f"  … {left} more: move down to list them, or type to narrow",
                                       style=tones.get("muted", "")), disabled=True))
            self.shown.append(MORE)
        listing.add_options(options)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.shown and self.shown[-1] == MORE and event.option_index >= len(self.shown) - 3:
            self.extend(BATCH)

    def option(self, page: dict[str, Any], tones: dict[str, str]) -> Option:
        """A page's row, built once per load: filtering only chooses among them, and an Option keeps
        its rendered form, so a keystroke does not lay the same rows out again."""
        key = page["page"]
        got = self._rows.get(key)
        if got is None:
            got = self._rows[key] = Option(page_row(page, tones), id=key)
        return got

    def selected_page(self) -> str | None:
        listing = self.query_one("#pages-list", OptionList)
        at = listing.highlighted
        if at is None or not 0 <= at < len(self.shown) or self.shown[at] == MORE:
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
        if action == "move" and not any(p for p in self.shown if p != MORE):
            return "no page is listed"
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return True if self.why_not(action, parameters) is None else None

    def action_move(self, delta: int) -> None:
        listing = self.query_one("#pages-list", OptionList)
        rows = [i for i, p in enumerate(self.shown) if p is not None and p != MORE]
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
