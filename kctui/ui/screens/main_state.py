"""The main screen's state, beneath its look and its keys: the selection in each table, the focus stop
and the active pane, the snapshot shown and how it reaches the panes, the status line. MainActions
(kctui.ui.actions) adds the key actions and MainScreen (kctui.ui.screens.main) the layout and which
keys apply; both build on this class, which imports neither."""

from __future__ import annotations

from textual.actions import parse as parse_action
from textual.reactive import Reactive, reactive
from textual.screen import Screen
from textual.widget import Widget

from kctui.ui import keys
from kctui.ui.messages import EMPTY, BaseView, ItemView, JobView, Snapshot
from kctui.ui.stops import PANE_NAMES, PANES, STOP_PANE, STOPS
from kctui.ui.widgets.brief_pane import BriefPane
from kctui.ui.widgets.key_bar import Line
from kctui.ui.widgets.queue_pane import QueuePane
from kctui.ui.widgets.review_pane import ReviewPane
from kctui.ui.widgets.running_pane import RunningPane


class MainState(Screen):
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
        sig = tuple(self.check_action(*parsed_action(k)) for k in keys.REGISTRY if keys.MAIN in k.scopes)
        sig += (self.active,)
        if sig != self._bindings_sig:
            self._bindings_sig = sig
            self.refresh_bindings()

    def _load_detail(self) -> None:
        self._detail_timer = None
        self.app.poller.poll_now(full=False)  # type: ignore[attr-defined]


def parsed_action(k: keys.KeyAction) -> tuple[str, tuple[object, ...]]:
    _, name, params = parse_action(k.action)
    return name, params

