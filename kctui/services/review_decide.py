"""Resolving one review item (trust.md §4, issue 13): one decision per item, published through one
promotion, and nothing else.

- A held change set is approved or rejected as a whole: every page it revises gets its proposal
  (approve), or keeps what it says (reject) with each claim the proposal revised or retracted kept and
  flagged against the source revision it came from (`kctui.compiler.kept`).
- A conflict's decision (use the new value, keep, dismiss) is applied to the page as it is now and to
  that one dispute only (`kctui.compiler.disputes.decide_dispute`): a held change on the same page is
  never published as a side effect; its proposal gets the same decision, so approving it later does
  not undo this one.
- Each page is checked against the revision the reviewer saw. After publishing, the other open items
  on the published pages follow the new revision (their content already reflects this decision), so
  the next decision on the page does not fail for a change the person made themselves.
- A page's status after a decision follows what is still open on it: a contradicted page lists only
  the open disputes in its banner.
"""

from __future__ import annotations

import shutil
import sqlite3

from kctui.compiler.disputes import block_dispute_count, decide_dispute, swap_by_sides
from kctui.compiler.kept import pin_kept
from kctui.core.clock import rfc3339
from kctui.core.page_status import block_claim_lines, conflict_note, page_compile_status, set_page_status, split_page
from kctui.services.context import ServiceContext
from kctui.services.errors import Conflict, InvalidInput
from kctui.services.review import OPEN, ReviewItem, get_item, live_page_text
from kctui.services.revisions import current_revision_number

STATES = {"approve": "approved", "reject": "rejected", "use_new": "resolved_new", "keep": "resolved_keep",
          "dismiss": "dismissed"}
HELD_NOTE = "a change of this page waits for review"


def actor_name() -> str:
    import getpass  # noqa: PLC0415

    try:
        return f"human:{getpass.getuser()}"
    except Exception:  # noqa: BLE001
        return "human:unknown"


def _others_on(conn: sqlite3.Connection, item: ReviewItem, page: str) -> list[tuple[int, str]]:
    """(id, kind) of the other open items of the base touching `page`."""
    return [(int(r[0]), str(r[1])) for r in conn.execute(
        "SELECT DISTINCT i.id, i.kind FROM review_item_pages p JOIN review_items i ON i.id = p.item_id "
        "WHERE p.page_path = ? AND i.workspace = ? AND i.base_id = ? AND i.state = 'open' AND i.id != ?",
        (page, item.workspace, item.base_id, item.id))]


def _with_status(text: str, others: list[tuple[int, str]], settled: str, *, actor: str | None, at: str | None,
                 fallback_block: list[str] | None = None) -> str:
    """The page with the status what is still open on it gives (else `settled`)."""
    if any(k == "conflict" for _, k in others):
        lines = block_claim_lines(split_page(text)[1]) or list(fallback_block or [])
        n = block_dispute_count(text, lines)
        return set_page_status(text, "contradicted", note=conflict_note(n) if n else None,
                               verified_by=actor, at=at, claim_lines=lines)
    if others:
        return set_page_status(text, "needs-review", note=HELD_NOTE, verified_by=actor, at=at)
    return set_page_status(text, settled, verified_by=actor, at=at)


def _signed(text: str) -> bool:
    return page_compile_status(text) == "confirmed" or bool(split_page(text)[0].get("verified"))


