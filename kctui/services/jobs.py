"""Jobs: request a manual compile, claim, cancel, read. (Results are in `results.py`.)"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from kctui import paths
from kctui.core import queue
from kctui.core.failures import storage_error_of
from kctui.core.ids import is_valid_job_id
from kctui.core.ids import job_id as make_job_id
from kctui.core.models import CLAIMED_BY_BUILTIN, BasePhase, JobPhase, Trigger
from kctui.services.bases import check_kb_id, get_base
from kctui.services.context import ServiceContext
from kctui.services.errors import InvalidInput, IOFailure, NotFound, io_failure
from kctui.services.snapshots import accept_snapshot, scan_base
from kctui.services.workspaces import ensure_workspace, normalise_workspace
from kctui.store.records import (
    JOB_COLUMNS,
    BaseRecord,
    JobRecord,
    job_from_row,
    load_base,
    load_job,
    next_sequence,
    open_job_of_base,
    update_base,
    update_job,
)


def insert_job(conn, base: BaseRecord, trigger: str, digest: str, now_us: int, not_before: int | None = None) -> str:
    jid = make_job_id(now_us, next_sequence(conn, "job"))
    conn.execute(
        "INSERT INTO jobs(id, workspace, base_id, trigger, priority, phase, source_digest, created_at, not_before) "
        "VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?)",
        (jid, base.workspace, base.id, trigger, queue.priority_of(trigger), digest, now_us, not_before),
    )
    return jid


def no_files(kb_id: str, what: str = "compile") -> str:
    """The one message for a base with nothing in sources/ (a compile, a dry run)."""
    return f"cannot {what} {kb_id}: its sources/ folder has no files (add some first)"


def has_source_files(sources: Path) -> bool:
    """Is there one regular file under `sources` the scanner would list (names it ignores aside)?"""
    from kctui.sources.excludes import is_excluded_name  # noqa: PLC0415

    for root, dirs, names in os.walk(sources, followlinks=False):
        dirs[:] = [d for d in dirs if not is_excluded_name(d)]
        if any(not is_excluded_name(n) and os.path.isfile(os.path.join(root, n))
               and not os.path.islink(os.path.join(root, n)) for n in names):
            return True
    return False


def request_compile(
    ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str
) -> tuple[bool, BaseRecord, JobRecord | None]:
    """A person asks for a compile now: all windows and the bulk check are ignored; a pause is cleared
    and the scanned snapshot accepted."""
    base = get_base(ctx, workspace, kb_id)
    result = scan_base(ctx, base.workspace, base.id, stability=False)
    if not result.root_ok:
        raise InvalidInput(f"cannot compile {kb_id}: {result.root_error}")
    if result.limit_error:
        raise InvalidInput(f"cannot compile {kb_id}: {result.limit_error}")
    if not result.files:
        raise InvalidInput(no_files(kb_id))
    digest = result.digest
    now = ctx.now()
    with ctx.store.write() as conn:
        base = load_base(conn, base.workspace, base.id)
        if base is None:
            raise NotFound(f"no knowledge base '{kb_id}' in {workspace}")
        accept_snapshot(conn, base.workspace, base.id, result, now)
        queued = open_job_of_base(conn, base.workspace, base.id, JobPhase.QUEUED)
        running = open_job_of_base(conn, base.workspace, base.id, JobPhase.RUNNING)
        decision = queue.decide_manual_request(
            queued.trigger if queued else None, running.source_digest if running else None, digest
        )
        common = dict(source_digest=digest, last_requested_at=now, paused_reason=None, retry_attempts=0,
                      change_detected_at=None)
        job_id: str | None
        changed = True
        if decision.action == "promote_queued":
            assert queued is not None
            update_job(conn, queued.id, trigger=Trigger.MANUAL.value, priority=queue.priority_of(Trigger.MANUAL),
                       source_digest=digest, not_before=None)
            update_base(conn, base.workspace, base.id, now, phase=BasePhase.QUEUED.value, **common)
            job_id = queued.id
        elif decision.action == "follow_up":
            update_base(conn, base.workspace, base.id, now, follow_up=1, **common)
            job_id = running.id if running else None
        elif decision.action == "nothing":
            changed = False
            job_id = running.id if running else None
        else:
            job_id = insert_job(conn, base, Trigger.MANUAL, digest, now)
            update_base(conn, base.workspace, base.id, now, phase=BasePhase.QUEUED.value, **common)
        base = load_base(conn, base.workspace, base.id)
        job = load_job(conn, job_id) if job_id else None
    assert base is not None
    return changed, base, job


def claim(
    ctx: ServiceContext,
    *,
    claimed_by: str = CLAIMED_BY_BUILTIN,
    workspace: str | os.PathLike[str] | None = None,
) -> tuple[BaseRecord, JobRecord] | None:
    """Claim the next job across every monitored workspace, or None (also while one is running).
    One `UPDATE … RETURNING` inside `BEGIN IMMEDIATE`; the partial unique index backs it."""
    now = ctx.now()
    ws = normalise_workspace(workspace) if workspace is not None else None
    lease = queue.lease_expires_at(now, ctx.settings.lease_seconds)
    with ctx.store.write() as conn:
        if ws is not None:
            ensure_workspace(conn, ws, now)
        row = conn.execute(
            f"""UPDATE jobs SET phase = 'running', started_at = :now, claimed_by = :by, claim_pid = :pid,
                    lease_expires_at = :lease
                WHERE id = (
                    SELECT j.id FROM jobs j JOIN workspaces w ON w.path = j.workspace
                    WHERE j.phase = 'queued' AND (j.not_before IS NULL OR j.not_before <= :now)
                      AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.phase = 'running')
                    ORDER BY j.priority, j.created_at, j.id LIMIT 1)
                RETURNING {JOB_COLUMNS}""",
            {"now": now, "by": claimed_by, "pid": os.getpid(), "lease": lease},
        ).fetchone()
        if row is None:
            return None
        job = job_from_row(row)
        update_base(conn, job.workspace, job.base_id, now, phase=BasePhase.RUNNING.value, active_job_id=job.id)
        jdir = paths.job_dir(Path(job.workspace), job.base_id, job.id)
        try:
            if os.path.lexists(jdir):
                if os.path.islink(jdir) or not os.path.isdir(jdir):
                    os.unlink(jdir)
                else:
                    shutil.rmtree(jdir)
            try:
                os.mkdir(jdir)
            except FileNotFoundError:
                os.makedirs(jdir)
            os.mkdir(jdir / "wiki")
        except OSError as exc:  # the claim is rolled back: the queue stays as it was
            if storage_error_of(exc) is not None:  # a full or read-only disk: its code leads the line
                raise io_failure(f"preparing the job folder {jdir}", exc) from exc
            raise IOFailure(f"cannot prepare the job folder {jdir}: {exc.strerror or exc}") from exc
        base = load_base(conn, job.workspace, job.base_id)
    assert base is not None
    return base, job


def _fallback(base: BaseRecord) -> str:
    if base.phase == BasePhase.PAUSED:
        return BasePhase.PAUSED.value
    return queue.fallback_phase(base.source_digest, base.last_compiled_digest).value


def cancel(
    ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, job_id: str | None = None
) -> tuple[bool, BaseRecord, JobRecord | None]:
    """A queued job is cancelled at once; a running one is marked, its result is then refused (409)
    and its compiler stops. The base falls back to source_ready / succeeded."""
    base = get_base(ctx, workspace, kb_id)
    if job_id is not None and not is_valid_job_id(job_id):
        raise InvalidInput(f"'{job_id}' is not a job id")
    now = ctx.now()
    with ctx.store.write() as conn:
        if job_id is None:
            job = open_job_of_base(conn, base.workspace, base.id, JobPhase.RUNNING) or open_job_of_base(
                conn, base.workspace, base.id, JobPhase.QUEUED
            )
            if job is None:
                return False, base, None
        else:
            job = load_job(conn, job_id)
            if job is None or job.workspace != base.workspace or job.base_id != base.id:
                raise NotFound(f"no job '{job_id}' in knowledge base {kb_id}")
        if job.phase not in (JobPhase.QUEUED, JobPhase.RUNNING):
            return False, base, job
        update_job(conn, job.id, phase=JobPhase.CANCELLED.value, completed_at=now, cancel_requested=1,
                   error="cancelled by request", error_code="cancelled")
        base = load_base(conn, base.workspace, base.id)
        assert base is not None
        values: dict[str, object] = {"phase": _fallback(base)}
        if base.active_job_id == job.id:
            values["active_job_id"] = None
            values["follow_up"] = 0
        update_base(conn, base.workspace, base.id, now, **values)
        base = load_base(conn, base.workspace, base.id)
        job = load_job(conn, job.id)
    assert base is not None
    return True, base, job


def get_job(ctx: ServiceContext, job_id: str) -> JobRecord:
    if not is_valid_job_id(job_id):
        raise InvalidInput(f"'{job_id}' is not a job id")
    row = ctx.store.query_one(f"SELECT {JOB_COLUMNS} FROM jobs WHERE id = ?", (job_id,))
    if row is None:
        raise NotFound(f"no job '{job_id}'")
    return job_from_row(row)


def list_jobs(ctx: ServiceContext, *, workspace: str | None = None, kb_id: str | None = None, limit: int = 50) -> list[JobRecord]:
    sql = f"SELECT {JOB_COLUMNS} FROM jobs"
    where, params = [], []
    if workspace is not None:
        where.append("workspace = ?")
        params.append(normalise_workspace(workspace, must_exist=False))
    if kb_id is not None:
        where.append("base_id = ?")
        params.append(check_kb_id(kb_id))
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += (" ORDER BY CASE phase WHEN 'running' THEN 0 WHEN 'queued' THEN 1 ELSE 2 END, "
            "CASE WHEN phase IN ('running','queued') THEN priority ELSE 0 END, created_at DESC, id DESC LIMIT ?")
    params.append(int(limit))
    return [job_from_row(r) for r in ctx.store.query(sql, tuple(params))]


def job_should_stop(ctx: ServiceContext, job_id: str) -> bool:
    row = ctx.store.query_one("SELECT phase, cancel_requested FROM jobs WHERE id = ?", (job_id,))
    return row is None or row["phase"] != JobPhase.RUNNING or bool(row["cancel_requested"])
