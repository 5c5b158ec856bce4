"""Change briefs stored per job (trust.md §7)."""

from __future__ import annotations

import os
from typing import Any

from kctui.core.clock import rfc3339
from kctui.core.ids import is_valid_job_id
from kctui.services.bases import get_base
from kctui.services.context import ServiceContext
from kctui.services.errors import InvalidInput, NotFound


def find_brief(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, job_id: str | None = None) -> dict[str, Any]:
    base = get_base(ctx, workspace, kb_id)
    if job_id is not None:
        if not is_valid_job_id(job_id):
            raise InvalidInput(f"'{job_id}' is not a job id")
        row = ctx.store.query_one("SELECT job_id, markdown, created_at FROM briefs WHERE job_id = ? AND workspace = ? "
                                  "AND base_id = ?", (job_id, base.workspace, base.id))
        if row is None:
            raise NotFound(f"job {job_id} of {kb_id} has no brief (only successful passes of a compiler that "
                           "writes one have a brief)")
    else:
        row = ctx.store.query_one("SELECT job_id, markdown, created_at FROM briefs WHERE workspace = ? AND base_id = ? "
                                  "ORDER BY created_at DESC, job_id DESC LIMIT 1", (base.workspace, base.id))
        if row is None:
            raise NotFound(f"{kb_id} has no brief yet — compile it first (`kctui compile WORKSPACE {kb_id} --wait`)")
    return {"jobId": row["job_id"], "knowledgeBaseId": base.id, "createdAt": rfc3339(row["created_at"]),
            "markdown": row["markdown"]}


def brief_for_job(ctx: ServiceContext, job_id: str) -> str | None:
    row = ctx.store.query_one("SELECT markdown FROM briefs WHERE job_id = ?", (job_id,))
    return row["markdown"] if row else None
