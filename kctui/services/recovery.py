"""Restart recovery (ours; the reference has none): nothing a crash leaves behind may need a person.

- an interrupted promotion is finished (the job is recorded as succeeded) or rolled back;
- a running job of the built-in compiler (whose process is gone) fails as transient and is retried;
- a running job claimed by an external compiler keeps its lease, after which it fails as transient;
- then what no live job or promotion owns is collected (`kctui.services.gc`): staged folders, parked
  old generations, temporary files, the stale content of the host lock.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from kctui import paths
from kctui.core import handed_back, queue
from kctui.core.models import CLAIMED_BY_BUILTIN, CLAIMED_BY_EXTERNAL, FailureCode, JobPhase
from kctui.publish.promote import promotion_pending, recover_promotion
from kctui.services.context import ServiceContext
from kctui.services.gc import GcReport, collect_garbage
from kctui.services.results import complete_failure, complete_success
from kctui.services.review import ManifestError, file_manifest, read_manifest
from kctui.services.revisions import record_generation
from kctui.store.records import JOB_COLUMNS, job_from_row, load_base, load_job

log = logging.getLogger(__name__)


@dataclass
class RecoveryReport:
    promotions_finished: list[str] = field(default_factory=list)
    promotions_rolled_back: list[str] = field(default_factory=list)
    jobs_failed: list[str] = field(default_factory=list)
    leases_kept: list[str] = field(default_factory=list)
    reviews_resolved: list[int] = field(default_factory=list)  # published before a crash: recorded now
    reviews_pending: list[int] = field(default_factory=list)  # not published: the item stays open
    collected: GcReport = field(default_factory=GcReport)  # leftovers removed after recovery

    def summary(self) -> str:
        parts = []
        if self.promotions_finished:
            parts.append(f"{len(self.promotions_finished)} interrupted promotion(s) finished")
        if self.promotions_rolled_back:
            parts.append(f"{len(self.promotions_rolled_back)} interrupted promotion(s) rolled back")
        if self.jobs_failed:
            parts.append(f"{len(self.jobs_failed)} orphaned job(s) failed for retry")
        if self.leases_kept:
            parts.append(f"{len(self.leases_kept)} external job(s) keep their lease")
        if self.reviews_resolved or self.reviews_pending:
            parts.append(f"{len(self.reviews_resolved)} interrupted review decision(s) recorded, "
                         f"{len(self.reviews_pending)} left pending")
        if self.collected.removed or self.collected.failed:
            parts.append(self.collected.summary())
        return "; ".join(parts) or "nothing to recover"


def recover_promotions(ctx: ServiceContext, report: RecoveryReport) -> None:
    for row in ctx.store.query("SELECT workspace, id FROM bases ORDER BY workspace, id"):
        kb = paths.kb_path(Path(row["workspace"]), row["id"])
        if not promotion_pending(kb):  # a generation journal or an interrupted page promotion
            continue
        outcome = recover_promotion(kb)
        if outcome is None:
            continue
        if outcome.finished and outcome.job_id:
            report.promotions_finished.append(outcome.job_id)
            with ctx.store.write() as conn:
                job = load_job(conn, outcome.job_id)
                base = load_base(conn, row["workspace"], row["id"])
                if job and base and job.phase == JobPhase.RUNNING:
                    record_generation(conn, base.workspace, base.id, kb / "wiki", author=job.id,
                                      reason=f"compile ({job.trigger}), promotion finished at restart", now_us=ctx.now())
                    try:
                        manifest = read_manifest(paths.job_dir(Path(base.workspace), base.id, job.id))
                    except ManifestError:
                        manifest = None
                    file_manifest(conn, base.workspace, base.id, job.id, manifest, ctx.now())
                    complete_success(conn, base, job, job.compiler_version, ctx.now())
        elif outcome.job_id:
            report.promotions_rolled_back.append(outcome.job_id)


def fail_orphaned_builtin_jobs(ctx: ServiceContext, report: RecoveryReport) -> None:
    """Only the host process runs built-in jobs, so at host start-up every running one is orphaned."""
    now = ctx.now()
    with ctx.store.write() as conn:
        rows = conn.execute(f"SELECT {JOB_COLUMNS} FROM jobs WHERE phase = 'running'").fetchall()
        for row in rows:
            job = job_from_row(row)
            if job.claimed_by == CLAIMED_BY_EXTERNAL and not queue.lease_expired(job.lease_expires_at, now):
                report.leases_kept.append(job.id)
                continue
            base = load_base(conn, job.workspace, job.base_id)
            if base is None:
                continue
            if job.claimed_by == CLAIMED_BY_EXTERNAL:
                code, msg = FailureCode.LEASE_EXPIRED, "the external compiler's lease expired before it reported"
            else:
                code, msg = FailureCode.COMPILER_CRASHED, "the built-in compiler was interrupted (host restarted)"
            complete_failure(conn, base, job, code=code, transient=True, error=msg, compiler_version=None, now=now)
            report.jobs_failed.append(job.id)


def hand_back_own_jobs(ctx: ServiceContext, pid: int | None = None) -> list[str]:
    """On the way out (a signal): the built-in jobs this process (`pid`) still has running fail as
    transient, for a retry, as start-up recovery would fail them."""
    import os  # noqa: PLC0415

    pid = os.getpid() if pid is None else pid
    now = ctx.now()
    handed: list[str] = []
    with ctx.store.write() as conn:
        rows = conn.execute(f"SELECT {JOB_COLUMNS} FROM jobs WHERE phase = 'running' AND claimed_by = ? AND claim_pid = ?",
                            (CLAIMED_BY_BUILTIN, pid)).fetchall()
        for row in rows:
            job = job_from_row(row)
            base = load_base(conn, job.workspace, job.base_id)
            if base is None:
                continue
            complete_failure(conn, base, job, code=FailureCode.COMPILER_CRASHED, transient=True, now=now,
                             error=handed_back.BY_HOST,
                             compiler_version=None)
            handed.append(job.id)
    return handed


def expire_leases(ctx: ServiceContext) -> list[str]:
    """Fail running external jobs whose lease has passed (called periodically by the host)."""
    now = ctx.now()
    expired: list[str] = []
    with ctx.store.write() as conn:
        rows = conn.execute(
            f"SELECT {JOB_COLUMNS} FROM jobs WHERE phase = 'running' AND claimed_by = ? AND lease_expires_at <= ?",
            (CLAIMED_BY_EXTERNAL, now),
        ).fetchall()
        for row in rows:
            job = job_from_row(row)
            base = load_base(conn, job.workspace, job.base_id)
            if base is not None:
                complete_failure(conn, base, job, code=FailureCode.LEASE_EXPIRED, transient=True,
                                 error="the external compiler's lease expired before it reported",
                                 compiler_version=None, now=now)
                expired.append(job.id)
    return expired


def recover_at_startup(ctx: ServiceContext) -> RecoveryReport:
    from kctui.services.review_publish import recover_review_decisions  # noqa: PLC0415

    report = RecoveryReport()
    recover_promotions(ctx, report)
    resolved, pending = recover_review_decisions(ctx)  # after the journals: wiki/ is one whole generation
    report.reviews_resolved, report.reviews_pending = resolved, pending
    fail_orphaned_builtin_jobs(ctx, report)
    report.collected = collect_garbage(ctx)  # last: the failed jobs' folders are no one's now
    if report.promotions_finished or report.jobs_failed or report.promotions_rolled_back or resolved or pending \
            or report.collected.removed:
        log.info("recovery: %s", report.summary())
    return report


__all__ = ["RecoveryReport", "recover_at_startup", "expire_leases", "hand_back_own_jobs", "CLAIMED_BY_BUILTIN"]
