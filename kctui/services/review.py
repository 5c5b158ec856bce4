"""The review queue (trust.md §4): file held updates and conflicts from a compile, show them, and
resolve them. Every resolution reaches `wiki/` through promotion (`review_publish`), never by editing
files in place, and requires the page revision the reviewer saw (`expected_revision`)."""

from __future__ import annotations

import difflib
import json
import os
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kctui import paths
from kctui.core.clock import rfc3339
from kctui.core.page_status import page_compile_status, record_resolved_conflict, set_page_status, split_page
from kctui.core.trust import REASON_WORDS
from kctui.services.context import ServiceContext
from kctui.services.errors import Conflict, InvalidInput, NotFound
from kctui.services.review_manifest import Manifest
from kctui.services.revisions import current_revision_number

OPEN = "open"
ITEM_COLUMNS = ("id, workspace, base_id, job_id, kind, page_path, slug, title, update_kind, reason, summary, "
                "proposed_body, details_json, expected_revision, state, created_at, resolved_at, resolved_by")


@dataclass(frozen=True)
class ReviewItem:
    id: int
    workspace: str
    base_id: str
    job_id: str
    kind: str
    page_path: str
    slug: str
    title: str
    update_kind: str | None
    reason: str
    summary: str
    proposed_body: str | None
    details: dict[str, Any]
    expected_revision: int
    state: str
    created_at: int
    resolved_at: int | None
    resolved_by: str | None

    @property
    def reason_words(self) -> str:
        return REASON_WORDS.get(self.reason, self.reason)

    def json(self) -> dict[str, Any]:
        return {
            "id": self.id, "workspaceRoot": self.workspace, "knowledgeBaseId": self.base_id, "jobId": self.job_id,
            "kind": self.kind, "page": self.page_path, "slug": self.slug, "title": self.title,
            "updateKind": self.update_kind, "reason": self.reason, "reasonWords": self.reason_words,
            "summary": self.summary, "expectedRevision": self.expected_revision, "state": self.state,
            "createdAt": rfc3339(self.created_at), "resolvedAt": rfc3339(self.resolved_at),
            "resolvedBy": self.resolved_by, **({"existing": self.details.get("existing"),
                                                 "incoming": self.details.get("incoming")} if self.kind == "conflict" else {}),
        }


def _item(row: sqlite3.Row) -> ReviewItem:
    d = dict(row)
    d["details"] = json.loads(d.pop("details_json") or "{}")
    return ReviewItem(**d)


def file_manifest(conn: sqlite3.Connection, workspace: str, kb_id: str, job_id: str, manifest: Manifest | None,
                  now_us: int) -> int:
    """Inside the promotion's transaction: supersede open items of pages this pass touched again, then
    file the new items with the revision the reviewer will see."""
    if manifest is None:
        return 0
    for page in manifest.settled:
        conn.execute("UPDATE review_items SET state = 'superseded', resolved_at = ?, resolved_by = ? "
                     "WHERE workspace = ? AND base_id = ? AND page_path = ? AND kind = 'held' AND state = 'open'",
                     (now_us, job_id, workspace, kb_id, page))
    for closed in manifest.closed_conflicts:
        for row in conn.execute("SELECT id, details_json FROM review_items WHERE workspace = ? AND base_id = ? "
                                "AND page_path = ? AND kind = 'conflict' AND state = 'open'",
                                (workspace, kb_id, closed.page)).fetchall():
            if json.loads(row[1] or "{}").get("fingerprint") == closed.fingerprint:
                conn.execute("UPDATE review_items SET state = 'superseded', resolved_at = ?, resolved_by = ? "
                             "WHERE id = ?", (now_us, job_id, row[0]))
    for it in manifest.items:
        conn.execute("UPDATE review_items SET state = 'superseded', resolved_at = ?, resolved_by = ? "
                     "WHERE workspace = ? AND base_id = ? AND page_path = ? AND kind = ? AND state = 'open'",
                     (now_us, job_id, workspace, kb_id, it.page, it.kind))
    for it in manifest.items:
        details = {}
        if it.existing:
            details["existing"] = it.existing.model_dump()
        if it.incoming:
            details["incoming"] = it.incoming.model_dump()
        if it.fingerprint:
            details["fingerprint"] = it.fingerprint
        conn.execute(
            "INSERT INTO review_items(workspace, base_id, job_id, kind, page_path, slug, title, update_kind, reason, "
            "summary, proposed_body, details_json, expected_revision, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (workspace, kb_id, job_id, it.kind, it.page, Path(it.page).stem, it.title, it.update_kind, it.reason,
             it.summary, it.proposed_body, json.dumps(details, sort_keys=True),
             current_revision_number(conn, workspace, kb_id, it.page), now_us),
        )
    return len(manifest.items)