def resolve(ctx: ServiceContext, item_id: int | str, action: str, *, expected_revision: int | None = None,
            actor: str | None = None) -> ReviewItem:
    """action: approve | reject (held) — use_new | keep | dismiss (conflict)."""
    from kctui.services.review_publish import publish_pages  # noqa: PLC0415

    item = get_item(ctx, item_id)
    valid = {"held": ("approve", "reject"), "conflict": ("use_new", "keep", "dismiss")}[item.kind]
    if action not in valid:
        raise InvalidInput(f"review item {item.id} is a {item.kind} item: use {' or '.join(valid)}")
    if item.state != OPEN:
        raise Conflict(f"review item {item.id} is already {item.state}")
    actor = actor or actor_name()
    now = ctx.now()
    at = rfc3339(now)
    state = STATES[action]
    with ctx.store.write() as conn:
        running = conn.execute("SELECT id FROM jobs WHERE workspace = ? AND base_id = ? AND phase = 'running'",
                               (item.workspace, item.base_id)).fetchone()
        if running:
            raise Conflict(f"a compile of {item.base_id} is running ({running[0]}); resolve when it ends")
        row = conn.execute("SELECT state FROM review_items WHERE id = ?", (item.id,)).fetchone()
        if row[0] != OPEN:
            raise Conflict(f"review item {item.id} is already {row[0]}")
        pages = item.page_list
        stale = []
        for i, p in enumerate(pages):
            current_rev = current_revision_number(conn, item.workspace, item.base_id, p.page_path)
            seen = int(expected_revision) if (i == 0 and expected_revision is not None) else p.expected_revision
            if current_rev != seen:
                stale.append((p.page_path, seen, current_rev))
        if stale:
            for page, _, current_rev in stale:
                conn.execute("UPDATE review_item_pages SET expected_revision = ? WHERE item_id = ? AND page_path = ?",
                             (current_rev, item.id, page))
                if page == item.page_path:
                    conn.execute("UPDATE review_items SET expected_revision = ? WHERE id = ?", (current_rev, item.id))
            conn.execute("COMMIT")
            conn.execute("BEGIN IMMEDIATE")
            page, seen, current_rev = stale[0]
            raise Conflict(f"page {page} changed since revision {seen} (it is now {current_rev}); "
                           "the item was refreshed — review it again")
        texts: dict[str, str] = {}
        rebased: list[tuple[int, str, str]] = []  # (item, page, proposal) of other held items
        if item.kind == "held":
            for p in pages:
                current = live_page_text(item, p.page_path)
                others = _others_on(conn, item, p.page_path)
                fallback = block_claim_lines(split_page(current)[1]) if current else []
                if action == "approve":
                    if not p.proposed_body:
                        raise InvalidInput(f"review item {item.id} has no proposed body for {p.page_path}")
                    settled = "archived" if page_compile_status(p.proposed_body) == "archived" else "confirmed"
                    texts[p.page_path] = _with_status(p.proposed_body, others, settled, actor=actor, at=at,
                                                      fallback_block=fallback)
                elif current is not None:
                    kept = pin_kept(current, p.proposed_body, p.page_path, by=actor, at=at)
                    texts[p.page_path] = _with_status(kept, others, "confirmed" if _signed(current) else "compiled",
                                                      actor=None, at=None, fallback_block=fallback)
        else:
            current = live_page_text(item)
            if current is None:
                if action != "dismiss":
                    raise Conflict(f"page {item.page_path} no longer exists")
            else:
                fp = str(item.details.get("fingerprint") or "")
                decided, left = decide_dispute(current, fp, action)
                if action == "use_new" and left == block_dispute_count(current):
                    # the page lists no block for this dispute (an external compiler's page): swap the
                    # one claim by its two sides, else publish the compiler's own use-new page
                    decided = (swap_by_sides(decided, item.details.get("existing") or {},
                                             item.details.get("incoming") or {}) or item.proposed_body or decided)
                others = _others_on(conn, item, item.page_path)
                settled = "confirmed" if action in ("use_new", "keep") or _signed(current) else "compiled"
                texts[item.page_path] = _with_status(decided, others, settled,
                                                     actor=actor if action != "dismiss" else None, at=at)
                for oid, kind in others:  # a held change on this page carries the same decision
                    if kind != "held":
                        continue
                    r = conn.execute("SELECT proposed_body FROM review_item_pages WHERE item_id = ? AND page_path = ?",
                                     (oid, item.page_path)).fetchone()
                    if r and r[0]:
                        rebased.append((oid, item.page_path, decide_dispute(r[0], fp, action)[0]))
        texts = {rel: t for rel, t in texts.items() if t != live_page_text(item, rel)}
        leftover_dir = None
        if texts:
            # The decision travels with the generation (decision.json beside it): a crash between the
            # swap and this transaction's commit is settled at start-up (review_recovery).
            leftover_dir = publish_pages(
                conn, item.workspace, item.base_id, texts,
                author=f"review:{item.id}:{action}:{actor}", reason=f"review {action} of item {item.id}", now_us=now,
                decision={"item": item.id, "state": state, "actor": actor, "at": now})
        for oid, page, body in rebased:
            conn.execute("UPDATE review_item_pages SET proposed_body = ? WHERE item_id = ? AND page_path = ?",
                         (body, oid, page))
            conn.execute("UPDATE review_items SET proposed_body = ? WHERE id = ? AND page_path = ?", (body, oid, page))
        for page in texts:  # the other open items on a published page follow its new revision
            rev = current_revision_number(conn, item.workspace, item.base_id, page)
            for oid, _ in _others_on(conn, item, page):
                conn.execute("UPDATE review_item_pages SET expected_revision = ? WHERE item_id = ? AND page_path = ?",
                             (rev, oid, page))
                conn.execute("UPDATE review_items SET expected_revision = ? WHERE id = ? AND page_path = ?",
                             (rev, oid, page))
        conn.execute("UPDATE review_items SET state = ?, resolved_at = ?, resolved_by = ? WHERE id = ?",
                     (state, now, actor, item.id))
    if leftover_dir is not None:
        shutil.rmtree(leftover_dir, ignore_errors=True)  # committed: the decision record is done
    return get_item(ctx, item.id)


__all__ = ["resolve", "actor_name", "STATES"]
