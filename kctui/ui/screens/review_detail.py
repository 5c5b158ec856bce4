"""A review item opened (enter): a held update as its hunks (space marks, ] / [ move, a / r act on the
marked hunks, else the current one, else the whole item) and the page diff, unified or split (s); a
conflict as both values with their citations and the cited source lines (n K d resolve it). e / E open
the cited source or the page in $EDITOR / $PAGER, z undoes the session's last decision, N opens the
next unread item; esc goes back. Opening an item marks it read."""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text
from textual.actions import parse as parse_action
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widgets import Static

from kctui.ui import keys
from kctui.ui.compositor import RowCompositor
from kctui.ui.format import ITEM_KIND, ws_label
from kctui.ui.review_hints import detail_hint
from kctui.ui.screens.resume import KeepStylesOnResume
from kctui.ui.screens.review_view import outside_target, render_hunks, render_page_diffs
from kctui.ui.unbound_key import unbound_words
from kctui.ui.widgets.key_bar import KeyBar
from kctui.ui.widgets.review_body import Part, ReviewBody

VALID = {"held": ("approve", "reject"), "conflict": ("use_new", "keep", "dismiss")}


HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@")


def skip_front_matter(diff: str) -> str:
    """A unified diff of two pages without the front matter lines both sides share: the unchanged
    lines between the opening and closing `---` become one note; a changed front-matter line (a
    status, a title) stays, with the fences around it."""
    out: list[str] = []
    in_fm = False
    fences = 0
    skipped = 0
    hunks = 0

    def flush() -> None:
        nonlocal skipped
        if skipped:
            out.append(f" … {skipped} unchanged front-matter line{'s' if skipped != 1 else ''}")
            skipped = 0

    for line in diff.splitlines():
        m = HUNK.match(line)
        if m:
            hunks += 1
            flush()
            in_fm, fences = m.group(1) in ("0", "1") and m.group(2) in ("0", "1"), 0
            out.append(line)
            continue
        if not hunks:
            out.append(line)  # the file headers
            continue
        body = line[1:] if line[:1] in (" ", "+", "-") else line
        if in_fm and body.rstrip() == "---":
            fences += 1
            if fences >= 2 and line[:1] == " ":
                flush()
                out.append(line)
                in_fm = False
                continue
        if in_fm and line[:1] == " " and body.rstrip() != "---":
            skipped += 1
            continue
        flush()
        out.append(line)
    flush()
    return "\n".join(out) + ("\n" if diff.endswith("\n") else "")


def render_side(label: str, side: dict[str, Any] | None, tones: dict[str, str]) -> Text:
    t = Text()
    t.append(label + "\n", style="bold underline")
    if not side:
        t.append("  (not given by the compiler)\n")
        return t
    t.append("  value:  ", style="bold")
    t.append(f"{side.get('value', '')}\n", style=tones.get("accent", ""))
    t.append("  cited:  ", style="bold")
    t.append(f"{side.get('citation', '')}\n")
    lines = side.get("citedLines") or side.get("line")
    t.append("  source lines:\n", style="bold")
    t.append(("\n".join("  " + x for x in lines.splitlines()) if lines else "  (the cited lines cannot be read)") + "\n",
             style=tones.get("muted", ""))
    return t


def render_head(data: dict[str, Any], tones: dict[str, str]) -> Text:
    glyph, word, tone = ITEM_KIND.get(data["kind"], ("?", data["kind"], "muted"))
    t = Text()
    t.append(f"{glyph} {word} #{data['id']}", style=f"bold {tones.get(tone, '')}")
    t.append(f"  {data.get('title') or data['page']}  ·  {data['knowledgeBaseId']} ({ws_label(data['workspaceRoot'])})"
             f"  ·  {data['page']} at revision {data.get('currentRevision')}\n")
    t.append("Why: ", style="bold")
    t.append(f"{data.get('reasonWords') or data.get('reason')}\n")
    if data.get("summary"):
        t.append("What: ", style="bold")
        t.append(f"{short_summary(data['summary'])}\n")
    return t


SUMMARY_CHARS = 420  # about five lines of the item's head; the hunks below say every change


