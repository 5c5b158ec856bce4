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


def wait_for_job(svc: ServiceContext, job_id: str, *, quiet: bool = False) -> JobRecord:
    def done() -> bool:
        return jobs_svc.get_job(svc, job_id).phase in TERMINAL_JOB_PHASES

    lock = HostLock(role="kctui compile --wait")
    if not lock.try_acquire():
        if not quiet:
            click.echo(f"  a running kctui host is compiling {job_id}; waiting…", err=True)
        try:
            while not done():
                time.sleep(0.2)
        except KeyboardInterrupt:
            click.echo(f"\nkctui: stopped waiting; {job_id} goes on in the running host", err=True)
            raise SystemExit(130) from None
        return jobs_svc.get_job(svc, job_id)
    stop = threading.Event()
    try:
        recover_at_startup(svc)
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
        lock.release()
    return jobs_svc.get_job(svc, job_id)
