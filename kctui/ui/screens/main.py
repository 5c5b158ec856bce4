"""The main screen: four panes (Queue, Running, Review, Brief) in a 2×2 grid when the terminal is at
least 100 columns wide, one pane at a time below that. Holds the selection, decides which keys apply
(`check_action`: False = not this pane, hidden from the footer; None = greyed out) and says why when a
key that does not apply is pressed. The key actions themselves are in `kctui.ui.actions`."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.actions import parse as parse_action
from textual.app import ComposeResult
from textual.color import Color
from textual.containers import Container
from textual.content import Content
from textual.geometry import Region
from textual.reactive import Reactive, reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from kctui.ui import keys
from kctui.ui.actions import MainActions
from kctui.ui.messages import EMPTY, BaseView, ItemView, JobView, Snapshot
from kctui.ui.widgets.brief_pane import BriefPane
from kctui.ui.widgets.key_bar import KeyBar, Line
from kctui.ui.widgets.keyed_table import KeyedTable
from kctui.ui.widgets.queue_pane import QueuePane
from kctui.ui.widgets.review_pane import ReviewPane
from kctui.ui.widgets.running_pane import RunningPane

PANES = ("queue", "running", "review", "brief")
PANE_NAMES = {"queue": "Queue", "running": "Running", "review": "Review", "brief": "Brief"}
STOPS = ("bases", "jobs", "running", "items", "brief")  # the focus stops tab cycles through
STOP_PANE = {"bases": "queue", "jobs": "queue", "running": "running", "items": "review", "brief": "brief"}
PANE_KEY = {"queue": "1", "running": "2", "review": "3", "brief": "4"}
# actions that only apply in some panes (elsewhere they are hidden from the footer)
PANE_SCOPED = {"compile": ("queue",), "dry_run": ("queue",), "clear_pause": ("queue",), "toggle_policy": ("queue",),
               "search": ("queue",), "pages": ("queue",), "policy": ("queue",), "briefs": ("queue",),
               "cancel": ("queue", "running"), "resolve": ("review",),
               "filter": ("queue", "review"), "open": ("queue", "review"), "mark": ("review",),
               "bulk": ("review",)}
MOVE_KEYS = {"up", "down", "j", "k", "pageup", "pagedown", "home", "end"}
HELD, CONFLICT = ("approve", "reject"), ("use_new", "keep", "dismiss")
DETAIL_DELAY = 0.08  # seconds the jobs cursor rests before the selected job's detail is read


class MainScreen(MainActions, Screen):
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    BINDINGS = keys.bindings(keys.MAIN)
    active: reactive[str] = reactive("queue", repaint=False)
    # Textual repaints the whole screen when focus moves; the widget gaining and the one losing focus
    # repaint themselves, so the screen need not (a full repaint was most of a pane switch's cost)
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    def __init__(self) -> None:
        super().__init__()
        self.snapshot: Snapshot = EMPTY
        self.needle = {"queue": "", "review": ""}
        self.follow = True  # the Running and Brief panes follow the running (or newest) job
        self.followed_job: str | None = None
        self.pending_follow: str | None = None  # queued by a key here; followed once it runs
        self._bindings_sig: tuple = ()
        self._reshow = True  # the next apply() shows the tables even if the snapshot's rows are the same
        self._detail_timer = None

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

    # -- the parts ---------------------------------------------------------------------------------

    @property
    def queue(self) -> QueuePane:
        return self.query_one(QueuePane)

    def stop_widget(self, stop: str) -> Widget:
        return self.query_one(f"#{stop}")

    def current_stop(self) -> str | None:
        node = self.focused
        while node is not None and node is not self:
            if node.id in STOPS:
                return node.id
            if node.id in PANES:
                return {"queue": "bases", "review": "items"}.get(node.id, node.id)
            node = node.parent  # type: ignore[assignment]
        return None

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

    def focus_stop(self, stop: str) -> None:
        self.active = STOP_PANE[stop]
        widget = self.stop_widget(stop)
        if widget.focusable:
            widget.focus()
        else:  # a narrow terminal shows the pane only after this refresh
            self.call_after_refresh(widget.focus)

    # -- the selection -----------------------------------------------------------------------------

    def selected_base(self) -> BaseView | None:
        return self.snapshot.base(self.queue.bases.cursor_key)

    def selected_job(self) -> JobView | None:
        return self.snapshot.job(self.queue.jobs.cursor_key)

    def selected_item(self) -> ItemView | None:
        key = self.query_one(ReviewPane).items.cursor_key
        return self.snapshot.item(int(key)) if key else None

    def shown_job(self) -> JobView | None:
        d = self.snapshot.detail
        return d.job if d is not None and d.job.id == self.wanted_job() else None

    def wanted_job(self) -> str | None:
        """The job the Running and Brief panes show."""
        if not self.follow:
            return self.queue.jobs.cursor_key
        snap = self.snapshot
        if snap.running_job_id:
            return snap.running_job_id
        if self.followed_job and (snap.job(self.followed_job) or not snap.jobs):
            return self.followed_job
        return snap.jobs[0].id if snap.jobs else None

    def cancel_target(self) -> JobView | None:
        if self.active == "running":
            return self.shown_job()
        if self.current_stop() == "jobs":
            return self.selected_job()
        base = self.selected_base()
        if base is None:
            return None
        mine = [j for j in self.snapshot.jobs if j.base_key == base.key and j.open]
        return next((j for j in mine if j.phase == "running"), mine[0] if mine else None)

    # -- the snapshot ------------------------------------------------------------------------------

    def apply(self, snap: Snapshot) -> None:
        old, self.snapshot = self.snapshot, snap
        tones = self.app.tones()  # type: ignore[attr-defined]
        if self.follow and self.pending_follow:  # a job this app queued: shown once it has been claimed
            job = snap.job(self.pending_follow)
            if job is None or job.phase != "queued":
                self.followed_job = job.id if job is not None else self.followed_job
                self.pending_follow = None
        if self.follow:
            self.followed_job = self.wanted_job()
        if not (snap.jobs is old.jobs and snap.items is old.items and snap.bases is old.bases and not self._reshow):
            # (a poll that read only the shown job's detail leaves the tables as they are)
            self._reshow = False
            self.queue.show(snap, self.needle["queue"], tones, self.followed_job if self.follow else None)
            self.query_one(ReviewPane).show(snap, self.needle["review"], tones)
        wanted = self.wanted_job()
        detail = snap.detail if snap.detail is not None and snap.detail.job.id == wanted else None
        if wanted is not None and detail is None:
            self.app.poller.poll_now(full=False)  # type: ignore[attr-defined]
        if detail is not None or wanted is None:
            self.query_one(RunningPane).show(detail, snap.now_us, tones)
            self.query_one(BriefPane).show(detail)
        self.update_status()
        self.update_bindings()

    def restyle(self) -> None:
        """The theme changed: colours of every cell and border."""
        for table in self.query(KeyedTable):
            table.forget()
        self.style_panes()
        self.rerender()

    def rerender(self) -> None:
        """Show the last snapshot again (a filter or the theme changed)."""
        self._reshow = True
        self.apply(self.snapshot)

    def reshow(self, pane: str) -> None:
        """Show one pane's rows again (its filter changed); the other panes stay as they are."""
        snap, tones = self.snapshot, self.app.tones()  # type: ignore[attr-defined]
        if pane == "review":
            self.query_one(ReviewPane).show(snap, self.needle["review"], tones)
        elif pane == "queue":
            self.queue.show(snap, self.needle["queue"], tones, self.followed_job if self.follow else None)
        else:
            self.rerender()
            return
        self.update_status()
        self.update_bindings()

    def update_status(self) -> None:
        snap = self.snapshot
        c = snap.counts
        # the counts first and the host last: a narrow terminal cuts the end of the line
        parts = []
        working = getattr(self.app, "working", None)
        if working:
            parts.append("⋯ " + ", ".join(working) + "…")
        parts.append(f"{c.get('running', 0)} running · {c.get('queued', 0)} queued · {snap.items_total} to review"
                     + (f" · {c['paused']} paused" if c.get("paused") else ""))
        for pane, needle in self.needle.items():
            if needle:
                parts.append(f"filter {PANE_NAMES[pane]}: “{needle}”")
        parts.append(self.app.host_text)  # type: ignore[attr-defined]
        self.query_one("#status", Line).set(" │ ".join(parts))

    def update_bindings(self) -> None:
        sig = tuple(self.check_action(*_parsed(k)) for k in keys.REGISTRY if keys.MAIN in k.scopes)
        sig += (self.active,)
        if sig != self._bindings_sig:
            self._bindings_sig = sig
            self.refresh_bindings()

    def on_keyed_table_highlighted(self, event: KeyedTable.Highlighted) -> None:
        if event.table.id == "bases":
            self.queue.show_base_line(self.snapshot)
        if event.table.id == "jobs" and not self.follow:
            # the Running and Brief panes load the job once the cursor rests (a held j reads nothing)
            if self._detail_timer is not None:
                self._detail_timer.stop()
            self._detail_timer = self.set_timer(DETAIL_DELAY, self._load_detail)
        self.update_bindings()

    def _load_detail(self) -> None:
        self._detail_timer = None
        self.app.poller.poll_now(full=False)  # type: ignore[attr-defined]

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
        if action in ("compile", "dry_run", "clear_pause", "toggle_policy"):
            base = self.selected_base()
            if base is None:
                return "no knowledge base is selected" + ("" if self.snapshot.bases else " (create one with b)")
            if action == "clear_pause" and base.phase != "paused":
                return f"{base.name} is not paused"
            return None
        if action in ("policy", "briefs"):
            base = self.selected_base()
            return None if base is not None else (
                "no knowledge base is selected" + ("" if self.snapshot.bases else " (create one with b)"))
        if action in ("search", "pages"):
            base = self.selected_base()
            if base is None:
                return "no knowledge base is selected" + ("" if self.snapshot.bases else " (create one with b)")
            if not base.compiled:
                return f"{base.name} has no compiled wiki yet: compile it first (c)"
            return None
        if action == "cancel":
            job = self.cancel_target()
            if job is None:
                return "no job is selected" if self.active == "running" or self.current_stop() == "jobs" else (
                    "the selected base has no queued or running job")
            return None if job.open else f"job {job.short} already {job.phase}; nothing to cancel"
        if action in ("mark", "bulk"):
            if action == "mark" and self.selected_item() is None:
                return "no review item is selected"
            if action == "bulk" and not self.snapshot.counts.get("held"):
                return "no held update is open"
            return None
        if action == "resolve":
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
        if action == "open":
            stop = self.current_stop()
            if stop == "bases" and self.selected_base() is None:
                return "no knowledge base is selected"
            if stop == "jobs" and self.selected_job() is None:
                return "no job is selected"
            if stop == "items" and self.selected_item() is None:
                return "no review item is selected"
            return None
        if action == "back":
            if self.query_one("#filter").display or any(self.needle.values()):
                return None
            if self.current_stop() == "bases" and self.follow:
                return "already at the queue"
            return None
        return None

    def on_key(self, event: events.Key) -> None:
        if isinstance(self.focused, Input):
            return
        if self.current_stop() == "jobs" and event.key in MOVE_KEYS:
            self.follow = False
        entry = keys.key_to_id(keys.MAIN, self.app.user_keymap).get(event.key)  # type: ignore[attr-defined]
        if entry is None:
            return
        name, params = _parsed(entry)
        if self.check_action(name, params) is True:
            return
        event.stop()
        event.prevent_default()
        reason = self.why_not(name, params) or "it does not apply here"
        self.app.notify(f"{keys.display_key(event.key)} ({entry.description}): {reason}", severity="warning",
                        timeout=4)


def repaint_border(w: Widget) -> None:
    """Repaint only the top and bottom rows of `w`'s border."""
    width, height = w.outer_size
    ox, oy = w.content_offset  # refresh() takes regions relative to the content
    w.refresh(Region(-ox, -oy, width, 1), Region(-ox, height - 1 - oy, width, 1))


def _parsed(k: keys.KeyAction) -> tuple[str, tuple[object, ...]]:
    _, name, params = parse_action(k.action)
    return name, params