def list_items(ctx: ServiceContext, workspace: str | None = None, *, state: str | None = OPEN,
               kb_id: str | None = None) -> list[ReviewItem]:
    sql, params = f"SELECT {ITEM_COLUMNS} FROM review_items WHERE 1 = 1", []
    if workspace is not None:
        from kctui.services.workspaces import normalise_workspace  # noqa: PLC0415

        sql += " AND workspace = ?"
        params.append(normalise_workspace(workspace, must_exist=False))
    if kb_id is not None:
        sql += " AND base_id = ?"
        params.append(kb_id)
    if state is not None:
        sql += " AND state = ?"
        params.append(state)
    sql += " ORDER BY id"
    return [_item(r) for r in ctx.store.query(sql, tuple(params))]


def get_item(ctx: ServiceContext, item_id: int | str) -> ReviewItem:
    try:
        iid = int(item_id)
    except (TypeError, ValueError):
        raise InvalidInput(f"'{item_id}' is not a review item id (a number)") from None
    row = ctx.store.query_one(f"SELECT {ITEM_COLUMNS} FROM review_items WHERE id = ?", (iid,))
    if row is None:
        raise NotFound(f"no review item {iid}")
    return _item(row)


def live_page_text(item: ReviewItem) -> str | None:
    p = paths.wiki_path(Path(item.workspace), item.base_id) / item.page_path
    try:
        return p.read_text(encoding="utf-8") if p.is_file() and not p.is_symlink() else None
    except (OSError, UnicodeDecodeError):
        return None


_CITATION = re.compile(r"^(?P<path>.+?):(?:L(?P<start>\d+)(?:-L(?P<end>\d+))?|p(?P<page>\d+))$")


def cited_source_lines(workspace: str, kb_id: str, citation: str, limit: int = 40) -> str | None:
    """The cited lines of a source (never following a symlink or leaving `sources/`)."""
    m = _CITATION.match(citation.strip().lstrip("^[").rstrip("]"))
    if not m or m.group("page"):
        return None
    rel = m.group("path")
    if rel.startswith("/") or ".." in rel.split("/") or "\0" in rel:
        return None
    root = paths.sources_path(Path(workspace), kb_id)
    target = root / rel
    cur = root
    for part in Path(rel).parts:
        cur = cur / part
        if cur.is_symlink():
            return None
    try:
        lines = target.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    start = int(m.group("start"))
    end = int(m.group("end") or start)
    chosen = lines[start - 1: min(end, start - 1 + limit)]
    return "\n".join(f"{n:>5}  {t}" for n, t in enumerate(chosen, start))


def show_item(ctx: ServiceContext, item_id: int | str) -> dict[str, Any]:
    item = get_item(ctx, item_id)
    current = live_page_text(item)
    data = item.json()
    data["currentBody"] = current
    data["proposedBody"] = item.proposed_body
    if item.kind == "held":
        data["diff"] = "".join(difflib.unified_diff(
            (current or "").splitlines(keepends=True), (item.proposed_body or "").splitlines(keepends=True),
            fromfile=f"a/{item.page_path} (revision {item.expected_revision})", tofile=f"b/{item.page_path} (proposed)"))
    else:
        for side in ("existing", "incoming"):
            s = item.details.get(side)
            if s:
                s["citedLines"] = cited_source_lines(item.workspace, item.base_id, s.get("citation", ""))
                data[side] = s
    with ctx.store.write() as conn:
        data["currentRevision"] = current_revision_number(conn, item.workspace, item.base_id, item.page_path)
    return data


# -- resolutions --------------------------------------------------------------------------------------

def _actor() -> str:
    import getpass  # noqa: PLC0415

    try:
        return f"human:{getpass.getuser()}"
    except Exception:  # noqa: BLE001
        return "human:unknown"


class StaleRevision(Conflict):
    """The page moved on since the revision the reviewer saw; `current` is the revision it is at now."""

    def __init__(self, message: str, current: int) -> None:
        super().__init__(message)
        self.current = current


@dataclass(frozen=True)
class Decision:
    """One item's resolution, decided inside the caller's write transaction (the item is already marked
    resolved there): `pages` holds each page it changes (path -> new text, None = removed)."""

    item: ReviewItem
    action: str
    state: str
    pages: dict[str, str | None]


def running_compile(conn: sqlite3.Connection, workspace: str, kb_id: str) -> str | None:
    row = conn.execute("SELECT id FROM jobs WHERE workspace = ? AND base_id = ? AND phase = 'running'",
                       (workspace, kb_id)).fetchone()
    return row[0] if row else None


