"""Publishing people's review decisions, and settling one a crash interrupted.

Publishing: only the pages the decisions change are written into the live wiki, through the page-level
promotion of `kctui.publish.pages` (validated, journaled, crash-safe; `wiki/` keeps its one writer:
promotion). Every page written becomes the page's next immutable revision, in the caller's transaction.
One call = one promotion, however many decisions it carries. A published decision then reaches the
other open items of its pages (`after_publish`): held proposals on them carry the decision, and every
open item on them follows their new revision.

Recovery (trust.md §4: an approved change reaches `wiki/` through promotion, so a kill can fall between
the swap and the store's commit). Publishing a decision writes `decision.json` beside its staged
generation before promoting: the review item(s) (`items`: every decision one promotion carries), its new
state, who decided, and the digest of every page it writes. The folder is removed only after the store
committed. At start-up, after the promotion journal was settled (the new generation finished, or the old
one rolled back), each leftover decision is read against the live wiki:

- every decided page is live with the decided bytes: the decision was published, so the revisions are
  recorded and the item is resolved (if it is still open) — never left pending with a published body;
- otherwise the old generation is live: the item stays pending, as it was, and nothing is recorded.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from kctui import paths
from kctui.atomic_write import write_atomically
from kctui.publish.pages import promote_pages
from kctui.publish.pages_journal import pages_pending
from kctui.publish.promote import PromotionError
from kctui.publish.validate import InvalidOutput
from kctui.services.context import ServiceContext
from kctui.services.errors import Conflict, io_failure
from kctui.services.revisions import record_pages

log = logging.getLogger(__name__)

DECISION_NAME = "decision.json"
PREFIX = "review-"
_sequence = itertools.count(1)


def publish_pages(conn: sqlite3.Connection, workspace: str, kb_id: str, pages: dict[str, str | None], *,
                  author: str, reason: str, now_us: int, decision: dict | None = None,
                  notes: dict[str, tuple[str, str]] | None = None) -> Path | None:
    """Inside the caller's write transaction (so no claim can start meanwhile): write `pages` (path ->
    text, None = remove) into the live wiki in one page promotion and record their revisions. With
    `decision` (what was decided: `item`/`state` for one item, or `items` for several) a
    `decision.json` is written first and left in place: the caller removes the returned folder once its
    transaction committed; a crash before that is settled at start-up by `recover_review_decisions` (the items
    resolved if the pages are live, left pending if not). `notes`: a page's own (author, reason) for
    its revision, where it differs from the call's."""
    ws = Path(workspace)
    kb = paths.kb_path(ws, kb_id)
    if not (kb / "wiki").is_dir():
        raise Conflict(f"knowledge base {kb_id} has no promoted wiki yet")
    if not pages:
        return None
    gen_id = f"review-{now_us}-{os.getpid()}-{next(_sequence)}"
    folder = paths.job_dir(ws, kb_id, gen_id)
    try:
        if decision is not None:
            write_decision(folder, {**decision, "author": author, "reason": reason, "pages": {
                rel: None if text is None else page_digest(text) for rel, text in pages.items()}})
        promote_pages(kb, pages, gen_id)
    except InvalidOutput as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise Conflict(f"the reviewed page would not be valid: {exc}") from exc
    except (OSError, PromotionError) as exc:
        if not pages_pending(kb):  # else the decision stays beside the journal for start-up recovery
            shutil.rmtree(folder, ignore_errors=True)
        raise io_failure("publishing the review decision", exc, kept="the wiki was kept") from exc
    notes = notes or {}
    plain = {rel: text for rel, text in pages.items() if rel not in notes}
    record_pages(conn, workspace, kb_id, plain, author=author, reason=reason, now_us=now_us)
    for rel, (page_author, page_reason) in sorted(notes.items()):
        if rel in pages:
            record_pages(conn, workspace, kb_id, {rel: pages[rel]}, author=page_author, reason=page_reason,
                         now_us=now_us)
    return folder if decision is not None else None