def short_summary(summary: str) -> str:
    """A change set's summary cut at a word after its first few lines (one of many pages filled the screen
    and hid the hunks); the cut says where the rest is."""
    if len(summary) <= SUMMARY_CHARS:
        return summary
    return summary[:SUMMARY_CHARS].rsplit(" ", 1)[0] + " … (cut: the hunks below show each change)"


def empty(_: int) -> Text:
    return Text("")


def loading_text(item_id: int) -> str:
    return f"Loading review item #{item_id}…"


DETAIL = "review-detail"


def open_item(app: App, item_id: int) -> None:
    """Show review item `item_id`. One detail screen serves every open: built on the first, emptied
    and filled again after (composing and styling a new screen cost more than a frame)."""
    if not app.is_screen_installed(DETAIL):
        app.install_screen(ReviewDetailScreen(item_id), DETAIL)
        app.push_screen(DETAIL)
        return
    screen = app.get_screen(DETAIL)
    if screen in app.screen_stack:  # opened again from a screen above it: one of its own
        app.push_screen(ReviewDetailScreen(item_id))
        return
    screen.show_item(item_id)
    app.push_screen(screen)


class ReviewDetailScreen(KeepStylesOnResume, ModalScreen[None]):
    DEFAULT_CSS = """
    ReviewDetailScreen { background: $background; }
    ReviewDetailScreen > Vertical { border: round $accent; background: $surface; height: 1fr; }
    ReviewDetailScreen #detail-head { padding: 0 1; height: auto; }
    ReviewDetailScreen #detail-body { height: 1fr; padding: 0 1; }
    ReviewDetailScreen #detail-keys { padding: 0 1; color: $text-muted; }
    """
    KEY_SCOPES = (keys.DETAIL,)  # its keys come first in the palette
    COVERS_BELOW = True  # (KeepStylesOnResume) its background is opaque: the main screen never shows through
    # a modal screen stops the app's bindings: `?` (help) is bound here too, and hands over to the app's
    BINDINGS = [*keys.bindings(keys.DETAIL), Binding("j", "scroll(1)", show=False),
                Binding("k", "scroll(-1)", show=False),
                *[b for b in keys.bindings(keys.APP) if b.id == "help"]]

    def __init__(self, item_id: int) -> None:
        super().__init__()
        self._compositor = RowCompositor()
        self.item_id = item_id
        self.data: dict[str, Any] | None = None
        self.marked: set[int] = set()  # hunk numbers (1-based)
        self.cursor: int | None = None  # the current hunk (0-based), once the person moved to one
        self.mode = "unified"
        self._generation = 0  # the body's parts of an item: stale once another item (or a new read) is shown
        self._hunks: tuple[Any, Text, int] = (None, Text(""), 0)  # the hunk list drawn last: (key, text, cursor line)
        self.load_pending = True  # the item is read once the screen is on screen (app.is_idle waits)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(loading_text(self.item_id), id="detail-head")
            # the hunks (or a conflict's two sides), then a held change's page diff: drawn line by line
            yield ReviewBody(id="detail-body")
            yield Static("", id="detail-keys")
        yield KeyBar()

    def on_mount(self) -> None:
        self._clear_body()
        self.query_one(Vertical).border_title = f"Review item #{self.item_id}"
        self.query_one("#detail-body").focus()

    def on_screen_resume(self) -> None:
        # the first frame shows the screen; the item's thread starts after it, so it does not compete
        if self.data is None:
            self.load_pending = True
            self.call_after_refresh(self._load_after_frame)

    def _load_after_frame(self) -> None:
        self.load_pending = False
        if self.is_current and self.data is None:
            self.load()

    def show_item(self, item_id: int) -> None:
        """Make this (popped) screen the one of `item_id` before it is pushed again: empty, loading."""
        self.item_id, self.data, self.load_pending = item_id, None, True
        self.marked, self.cursor = set(), None
        frame = self.query_one(Vertical)  # its title changes: only the top row is drawn again
        frame._border_title = Content(f"Review item #{item_id}")
        width, _ = frame.outer_size
        ox, oy = frame.content_offset
        frame.refresh(Region(-ox, -oy, width, 1))
        self.query_one("#detail-head", Static).update(loading_text(item_id))
        self._clear_body()
        self.query_one("#detail-keys", Static).update("")
        body = self.query_one("#detail-body", ReviewBody)
        if body.scroll_y:
            body.scroll_home(animate=False, immediate=True)
        if self.focused is not body:
            body.focus()

    def load(self) -> None:
        from kctui.services import review
        from kctui.services.review_reads import mark_read

        item_id = self.item_id

        def read(ctx: Any) -> dict[str, Any]:
            data = review.show_item(ctx, item_id)
            mark_read(ctx, item_id)  # opened: read (the mark clears when the item's content changes)
            return data

        # (not reads_only: the read mark is a write, and the poll that follows brings the unread count)
        self.app.run_service("show", read, then=self.show_data, quiet=True)

    def show_data(self, data: dict[str, Any]) -> None:
        if data.get("id") != self.item_id:  # read for the item this screen showed before
            return
        self.data = data
        self._generation += 1
        tones = self.app.tones()
        self.query_one("#detail-head", Static).update(render_head(data, tones))
        self.render_body()
        state = data.get("state") if data.get("state") == "open" else data.get("stateWords") or data.get("state")
        hint = detail_hint(data["kind"], state, getattr(self.app, "user_keymap", {}))
        self.query_one("#detail-keys", Static).update(hint)
        self.refresh_bindings()

    def render_body(self) -> None:
        """Draw the item. The body keeps each part's lines by its key: a key that changes one part (a
        mark, the cursor, the diff view) renders only that part's changed lines, and repaints the body."""
        data, tones = self.data, self.app.tones()
        if data is None:
            return
        body = self.query_one("#detail-body", ReviewBody)
        shown = (self._generation, tuple(sorted(tones.items())))
        if data["kind"] != "held":
            sides = render_side("Existing (the page now)", data.get("existing"), tones)
            sides.append("\n")
            sides.append_text(render_side("Incoming (the new source)", data.get("incoming"), tones))
            body.show([Part(("sides", shown), lambda _: sides), Part("empty", empty, gap=1)])
            return
        key = ("hunks", shown, frozenset(self.marked), self.cursor)
        if self._hunks[0] != key:  # (s keeps them)
            self._hunks = (key, *render_hunks(data.get("hunks") or [], self.marked, self.cursor, tones))
        hunks = self._hunks[1]
        mode = self.mode
        body.show([Part(key, lambda _: hunks),
                   # the split view is as wide as the body less its scroll bar
                   Part(("diff", shown, mode), lambda width: render_page_diffs(data, mode, max(40, width - 2), tones),
                        gap=1)])

    def _clear_body(self) -> None:
        """Nothing shown (an item loading): what two empty Statics showed."""
        self._generation += 1
        self.query_one("#detail-body", ReviewBody).show([Part("empty", empty), Part("empty", empty, gap=1)])

    def action_help(self) -> None:
        self.app.action_help()  # type: ignore[attr-defined]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("mark_hunk", "hunk", "toggle_diff"):
            return True if self.data is not None and self.data["kind"] == "held" and self.data.get("hunks") else None
        if action == "open_outside":
            return True if self.data is not None else None
        if action != "resolve":
            return True
        if self.data is None or self.data.get("state") != "open":
            return None
        return True if parameters and parameters[0] in VALID.get(self.data["kind"], ()) else None

    def why_not(self, action: str, parameters: tuple[object, ...] = ()) -> str | None:
        """None when the action applies now; else the reason in words (help, palette, keys)."""
        if action == "resolve":
            return self.why_not_resolve(str(parameters[0])) if parameters else None
        if action in ("mark_hunk", "hunk", "toggle_diff", "open_outside") and self.data is None:
            return "the item is still loading"
        if action in ("mark_hunk", "hunk", "toggle_diff"):
            assert self.data is not None
            if self.data["kind"] != "held":
                return f"item #{self.item_id} is a conflict: it has no hunks or page diff"
            if not self.data.get("hunks"):
                return "the proposal changes only the page's front matter: it has no hunks"
        return None

    def why_not_resolve(self, choice: str) -> str | None:
        if self.data is None:
            return "the item is still loading"
        if self.data.get("state") != "open":
            return f"item #{self.item_id} is already {self.data.get('stateWords') or self.data.get('state')}"
        if choice not in VALID.get(self.data["kind"], ()):
            keymap = getattr(self.app, "user_keymap", {})
            ids = (("approve", "approve"), ("reject", "reject")) if self.data["kind"] == "held" else (
                ("use-new", "use the new value"), ("keep-here", "keep the page"), ("dismiss", "dismiss"))
            named = [f"{keys.keys_text(keys.BY_ID[i], keymap)} ({what})" for i, what in ids]
            return f"item #{self.item_id} is a {self.data['kind']}: use {', '.join(named[:-1])} or {named[-1]}"
        return None

    def chosen_hunks(self) -> list[int] | None:
        """What a / r act on: the marked hunks, else the current one, else (None) the whole item."""
        if self.data is None or self.data["kind"] != "held":
            return None
        if self.marked:
            return sorted(self.marked)
        return [self.cursor + 1] if self.cursor is not None else None

    def action_resolve(self, choice: str) -> None:
        assert self.data is not None
        # the revision the person saw: the screen shows (and diffs against) the page at currentRevision
        seen = self.data.get("currentRevision", self.data.get("expectedRevision"))
        self.app.resolve_picked(self.item_id, choice, seen, self.chosen_hunks(), len(self.data.get("hunks") or []),
                                after=self._resolved)

    def action_mark_hunk(self) -> None:
        n = (self.cursor or 0) + 1
        self.cursor = n - 1
        self.marked ^= {n}
        count = len((self.data or {}).get("hunks") or [])
        if self.cursor + 1 < count:  # as in the pane: marking moves on
            self.cursor += 1
        self.render_body()
        self.show_cursor()

    def action_hunk(self, delta: int) -> None:
        count = len((self.data or {}).get("hunks") or [])
        self.cursor = 0 if self.cursor is None else max(0, min(count - 1, self.cursor + delta))
        self.render_body()
        self.show_cursor()

    def show_cursor(self) -> None:
        """The current hunk scrolled into view (its first lines)."""
        body = self.query_one("#detail-body", ReviewBody)
        y = body.visual_line(0, self._hunks[2])
        body.scroll_to_region(Region(0, y, 1, 4), animate=False, immediate=True)

    def action_toggle_diff(self) -> None:
        self.mode = "split" if self.mode == "unified" else "unified"
        self.render_body()
        body = self.query_one("#detail-body", ReviewBody)  # show what the key changed: the diff's top
        body.scroll_to(y=body.part_start(1), animate=False, immediate=True)

    def action_open_outside(self, kind: str) -> None:
        from kctui.ui.outside import open_outside

        assert self.data is not None
        path, line = outside_target(self.data, self.cursor)
        open_outside(self.app, kind, path, line)

    def action_undo(self) -> None:
        self.app.undo_last(after=lambda: self.dismiss(None) if self.is_current else None)

    def action_next_unread(self) -> None:
        self.app.open_next_unread(self.item_id, replace=self)

    def _resolved(self, ok: bool) -> None:
        if ok:
            self.dismiss(None)
        else:
            self.load()

    def action_back(self) -> None:
        self.dismiss(None)

    def action_scroll(self, delta: int) -> None:
        self.query_one("#detail-body", ReviewBody).scroll_relative(y=delta, animate=False)

    def on_key(self, event) -> None:  # a key of this screen that does not apply: say why, never ignore it
        keymap = getattr(self.app, "user_keymap", {})
        entry = keys.key_to_id(keys.DETAIL, keymap).get(event.key)
        if entry is None:  # a typed key nothing here takes says so (a default key [keys] moved: where to)
            words = unbound_words(event.key, event.character, (keys.DETAIL,), keymap)
            if words is not None:
                event.stop()
                self.app.notify(words, severity="warning", timeout=4, markup=False)
            return
        _, name, params = parse_action(entry.action)
        if self.check_action(name, params) is True:
            return
        reason = self.why_not(name, params) or "it does not apply here"
        event.stop()
        event.prevent_default()
        self.app.notify(f"{keys.display_key(event.key)} ({entry.description}): {reason}", severity="warning",
                        timeout=4)
