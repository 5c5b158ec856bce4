"""Change briefs stored per job (trust.md §7)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from kctui.core.clock import rfc3339
from kctui.core.handed_back import handed_back, stopped_words
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
    markdown = row["markdown"]
    # the review decisions taken after this pass (until the next one), and their undos (issue 35)
    following = ctx.store.query_one("SELECT MIN(created_at) FROM briefs WHERE workspace = ? AND base_id = ? AND "
                                    "created_at > ?", (base.workspace, base.id, row["created_at"]))
    from kctui.services.review_undo import decision_lines  # noqa: PLC0415 - the publishing stack loads with a brief

    lines = decision_lines(ctx, base.workspace, base.id, row["created_at"], following[0] if following else None)
    if lines:
        markdown = markdown.rstrip("\n") + "\n\n## Review decisions since this pass\n\n" + "\n".join(lines) + "\n"
    return {"jobId": row["job_id"], "knowledgeBaseId": base.id, "createdAt": rfc3339(row["created_at"]),
            "markdown": markdown}


def brief_for_job(ctx: ServiceContext, job_id: str) -> str | None:
    row = ctx.store.query_one("SELECT markdown FROM briefs WHERE job_id = ?", (job_id,))
    return row["markdown"] if row else None


def list_passes(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, *, limit: int = 200) -> dict[str, Any]:
    """The passes (compile jobs) of a base, newest first: when, trigger, outcome, and what each did —
    pages it wrote (its page revisions), review items it filed (held updates, conflicts) and whether
    it wrote a brief. `{items, total}`; at most `limit` items."""
    from kctui.core.models import FAILURE_WORDS

    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 10_000:
        raise InvalidInput("limit must be a whole number from 1 to 10000")
    base = get_base(ctx, workspace, kb_id)
    ws, kb = base.workspace, base.id
    rows = ctx.store.query(
        "SELECT id, trigger, phase, created_at, started_at, completed_at, error, error_code FROM jobs "
        "WHERE workspace = ? AND base_id = ? ORDER BY created_at DESC, id DESC LIMIT ?", (ws, kb, limit))
    total = ctx.store.query_one("SELECT COUNT(*) FROM jobs WHERE workspace = ? AND base_id = ?", (ws, kb))[0]
    ids = [r["id"] for r in rows]
    pages: dict[str, int] = {}
    items: dict[str, dict[str, int]] = {}
    briefed: set[str] = set()
    if ids:
        marks = ", ".join("?" for _ in ids)
        pages = {r[0]: int(r[1]) for r in ctx.store.query(
            f"SELECT author, COUNT(*) FROM page_revisions WHERE workspace = ? AND base_id = ? AND author IN ({marks}) "
            "GROUP BY author", (ws, kb, *ids))}
        for r in ctx.store.query(f"SELECT job_id, kind, COUNT(*) FROM review_items WHERE workspace = ? AND base_id = ? "
                                 f"AND job_id IN ({marks}) GROUP BY job_id, kind", (ws, kb, *ids)):
            items.setdefault(r[0], {})[r[1]] = int(r[2])
        briefed = {r[0] for r in ctx.store.query(f"SELECT job_id FROM briefs WHERE job_id IN ({marks})", tuple(ids))}
    out = []
    for r in rows:
        filed = items.get(r["id"], {})
        out.append({"jobId": r["id"], "trigger": r["trigger"], "phase": r["phase"],
                    "createdAt": rfc3339(r["created_at"]), "startedAt": rfc3339(r["started_at"]),
                    "completedAt": rfc3339(r["completed_at"]), "createdUs": r["created_at"],
                    "startedUs": r["started_at"], "completedUs": r["completed_at"],
                    "error": r["error"], "errorWords": FAILURE_WORDS.get(r["error_code"] or "") if r["error_code"] else None,
                    "pagesWritten": pages.get(r["id"], 0), "held": filed.get("held", 0),
                    "conflicts": filed.get("conflict", 0), "hasBrief": r["id"] in briefed})
        if handed_back(r["phase"], r["error_code"], r["error"]):  # a stop handed back for a retry, not a crash
            out[-1].update(stopped=True, errorWords=stopped_words(False))
    return {"knowledgeBaseId": kb, "workspaceRoot": ws, "items": out, "total": int(total)}


def read_brief_file(job_dir: Path) -> str | None:
    """The change brief a compiler left beside its staged tree (`<job>/brief.md`); None when there is none
    (or it is a symlink, or unreadable)."""
    brief = job_dir / "brief.md"
    try:
        return brief.read_text(encoding="utf-8", errors="replace") if brief.is_file() and not brief.is_symlink() else None
    except OSError:
        return None


def store_brief(conn: sqlite3.Connection, job_id: str, workspace: str, kb_id: str | None, text: str, now: int) -> None:
    """A pass's brief into the store (capped at 1 MB), inside the caller's write transaction."""
    conn.execute("INSERT OR REPLACE INTO briefs(job_id, workspace, base_id, markdown, created_at) VALUES (?, ?, ?, ?, ?)",
                 (job_id, workspace, kb_id, text[:1_000_000], now))
