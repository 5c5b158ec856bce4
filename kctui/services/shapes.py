"""Protocol-shaped JSON objects (host.md §6): KnowledgeBase, CompilationSummary, Job, Claim.

The CLI's `--json` output and the API answer with exactly these shapes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kctui import paths
from kctui.config import Settings
from kctui.core.clock import rfc3339
from kctui.core.models import CONTRACT_VERSION, FAILURE_WORDS
from kctui.store.records import BaseRecord, JobRecord


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def job_json(job: JobRecord) -> dict[str, Any]:
    return {
        "id": job.id,
        "knowledgeBaseId": job.base_id,
        "trigger": job.trigger,
        "phase": job.phase,
        "sourceDigest": job.source_digest,
        "createdAt": rfc3339(job.created_at),
        "startedAt": rfc3339(job.started_at),
        "completedAt": rfc3339(job.completed_at),
        "outputPath": str(paths.job_dir(Path(job.workspace), job.base_id, job.id)),
        "error": job.error,
        # ours, beyond the reference shape (clients ignore unknown fields)
        "workspaceRoot": job.workspace,
        "errorCode": job.error_code,
        "transient": None if job.transient is None else bool(job.transient),
        "notBefore": rfc3339(job.not_before),
        "claimedBy": job.claimed_by,
        "compilerVersion": job.compiler_version,
    }


def summary_json(base: BaseRecord, settings: Settings, *, next_auto_us: int | None = None,
                 next_retry_us: int | None = None, next_scheduled_us: int | None = None,
                 extra: dict[str, Any] | None = None) -> dict[str, Any]:
    data = {
        "policy": base.policy,
        "phase": base.phase,
        "sourceDigest": base.source_digest,
        "lastCompiledDigest": base.last_compiled_digest,
        "pendingChanges": base.pending_changes,
        "activeJobId": base.active_job_id,
        "lastRequestedAt": rfc3339(base.last_requested_at),
        "lastSucceededAt": rfc3339(base.last_succeeded_at),
        "lastFailedAt": rfc3339(base.last_failed_at),
        "lastError": base.last_error,
        "pausedReason": base.paused_reason,
        "compilerVersion": base.compiler_version,
        "nextAutoCompileAt": rfc3339(next_auto_us),
        "stableWindowSeconds": _num(settings.stability_window),
        "quietWindowSeconds": _num(settings.quiet_window),
        "minimumIntervalSeconds": _num(settings.auto_min_interval),
        # ours
        "lastErrorCode": base.last_error_code,
        "lastErrorWords": FAILURE_WORDS.get(base.last_error_code or "", None),
        "retryAttempts": base.retry_attempts,
        "nextRetryAt": rfc3339(next_retry_us),
        "followUpRequested": bool(base.follow_up),
        "nextScheduledCompileAt": rfc3339(next_scheduled_us),
    }
    if extra:
        data.update(extra)
    return data


def knowledge_base_json(base: BaseRecord, settings: Settings, **summary_kw: Any) -> dict[str, Any]:
    ws = Path(base.workspace)
    kb = paths.kb_path(ws, base.id)
    wiki = kb / "wiki"
    return {
        "id": base.id,
        "name": base.name,
        "description": base.description,
        "workspaceRoot": base.workspace,
        "knowledgeBasePath": str(kb),
        "sourcePath": str(kb / "sources"),
        "wikiPath": str(wiki),
        "hasWiki": wiki.is_dir() and base.last_compiled_digest is not None,
        "compilationPolicy": base.policy,
        "phase": base.phase,
        "createdAt": rfc3339(base.created_at),
        "updatedAt": rfc3339(base.updated_at),
        "compilation": summary_json(base, settings, **summary_kw),
    }


def claim_json(claimed: tuple[BaseRecord, JobRecord] | None) -> dict[str, Any]:
    if claimed is None:
        return {
            "claimed": False, "contractVersion": CONTRACT_VERSION, "workspaceRoot": None,
            "knowledgeBasePath": None, "sourcePath": None, "previousWikiPath": None,
            "outputPath": None, "job": None,
        }
    base, job = claimed
    ws = Path(base.workspace)
    kb = paths.kb_path(ws, base.id)
    return {
        "claimed": True,
        "contractVersion": CONTRACT_VERSION,
        "workspaceRoot": base.workspace,
        "knowledgeBasePath": str(kb),
        "sourcePath": str(kb / "sources"),
        "previousWikiPath": str(kb / "wiki"),
        "outputPath": str(paths.staged_wiki(ws, base.id, job.id)),
        "job": job_json(job),
    }
