"""The main screen: four panes (Queue, Running, Review, Brief) in a 2×2 grid when the terminal is at
least 100 columns wide, one pane at a time below that. Decides which keys apply (`check_action`:
False = not this pane, hidden from the footer; None = greyed out) and says why when a key that does
not apply is pressed. The selection and the snapshot shown are in `kctui.ui.screens.main_state`, the
key actions in `kctui.ui.actions`, the panes and stops in `kctui.ui.stops`."""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.color import Color
from textual.containers import Container
from textual.content import Content
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Input

from kctui.ui import keys
from kctui.ui.actions import MainActions
from kctui.ui.messages import EMPTY
from kctui.ui.screens.main_state import parsed_action
from kctui.ui.stops import (
    CONFLICT,
    HELD,
    MOVE_KEYS,
    PANE_KEY,
    PANE_NAMES,
    PANE_SCOPED,
    PANES,
    STOP_PANE,
)
from kctui.ui.widgets.brief_pane import BriefPane
from kctui.ui.widgets.key_bar import KeyBar, Line
from kctui.ui.widgets.keyed_table import KeyedTable
from kctui.ui.widgets.queue_pane import QueuePane
from kctui.ui.widgets.review_pane import ReviewPane
from kctui.ui.widgets.running_pane import RunningPane

DETAIL_DELAY = 0.08  # seconds the jobs cursor rests before the selected job's detail is read


