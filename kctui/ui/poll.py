"""The poll: a thread worker reads one snapshot of everything the panes show through the services and
posts one message; the next poll is armed with `set_timer` only after the UI has applied it, so polls
never overlap (Dolphie). A poll whose store has not changed (`PRAGMA data_version`) and whose wanted
job is the same skips the read, except once a second so ages and elapsed times move.

Tables are bounded: the newest `JOB_LIMIT` jobs and the first `ITEM_LIMIT` open review items, with
totals, so ten thousand jobs cost what five hundred do."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from kctui.core.handed_back import handed_back
from kctui.core.models import FAILURE_WORDS
from kctui.core.review_label import item_label
from kctui.core.trust import REASON_WORDS
from kctui.services import bases as bases_svc
from kctui.services import briefs, progress, status
from kctui.services import jobs as jobs_svc
from kctui.services import workspaces as workspaces_svc
from kctui.services.context import ServiceContext
from kctui.services.errors import ServiceError
from kctui.services.pending_promotion import pending_promotion, pending_words
from kctui.services.review_queue import OPEN, open_counts_by_base
from kctui.services.review_reads import unread_count
from kctui.services.scheduled import next_scheduled_for
from kctui.store.records import JOB_COLUMNS, BaseRecord, JobRecord, job_from_row
from kctui.ui.messages import (
    BaseView,
    ItemView,
    JobDetail,
    JobView,
    PollFailed,
    Snapshot,
    SnapshotReady,
    StepView,
)

JOB_LIMIT = 500
ITEM_LIMIT = 500
LOG_LINES = 40
INTERVAL = 0.5
FULL_EVERY = 10.0  # a full read although the store did not change: ages and next-compile times move
DETAIL_EVERY = 1.0  # the shown job is re-read this often while it is queued or running (elapsed time)

CHANGE_KEYS = ("added", "modified", "deleted", "renamed", "totalChanged")


def _pending_counts(ctx: ServiceContext, base: BaseRecord) -> tuple[tuple[str, int], ...]:
    try:
        from kctui.services.scheduler import scan_state_json
    except ImportError:
        return ()
    counts = scan_state_json(ctx, base).get("pendingChangeCounts") or {}
    return tuple((k, int(counts[k])) for k in CHANGE_KEYS if isinstance(counts.get(k), int))


def job_view(j: JobRecord) -> JobView:
    return JobView(id=j.id, workspace=j.workspace, base_id=j.base_id, trigger=j.trigger, phase=j.phase,
                   created_at=j.created_at, not_before=j.not_before, started_at=j.started_at,
                   completed_at=j.completed_at, error=j.error,
                   error_words=FAILURE_WORDS.get(j.error_code or "") if j.phase == "failed" else None,
                   cancel_requested=bool(j.cancel_requested), stopped=handed_back(j.phase, j.error_code, j.error))


def read_jobs(ctx: ServiceContext, limit: int = JOB_LIMIT) -> tuple[JobView, ...]:
    """The running job, the queued ones (claim order), then the newest others — `jobs.list_jobs`'s
    order, read without sorting the whole table (insertion order stands for creation order; the jobs
    table has no index on created_at, and sorting 10,000 rows costs ~17 ms a poll)."""
    open_rows = ctx.store.query(
        f"SELECT {JOB_COLUMNS} FROM jobs WHERE phase IN ('running', 'queued') "
        "ORDER BY CASE phase WHEN 'running' THEN 0 ELSE 1 END, priority, created_at, id")
    done_rows = ctx.store.query(
        f"SELECT {JOB_COLUMNS} FROM jobs WHERE phase NOT IN ('running', 'queued') ORDER BY rowid DESC LIMIT ?",
        (max(0, int(limit) - len(open_rows)),))
    return tuple(job_view(job_from_row(r)) for r in (*open_rows, *done_rows))


def read_items(ctx: ServiceContext, limit: int = ITEM_LIMIT) -> tuple[tuple[ItemView, ...], int, int]:
    """The open review items, oldest first, bounded (a read of the service's table, never a write), and
    how many open items are held updates and conflicts (the store's counts: they add up to the total)."""
    rows = ctx.store.query(
        "SELECT id, kind, workspace, base_id, job_id, page_path, title, reason, summary, expected_revision, "
        "json_extract(details_json, '$.sources') AS sources, "
        "(SELECT COUNT(*) FROM review_item_pages p WHERE p.item_id = review_items.id) AS pages "
        "FROM review_items WHERE state = ? ORDER BY id LIMIT ?", (OPEN, int(limit)))
    kinds = {r[0]: int(r[1]) for r in ctx.store.query(
        "SELECT kind, COUNT(*) FROM review_items WHERE state = ? GROUP BY kind", (OPEN,))}
    items = tuple(ItemView(id=r["id"], kind=r["kind"], workspace=r["workspace"], base_id=r["base_id"],
                           job_id=r["job_id"], page=r["page_path"], title=r["title"], reason=r["reason"],
                           reason_words=REASON_WORDS.get(r["reason"], r["reason"]), summary=r["summary"],
                           expected_revision=r["expected_revision"],
                           label=item_label(r["kind"], r["title"], r["page_path"], _sources(r["sources"]),
                                            int(r["pages"] or 0))) for r in rows)
    return items, kinds.get("held", 0), kinds.get("conflict", 0)


def _sources(raw: str | None) -> list[str]:
    try:
        got = json.loads(raw) if raw else []
    except ValueError:
        return []
    return [str(s) for s in got] if isinstance(got, list) else []


def read_detail(ctx: ServiceContext, job_id: str, names: dict[str, str]) -> JobDetail | None:
    try:
        job = job_view(jobs_svc.get_job(ctx, job_id))
    except ServiceError:
        return None
    steps = tuple(StepView(s.step, s.state, s.done, s.total, s.current) for s in progress.job_steps(ctx, job_id))
    return JobDetail(job=job, base_name=names.get(job.base_key, job.base_id), steps=steps,
                     log=tuple(progress.job_log_tail(ctx, job_id, LOG_LINES)), brief=briefs.brief_for_job(ctx, job_id))


def base_view(ctx: ServiceContext, b: BaseRecord, next_retry_us: int | None, open_items: int) -> BaseView:
    # A manual base shows "manual" for its next automatic compile, so the scheduler is not asked.
    auto = status.next_auto_at(ctx, b) if b.policy == "smart_auto" else None
    return BaseView(
        workspace=b.workspace, id=b.id, name=b.name, policy=b.policy, phase=b.phase, paused_reason=b.paused_reason,
        pending=b.pending_changes, pending_counts=_pending_counts(ctx, b), next_auto_us=auto,
        next_retry_us=next_retry_us, active_job_id=b.active_job_id, follow_up=bool(b.follow_up),
        last_error_words=(FAILURE_WORDS.get(b.last_error_code or "") or b.last_error) if b.phase == "failed" else None,
        open_items=open_items, compiled=bool(b.last_compiled_digest), next_scheduled_us=next_scheduled_for(ctx, b),
        stopped=handed_back(b.phase, b.last_error_code, b.last_error), promotion_pending=_pending_words(b))


def _pending_words(b: BaseRecord) -> str | None:
    """The ⚠ of a promotion a kill interrupted; None while the base's job runs, whose own promotion is
    what holds the journal then (QA s31 #19: a normal compile flashed `⚠ promotion pending`)."""
    if b.active_job_id:
        return None
    pending = pending_promotion(b.workspace, b.id)
    return pending_words(pending) if pending else None


def merge(snap: Snapshot, job: JobRecord | None = None, base: BaseRecord | None = None) -> Snapshot:
    """The snapshot with one job and its base as a service call just returned them, so a key's effect
    shows at once; the next poll brings everything else."""
    jobs, bases = snap.jobs, snap.bases
    if job is not None:
        view = job_view(job)
        rest = [j for j in jobs if j.id != view.id]
        at = next((i for i, j in enumerate(rest) if not j.open or (view.phase == "running" and j.phase == "queued")),
                  len(rest))
        jobs = tuple(rest[:at] + [view] + rest[at:])
    if base is not None:
        bases = tuple(replace(v, phase=base.phase, policy=base.policy, paused_reason=base.paused_reason,
                              pending=base.pending_changes, follow_up=bool(base.follow_up))
                      if (v.workspace, v.id) == (base.workspace, base.id) else v for v in bases)
    running = next((j.id for j in jobs if j.phase == "running"), None)
    return replace(snap, jobs=jobs, bases=bases, running_job_id=running,
                   jobs_total=snap.jobs_total + (job is not None and snap.job(job.id) is None))


def read_snapshot(ctx: ServiceContext, job_id: str | None) -> Snapshot:
    now = ctx.now()
    counts_by_base = open_counts_by_base(ctx)
    jobs = read_jobs(ctx)
    # the queued retry of each base (status.next_retry_at's lookup, from the open jobs already read)
    retry = {j.base_key: j.not_before for j in jobs if j.phase == "queued" and j.trigger == "retry"}
    bases = [base_view(ctx, b, retry.get(f"{b.workspace}\0{b.id}"), counts_by_base.get((b.workspace, b.id), 0))
             for b in bases_svc.list_bases(ctx)]
    total = ctx.store.query_one("SELECT COUNT(*) FROM jobs")
    items, held, conflicts = read_items(ctx)
    unread = unread_count(ctx)
    items_total = held + conflicts
    running = next((j.id for j in jobs if j.phase == "running"), None)
    names = {b.key: b.name for b in bases}
    detail = read_detail(ctx, job_id, names) if job_id else None
    phases: dict[str, int] = {}
    for b in bases:
        phases[b.phase] = phases.get(b.phase, 0) + 1
    queued = sum(1 for j in jobs if j.phase == "queued")
    return Snapshot(now_us=now, workspaces=tuple(workspaces_svc.list_workspaces(ctx)), bases=tuple(bases), jobs=jobs,
                    jobs_total=int(total[0]) if total else len(jobs), items=items, items_total=items_total,
                    detail=detail, running_job_id=running,
                    counts={"queued": queued, "running": 1 if running else 0, "paused": phases.get("paused", 0),
                            "held": held, "conflicts": conflicts, "unread": unread})


class Poller:
    """Runs the read in a thread worker and posts `SnapshotReady` to the app. `done()` (called by the
    app after applying a snapshot) re-arms the timer; `poll_now()` asks for a fresh read at once
    (`full=False`: only the shown job changed, so only its detail is read, unless the store changed).

    A poll reads everything only when the store changed (`PRAGMA data_version`), when asked, or every
    FULL_EVERY seconds; else just the shown job's detail when it changed or is live; else nothing."""

    def __init__(self, app: Any, ctx_factory: Callable[[], ServiceContext], wanted: Callable[[], str | None],
                 interval: float = INTERVAL, full_every: float = FULL_EVERY) -> None:
        self.app = app
        self.ctx_factory = ctx_factory
        self.wanted = wanted
        self.interval = interval
        self.full_every = full_every
        self.seq = 0  # polls launched
        self.applied = 0  # polls whose message the app handled
        self._ctx: ServiceContext | None = None
        self._ctx_lock = threading.Lock()
        self._timer: Any = None
        self._running = False
        self._again: bool | None = None  # None: no poll asked for; else whether it must be full
        self._stopped = False
        self._last: Snapshot | None = None
        self._last_version: int | None = None
        self._last_full = 0.0
        self._last_detail = 0.0

    @property
    def idle(self) -> bool:
        return not self._running and self._again is None

    def start(self) -> None:
        self.poll_now()

    def stop(self) -> None:
        self._stopped = True
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        with self._ctx_lock:
            if self._ctx is not None and not self._running:
                self._ctx.close()
                self._ctx = None

    def poll_now(self, full: bool = True) -> None:
        if self._stopped:
            return
        if self._running:
            self._again = bool(self._again) or full
            return
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._launch(force=full)

    def _tick(self) -> None:
        self._timer = None
        if not self._stopped and not self._running:
            self._launch(force=False)

    def _launch(self, force: bool) -> None:
        self._running = True
        self._again = None
        self.seq += 1
        seq, wanted = self.seq, self.wanted()
        self.app.run_worker(lambda: self._work(seq, wanted, force), thread=True, group="poll", name="poll",
                            exit_on_error=False)

    def _work(self, seq: int, wanted: str | None, force: bool) -> None:  # in the worker thread
        try:
            with self._ctx_lock:
                if self._ctx is None:
                    self._ctx = self.ctx_factory()
                snap = self._read(self._ctx, wanted, force)
            self.app.post_message(SnapshotReady(snap, seq))
        except Exception as exc:  # noqa: BLE001 - the poll must survive anything; the next one retries
            message = exc.message if isinstance(exc, ServiceError) else f"{type(exc).__name__}: {exc}"
            self.app.post_message(PollFailed(f"reading the store failed: {message}"))
            self.app.post_message(SnapshotReady(None, seq))

    def _read(self, ctx: ServiceContext, wanted: str | None, force: bool) -> Snapshot | None:
        version = ctx.store.query_one("PRAGMA data_version")[0]
        now = time.monotonic()
        last = self._last
        if last is None or force or version != self._last_version or now - self._last_full >= self.full_every:
            snap = read_snapshot(ctx, wanted)
            self._last_version, self._last_full, self._last_detail = version, now, now
        else:
            shown = last.detail.job.id if last.detail else None
            live = last.detail is not None and last.detail.job.open and now - self._last_detail >= DETAIL_EVERY
            if wanted == shown and not live:
                return None
            names = {b.key: b.name for b in last.bases}
            snap = replace(last, now_us=ctx.now(), detail=read_detail(ctx, wanted, names) if wanted else None)
            self._last_detail = now
        self._last = snap
        return snap

    def done(self, seq: int) -> None:
        """The app applied (or skipped) poll `seq`: arm the next one."""
        self.applied = max(self.applied, seq)
        self._running = False
        if self._stopped:
            return
        if self._again is not None:
            self._launch(force=self._again)
        elif self._timer is None:
            self._timer = self.app.set_timer(self.interval, self._tick, name="poll")


__all__ = ["Poller", "job_view", "merge", "read_detail", "read_items", "read_jobs", "read_snapshot"]
