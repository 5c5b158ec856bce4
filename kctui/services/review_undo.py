"""Undoing a review decision (issue 35). Every decision is recorded as it is published (`record_decision`,
in the decision's own transaction): its items and their new states, each page's revision before and
after, the proposals of other items it rebased, and the hunks it took. Undoing one restores each page's
revision from before the decision through promotion — byte for byte, as a new revision — reopens its
items (their proposals as they were), and marks the decision undone; all in one transaction, with a
`decision.json` beside the generation so a crash between the swap and the commit is settled at start-up
like any decision (`review_publish`). A page changed since the decision (a later compile or decision)
is never overwritten: that undo is refused and the page's revisions (`v` on the page screen) are the way.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import dataclass
from typing import Any

from kctui.services.context import ServiceContext
from kctui.services.errors import Conflict, NotFound
from kctui.services.review_publish import publish_pages, reopen_items
from kctui.services.review_queue import actor_name
from kctui.services.revisions import current_revision_number

STATE_WORDS = {"resolved_new": ("resolved", ", taking the new value"),
               "resolved_keep": ("resolved", ", keeping the page's value")}


@dataclass(frozen=True)
class Decision:
    id: int
    workspace: str
    base_id: str
    items: list[tuple[int, str]]  # (item, the state the decision gave it)
    pages: list[tuple[str, int, int]]  # (page, revision before, revision after)
    rebased: list[tuple[int, str, str | None]]  # (other item, page, its proposal before)
    hunks: dict[str, list[int]]
    actor: str
    at: int
    undone_at: int | None

    @property
    def words(self) -> str:
        first, state = self.items[0]
        more = f" and {len(self.items) - 1} more" if len(self.items) > 1 else ""
        verb, how = STATE_WORDS.get(state, (state, ""))
        return f"{verb} item #{first}{more}{how}"

    def json(self) -> dict[str, Any]:
        from kctui.core.clock import rfc3339  # noqa: PLC0415

        return {"decision": self.id, "knowledgeBaseId": self.base_id, "workspaceRoot": self.workspace,
                "items": [{"id": i, "state": s} for i, s in self.items],
                "pages": [{"page": p, "revisionBefore": b, "revisionAfter": a} for p, b, a in self.pages],
                "hunks": self.hunks, "actor": self.actor, "at": rfc3339(self.at), "undoneAt": rfc3339(self.undone_at)}


def old_proposals(conn: sqlite3.Connection, keys: list[tuple[int, str]]) -> list[tuple[int, str, str | None]]:
    """(item, page, its stored proposal) for each key: what a decision's rebase replaces."""
    out = []
    for oid, page in keys:
        row = conn.execute("SELECT proposed_body FROM review_item_pages WHERE item_id = ? AND page_path = ?",
                           (oid, page)).fetchone()
        out.append((int(oid), str(page), row[0] if row else None))
    return out


def record_decision(conn: sqlite3.Connection, workspace: str, kb_id: str, items: list[tuple[int, str]],
                    pages: list[tuple[str, int, int]], rebased: list[tuple[int, str, str | None]],
                    hunks: dict[int, list[int]], *, actor: str, now_us: int) -> int:
    cur = conn.execute(
        "INSERT INTO review_decisions(workspace, base_id, items_json, pages_json, rebased_json, hunks_json, actor, at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (workspace, kb_id, json.dumps(items), json.dumps(pages), json.dumps(rebased),
         json.dumps({str(k): v for k, v in hunks.items()}) if hunks else None, actor, now_us))
    return int(cur.lastrowid)


_COLUMNS = "id, workspace, base_id, items_json, pages_json, rebased_json, hunks_json, actor, at, undone_at"


def _decision(row: Any) -> Decision:
    return Decision(int(row[0]), row[1], row[2], [(int(i), str(s)) for i, s in json.loads(row[3])],
                    [(str(p), int(b), int(a)) for p, b, a in json.loads(row[4])],
                    [(int(o), str(p), b) for o, p, b in json.loads(row[5] or "[]")],
                    json.loads(row[6]) if row[6] else {}, str(row[7]), int(row[8]),
                    None if row[9] is None else int(row[9]))


def find_decision(ctx: ServiceContext, *, item_id: int | None = None, decision_id: int | None = None,
                  page: tuple[str, str, str] | None = None) -> Decision:
    """A decision by id; else the latest one not undone (of `item_id`, or that wrote `page` —
    (workspace, base, page path) — when given)."""
    if decision_id is not None:
        row = ctx.store.query_one(f"SELECT {_COLUMNS} FROM review_decisions WHERE id = ?", (int(decision_id),))
        if row is None:
            raise NotFound(f"no review decision {decision_id}")
        return _decision(row)
    for row in ctx.store.query(f"SELECT {_COLUMNS} FROM review_decisions WHERE undone_at IS NULL ORDER BY id DESC"):
        d = _decision(row)
        if page is not None and ((d.workspace, d.base_id) != page[:2] or all(p != page[2] for p, _, _ in d.pages)):
            continue
        if item_id is None or any(i == int(item_id) for i, _ in d.items):
            return d
    if page is not None:
        raise NotFound(f"no review decision that wrote {page[2]} is left to undo")
    raise NotFound(f"no decision of review item {item_id} to undo" if item_id is not None
                   else "no review decision to undo")