def after_publish(conn: sqlite3.Connection, workspace: str, kb_id: str, pages: list[str],
                  rebased: list[tuple[int, str, str]]) -> None:
    """What a published decision does to the other open items (also run by crash recovery): held
    proposals on its pages carry the decision, and every open item on them follows their new revision."""
    conn.executemany("UPDATE review_item_pages SET proposed_body = ? WHERE item_id = ? AND page_path = ? AND item_id IN "
                     "(SELECT id FROM review_items WHERE state = 'open')", [(b, o, p) for o, p, b in rebased])
    conn.executemany("UPDATE review_items SET proposed_body = ? WHERE id = ? AND page_path = ? AND state = 'open'",
                     [(b, o, p) for o, p, b in rebased])
    # the open items on the published pages and those pages' revisions: a few queries for the whole set
    wanted = list(dict.fromkeys(pages))
    on: dict[str, list[int]] = {}
    for at in range(0, len(wanted), 500):
        chunk = wanted[at:at + 500]
        marks = ",".join("?" * len(chunk))
        for page, oid in conn.execute(
                "SELECT DISTINCT p.page_path, i.id FROM review_item_pages p CROSS JOIN review_items i ON i.id = p.item_id "
                f"WHERE p.page_path IN ({marks}) AND i.workspace = ? AND i.base_id = ? AND i.state = 'open'",
                (*chunk, workspace, kb_id)).fetchall():
            on.setdefault(str(page), []).append(int(oid))
    if not on:
        return
    revs: dict[str, int] = {}
    followed = list(on)
    for at in range(0, len(followed), 500):
        chunk = followed[at:at + 500]
        revs.update((str(page), int(n or 0)) for page, n in conn.execute(
            "SELECT page_path, MAX(number) FROM page_revisions WHERE workspace = ? AND base_id = ? AND "
            f"page_path IN ({','.join('?' * len(chunk))}) GROUP BY page_path", (workspace, kb_id, *chunk)))
    rows = [(revs.get(page, 0), oid, page) for page in followed for oid in on[page]]
    conn.executemany("UPDATE review_item_pages SET expected_revision = ? WHERE item_id = ? AND page_path = ?", rows)
    conn.executemany("UPDATE review_items SET expected_revision = ? WHERE id = ? AND page_path = ?", rows)


def reopen_items(conn: sqlite3.Connection, workspace: str, kb_id: str, decision_id: int, items: list[int],
                 pages: list[str], restore: list[tuple[int, str, str | None]], *, actor: str, now_us: int) -> None:
    """An undone decision's record (also run by crash recovery): its items open again, the proposals it
    rebased as they were, every open item on its pages following their new revision, the decision marked
    undone."""
    conn.executemany("UPDATE review_items SET state = 'open', resolved_at = NULL, resolved_by = NULL WHERE id = ?",
                     [(i,) for i in items])
    after_publish(conn, workspace, kb_id, [], [(int(o), str(p), b) for o, p, b in restore if b is not None])
    after_publish(conn, workspace, kb_id, pages, [])
    conn.execute("UPDATE review_decisions SET undone_at = ?, undone_by = ? WHERE id = ? AND undone_at IS NULL",
                 (now_us, actor, decision_id))


