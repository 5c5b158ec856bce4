"""One compiled page opened from the pages screen: its head (title, class, status as a glyph AND a
word, why it is flagged) and five sections, one shown at a time —

    t  Text       the page body rendered as Markdown (front matter dropped; links go to pages)
    c  Claims     every claim with its citation and the source lines it cites (disputed ones marked)
    v  Revisions  the page's immutable revisions, newest first (z undoes the latest review decision
                  that wrote the page, even one older than the session)
    l  Links      the pages it links to; enter opens one (esc comes back here)
    i  Review     its open review items; enter opens one to resolve it

Read through `services.pages.page_detail` in a thread worker; read again when the screen comes back
(a review decision or a newer generation may have changed the page). A long text is rendered in a
thread worker into one widget (`kctui/ui/long_markdown.py`), so the app stays responsive."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from kctui.ui import keys
from kctui.ui.format import ITEM_KIND
from kctui.ui.long_markdown import is_long
from kctui.ui.screens.page_view import append_claims, render_head, render_history, status_mark
from kctui.ui.widgets.key_bar import KeyBar, Line
from kctui.ui.widgets.long_text import LongText

SECTIONS = ("text", "claims", "revisions", "links", "review")
SECTION_KEYS = {"text": "t", "claims": "c", "revisions": "v", "links": "l", "review": "i"}
SECTION_WORDS = {"text": "Text", "claims": "Claims", "revisions": "Revisions", "links": "Links", "review": "Review"}
LISTS = {"links", "review"}


def render_claims(data: dict[str, Any], tones: dict[str, str]) -> Text:
    claims = data.get("claims") or []
    muted = tones.get("muted", "")
    t = Text()
    if not claims:
        t.append("This page states no claims.\n", style=muted)
    append_claims(t, claims, tones, cited_lines=True)
    return t


def link_row(link: dict[str, Any], tones: dict[str, str]) -> Text:
    glyph, word, tone = status_mark(link.get("status") or "")
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(f"{glyph} {word:<13}", style=tones.get(tone, ""))
    t.append(link.get("title") or link["page"], style="bold")
    t.append(f"  {link['page']}", style=tones.get("muted", ""))
    return t


def item_row(item: dict[str, Any], tones: dict[str, str]) -> Text:
    glyph, word, tone = ITEM_KIND.get(item["kind"], ("?", item["kind"], "muted"))
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(f"#{item['id']} ", style="bold")
    t.append(f"{glyph} {word}  ", style=tones.get(tone, ""))
    t.append(item.get("reasonWords") or item.get("reason") or "")
    if item.get("summary"):
        t.append(f" — {item['summary']}", style=tones.get("muted", ""))
    return t


class PageScreen(Screen[None]):
    DEFAULT_CSS = """
    PageScreen { background: $background; }
    PageScreen > Vertical { border: round $accent; background: $surface; height: 1fr; }
    PageScreen #read-head { padding: 0 1; height: auto; max-height: 5; }
    PageScreen #read-tabs { padding: 0 1; background: $panel; }
    PageScreen ContentSwitcher { height: 1fr; }
    PageScreen ContentSwitcher > * { height: 1fr; padding: 0 1; }
    PageScreen #sec-links, PageScreen #sec-review { border: none; background: $surface; text-wrap: nowrap; text-overflow: ellipsis; }
    PageScreen #read-md { margin: 0; padding: 0; }
    PageScreen #read-long { display: none; }
    PageScreen #sec-text.long { scrollbar-gutter: stable; }
    PageScreen #read-md MarkdownH1, PageScreen #read-md MarkdownH2, PageScreen #read-md MarkdownH3 {
        margin: 1 0 0 0; padding: 0; content-align: left middle; text-align: left; }
    PageScreen #read-md MarkdownH1 { margin: 0; }
    PageScreen #read-md MarkdownBlockQuote { margin: 0 0 1 0; }
    """
    KEY_SCOPES = (keys.PAGE,)
    BINDINGS = keys.bindings(keys.PAGE)

    def __init__(self, workspace: str, kb_id: str, page: str) -> None:
        super().__init__()
        self.workspace, self.kb_id, self.page = workspace, kb_id, page
        self.data: dict[str, Any] | None = None
        self.section = "text"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Loading {self.page}…", id="read-head", markup=False)
            yield Line("", id="read-tabs")
            with ContentSwitcher(initial="sec-text"):
                with VerticalScroll(id="sec-text", can_focus=True):
                    yield Markdown("", id="read-md", open_links=False)
                    yield LongText(id="read-long")
                with VerticalScroll(id="sec-claims", can_focus=True):
                    yield Static("", id="read-claims", markup=False)
                with VerticalScroll(id="sec-revisions", can_focus=True):
                    yield Static("", id="read-revisions", markup=False)
                yield OptionList(id="sec-links")
                yield OptionList(id="sec-review")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Vertical).border_title = escape(self.page)
        self.show_tabs()
        self.query_one("#sec-text").focus()
        self.load()

    def on_screen_resume(self) -> None:
        if self.data is not None:
            self.load()

    def load(self) -> None:
        from kctui.services import pages as pages_svc

        ws, kb, page = self.workspace, self.kb_id, self.page
        self.app.run_service("open page", lambda ctx: pages_svc.page_detail(ctx, ws, kb, page),  # type: ignore[attr-defined]
                             then=self.show_data, on_error=self.show_error, quiet=True)

    def show_data(self, data: dict[str, Any]) -> None:
        self.data = data
        tones = self.app.tones()  # type: ignore[attr-defined]
        head = render_head(data, tones)
        head.rstrip()
        self.query_one("#read-head", Static).update(head)
        self.query_one("#read-claims", Static).update(render_claims(data, tones))
        self.query_one("#read-revisions", Static).update(render_history(data, tones))
        links = self.query_one("#sec-links", OptionList)
        at = links.highlighted
        links.clear_options()
        links.add_options([Option(link_row(x, tones), id=x["page"]) for x in data["links"]] or
                          [Option(Text("This page links to no other page."), disabled=True)])
        if data["links"]:
            links.highlighted = min(at or 0, len(data["links"]) - 1)
        review = self.query_one("#sec-review", OptionList)
        review.clear_options()
        review.add_options([Option(item_row(x, tones), id=str(x["id"])) for x in data["openItems"]] or
                           [Option(Text("No review item is open on this page."), disabled=True)])
        if data["openItems"]:
            review.highlighted = 0
        self.show_tabs()
        self.refresh_bindings()
        text = data.get("markdown") or "*(this page has no text)*"
        long = is_long(text)
        self.query_one("#read-md", Markdown).display = not long
        self.query_one("#read-long", LongText).display = long
        self.query_one("#sec-text").set_class(long, "long")  # its width stays when the scroll bar comes
        if long:
            self.query_one("#read-long", LongText).show(text, "page text (l lists its links)")
        else:
            self.query_one("#read-md", Markdown).update(text)

    @property
    def load_pending(self) -> bool:
        """A long text is being rendered (app.is_idle waits)."""
        return any(w.pending for w in self.query(LongText))

    def show_error(self) -> None:
        self.query_one("#read-head", Static).update(f"{self.page} cannot be shown (see the message); esc back")

    def show_tabs(self) -> None:
        d = self.data or {}
        counts = {"claims": len(d.get("claims") or []), "revisions": len(d.get("history") or []),
                  "links": len(d.get("links") or []), "review": len(d.get("openItems") or [])}
        t = Text(no_wrap=True, overflow="ellipsis")
        for s in SECTIONS:
            label = f" {SECTION_KEYS[s]} {SECTION_WORDS[s]}" + (f" ({counts[s]})" if s in counts and d else "") + " "
            t.append(label, style="reverse bold" if s == self.section else "")
            t.append(" ")
        self.query_one("#read-tabs", Line).set(t)

    # -- keys -----------------------------------------------------------------------------------------

    def why_not(self, action: str, parameters: tuple[object, ...] = ()) -> str | None:
        if action == "open":
            if self.section == "links":
                return None if self.data and self.data["links"] else "this page links to no other page"
            if self.section == "review":
                return None if self.data and self.data["openItems"] else "no review item is open on this page"
            return "enter opens a linked page (l) or a review item (i)"
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return True if self.why_not(action, parameters) is None else None

    def action_section(self, section: str) -> None:
        self.section = section
        self.query_one(ContentSwitcher).current = f"sec-{section}"
        self.query_one(f"#sec-{section}").focus()
        self.show_tabs()
        self.refresh_bindings()

    def action_move(self, delta: int) -> None:
        w = self.query_one(f"#sec-{self.section}")
        if isinstance(w, OptionList):
            (w.action_cursor_down if delta > 0 else w.action_cursor_up)()
        else:
            w.scroll_relative(y=delta, animate=False)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_open()

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        known = {x["page"] for x in (self.data or {}).get("links", [])}
        if event.href in known:
            self.follow(event.href)

    def follow(self, page: str) -> None:
        self.app.push_screen(PageScreen(self.workspace, self.kb_id, page))

    def action_open(self) -> None:
        reason = self.why_not("open")
        if reason is not None or self.data is None:
            self.app.notify(f"enter (Open): {reason}", severity="warning", timeout=4, markup=False)
            return
        w = self.query_one(f"#sec-{self.section}", OptionList)
        at = w.highlighted
        if at is None:
            return
        if self.section == "links":
            self.follow(self.data["links"][at]["page"])
        else:
            from kctui.ui.screens.review_detail import open_item

            open_item(self.app, int(self.data["openItems"][at]["id"]))

    def action_undo_page(self) -> None:
        """z: the latest review decision that wrote this page undone (see its revisions, v)."""
        from kctui.services.review_undo import undo_decision

        ws, kb, page = self.workspace, self.kb_id, self.page
        self.app.run_service("undo", lambda ctx: undo_decision(ctx, page=(ws, kb, page)),  # type: ignore[attr-defined]
                             ok_text=lambda d: f"undone: {d.words}; {page} is back at revision "
                             f"{next(b for p, b, _ in d.pages if p == page)}",
                             then=lambda _d: self.load())

    def action_back(self) -> None:
        self.dismiss(None)