def undo_decision(ctx: ServiceContext, *, item_id: int | None = None, decision_id: int | None = None,
                  page: tuple[str, str, str] | None = None, actor: str | None = None) -> Decision:
    """Undo a decision (by id; else the latest of `item_id`; else the latest): its pages restored byte
    for byte through promotion, its items reopened. Conflict when a page changed since."""
    decision = find_decision(ctx, item_id=item_id, decision_id=decision_id, page=page)
    actor = actor or actor_name()
    if decision.undone_at is not None:
        raise Conflict(f"review decision {decision.id} ({decision.words}) was already undone")
    ws, kb_id = decision.workspace, decision.base_id
    now = ctx.now()
    with ctx.store.write() as conn:
        running = conn.execute("SELECT id FROM jobs WHERE workspace = ? AND base_id = ? AND phase = 'running'",
                               (ws, kb_id)).fetchone()
        if running:
            raise Conflict(f"a compile of {kb_id} is running ({running[0]}); undo when it ends")
        texts = _restored(conn, decision)
        first = decision.items[0][0]
        folder = publish_pages(
            conn, ws, kb_id, texts, author=f"review:{first}:undo:{actor}",
            reason=f"undo of review decision {decision.id} ({decision.words})", now_us=now,
            decision={"undo": decision.id, "items": [[i, "open"] for i, _ in decision.items], "actor": actor,
                      "at": now, "restore": [[o, p, b] for o, p, b in decision.rebased]}) if texts else None
        reopen_items(conn, ws, kb_id, decision.id, [i for i, _ in decision.items], list(texts),
                     decision.rebased, actor=actor, now_us=now)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
    return find_decision(ctx, decision_id=decision.id)


def _restored(conn: sqlite3.Connection, decision: Decision) -> dict[str, str | None]:
    """page -> its text before the decision (None: the decision created it); Conflict if it changed since."""
    texts: dict[str, str | None] = {}
    for page, before, after in decision.pages:
        now = current_revision_number(conn, decision.workspace, decision.base_id, page)
        if now != after:
            raise Conflict(f"page {page} changed since review decision {decision.id} (revision {after}, now {now}); "
                           "undo it from the page's revisions (v on the page screen)")
        if before == 0:
            texts[page] = None
            continue
        row = conn.execute("SELECT body, deleted FROM page_revisions WHERE workspace = ? AND base_id = ? AND "
                           "page_path = ? AND number = ?", (decision.workspace, decision.base_id, page, before)).fetchone()
        texts[page] = None if row is None or row[1] else str(row[0])
    return texts


def decision_lines(ctx: ServiceContext, workspace: str, kb_id: str, since: int, until: int | None = None) -> list[str]:
    """The review decisions of a base taken in [since, until) — and their undos — as brief lines
    (`find_brief` adds them under the pass they followed)."""
    from kctui.core.clock import rfc3339  # noqa: PLC0415

    rows = ctx.store.query(f"SELECT {_COLUMNS}, undone_by FROM review_decisions WHERE workspace = ? AND base_id = ? "
                           "AND at >= ? AND at < ? ORDER BY id", (workspace, kb_id, int(since), int(until or 2**62)))
    out = []
    for row in rows:
        d = _decision(row)
        hunks = "; ".join(f"item #{i}: hunks {', '.join(str(n) for n in ns)}" for i, ns in d.hunks.items())
        pages = ", ".join(f"{p} r{b} → r{a}" for p, b, a in d.pages) or "no page changed"
        out.append(f"- {rfc3339(d.at)} {d.actor}: {d.words}" + (f" ({hunks})" if hunks else "") + f" — {pages}")
        if d.undone_at is not None:
            out.append(f"- {rfc3339(d.undone_at)} {row[10]}: undid decision {d.id} ({d.words}); "
                       + (", ".join(f"{p} back at r{b}" for p, b, _ in d.pages) or "its items reopened"))
    return out


def list_decisions(ctx: ServiceContext, limit: int = 20) -> list[Decision]:
    return [_decision(r) for r in ctx.store.query(
        f"SELECT {_COLUMNS} FROM review_decisions ORDER BY id DESC LIMIT ?", (int(limit),))]


__all__ = ["Decision", "record_decision", "old_proposals", "find_decision", "undo_decision", "list_decisions",
           "decision_lines"]
