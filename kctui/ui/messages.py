"""What the background threads tell the UI: one immutable snapshot of everything the panes show, the
host's state, and the end of a key action. Snapshots coalesce (`can_replace`): if the UI is behind,
only the newest one is applied."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from textual.message import Message


@dataclass(frozen=True)
class BaseView:
    workspace: str
    id: str
    name: str
    policy: str
    phase: str
    paused_reason: str | None
    pending: bool
    pending_counts: tuple[tuple[str, int], ...]  # (name, count) of the last scan's change counts
    next_auto_us: int | None
    next_retry_us: int | None
    active_job_id: str | None
    follow_up: bool
    last_error_words: str | None
    open_items: int
    compiled: bool = False  # it has a compiled wiki (the search screen needs one)
    next_scheduled_us: int | None = None  # the next pass of its cron schedule (issue 16)
    stopped: bool = False  # its last compile was stopped by a signal and handed back, not a crash
    promotion_pending: str | None = None  # a promotion a kill interrupted, in words (services.pending_promotion)

    @property
    def key(self) -> str:
        return f"{self.workspace}\0{self.id}"


@dataclass(frozen=True)
class JobView:
    id: str
    workspace: str
    base_id: str
    trigger: str
    phase: str
    created_at: int
    not_before: int | None
    started_at: int | None
    completed_at: int | None
    error: str | None
    error_words: str | None
    cancel_requested: bool
    stopped: bool = False  # stopped by a signal and handed back for a retry, not a crash

    @property
    def base_key(self) -> str:
        return f"{self.workspace}\0{self.base_id}"

    @property
    def short(self) -> str:
        return "#" + self.id.rsplit("-", 1)[-1]

    @property
    def open(self) -> bool:
        return self.phase in ("queued", "running")


@dataclass(frozen=True)
class ItemView:
    id: int
    kind: str  # held | conflict
    workspace: str
    base_id: str
    job_id: str
    page: str
    title: str
    reason: str
    reason_words: str
    summary: str
    expected_revision: int
    label: str = ""  # the row's name: the source change and page count of a change set (QA s31 item 11)


@dataclass(frozen=True)
class StepView:
    step: str
    state: str  # pending | started | progress | done
    done: int
    total: int
    current: str


@dataclass(frozen=True)
class JobDetail:
    job: JobView
    base_name: str
    steps: tuple[StepView, ...]
    log: tuple[str, ...]
    brief: str | None


@dataclass(frozen=True)
class Snapshot:
    now_us: int
    workspaces: tuple[str, ...]
    bases: tuple[BaseView, ...]
    jobs: tuple[JobView, ...]
    jobs_total: int
    items: tuple[ItemView, ...]
    items_total: int
    detail: JobDetail | None
    running_job_id: str | None
    counts: dict[str, int] = field(default_factory=dict, compare=False)

    def base(self, key: str | None) -> BaseView | None:
        return next((b for b in self.bases if b.key == key), None) if key else None

    def job(self, job_id: str | None) -> JobView | None:
        return next((j for j in self.jobs if j.id == job_id), None) if job_id else None

    def item(self, item_id: int | None) -> ItemView | None:
        return next((i for i in self.items if i.id == item_id), None) if item_id is not None else None


EMPTY = Snapshot(now_us=0, workspaces=(), bases=(), jobs=(), jobs_total=0, items=(), items_total=0, detail=None,
                 running_job_id=None)


class SnapshotReady(Message):
    """A poll finished; `snapshot` is None when nothing changed. `seq` counts the polls."""

    def __init__(self, snapshot: Snapshot | None, seq: int) -> None:
        super().__init__()
        self.snapshot = snapshot
        self.seq = seq

    def can_replace(self, message: Message) -> bool:
        return self.snapshot is not None and isinstance(message, SnapshotReady)


class PollFailed(Message):
    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


class HostChanged(Message):
    """The embedded host started, is a client of another host, failed, or stopped."""

    def __init__(self, state: str, text: str) -> None:
        super().__init__()
        self.state = state
        self.text = text


class ActionDone(Message):
    """A key action's service call ended (ok or not); the text is for a notification, `callback` (if
    any) runs on the UI thread with the result."""

    def __init__(self, action: str, ok: bool, text: str, result: object = None,
                 callback: Callable[..., None] | None = None, quiet: bool = False, reads_only: bool = False) -> None:
        super().__init__()
        self.action = action
        self.ok = ok
        self.text = text
        self.result = result
        self.callback = callback
        self.quiet = quiet
        self.reads_only = reads_only  # the call changed nothing: no poll follows it