class MainScreen(MainActions):
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    BINDINGS = keys.bindings(keys.MAIN)

    def compose(self) -> ComposeResult:
        yield Line("", id="tabs")
        with Container(id="panes"):
            for pane in (QueuePane(id="queue"), RunningPane(id="running"), ReviewPane(id="review"),
                         BriefPane(id="brief")):
                pane.add_class("pane")
                pane.border_title = pane.TITLE
                yield pane
        yield Input(placeholder="filter: type to narrow the rows · enter keeps it · esc clears", id="filter")
        yield Line("", id="status")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#filter").display = False
        self.style_panes()
        self.query_one("#bases").focus()
        snap = self.app.snapshot  # type: ignore[attr-defined]
        if snap is not EMPTY:
            self.apply(snap)


    # -- the look ----------------------------------------------------------------------------------

    def watch_active(self, active: str) -> None:
        self.style_panes()
        self.update_bindings()

    def style_panes(self) -> None:
        """Mark the active pane (its title row and bottom edge in the accent colour, a ▶ and bold in its
        title) and, in a narrow terminal, show only it. The rules are set without Textual's refresh of
        the whole pane and only those two rows are repainted: a screen update re-composes every line
        it touches across the width of everything touched, so coloured side edges (a column on every
        line) would re-compose the whole screen on each pane switch."""
        if not self.is_mounted:
            return
        v = self.app.tones()  # type: ignore[attr-defined]  (cached: get_css_variables() costs ms)
        muted = v["muted"]
        narrow = self.has_class("-narrow")
        for pane in PANES:
            w = self.query_one(f"#{pane}")
            on = pane == self.active
            look = (on, narrow, v["accent"], muted)
            if getattr(w, "_look", None) == look:
                continue
            first = getattr(w, "_look", None) is None
            w._look = look  # type: ignore[attr-defined]
            if w.display != (on or not narrow):
                w.display = on or not narrow
            colour = Color.parse(v["accent"] if on else v["panel-lighten-2"])
            styles = w.styles
            for edge in ("border_top", "border_bottom"):
                styles.set_rule(edge, ("round", colour))
            styles.set_rule("border_title_color", Color.parse(v["accent"] if on else muted))
            styles.set_rule("border_title_style", Style(bold=True) if on else Style())
            w._border_title = Content(("▶ " if on else "") + w.TITLE)  # type: ignore[attr-defined]
            if first or narrow:
                w.refresh()
            else:
                repaint_border(w)
        tabs = Text(no_wrap=True)
        for p in PANES:
            tabs.append(f" {PANE_KEY[p]} {PANE_NAMES[p]} ", style="reverse bold" if p == self.active else "")
            tabs.append(" ")
        self.query_one("#tabs", Line).set(tabs)

    def on_resize(self) -> None:
        self.call_after_refresh(self.style_panes)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        stop = self.current_stop()
        if stop is not None:
            self.active = STOP_PANE[stop]

    def restyle(self) -> None:
        """The theme changed: colours of every cell and border."""
        for table in self.query(KeyedTable):
            table.forget()
        self.style_panes()
        self.rerender()


    # -- the tables' events ------------------------------------------------------------------------

    def on_keyed_table_highlighted(self, event: KeyedTable.Highlighted) -> None:
        if event.table.id == "bases":
            self.queue.show_base_line(self.snapshot)
        if event.table.id == "jobs" and not self.follow:
            # the Running and Brief panes load the job once the cursor rests (a held j reads nothing)
            if self._detail_timer is not None:
                self._detail_timer.stop()
            self._detail_timer = self.set_timer(DETAIL_DELAY, self._load_detail)
        self.update_bindings()

    def on_keyed_table_refit(self, event: KeyedTable.Refit) -> None:
        self.rerender()

    def on_keyed_table_selected(self, event: KeyedTable.Selected) -> None:
        event.stop()
        if self.check_action("open", ()) is True:
            self.action_open()

    # -- which keys apply --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.is_mounted:
            return True
        panes = PANE_SCOPED.get(action)
        if panes is not None and self.active not in panes:
            return False
        return True if self.why_not(action, parameters) is None else None

    def why_not(self, action: str, parameters: tuple[object, ...] = ()) -> str | None:
        """None when the action applies now; else the reason in words."""
        panes = PANE_SCOPED.get(action)
        if panes is not None and self.active not in panes:
            where = " or ".join(f"{PANE_NAMES[p]} ({PANE_KEY[p]})" for p in panes)
            return f"this works in the {where} pane"
        reason = WHY_NOT.get(action)
        return None if reason is None else reason(self, parameters)

    # why_not's conditions (WHY_NOT, below the class, maps each action to one); each takes the action's
    # parameters, which only resolve reads

    def _no_base(self) -> str:
        return "no knowledge base is selected" + ("" if self.snapshot.bases else " (create one with b)")

    def _why_not_base(self, _parameters: tuple[object, ...]) -> str | None:
        """compile, dry_run, toggle_policy, policy, briefs: a base is selected."""
        return self._no_base() if self.selected_base() is None else None

    def _why_not_clear_pause(self, _parameters: tuple[object, ...]) -> str | None:
        base = self.selected_base()
        if base is None:
            return self._no_base()
        return f"{base.name} is not paused" if base.phase != "paused" else None

    def _why_not_compiled_base(self, _parameters: tuple[object, ...]) -> str | None:
        """search, pages: the selected base has a compiled wiki."""
        base = self.selected_base()
        if base is None:
            return self._no_base()
        return f"{base.name} has no compiled wiki yet: compile it first (c)" if not base.compiled else None

    def _why_not_cancel(self, _parameters: tuple[object, ...]) -> str | None:
        job = self.cancel_target()
        if job is None:
            return "no job is selected" if self.active == "running" or self.current_stop() == "jobs" else (
                "the selected base has no queued or running job")
        return None if job.open else f"job {job.short} already {job.phase}; nothing to cancel"

    def _why_not_mark(self, _parameters: tuple[object, ...]) -> str | None:
        return "no review item is selected" if self.selected_item() is None else None

    def _why_not_bulk(self, _parameters: tuple[object, ...]) -> str | None:
        return "no held update is open" if not self.snapshot.counts.get("held") else None

    def _why_not_resolve(self, parameters: tuple[object, ...]) -> str | None:
        choice = parameters[0] if parameters else ""
        if choice in HELD and self.query_one(ReviewPane).marked:
            return None  # a / r act on the marked rows
        item = self.selected_item()
        if item is None:
            return "no review item is selected"
        if item.kind == "held" and choice not in HELD:
            return f"item #{item.id} is a held update: a approves, r rejects"
        if item.kind == "conflict" and choice not in CONFLICT:
            return f"item #{item.id} is a conflict: n uses the new value, e keeps the page, d dismisses"
        if self.snapshot.running_job_id and self.snapshot.job(self.snapshot.running_job_id) and \
                self.snapshot.job(self.snapshot.running_job_id).base_id == item.base_id:  # type: ignore[union-attr]
            return f"a compile of {item.base_id} is running; resolve when it ends"
        return None

    def _why_not_open(self, _parameters: tuple[object, ...]) -> str | None:
        stop = self.current_stop()
        if stop == "bases" and self.selected_base() is None:
            return "no knowledge base is selected"
        if stop == "jobs" and self.selected_job() is None:
            return "no job is selected"
        if stop == "items" and self.selected_item() is None:
            return "no review item is selected"
        return None

    def _why_not_back(self, _parameters: tuple[object, ...]) -> str | None:
        if self.query_one("#filter").display or any(self.needle.values()):
            return None
        if self.current_stop() == "bases" and self.follow:
            return "already at the queue"
        return None

    def on_key(self, event: events.Key) -> None:
        if isinstance(self.focused, Input):
            return
        if self.current_stop() == "jobs" and event.key in MOVE_KEYS:
            self.follow = False
        entry = keys.key_to_id(keys.MAIN, self.app.user_keymap).get(event.key)  # type: ignore[attr-defined]
        if entry is None:
            return
        name, params = parsed_action(entry)
        if self.check_action(name, params) is True:
            return
        event.stop()
        event.prevent_default()
        reason = self.why_not(name, params) or "it does not apply here"
        self.app.notify(f"{keys.display_key(event.key)} ({entry.description}): {reason}", severity="warning",
                        timeout=4)


# MainScreen.why_not beyond the pane check: each action with a condition -> why it does not apply now
# (None: it does); an action not listed always applies in its panes.
WHY_NOT: dict[str, Callable[[MainScreen, tuple[object, ...]], str | None]] = {
    "compile": MainScreen._why_not_base,
    "dry_run": MainScreen._why_not_base,
    "toggle_policy": MainScreen._why_not_base,
    "clear_pause": MainScreen._why_not_clear_pause,
    "policy": MainScreen._why_not_base,
    "briefs": MainScreen._why_not_base,
    "search": MainScreen._why_not_compiled_base,
    "pages": MainScreen._why_not_compiled_base,
    "cancel": MainScreen._why_not_cancel,
    "mark": MainScreen._why_not_mark,
    "bulk": MainScreen._why_not_bulk,
    "resolve": MainScreen._why_not_resolve,
    "open": MainScreen._why_not_open,
    "back": MainScreen._why_not_back,
}


def repaint_border(w: Widget) -> None:
    """Repaint only the top and bottom rows of `w`'s border."""
    width, height = w.outer_size
    ox, oy = w.content_offset  # refresh() takes regions relative to the content
    w.refresh(Region(-ox, -oy, width, 1), Region(-ox, height - 1 - oy, width, 1))

