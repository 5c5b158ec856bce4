"""Compile a knowledge base and wait for its job to end (`kctui compile --wait`, `kctui demo`, the MCP
compile tool): a running host does the work, else this process becomes the host until the job ends.

The host-side half of `compile --wait`: the host lock, recovery first, the built-in worker on a thread.
Nothing here prints; a caller is told what happens through `note` (one human line) and `progress`."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from kctui.compiler.runner import ProgressEvent
from kctui.core.brief import brief_counts
from kctui.core.models import TERMINAL_JOB_PHASES
from kctui.services import jobs as jobs_svc
from kctui.services.briefs import brief_for_job
from kctui.services.context import ServiceContext
from kctui.services.errors import ServiceError
from kctui.services.gc import collect_after_job
from kctui.services.hostlock import HostLock
from kctui.services.local_transport import LocalTransport
from kctui.services.progress import ProgressRecorder
from kctui.services.recovery import recover_at_startup
from kctui.services.stopping import stoppable
from kctui.services.worker import run_worker
from kctui.store.records import BaseRecord, JobRecord

Progress = Callable[[str, ProgressEvent], None]
Note = Callable[[str], None]

POLL_SECONDS = 0.2


class WaitInterrupted(KeyboardInterrupt):
    """Ctrl-C while waiting for `job_id`. `cancelled`: the job ran in this process and was cancelled;
    otherwise it goes on in the running host."""

    def __init__(self, job_id: str, *, cancelled: bool) -> None:
        super().__init__(job_id)
        self.job_id = job_id
        self.cancelled = cancelled


def compile_and_wait(svc: ServiceContext, workspace: str, kb_id: str, *, progress: Progress | None = None,
                     note: Note | None = None) -> tuple[bool, BaseRecord, JobRecord | None]:
    """A person's `compile --wait`: (changed, base, the ended job or None when nothing was queued).

    With no host running this process becomes the host: it first recovers what a killed host left (an
    orphaned job fails as transient and its retry is queued), then asks for the compile, which turns
    that queued retry into a manual job that runs now — a person's request beats the scheduled retry.
    With a host running, it asks and waits for that host. Ctrl-C raises `WaitInterrupted`."""
    tell = note or (lambda line: None)
    lock = HostLock(role="kctui compile --wait")
    if not lock.try_acquire():
        changed, base, job = jobs_svc.request_compile(svc, workspace, kb_id)
        if job is None:
            return changed, base, None
        tell(f"a running kctui host is compiling {job.id}; waiting…")
        try:
            while jobs_svc.get_job(svc, job.id).phase not in TERMINAL_JOB_PHASES:
                time.sleep(POLL_SECONDS)
        except KeyboardInterrupt:
            raise WaitInterrupted(job.id, cancelled=False) from None
        return changed, base, jobs_svc.get_job(svc, job.id)
    try:
        report = recover_at_startup(svc)
        if report.summary() != "nothing to recover":
            tell(f"recovered first: {report.summary()}")
        changed, base, job = jobs_svc.request_compile(svc, workspace, kb_id)
        if job is None:
            return changed, base, None
        return changed, base, run_here(svc, job.id, progress)
    finally:
        lock.release()


def run_here(svc: ServiceContext, job_id: str, progress: Progress | None = None) -> JobRecord:
    """Run the built-in worker in this process (the caller holds the host lock) until `job_id` ends;
    every progress event is recorded for the job, then handed to `progress`. Ctrl-C cancels the job."""

    def done() -> bool:
        return jobs_svc.get_job(svc, job_id).phase in TERMINAL_JOB_PHASES

    stop = threading.Event()
    try:
        with stoppable(stop):  # a signal to this process (`kctui mcp`) stops the run: the job is handed back
            return _run_until_done(svc, job_id, stop, done, progress)
    finally:
        stop.set()


def _run_until_done(svc: ServiceContext, job_id: str, stop: threading.Event, done: Callable[[], bool],
                    progress: Progress | None) -> JobRecord:
    """The body of `run_here`: the worker on a thread, Ctrl-C cancels, a service error ends the wait."""
    worker_ctx = ServiceContext(store=svc.store.__class__.open(svc.store.path), clock=svc.clock,
                                settings=svc.settings)
    transport = LocalTransport(worker_ctx)
    recorder = ProgressRecorder(worker_ctx)

    def on_progress(job: str, event: ProgressEvent) -> None:
        recorder(job, event)
        if progress is not None:
            progress(job, event)

    raised: list[ServiceError] = []

    def work() -> None:
        try:
            run_worker(transport, stop_event=stop, until=done, progress=on_progress,
                       after_job=lambda: collect_after_job(worker_ctx))
        except ServiceError as exc:  # e.g. a claim refused by a full disk: the wait ends with it
            raised.append(exc)

    worker = threading.Thread(target=work, name="kctui-worker", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(POLL_SECONDS)
    except KeyboardInterrupt:
        job = jobs_svc.get_job(svc, job_id)
        jobs_svc.cancel(svc, job.workspace, job.base_id, job_id)
        stop.set()
        worker.join(5)
        raise WaitInterrupted(job_id, cancelled=True) from None
    if raised:
        raise raised[0]
    return jobs_svc.get_job(svc, job_id)


@dataclass(frozen=True)
class PassOutcome:
    """What an ended job left: the review items it filed by kind, and its brief's counts (None when
    it wrote no brief, or the brief has no counts)."""

    filed: dict[str, int]
    has_brief: bool
    counts: dict[str, int] | None


def pass_outcome(svc: ServiceContext, job: JobRecord) -> PassOutcome:
    filed = {r[0]: int(r[1]) for r in svc.store.query(
        "SELECT kind, COUNT(*) FROM review_items WHERE job_id = ? GROUP BY kind", (job.id,))}
    markdown = brief_for_job(svc, job.id)
    return PassOutcome(filed=filed, has_brief=bool(markdown), counts=brief_counts(markdown) if markdown else None)