def page_digest(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_decision(folder: Path, decision: dict[str, Any]) -> None:
    """Durably: the decision must be on disk before the generation it explains can be live. Written
    whole or not at all (a temporary file renamed into place, `atomic_write`): a kill mid-write leaves
    no half record, and recovery reads a missing record as a decision that never reached promotion."""
    created = not folder.is_dir()
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(folder / DECISION_NAME, json.dumps(decision, sort_keys=True))
    _fsync_dir(folder)  # the rename, surely on disk (write_atomically forgives a failed folder fsync)
    if created:
        _fsync_dir(folder.parent)  # and the new folder's name


def _fsync_dir(folder: Path) -> None:
    dfd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def _published(wiki: Path, pages: dict[str, str | None]) -> bool:
    for rel, digest in pages.items():
        target = wiki / rel
        if digest is None:  # a removed page
            if os.path.lexists(target):
                return False
            continue
        try:
            if target.is_symlink() or page_digest(target.read_text(encoding="utf-8")) != digest:
                return False
        except (OSError, UnicodeDecodeError):
            return False
    return bool(pages)


def _live_pages(wiki: Path, pages: dict[str, str | None]) -> dict[str, str | None]:
    return {rel: None if digest is None else (wiki / rel).read_text(encoding="utf-8")
            for rel, digest in pages.items()}


def _decided(decision: dict[str, Any]) -> list[tuple[int, str, str, Any]]:
    """(item, state, actor, at) of every decision a record carries."""
    actor, at = str(decision.get("actor")), decision.get("at")
    if "items" not in decision:
        return [(int(decision["item"]), str(decision["state"]), actor, at)]
    out = []
    for d in decision["items"]:
        if isinstance(d, dict):
            out.append((int(d["item"]), str(d["state"]), str(d.get("actor", actor)), d.get("at", at)))
        else:
            item_id, state = d
            out.append((int(item_id), str(state), actor, at))
    return out


def recover_review_decisions(ctx: ServiceContext) -> tuple[list[int], list[int]]:
    """Settle leftover decisions of every base. Returns (items resolved now, items left pending)."""
    resolved: list[int] = []
    pending: list[int] = []
    for row in ctx.store.query("SELECT workspace, id FROM bases ORDER BY workspace, id"):
        root = paths.output_root(Path(row["workspace"]), row["id"])
        if not root.is_dir():
            continue
        for folder in sorted(p for p in root.iterdir() if p.name.startswith(PREFIX) and not p.is_symlink()):
            with ctx.store.write() as conn:  # a resolution still running elsewhere holds this lock
                if not folder.is_dir():
                    continue
                settle_decision(ctx, conn, row["workspace"], row["id"], folder, resolved, pending)
    if resolved or pending:
        log.info("review decisions interrupted by a crash: %d resolved (published), %d left pending",
                 len(resolved), len(pending))
    return resolved, pending


def settle_decision(ctx: ServiceContext, conn: sqlite3.Connection, workspace: str, kb_id: str, folder: Path,
                     resolved: list[int], pending: list[int]) -> None:
    """One leftover decision, inside its transaction: recorded and its items resolved if its pages are
    live, its items left pending if not; the folder removed either way."""
    try:
        decision = json.loads((folder / DECISION_NAME).read_text(encoding="utf-8"))
        # one item ({"item", "state", "actor", "at"}); a promotion carrying several decisions
        # lists them all (`items`: [[id, state], …] or [{"item", "state", …}, …])
        decided = _decided(decision)
        pages = {str(k): None if v is None else str(v) for k, v in dict(decision["pages"]).items()}
    except (OSError, ValueError, KeyError, TypeError):
        shutil.rmtree(folder, ignore_errors=True)  # never got as far as promoting
        return
    wiki = paths.wiki_path(Path(workspace), kb_id)
    if _published(wiki, pages):
        now = ctx.now()
        record_pages(conn, workspace, kb_id, _live_pages(wiki, pages),
                     author=str(decision.get("author")),
                     reason=f"{decision.get('reason')} (published before a crash; recorded at restart)",
                     now_us=now)
        after_publish(conn, workspace, kb_id, [r for r, d in pages.items() if d is not None],
                      [(int(o), str(p), str(b)) for o, p, b in decision.get("rebased") or []])
        if decision.get("undo") is not None:  # an undo: its items reopened, its decision marked undone
            reopen_items(conn, workspace, kb_id, int(decision["undo"]), [i for i, *_ in decided], list(pages),
                         [(int(o), str(p), b) for o, p, b in decision.get("restore") or []],
                         actor=str(decision.get("actor")), now_us=now)
            resolved.extend(i for i, *_ in decided)
            decided = []
        for item_id, state, actor, at in decided:
            cur = conn.execute("UPDATE review_items SET state = ?, resolved_at = ?, resolved_by = ? "
                               "WHERE id = ? AND state = 'open'", (state, int(at or now), actor, item_id))
            if cur.rowcount:
                resolved.append(item_id)
        part = decision.get("partial") or {}
        record_partial(conn, [i for i, *_ in decided],
                       {int(k): (int(v[0]), int(v[1])) for k, v in part.items() if isinstance(v, list) and len(v) == 2})
    else:
        pending.extend(item_id for item_id, *_ in decided)
    shutil.rmtree(folder, ignore_errors=True)


def record_partial(conn: sqlite3.Connection, ids: list[int], partial: dict[int, tuple[int, int]]) -> None:
    """Each decided item's `partial` detail: (approved, of) hunks when the decision took some, else none."""
    conn.executemany("UPDATE review_items SET details_json = json_remove(details_json, '$.partial') WHERE id = ?",
                     [(i,) for i in ids if i not in partial])
    conn.executemany("UPDATE review_items SET details_json = json_set(details_json, '$.partial', "
                     "json_object('approved', ?, 'of', ?)) WHERE id = ?",
                     [(a, n, i) for i, (a, n) in partial.items() if i in set(ids)])