def decide(conn: sqlite3.Connection, item: ReviewItem, action: str, *, seen: int | None, actor: str, now: int,
           overlay: dict[str, str | None] | None = None) -> Decision:
    """Decide the pages one resolution writes and mark the item resolved (inside the caller's write
    transaction; nothing is published here). `seen`: the page revision the reviewer saw (default: the
    item's). `overlay`: pages already decided earlier in the same transaction (a bulk action), read
    instead of the live page. StaleRevision when the page moved on since `seen`."""
    valid = {"held": ("approve", "reject"), "conflict": ("use_new", "keep", "dismiss")}[item.kind]
    if action not in valid:
        raise InvalidInput(f"review item {item.id} is a {item.kind} item: use {' or '.join(valid)}")
    at = rfc3339(now)
    row = conn.execute("SELECT state FROM review_items WHERE id = ?", (item.id,)).fetchone()
    if row[0] != OPEN:
        raise Conflict(f"review item {item.id} is already {row[0]}")
    current_rev = current_revision_number(conn, item.workspace, item.base_id, item.page_path)
    seen = item.expected_revision if seen is None else int(seen)
    if current_rev != seen:
        raise StaleRevision(f"page {item.page_path} changed since revision {seen} (it is now {current_rev}); "
                            "the item was refreshed — review it again", current_rev)
    overlay = overlay if overlay is not None else {}
    current = overlay[item.page_path] if item.page_path in overlay else live_page_text(item)
    other_open = conn.execute(
        "SELECT kind FROM review_items WHERE workspace = ? AND base_id = ? AND page_path = ? AND state = 'open' "
        "AND id != ?", (item.workspace, item.base_id, item.page_path, item.id)).fetchall()
    leftover = "contradicted" if any(r[0] == "conflict" for r in other_open) else (
        "needs-review" if other_open else None)
    if action in ("approve", "use_new"):
        if not item.proposed_body:
            raise InvalidInput(f"review item {item.id} has no proposed body to apply")
        settled = "archived" if page_compile_status(item.proposed_body) == "archived" else "confirmed"
        new_text = set_page_status(item.proposed_body, leftover or settled, verified_by=actor, at=at)
    elif action == "keep":
        if current is None:
            raise Conflict(f"page {item.page_path} no longer exists")
        new_text = set_page_status(current, leftover or "confirmed", verified_by=actor, at=at)
    else:  # reject / dismiss: drop it, clear this item's flag
        if current is None:
            new_text = None
        else:
            was = page_compile_status(current)
            signed = was == "confirmed" or bool(split_page(current)[0].get("verified"))  # sign-off stays
            new_text = set_page_status(current, leftover or ("confirmed" if signed else "compiled"))
    if item.kind == "conflict" and new_text is not None:  # decided: the next pass does not raise it again
        new_text = record_resolved_conflict(new_text, str(item.details.get("fingerprint") or ""))
    state = {"approve": "approved", "reject": "rejected", "use_new": "resolved_new",
             "keep": "resolved_keep", "dismiss": "dismissed"}[action]
    pages: dict[str, str | None] = {}
    if new_text is not None and new_text != current:
        pages[item.page_path] = new_text
    conn.execute("UPDATE review_items SET state = ?, resolved_at = ?, resolved_by = ? WHERE id = ?",
                 (state, now, actor, item.id))
    return Decision(item, action, state, pages)


def resolve(ctx: ServiceContext, item_id: int | str, action: str, *, expected_revision: int | None = None,
            actor: str | None = None) -> ReviewItem:
    """action: approve | reject (held) — use_new | keep | dismiss (conflict)."""
    from kctui.services.review_publish import publish_decisions  # noqa: PLC0415

    item = get_item(ctx, item_id)
    valid = {"held": ("approve", "reject"), "conflict": ("use_new", "keep", "dismiss")}[item.kind]
    if action not in valid:
        raise InvalidInput(f"review item {item.id} is a {item.kind} item: use {' or '.join(valid)}")
    if item.state != OPEN:
        raise Conflict(f"review item {item.id} is already {item.state}")
    actor = actor or _actor()
    now = ctx.now()
    leftover_dir = None
    with ctx.store.write() as conn:
        running = running_compile(conn, item.workspace, item.base_id)
        if running:
            raise Conflict(f"a compile of {item.base_id} is running ({running}); resolve when it ends")
        try:
            decision = decide(conn, item, action, seen=expected_revision, actor=actor, now=now)
        except StaleRevision as exc:
            conn.execute("UPDATE review_items SET expected_revision = ? WHERE id = ?", (exc.current, item.id))
            conn.execute("COMMIT")
            conn.execute("BEGIN IMMEDIATE")
            raise
        # The decision travels with the published pages (decision.json beside them): a crash between
        # the promotion and this transaction's commit is settled at start-up (review_recovery).
        leftover_dir = publish_decisions(conn, item.workspace, item.base_id, [decision], actor=actor, now_us=now)
    if leftover_dir is not None:
        import shutil  # noqa: PLC0415

        shutil.rmtree(leftover_dir, ignore_errors=True)  # committed: the decision record is done
    return get_item(ctx, item.id)


def open_counts(ctx: ServiceContext) -> dict[tuple[str, str], int]:
    rows = ctx.store.query("SELECT workspace, base_id, COUNT(*) FROM review_items WHERE state = 'open' "
                           "GROUP BY workspace, base_id")
    return {(r[0], r[1]): int(r[2]) for r in rows}


__all__ = ["ReviewItem", "Decision", "StaleRevision", "decide", "running_compile", "file_manifest", "list_items",
           "get_item", "show_item", "resolve", "open_counts",
           "cited_source_lines", "os"]
