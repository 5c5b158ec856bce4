# size: MainScreen whole, in one place: its panes and look, the selection, the snapshot shown, its keys
"""The main screen: four panes (Queue, Running, Review, Brief) in a 2×2 grid when the terminal is at
least 100 columns wide, one pane at a time below that. In the order of the class below:

- the look: which pane is active, its border and title, one pane at a time in a narrow terminal;
- the state: the selection in each table, the focus stop and the active pane, the snapshot shown and
  how it reaches the panes, the status line;
- which keys apply (`check_action`: False = not this pane, hidden from the footer; None = greyed out)
  and why a key that does not apply was pressed, in words (`why_not`, its conditions in `WHY_NOT`);
- the key actions. Each service call runs in a thread worker through `app.run_service` (never on the
  UI thread) and reports its outcome, or its error in words, as a notification. Destructive ones ask
  first (kctui.ui.screens.confirm.ask).

The panes are widgets of their own (kctui.ui.widgets), the panes' and stops' names in `kctui.ui.stops`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

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

from kctui.services import bases as bases_svc
from kctui.services import jobs as jobs_svc
from kctui.services import workspaces as workspaces_svc
from kctui.ui import keys
from kctui.ui.compositor import RowCompositor
from kctui.ui.messages import EMPTY, BaseView, ItemView, JobView, Snapshot
from kctui.ui.screens.confirm import ask
from kctui.ui.stops import (
    CONFLICT,
    HELD,
    MOVE_KEYS,
    PANE_KEY,
    PANE_NAMES,
    PANE_SCOPED,
    PANE_STOP,
    PANES,
    STOP_PANE,
    STOPS,
)
from kctui.ui.unbound_key import unbound_words
from kctui.ui.widgets.brief_pane import BriefPane
from kctui.ui.widgets.filter_input import FilterInput
from kctui.ui.widgets.key_bar import KeyBar, Line
from kctui.ui.widgets.keyed_table import KeyedTable
from kctui.ui.widgets.queue_pane import QueuePane
from kctui.ui.widgets.review_pane import ReviewPane
from kctui.ui.widgets.running_pane import RunningPane
from kctui.ui.words import STARTING, changes_body, compile_text

if TYPE_CHECKING:
    from kctui.ui.screens.new_kb import NewKb

DETAIL_DELAY = 0.08  # seconds the jobs cursor rests before the selected job's detail is read


class MainScreen(Screen):
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    BINDINGS = keys.bindings(keys.MAIN)

    active: reactive[str] = reactive("queue", repaint=False)
    # Textual repaints the whole screen when focus moves; the widget gaining and the one losing focus
    # repaint themselves, so the screen need not (a full repaint was most of a pane switch's cost)
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    def __init__(self) -> None:
        super().__init__()
        self._compositor = RowCompositor()  # a pane switch redraws a few rows: only those are drawn
        self.snapshot: Snapshot = EMPTY
        self.deferred: list[keys.KeyAction] = []  # keys pressed before the first read of the store
        self.needle = {"queue": "", "review": ""}
        self.follow = True  # the Running and Brief panes follow the running (or newest) job
        self.followed_job: str | None = None
        self.pending_follow: str | None = None  # queued by a key here; followed once it runs
        self.dry_run_of: str | None = None  # the base a dry run (D) runs on, until its brief opens
        self._bindings_sig: tuple = ()
        self._reshow = True  # the next apply() shows the tables even if the snapshot's rows are the same
        self._detail_timer = None
        self._focus_moving = False  # focus_stop: the focus is about to move, and refresh the key bar

    def compose(self) -> ComposeResult:
        # the width class now, not at the first resize: the first frame (drawn before any data) already
        # has the layout the terminal's width calls for
        width = self.app.size.width
        now = next((c for low, c in sorted(self.HORIZONTAL_BREAKPOINTS, reverse=True) if width >= low), None)
        self.update_classes({c: c == now for _low, c in self.HORIZONTAL_BREAKPOINTS}, animate=False)
        yield Line("", id="tabs")
        with Container(id="panes"):
            for pane in (QueuePane(id="queue"), RunningPane(id="running"), ReviewPane(id="review"),
                         BriefPane(id="brief")):
                pane.add_class("pane")
                pane.border_title = pane.TITLE
                yield pane
        yield FilterInput(placeholder="filter: type to narrow the rows · enter keeps it · esc clears", id="filter")
        yield Line("", id="status")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#filter").display = False
        self.style_panes(mounting=True)  # before the first frame: a narrow terminal shows one pane from the start
        self.query_one("#bases").focus()
        snap = self.app.snapshot  # type: ignore[attr-defined]
        if snap is not EMPTY:
            self.apply(snap)
        else:  # drawn before the first read of the store: each pane says so until its rows arrive
            for pane in PANES:
                self.query_one(f"#{pane}").border_subtitle = STARTING

    @property
    def loaded(self) -> bool:
        """Has the first read of the store arrived (the panes show data, not "starting…")?"""
        return self.snapshot is not EMPTY

    # -- the look ----------------------------------------------------------------------------------

    def watch_active(self, active: str) -> None:
        self.style_panes()
        self.update_bindings()

    def style_panes(self, *, mounting: bool = False) -> None:
        """Mark the active pane (its title row and bottom edge in the accent colour, a ▶ and bold in its
        title) and, in a narrow terminal, show only it. The rules are set without Textual's refresh of
        the whole pane and only those two rows are repainted: a screen update re-composes every line
        it touches across the width of everything touched, so coloured side edges (a column on every
        line) would re-compose the whole screen on each pane switch."""
        if not (self.is_mounted or mounting):
            return
        v = self.app.tones()  # type: ignore[attr-defined]  (cached: get_css_variables() costs ms)
        narrow = self.has_class("-narrow")
        for pane in PANES:
            style_pane(self.query_one(f"#{pane}"), pane == self.active, narrow, v)
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

    # -- the state: the panes and the focus stops ---------------------------------------------------

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

    def focus_stop(self, stop: str) -> None:
        widget = self.stop_widget(stop)
        # the focus moving refreshes the key bar (Screen._watch_focused): the pane's change need not too
        self._focus_moving = widget.focusable and widget is not self.focused
        try:
            self.active = STOP_PANE[stop]
        finally:
            self._focus_moving = False
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
        followed = snap.job(self.followed_job) if self.followed_job else None
        if followed is not None or (self.followed_job and not snap.jobs):
            # a job that started after it (an automatic one that ran between two polls) takes over
            later = [j for j in snap.jobs if j.started_at is not None and j.id != self.followed_job
                     and followed is not None and j.started_at > (followed.started_at or followed.created_at)]
            return max(later, key=lambda j: j.started_at or 0).id if later else self.followed_job
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
        if old is EMPTY and snap is not EMPTY and self.deferred:
            self.call_after_refresh(self.run_deferred)
        tones = self.app.tones()  # type: ignore[attr-defined]
        self.follow_pending(snap)
        if self.follow:
            self.followed_job = self.wanted_job()
        if not (snap.jobs is old.jobs and snap.items is old.items and snap.bases is old.bases and not self._reshow):
            # (a poll that read only the shown job's detail leaves the tables as they are)
            self._reshow = False
            self.queue.show(snap, self.needle["queue"], tones, self.followed_job if self.follow else None)
            self.query_one(ReviewPane).show(snap, self.needle["review"], tones)
        self.show_detail(snap, tones)
        self.update_status()
        self.update_bindings()

    def follow_pending(self, snap: Snapshot) -> None:
        """A job this app queued (`pending_follow`) is followed once it has been claimed."""
        if self.follow and self.pending_follow:
            job = snap.job(self.pending_follow)
            if job is None or job.phase != "queued":
                self.followed_job = job.id if job is not None else self.followed_job
                self.pending_follow = None

    def show_detail(self, snap: Snapshot, tones: dict[str, str]) -> None:
        """The Running and Brief panes show the wanted job's detail; while the snapshot has not got it,
        they keep what they show and a poll of the detail alone reads it."""
        wanted = self.wanted_job()
        detail = snap.detail if snap.detail is not None and snap.detail.job.id == wanted else None
        if wanted is not None and detail is None:
            self.app.poller.poll_now(full=False)  # type: ignore[attr-defined]
        if detail is not None or wanted is None:
            self.query_one(RunningPane).show(detail, snap.now_us, tones)
            self.query_one(BriefPane).show(detail)

    def rerender(self) -> None:
        """Show the last snapshot again (a filter or the theme changed)."""
        if not self.loaded:
            return  # nothing read yet: the panes keep saying "starting…"
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
        sig = tuple(self.check_action(*parsed_action(k)) for k in keys.REGISTRY if keys.MAIN in k.scopes)
        sig += (self.active,)
        if sig != self._bindings_sig:
            self._bindings_sig = sig
            if not self._focus_moving:
                self.refresh_bindings()

    def _load_detail(self) -> None:
        self._detail_timer = None
        self.app.poller.poll_now(full=False)  # type: ignore[attr-defined]

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
        item = self.selected_item()
        if item is None:
            return "no review item is selected"
        if item.kind == "conflict" and item.id not in self.query_one(ReviewPane).marked:
            return (f"item #{item.id} is a conflict: marks gather held updates for a / r; resolve it with n, e "
                    "or d")
        return None

    def _why_not_bulk(self, _parameters: tuple[object, ...]) -> str | None:
        return "no held update is open" if not self.snapshot.counts.get("held") else None

    def _keys(self, binding_id: str) -> str:
        """A binding's keys as the user's [keys] bind them ("a", or "y" after a rebind)."""
        return keys.keys_text(keys.BY_ID[binding_id], getattr(self.app, "user_keymap", {}))

    def _why_not_resolve(self, parameters: tuple[object, ...]) -> str | None:
        choice = parameters[0] if parameters else ""
        if choice in HELD and self.query_one(ReviewPane).marked:
            return None  # a / r act on the marked rows
        item = self.selected_item()
        if item is None:
            return "no review item is selected"
        if item.kind == "held" and choice not in HELD:
            return f"item #{item.id} is a held update: {self._keys('approve')} approves, {self._keys('reject')} rejects"
        if item.kind == "conflict" and choice not in CONFLICT:
            return (f"item #{item.id} is a conflict: {self._keys('use-new')} uses the new value, {self._keys('keep')} "
                    f"keeps the page, {self._keys('dismiss')} dismisses")
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
            self.say_unbound(event)
            return
        name, params = parsed_action(entry)
        if self.check_action(name, params) is True:
            return
        event.stop()
        event.prevent_default()
        if not self.loaded:  # a key pressed while the app starts is kept, and run once the rows are in
            self.deferred.append(entry)
            self.app.notify(f"{keys.display_key(event.key)} ({entry.description}): starting… it runs when the "
                            "panes have loaded", timeout=3)
            return
        reason = self.why_not(name, params) or "it does not apply here"
        self.app.notify(f"{keys.display_key(event.key)} ({entry.description}): {reason}", severity="warning",
                        timeout=4)

    def say_unbound(self, event: events.Key) -> None:
        """A typed key no binding here takes says so (or where it applies), never nothing."""
        words = unbound_words(event.key, event.character, (keys.MAIN,), self.app.user_keymap)  # type: ignore[attr-defined]
        if words is not None:
            event.stop()
            self.app.notify(words, severity="warning", timeout=4, markup=False)

    def run_deferred(self) -> None:
        """The keys pressed before the first read of the store, in order, now that it has arrived: each
        runs if it applies, else says why, as if pressed now."""
        pending, self.deferred = self.deferred, []
        for entry in pending:
            name, params = parsed_action(entry)
            if self.check_action(name, params) is True:
                self.call_later(self.run_action, entry.action)
            else:
                reason = self.why_not(name, params) or "it does not apply here"
                self.app.notify(f"{entry.description}: {reason}", severity="warning", timeout=4)

    # -- the key actions: moving around -------------------------------------------------------------

    def action_focus_pane(self, pane: str) -> None:
        self.focus_stop(PANE_STOP[pane])

    def action_cycle(self, delta: int) -> None:
        cur = self.current_stop() or "bases"
        self.focus_stop(STOPS[(STOPS.index(cur) + delta) % len(STOPS)])

    def action_move(self, delta: int) -> None:
        w = self.focused
        if isinstance(w, KeyedTable):
            (w.action_cursor_down if delta > 0 else w.action_cursor_up)()
        elif w is not None:
            w.scroll_relative(y=delta, animate=False)

    def action_open(self) -> None:
        stop = self.current_stop()
        if stop == "bases":
            base = self.selected_base()
            job = next((j for j in self.snapshot.jobs if base and j.base_key == base.key), None)
            self.focus_stop("jobs")
            if job is not None:
                self.follow = False
                self.queue.jobs.select_key(job.id)
        elif stop == "jobs":
            self.follow = False
            self.focus_stop("running")
            self.app.poller.poll_now(full=False)  # type: ignore[attr-defined]
        elif stop == "items":
            item = self.selected_item()
            if item is not None:
                from kctui.ui.screens.review_detail import open_item  # noqa: PLC0415

                open_item(self.app, item.id)

    def action_back(self) -> None:
        f = self.query_one("#filter", Input)
        pane = getattr(self, "_filter_pane", self.active)
        if f.display or self.needle.get(pane):
            self.needle[pane] = ""
            f.value = ""
            f.display = False
            self.focus_stop(PANE_STOP[pane])
            self.rerender()
            return
        self.follow = True
        self.focus_stop("bases")
        self.app.poller.poll_now()  # type: ignore[attr-defined]

    def action_filter(self) -> None:
        self._filter_pane = self.active
        f = self.query_one("#filter", Input)
        f.value = self.needle.get(self.active, "")
        f.display = True
        f.focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "filter":
            pane = getattr(self, "_filter_pane", self.active)
            self.needle[pane] = event.value.strip().lower()
            self.reshow(pane)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "filter":
            event.input.display = False
            self.focus_stop(PANE_STOP[getattr(self, "_filter_pane", self.active)])

    # -- the key actions: the queue -----------------------------------------------------------------

    def action_compile(self) -> None:
        base = self.selected_base()
        if base is None:
            return

        def then(result: Any) -> None:
            _, base_record, job = result
            self.follow = True  # the Running pane takes the job up as soon as it is claimed
            self.pending_follow = job.id if job is not None else None
            self.app.show_result(job, base_record)  # type: ignore[attr-defined]

        self.app.run_service("compile", lambda ctx: jobs_svc.request_compile(ctx, base.workspace, base.id),  # type: ignore[attr-defined]
                             ok_text=compile_text, then=then)

    def action_dry_run(self) -> None:
        """A dry run in its own thread and store connection: it never waits for, nor holds up, the
        other actions or the host's worker."""
        base = self.selected_base()
        if base is None:
            return
        app = self.app
        if self.dry_run_of is not None:  # one at a time: a second D says so instead of starting another
            app.notify(f"D (Dry run): a dry run of {self.dry_run_of} is running; its brief opens when it ends",
                       severity="warning", timeout=4, markup=False)
            return
        self.dry_run_of = base.name
        app.acknowledge("dry run", +1)  # type: ignore[attr-defined]
        app.notify(f"{base.name}: dry run started", timeout=3)

        def work() -> None:
            from kctui.services.dry_run import run_dry_run, summary_line  # noqa: PLC0415
            from kctui.services.errors import ServiceError  # noqa: PLC0415

            ctx = app.ctx_factory()  # type: ignore[attr-defined]
            try:
                run = run_dry_run(ctx, base.workspace, base.id)
                text, ok = f"{base.name}: {summary_line(run)}", run.phase == "succeeded"
            except ServiceError as exc:
                run, text, ok = None, f"dry run: {exc.message}", False
            except Exception as exc:  # the key is free again whatever happened, and says so
                run, text, ok = None, f"dry run failed: {type(exc).__name__}: {exc}", False
            finally:
                ctx.close()
            app.call_from_thread(self.dry_run_done, base.name, run, text, ok)

        app.run_worker(work, thread=True, group="dry-run", name="dry-run", exit_on_error=False)

    def dry_run_done(self, name: str, run: Any, text: str, ok: bool) -> None:
        from kctui.ui.screens.dry_run import DryRunScreen  # noqa: PLC0415

        self.dry_run_of = None
        self.app.acknowledge("dry run", -1)  # type: ignore[attr-defined]
        self.app.notify(text, severity="information" if ok else "error", timeout=5 if ok else 10)
        if run is not None and run.brief:
            self.app.push_screen(DryRunScreen(f"Dry run of {name} · {run.id}", run.brief["markdown"]))

    def action_cancel(self) -> None:
        job = self.cancel_target()
        if job is None:
            return
        name = next((b.name for b in self.snapshot.bases if b.key == job.base_key), job.base_id)
        body = (f"{name} · {job.trigger} · {job.phase}.\n\n"
                + ("The compile stops and its result is refused; the wiki stays as it was."
                   if job.phase == "running" else "The queued compile is removed from the queue."))

        def answer(yes: bool | None) -> None:
            if yes:
                self.app.run_service(  # type: ignore[attr-defined]
                    "cancel", lambda ctx: jobs_svc.cancel(ctx, job.workspace, job.base_id, job.id),
                    ok_text=lambda r: f"job {job.short} cancelled" if r[0] else f"job {job.short} had already ended")

        ask(self.app, f"Cancel job {job.short}?", body, "cancel the job", answer)

    def action_clear_pause(self) -> None:
        base = self.selected_base()
        if base is None:
            return
        try:
            from kctui.services.scheduler import resume_base, source_changes
        except ImportError:  # an older build: a manual compile clears the pause too
            resume_base = source_changes = None  # type: ignore[assignment]

        def resume(ctx: Any) -> Any:
            if resume_base is None:
                return jobs_svc.request_compile(ctx, base.workspace, base.id)[1:]
            return resume_base(ctx, base.workspace, base.id, compile=True)

        def resumed_text(result: Any) -> str:
            job = result[1]
            return f"{base.name}: pause cleared" + (f", compile #{job.id.rsplit('-', 1)[-1]} queued" if job else "")

        def answer(yes: bool | None) -> None:
            if yes:
                def then(result: Any) -> None:
                    self.follow = True
                    self.pending_follow = result[1].id if result[1] is not None else None
                    self.app.show_result(result[1], result[0])  # type: ignore[attr-defined]

                self.app.run_service("clear pause", resume, ok_text=resumed_text, then=then)  # type: ignore[attr-defined]

        def ask_to_clear(counts: dict[str, Any] | None) -> None:
            ask(self.app, f"Clear the pause of {base.name}?", changes_body(base.name, base.paused_reason, counts),
                "clear the pause and compile", answer)

        if source_changes is None:
            ask_to_clear(None)
        else:
            self.app.run_service("change counts", lambda ctx: source_changes(ctx, base.workspace, base.id),  # type: ignore[attr-defined]
                                 then=ask_to_clear, quiet=True, reads_only=True)

    def action_toggle_policy(self) -> None:
        base = self.selected_base()
        if base is None:
            return
        new = "manual" if base.policy == "smart_auto" else "smart_auto"
        note = ": compile with c" if new == "manual" else ": it compiles by itself once source changes settle"
        self.app.run_service(  # type: ignore[attr-defined]
            "policy", lambda ctx: bases_svc.set_compilation_policy(ctx, base.workspace, base.id, new),
            ok_text=lambda r: f"{base.name} is now {new}{note}")

    def action_search(self) -> None:
        base = self.selected_base()
        if base is not None:
            from kctui.ui.screens.search import SearchScreen  # noqa: PLC0415

            self.app.push_screen(SearchScreen(base.workspace, base.id, base.name))

    def action_ask(self) -> None:
        from kctui.ui.screens.ask import AskScreen

        base = self.selected_base()
        if base is not None:
            self.app.push_screen(AskScreen(base.workspace, base.id, base.name))

    def action_pages(self) -> None:
        from kctui.ui.screens.pages import PagesScreen

        base = self.selected_base()
        if base is not None:
            self.app.push_screen(PagesScreen(base.workspace, base.id, base.name))

    def action_policy(self) -> None:
        from kctui.ui.screens.policy import PolicyScreen

        base = self.selected_base()
        if base is not None:
            self.app.push_screen(PolicyScreen(base.workspace, base.id, base.name))

    def action_briefs(self) -> None:
        from kctui.ui.screens.briefs import BriefsScreen

        base = self.selected_base()
        if base is not None:
            self.app.push_screen(BriefsScreen(base.workspace, base.id, base.name))

    def action_add_workspace(self) -> None:
        def added(ws: str | None) -> None:
            if ws:
                self.app.run_service(  # type: ignore[attr-defined]
                    "add workspace", lambda ctx: workspaces_svc.add_workspace(ctx, ws),
                    ok_text=lambda r: f"now monitoring {r[1]}" if r[0] else f"{r[1]} is already monitored")

        from kctui.ui.screens.add_workspace import AddWorkspaceScreen  # noqa: PLC0415

        self.app.push_screen(AddWorkspaceScreen(), added)

    def action_new_kb(self) -> None:
        base = self.selected_base()

        def create(req: NewKb | None) -> None:
            if req is None:
                return
            self.app.run_service(  # type: ignore[attr-defined]
                "new knowledge base",
                lambda ctx: bases_svc.create_base(ctx, req.workspace, req.name, description=req.description,
                                                  policy=req.policy, from_paths=req.from_paths or None),
                ok_text=lambda r: (f"created {r[1].name} ({r[1].id})" if r[0] else f"{r[1].name} already exists")
                + ("" if req.from_paths else f"; put its sources in .a3s/kb/bases/{r[1].id}/sources/"),
                then=lambda r: self.call_after_refresh(lambda: self.queue.bases.select_key(f"{r[1].workspace}\0{r[1].id}")))

        from kctui.ui.screens.new_kb import NewKbScreen  # noqa: PLC0415

        self.app.push_screen(NewKbScreen(list(self.snapshot.workspaces), base.workspace if base else None), create)

    # -- the key actions: the review queue ----------------------------------------------------------

    def action_resolve(self, choice: str) -> None:
        pane = self.query_one(ReviewPane)
        marked = pane.marked_items(self.snapshot)
        if marked and choice in ("approve", "reject"):  # a / r act on every marked row
            held = [i for i in marked if i.kind == "held"]
            self.confirm_bulk(choice, [i.id for i in held], {i.id: i.expected_revision for i in held},
                              len({(i.workspace, i.base_id) for i in held}), len(marked) - len(held), "marked")
            return
        item = self.selected_item()
        if item is not None:
            self.app.resolve_item(item.id, choice, item.expected_revision)  # type: ignore[attr-defined]

    def action_undo(self) -> None:
        self.app.undo_last()  # type: ignore[attr-defined]

    def action_next_unread(self) -> None:
        item = self.selected_item()
        self.app.open_next_unread(item.id if item is not None else None)  # type: ignore[attr-defined]

    def _why_not_undo(self, _parameters: tuple[object, ...]) -> str | None:
        return None if self.app.session_decisions else (  # type: ignore[attr-defined]
            "no decision of this session to undo (older ones: v on the page screen, or `kctui review undo`)")

    def _why_not_next_unread(self, _parameters: tuple[object, ...]) -> str | None:
        if not self.snapshot.items_total:
            return "nothing to review"
        return "every open review item has been read" if self.snapshot.counts.get("unread") == 0 else None

    def action_mark(self) -> None:
        item = self.selected_item()
        if item is None:
            return
        self.query_one(ReviewPane).toggle_mark(item.id)
        self.query_one(ReviewPane).items.action_cursor_down()
        self.update_bindings()

    def action_bulk(self, choice: str) -> None:
        """A / R: every open held update matching the pane's filter — counted by the service over all
        open items (not only the rows loaded), then confirmed."""
        from kctui.services.review_bulk import select_items  # noqa: PLC0415

        needle = self.needle["review"]

        def counted(got: Any) -> None:
            sel, overrides = got
            self.confirm_bulk(choice, [i.id for i in sel.items], {i.id: i.expected_revision for i in sel.items},
                              len(sel.bases()), len(sel.conflicts), f"matching “{needle}”" if needle else "open",
                              overrides)

        def count(ctx: Any) -> Any:
            from kctui.services.review_kept import kept_overrides  # noqa: PLC0415

            sel = select_items(ctx, everything=True, filter_text=needle or None)
            return sel, (kept_overrides(sel.items) if choice == "approve" else [])

        self.app.run_service("count", count, then=counted, quiet=True, reads_only=True)  # type: ignore[attr-defined]

    def confirm_bulk(self, choice: str, ids: list[int], seen: dict[int, int], bases: int,
                     left_out: int, which: str, overrides: list[str] | None = None) -> None:
        verb = {"approve": "Approve", "reject": "Reject"}[choice]
        if not ids:
            self.app.notify(f"no {which} held update to {choice}" + (
                f" ({left_out} conflict{'s' if left_out != 1 else ''}: resolve each with n, e or d)" if left_out else ""),
                severity="warning", timeout=5)
            return
        n = len(ids)
        lines = [f"{verb} {n} {which} held update{'s' if n != 1 else ''} in {bases} knowledge base"
                 f"{'s' if bases != 1 else ''}?", "",
                 ("Each proposed page is published as it was proposed" if choice == "approve"
                  else "Each page keeps what it says; its needs-review flag is cleared")
                 + ", in one promotion per knowledge base."]
        if left_out:
            lines.append(f"{left_out} conflict{'s are' if left_out != 1 else ' is'} left out: resolve each with "
                         "n (use new), e (keep) or d (dismiss).")
        lines.append("An item whose page changed since you saw it is skipped, not applied.")
        if overrides:  # a value a person kept: said before it publishes (QA s31 item 2)
            from kctui.services.review_kept import overrides_words  # noqa: PLC0415

            lines += ["", *overrides_words(overrides, limit=3)]

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_bulk(choice, ids, seen)

        ask(self.app, f"{verb} {n} held update{'s' if n != 1 else ''}", "\n".join(lines), f"{choice} {n}", answered)

    def run_bulk(self, choice: str, ids: list[int], seen: dict[int, int]) -> None:
        """In a thread worker (the UI never waits): one bulk action, its progress on the pane's line."""
        from kctui.services.review_bulk import bulk_resolve, select_items  # noqa: PLC0415

        pane = self.query_one(ReviewPane)
        verb = {"approve": "approving", "reject": "rejecting"}[choice]
        app = self.app

        def progress(phase: str, done: int, total: int) -> None:
            app.call_from_thread(pane.show_progress, verb, phase, done, total)

        def work(ctx: Any) -> Any:
            from kctui.services.review_undo import list_decisions  # noqa: PLC0415

            last = (list_decisions(ctx, 1) or [None])[0]
            chosen = select_items(ctx, item_ids=ids)
            outcome = bulk_resolve(ctx, chosen.items, choice, seen=seen, progress=progress)
            # the promotions it made, one per base: z undoes them one by one (issue 35)
            outcome.decisions = [d.id for d in reversed(list_decisions(ctx, 1000))
                                 if (last is None or d.id > last.id) and any(i in set(ids) for i, _ in d.items)]
            return outcome

        def finished(outcome: Any) -> None:
            pane.show_progress(verb, "done", 0, 0)
            pane.clear_marks()
            app.session_decisions.extend(outcome.decisions)  # type: ignore[attr-defined]

        def words(outcome: Any) -> str:
            done = {"approve": "approved", "reject": "rejected"}[choice]
            text = f"{len(outcome.applied)} {done} in {outcome.promotions} promotion(s)"
            if outcome.skipped:
                text += f"; {len(outcome.skipped)} skipped ({outcome.skipped[0][1]})"
            if outcome.failed:
                text += f"; failed: {outcome.failed[0][1]}"
            return text

        pane.show_progress(verb, "deciding", 0, len(ids))
        app.run_service(f"{choice} {len(ids)}", work, ok_text=words, then=finished,  # type: ignore[attr-defined]
                        on_error=lambda: pane.show_progress(verb, "done", 0, 0))


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
    "ask": MainScreen._why_not_compiled_base,
    "pages": MainScreen._why_not_compiled_base,
    "cancel": MainScreen._why_not_cancel,
    "mark": MainScreen._why_not_mark,
    "bulk": MainScreen._why_not_bulk,
    "resolve": MainScreen._why_not_resolve,
    "open": MainScreen._why_not_open,
    "back": MainScreen._why_not_back,
    "undo": MainScreen._why_not_undo,
    "next_unread": MainScreen._why_not_next_unread,
}


def style_pane(w: Widget, on: bool, narrow: bool, v: dict[str, str]) -> None:
    """One pane's look (MainScreen.style_panes): active (`on`) or not, shown or not in a narrow terminal,
    in the theme's tones `v`; nothing is set or repainted while its look is unchanged."""
    muted = v["muted"]
    look = (on, narrow, v["accent"], muted)
    if getattr(w, "_look", None) == look:
        return
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


def repaint_border(w: Widget) -> None:
    """Repaint only the top and bottom rows of `w`'s border."""
    width, height = w.outer_size
    ox, oy = w.content_offset  # refresh() takes regions relative to the content
    w.refresh(Region(-ox, -oy, width, 1), Region(-ox, height - 1 - oy, width, 1))


def parsed_action(k: keys.KeyAction) -> tuple[str, tuple[object, ...]]:
    _, name, params = parse_action(k.action)
    return name, params

