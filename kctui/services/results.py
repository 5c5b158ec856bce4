"""Terminal results of a running job: validate and promote a success, schedule a retry after a failure.

Used by the built-in worker, the API's result route and start-up recovery alike.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

from kctui import paths
from kctui.core import queue
from kctui.core.failures import storage_error_of, storage_message
from kctui.core.ids import is_valid_job_id
from kctui.core.models import CLAIMED_BY_BUILTIN, BasePhase, FailureCode, JobPhase, Trigger
from kctui.core.trust import TrustPolicy
from kctui.publish.promote import PromotionError, cleanup_after_promotion, promote
from kctui.publish.validate import InvalidOutput, validate_staged_tree
from kctui.services.bases import get_base
from kctui.services.briefs import read_brief_file, store_brief
from kctui.services.context import ServiceContext
from kctui.services.errors import Conflict, InvalidInput, NotFound
from kctui.services.review import Manifest, ManifestError, file_manifest, read_manifest
from kctui.services.revisions import record_generation
from kctui.store.records import BaseRecord, JobRecord, load_base, load_job, open_job_of_base, update_base, update_job

log = logging.getLogger(__name__)


def _require_active(base: BaseRecord | None, job: JobRecord) -> BaseRecord:
    if job.phase == JobPhase.CANCELLED or job.cancel_requested:
        raise Conflict(f"job {job.id} was cancelled; its result is refused")
    if job.phase != JobPhase.RUNNING:
        raise Conflict(f"job {job.id} is not running (it is {job.phase})")
    if base is None or base.active_job_id != job.id:
        raise Conflict(f"job {job.id} is no longer the active job of its knowledge base")
    return base


def _job_of_base(conn: sqlite3.Connection, base: BaseRecord, job_id: str, kb_id: str) -> JobRecord:
    job = load_job(conn, job_id)
    if job is None:
        raise NotFound(f"no job '{job_id}'")
    if job.workspace != base.workspace or job.base_id != base.id:
        raise NotFound(f"no job '{job_id}' in knowledge base {kb_id}")
    return job


def complete_success(conn: sqlite3.Connection, base: BaseRecord, job: JobRecord, compiler_version: str | None, now: int) -> None:
    """Record a promoted success (inside the caller's transaction)."""
    update_job(conn, job.id, phase=JobPhase.SUCCEEDED.value, completed_at=now, error=None, error_code=None,
               compiler_version=queue.compiler_version_or_default(compiler_version))
    follow = queue.should_queue_follow_up(bool(base.follow_up), job.source_digest, base.source_digest)
    phase = queue.phase_after_success(job.source_digest, base.source_digest)
    update_base(conn, base.workspace, base.id, now,
                last_compiled_digest=job.source_digest,
                compiler_version=queue.compiler_version_or_default(compiler_version),
                last_succeeded_at=now, last_error=None, last_error_code=None, paused_reason=None,
                retry_attempts=0, active_job_id=None, follow_up=0, phase=phase.value)
    if follow and open_job_of_base(conn, base.workspace, base.id, JobPhase.QUEUED) is None:
        from kctui.services.jobs import insert_job  # noqa: PLC0415

        insert_job(conn, base, Trigger.MANUAL, base.source_digest or job.source_digest, now)
        update_base(conn, base.workspace, base.id, now, phase=BasePhase.QUEUED.value, last_requested_at=now)


def complete_failure(
    conn: sqlite3.Connection, base: BaseRecord, job: JobRecord, *, code: str, transient: bool,
    error: str | None, compiler_version: str | None, now: int,
) -> None:
    """Record a failure (inside the caller's transaction); schedule a retry or the person's follow-up."""
    message = queue.trim_error(error)
    update_job(conn, job.id, phase=JobPhase.FAILED.value, completed_at=now, error=message, error_code=code,
               transient=1 if transient else 0,
               compiler_version=queue.compiler_version_or_default(compiler_version) if compiler_version else None)
    decision = queue.decide_after_failure(transient, base.retry_attempts, now)
    values: dict[str, object] = dict(last_failed_at=now, last_error=message, last_error_code=code,
                                     retry_attempts=decision.attempts, follow_up=0, phase=BasePhase.FAILED.value)
    if base.active_job_id == job.id:
        values["active_job_id"] = None
    if base.phase == BasePhase.PAUSED:
        values["phase"] = BasePhase.PAUSED.value
    update_base(conn, base.workspace, base.id, now, **values)
    if open_job_of_base(conn, base.workspace, base.id, JobPhase.QUEUED) is not None:
        return
    from kctui.services.jobs import insert_job  # noqa: PLC0415

    digest = base.source_digest or job.source_digest
    if base.follow_up:  # a person asked for a compile while this one ran: honour it now
        insert_job(conn, base, Trigger.MANUAL, digest, now)
        update_base(conn, base.workspace, base.id, now, phase=BasePhase.QUEUED.value)
    elif decision.retry:
        insert_job(conn, base, Trigger.RETRY, digest, now, not_before=decision.retry_at_us)


def report_result(
    ctx: ServiceContext,
    workspace: str | os.PathLike[str],
    kb_id: str,
    job_id: str,
    outcome: str,
    *,
    transient: bool = False,
    error: str | None = None,
    compiler_version: str | None = None,
    error_code: str | None = None,
) -> tuple[bool, BaseRecord, JobRecord]:
    """The single terminal result of a job. 409 when the job is not running, not the base's active job,
    or was cancelled; nothing changes then."""
    base = get_base(ctx, workspace, kb_id)
    if not isinstance(job_id, str) or not is_valid_job_id(job_id):
        raise InvalidInput(f"'{job_id}' is not a job id")
    if outcome not in ("succeeded", "failed"):
        raise InvalidInput("outcome must be 'succeeded' or 'failed'")
    if outcome == "failed":  # checks and the failure in one transaction
        code = queue.failure_code_for_external(error_code)
        now = ctx.now()
        with ctx.store.write() as conn:
            job = _job_of_base(conn, base, job_id, kb_id)
            current = _require_active(load_base(conn, base.workspace, base.id), job)
            complete_failure(conn, current, job, code=code, transient=bool(transient), error=error,
                             compiler_version=compiler_version, now=now)
            base_now = load_base(conn, base.workspace, base.id)
            job_after = load_job(conn, job.id)
        assert base_now is not None and job_after is not None
        return True, base_now, job_after
    with ctx.store.write() as conn:
        job = _job_of_base(conn, base, job_id, kb_id)
        _require_active(load_base(conn, base.workspace, base.id), job)
    kb = paths.kb_path(Path(base.workspace), base.id)
    staged = paths.staged_wiki(Path(base.workspace), base.id, job.id)
    try:
        manifest = _checked_output(staged)
        if job.claimed_by != CLAIMED_BY_BUILTIN:  # the host's trust boundary for what no host compiler gated
            manifest = _gated(ctx, base, job, staged) or manifest
    except (InvalidOutput, ManifestError) as exc:
        return _fail(ctx, base, job, code=FailureCode.INVALID_OUTPUT, transient=False,
                     error=f"staged output rejected: {exc}", compiler_version=compiler_version)
    now = ctx.now()
    promotion_error: str | None = None
    promotion_code: str = FailureCode.PROMOTION_FAILED
    brief = read_brief_file(paths.job_dir(Path(base.workspace), base.id, job.id))  # stored with the success: whoever sees the job succeeded finds its brief
    with ctx.store.write() as conn:
        job = load_job(conn, job_id)
        assert job is not None
        current = _require_active(load_base(conn, base.workspace, base.id), job)
        try:
            promote(kb, staged, job.id, cleanup=False)
        except PromotionError as exc:
            promotion_error = f"promotion failed: {exc}"
            storage = storage_error_of(exc)
            if storage is not None:  # a full or read-only disk: its own code, one line
                promotion_code = storage[0]
                promotion_error = storage_message(storage[0], storage[1], "publishing the new wiki")
        else:
            record_generation(conn, current.workspace, current.id, kb / "wiki", author=job.id,
                              reason=f"compile ({job.trigger})", now_us=now)
            file_manifest(conn, current.workspace, current.id, job.id, manifest, now)
            complete_success(conn, current, job, compiler_version, now)
            if brief is not None:
                store_brief(conn, job.id, base.workspace, base.id, brief, now)
    if promotion_error is not None:
        return _fail(ctx, base, job, code=promotion_code, transient=True,
                     error=promotion_error, compiler_version=compiler_version)
    try:
        cleanup_after_promotion(kb)  # old tree and journal: off the critical section
    except Exception as exc:  # noqa: BLE001 - clean-up is retried at the next start-up
        log.warning("clean-up after promotion of %s failed: %s", job.id, exc)
    _remove_job_dir(base, job)
    with ctx.store.write() as conn:
        base_now = load_base(conn, base.workspace, base.id)
        job_now = load_job(conn, job.id)
    assert base_now is not None and job_now is not None
    _emit_events(ctx, base_now, job_now)
    return True, base_now, job_now


def _checked_output(staged: Path) -> Manifest | None:
    """The staged tree validated, and its review manifest, every page it names in the staged wiki."""
    validate_staged_tree(staged)
    manifest = read_manifest(staged.parent)
    for item in manifest.items if manifest else []:
        if not (staged / item.page).is_file():
            raise ManifestError(f"review.json names page {item.page}, which the staged wiki does not have")
    return manifest


def _gated(ctx: ServiceContext, base: BaseRecord, job: JobRecord, staged: Path) -> Manifest | None:
    """An external result through the host's gate (kctui.services.result_gate): held changes written back
    into the staged tree and added to its review.json (whose `settled` and `closedConflicts` it drops),
    then its `index.md` and `log.md` as the host owns them (kctui.services.result_books); the manifest
    read again when the gate changed it."""
    from kctui.core.clock import rfc3339  # noqa: PLC0415
    from kctui.services.policy import load_policy  # noqa: PLC0415
    from kctui.services.result_books import write_books  # noqa: PLC0415
    from kctui.services.result_gate import gate_result, rewrite_manifest  # noqa: PLC0415

    try:
        policy = load_policy(ctx, base.workspace, base.id)[0]
    except (ValueError, TypeError, KeyError):
        policy = TrustPolicy(autonomy="suggest")  # a policy that cannot be read fails closed: every change held
    live, tally = paths.wiki_path(Path(base.workspace), base.id), {}
    given = read_manifest(staged.parent)
    items = gate_result(live, staged, paths.sources_path(Path(base.workspace), base.id), policy, tally,
                        settled=set(given.settled) if given else set())
    manifest = _checked_output(staged) if rewrite_manifest(staged.parent, items, live) else None
    shown = manifest or read_manifest(staged.parent)
    tally["conflicts"] = sum(1 for it in (shown.items if shown else []) if it.kind == "conflict")
    write_books(live, staged, at=rfc3339(job.created_at) or "", job_id=job.id, trigger=str(job.trigger),
                source_digest=job.source_digest or "", counts=tally)
    return manifest


def _emit_events(ctx: ServiceContext, base: BaseRecord, job: JobRecord) -> None:
    from kctui.core.clock import rfc3339  # noqa: PLC0415
    from kctui.services.events import emit  # noqa: PLC0415

    emit("knowledge.compiled", {"workspaceRoot": base.workspace, "knowledgeBaseId": base.id, "jobId": job.id,
                                "trigger": job.trigger, "sourceDigest": job.source_digest,
                                "completedAt": rfc3339(job.completed_at)})
    rows = ctx.store.query("SELECT id, page_path, summary FROM review_items WHERE job_id = ? AND kind = 'conflict'",
                           (job.id,))
    for r in rows:
        emit("knowledge.conflict_detected", {"workspaceRoot": base.workspace, "knowledgeBaseId": base.id,
                                             "jobId": job.id, "reviewItemId": r["id"], "page": r["page_path"],
                                             "summary": r["summary"]})


def _remove_job_dir(base: BaseRecord, job: JobRecord) -> None:
    """The job folder goes once its staged tree is the live wiki (its brief is in the store already)."""
    import shutil  # noqa: PLC0415

    shutil.rmtree(paths.job_dir(Path(base.workspace), base.id, job.id), ignore_errors=True)


def get_brief(ctx: ServiceContext, job_id: str) -> str | None:
    row = ctx.store.query_one("SELECT markdown FROM briefs WHERE job_id = ?", (job_id,))
    return row["markdown"] if row else None


def _fail(ctx: ServiceContext, base: BaseRecord, job: JobRecord, *, code: str, transient: bool,
          error: str | None, compiler_version: str | None) -> tuple[bool, BaseRecord, JobRecord]:
    now = ctx.now()
    with ctx.store.write() as conn:
        job_now = load_job(conn, job.id)
        assert job_now is not None
        current = _require_active(load_base(conn, base.workspace, base.id), job_now)
        complete_failure(conn, current, job_now, code=code, transient=transient, error=error,
                         compiler_version=compiler_version, now=now)
        base_now = load_base(conn, base.workspace, base.id)
        job_after = load_job(conn, job.id)
    assert base_now is not None and job_after is not None
    return True, base_now, job_after
