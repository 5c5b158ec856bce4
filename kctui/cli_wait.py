"""`kctui compile --wait`: let a running host do the work, or be the host until this job ends."""

from __future__ import annotations

import threading
import time

import click

from kctui.compiler.runner import ProgressEvent
from kctui.core.models import TERMINAL_JOB_PHASES
from kctui.services import jobs as jobs_svc
from kctui.services.context import ServiceContext
from kctui.services.hostlock import HostLock
from kctui.services.local_transport import LocalTransport
from kctui.services.progress import ProgressRecorder
from kctui.services.recovery import recover_at_startup
from kctui.services.worker import run_worker
from kctui.store.records import JobRecord


def _printer(quiet: bool):
    last = {"step": None, "t": 0.0}

    def show(job_id: str, event: ProgressEvent) -> None:
        if quiet:
            return
        now = time.monotonic()
        if event.step != last["step"] or event.state == "done" or now - last["t"] > 0.5:
            last.update(step=event.step, t=now)
            count = f" {event.done}/{event.total}" if event.total else ""
            cur = f" {event.current}" if event.current else ""
            click.echo(f"  {job_id} {event.step}{count}{cur}", err=True)

    return show


def compile_and_wait(svc: ServiceContext, workspace: str, kb_id: str, *, quiet: bool = False):
    """A person's `compile --wait`. With no host running this process becomes the host: it first
    recovers what a killed host left (an orphaned job fails as transient and its retry is queued), then
    asks for the compile, which turns that queued retry into a manual job that runs now — a person's
    request beats the scheduled retry. With a host running, it asks and waits for that host."""
    lock = HostLock(role="kctui compile --wait")
    if not lock.try_acquire():
        changed, base, job = jobs_svc.request_compile(svc, workspace, kb_id)
        if job is None:
            return changed, base, None
        if not quiet:
            click.echo(f"  a running kctui host is compiling {job.id}; waiting…", err=True)
        try:
            while jobs_svc.get_job(svc, job.id).phase not in TERMINAL_JOB_PHASES:
                time.sleep(0.2)
        except KeyboardInterrupt:
            click.echo(f"\nkctui: stopped waiting; {job.id} goes on in the running host", err=True)
            raise SystemExit(130) from None
        return changed, base, jobs_svc.get_job(svc, job.id)
    try:
        report = recover_at_startup(svc)
        if not quiet and report.summary() != "nothing to recover":
            click.echo(f"  recovered first: {report.summary()}", err=True)
        changed, base, job = jobs_svc.request_compile(svc, workspace, kb_id)
        if job is None:
            return changed, base, None
        return changed, base, _run_here(svc, job.id, quiet)
    finally:
        lock.release()


def _run_here(svc: ServiceContext, job_id: str, quiet: bool) -> JobRecord:
    """Run the built-in worker in this process (the caller holds the host lock) until `job_id` ends."""

    def done() -> bool:
        return jobs_svc.get_job(svc, job_id).phase in TERMINAL_JOB_PHASES

    stop = threading.Event()
    try:
        worker_ctx = ServiceContext(store=svc.store.__class__.open(svc.store.path), clock=svc.clock,
                                    settings=svc.settings)
        transport = LocalTransport(worker_ctx)
        recorder = ProgressRecorder(worker_ctx)
        printer = _printer(quiet)

        def progress(job: str, event: ProgressEvent) -> None:
            recorder(job, event)
            printer(job, event)

        worker = threading.Thread(
            target=run_worker, name="kctui-worker", daemon=True,
            kwargs=dict(transport=transport, stop_event=stop, until=done, progress=progress),
        )
        worker.start()
        try:
            while worker.is_alive():
                worker.join(0.2)
        except KeyboardInterrupt:
            job = jobs_svc.get_job(svc, job_id)
            jobs_svc.cancel(svc, job.workspace, job.base_id, job_id)
            stop.set()
            worker.join(5)
            click.echo(f"\nkctui: cancelled {job_id}", err=True)
            raise SystemExit(130) from None
    finally:
        stop.set()
    return jobs_svc.get_job(svc, job_id)


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def outcome_line(svc: ServiceContext, job: JobRecord) -> str:
    """The one line `compile --wait` ends with: the outcome, the counts of the pass (pages changed,
    held, conflicts, skipped files, warnings) and where to read more."""
    from kctui.cli_common import phase_text
    from kctui.core.brief import brief_counts
    from kctui.services.briefs import brief_for_job

    head = f"{job.id}: {phase_text(job.phase)}"
    if job.phase != "succeeded":
        error = f" — [{job.error_code}] {job.error}" if job.error else ""
        return f"{head}{error}; read more: kctui jobs, kctui status {job.workspace}"
    filed = {r[0]: int(r[1]) for r in svc.store.query(
        "SELECT kind, COUNT(*) FROM review_items WHERE job_id = ? GROUP BY kind", (job.id,))}
    markdown = brief_for_job(svc, job.id)
    counts = brief_counts(markdown) if markdown else None
    parts = []
    if counts is not None:
        parts.append(_plural(counts["pages"], "page") + " changed")
    parts += [f"{filed.get('held', 0)} held", _plural(filed.get("conflict", 0), "conflict")]
    if counts is not None:
        parts += [_plural(counts["skipped"], "file") + " skipped", _plural(counts["warnings"], "warning")]
        if counts["skipped"] or counts["warnings"]:
            head = f"{job.id}: ⚠ succeeded with " + " and ".join(
                x for x in (_plural(counts["skipped"], "file") + " skipped" if counts["skipped"] else "",
                            _plural(counts["warnings"], "warning") if counts["warnings"] else "") if x)
    more = f"kctui brief {job.workspace} {job.base_id} {job.id}" if markdown else f"kctui status {job.workspace}"
    if filed:
        more += ", kctui review list"
    return f"{head} — {', '.join(parts)}" + ("" if counts is not None or not markdown else " (the brief has no counts)") \
        + f"; read more: {more}"
