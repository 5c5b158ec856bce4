# size: deciding is one story told in order — check an item, plan its decision into a batch, publish the batch in one promotion
"""Deciding review items (trust.md §4, issue 13): one decision per item — of one item (`resolve`), or
of many items of one base (`resolve_batch`, what a bulk action runs per base) — published through ONE
promotion, and nothing else. A `Batch` holds the decisions of one promotion as they are planned: the
page texts and held proposals the decisions so far leave, with what planning looks up once per batch
(the open items on each page, the live pages, the digests of the sources a proposal was made from).

- A held change set is approved or rejected as a whole: every page it revises gets its proposal
  (approve), or keeps what it says (reject) with each claim the proposal revised or retracted kept and
  flagged against the source revision it came from (`kctui.compiler.trust.kept`).
- A conflict's decision (use the new value, keep, dismiss) is applied to the page as it is now and to
  that one dispute only (`kctui.compiler.trust.disputes.decide_dispute`): a held change on the same page is
  never published as a side effect; its proposal gets the same decision, so approving it later does
  not undo this one.
- Each page is checked against the revision the reviewer saw. After publishing, the other open items
  on the published pages follow the new revision (their content already reflects this decision), so
  the next decision on the page does not fail for a change the person made themselves.
- A page's status after a decision follows what is still open on it: a contradicted page lists only
  the open disputes in its banner.
"""

from __future__ import annotations

import copy
import hashlib
import shutil
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kctui import paths
from kctui.compiler.trust.decided_pages import decided_page
from kctui.compiler.trust.disputes import block_dispute_count, decide_dispute, swap_by_sides
from kctui.compiler.trust.kept import change_set_refs, pin_kept
from kctui.compiler.trust.page_edits import decide_edit
from kctui.core.clock import rfc3339
from kctui.core.decided_values import flag_text
from kctui.core.page_edits import DISPUTE_PREFIX
from kctui.core.page_status import COMPILE_STATUSES, block_claim_lines, conflict_note, set_page_status, split_page
from kctui.services.context import ServiceContext
from kctui.services.errors import Conflict, InvalidInput
from kctui.services.review_decided import apply_decision, flagged_pages, wiki_of
from kctui.services.review_hunks import accepted_by_page, item_hunks, partial_page
from kctui.services.review_publish import after_publish, publish_pages, record_partial
from kctui.services.review_queue import OPEN, ReviewItem, actor_name, get_item, read_live_page
from kctui.services.review_undo import old_proposals, record_decision
from kctui.services.revisions import current_revision_number

STATES = {"approve": "approved", "reject": "rejected", "use_new": "resolved_new", "keep": "resolved_keep",
          "dismiss": "dismissed"}
HELD_NOTE = "a change of this page waits for review"


def wrong_action(item_id: int, kind: str) -> str:
    """What to do instead, in the words and flags a person types (not the action names)."""
    if kind == "conflict":
        return (f"review item {item_id} is a conflict item: resolve it with `kctui review resolve {item_id}` "
                "and --use-new, --keep or --dismiss")
    return f"review item {item_id} is a {kind} item: approve or reject it (`kctui review approve|reject {item_id}`)"


# The queries on the open items of a page go page first (CROSS JOIN keeps SQLite's order): the page's
# rows in review_item_pages by its index, then each item by id — not every open item of the base.


def others_on(conn: sqlite3.Connection, item: ReviewItem, page: str, *,
              exclude: bool = True) -> list[tuple[int, str]]:
    """(id, kind) of the other open items of the base touching `page` (`exclude=False`: `item` too)."""
    return [(int(r[0]), str(r[1])) for r in conn.execute(
        "SELECT DISTINCT i.id, i.kind FROM review_item_pages p CROSS JOIN review_items i ON i.id = p.item_id "
        "WHERE p.page_path = ? AND i.workspace = ? AND i.base_id = ? AND i.state = 'open' AND i.id != ?",
        (page, item.workspace, item.base_id, item.id if exclude else -1))]


class Batch:
    """Decisions of one promotion: page texts and held proposals as the decisions so far leave them."""

    def __init__(self, conn: sqlite3.Connection, actor: str, now: int) -> None:
        self.conn, self.actor, self.now, self.at = conn, actor, now, rfc3339(now)
        self.texts: dict[str, str] = {}
        self.proposals: dict[tuple[int, str], str] = {}  # (held item, page) -> its proposal, rebased
        self.live: dict[str, str | None] = {}
        self.decided: list[tuple[ReviewItem, str]] = []  # (item, state)
        self.decided_ids: set[int] = set()
        self.decided_by: dict[str, tuple[int, str]] = {}  # page -> (item, action) of the last decision on it
        self.withdrawn: dict[int, str] = {}  # item -> why (its proposal no longer matches its sources)
        self.hunks: dict[int, list[int]] = {}  # item -> the hunk numbers its action applied to (issue 35)
        self.partial: dict[int, tuple[int, int]] = {}  # item -> (hunks approved, hunks in all), some taken
        self.digests: dict[str, str] = {}
        self._front: dict[int, tuple[str, tuple[dict, str]]] = {}
        # page -> (id, kind) of every open item of the base on it: the open items do not change while
        # a batch is planned (decisions are recorded in `_commit`), so one query serves the batch
        self._open_on: dict[str, list[tuple[int, str]]] = {}
        self._roots: dict[tuple[str, str], Path] = {}  # (workspace, base) -> its sources/
        self._wikis: dict[tuple[str, str], Path] = {}  # (workspace, base) -> its live wiki/

    def prefetch(self, workspace: str, kb_id: str, pages: list[str]) -> None:
        """Load the open items on `pages` in a few queries (a bulk action's pages, before planning)."""
        wanted = [p for p in dict.fromkeys(pages) if p not in self._open_on]
        for p in wanted:
            self._open_on[p] = []
        for at in range(0, len(wanted), 500):
            chunk = wanted[at:at + 500]
            rows = self.conn.execute(
                "SELECT DISTINCT p.page_path, i.id, i.kind FROM review_item_pages p CROSS JOIN review_items i "
                f"ON i.id = p.item_id WHERE p.page_path IN ({','.join('?' * len(chunk))}) AND i.workspace = ? "
                "AND i.base_id = ? AND i.state = 'open'", (*chunk, workspace, kb_id))
            for page, iid, kind in rows:
                self._open_on[str(page)].append((int(iid), str(kind)))

    def stale_sources(self, item: ReviewItem, proposal: str) -> list[str]:
        """Sources the proposal was made from that say something else now (or are gone, or came back
        for an archive): approving it would publish what no source says."""
        fm = self.front(proposal)
        key = (item.workspace, item.base_id)
        if key not in self._roots:
            self._roots[key] = paths.sources_path(Path(item.workspace), item.base_id)
        root = self._roots[key]
        out = []
        wanted = [(str(r.get("resource") or ""), str(r.get("digest") or "")) for r in fm.get("sources") or []
                  if isinstance(r, dict) and r.get("digest")]  # a digest the compiler recorded
        if fm.get("archived_source"):
            wanted.append((str(fm["archived_source"]), ""))
        for rel, want in wanted:
            if rel not in self.digests:
                self.digests[rel] = file_digest(root, rel)
            if self.digests[rel] != want:
                out.append(rel)
        return out

    def _split(self, text: str) -> tuple[dict, str]:
        """A proposal split once per batch (YAML is the cost of a large change set)."""
        key = id(text)
        if key not in self._front or self._front[key][0] is not text:
            self._front[key] = (text, split_page(text))
        return self._front[key][1]

    def parsed(self, text: str) -> tuple[dict, str]:
        """`split_page(text)`, parsed once per batch; a fresh top-level copy of its frontmatter each
        time (`set_page_status` sets top-level keys only and builds a new `verified` list)."""
        fm, body = self._split(text)
        return dict(fm), body

    def front(self, text: str) -> dict:
        """The frontmatter, to read only (the batch's own parse)."""
        return self._split(text)[0]

    def body(self, text: str) -> str:
        return self._split(text)[1]

    def text(self, item: ReviewItem, rel: str) -> str | None:
        if rel in self.texts:
            return self.texts[rel]
        if rel not in self.live:
            key = (item.workspace, item.base_id)
            if key not in self._wikis:
                self._wikis[key] = paths.wiki_path(Path(item.workspace), item.base_id)
            self.live[rel] = read_live_page(self._wikis[key], rel)
        return self.live[rel]

    def others(self, item: ReviewItem, rel: str) -> list[tuple[int, str]]:
        """(id, kind) of the other open items on `rel` not decided in this batch."""
        if rel not in self._open_on:
            self._open_on[rel] = [(i, k) for i, k in others_on(self.conn, item, rel, exclude=False)]
        return [(i, k) for i, k in self._open_on[rel] if i != item.id and i not in self.decided_ids]

    def proposal(self, item_id: int, rel: str, stored: str | None) -> str | None:
        return self.proposals.get((item_id, rel), stored)


def file_digest(root: Path, rel: str) -> str:
    """sha256 of a source file ("" when missing, unreadable, outside `sources/` or behind a symlink)."""
    if not rel or rel.startswith("/") or ".." in rel.split("/"):
        return ""
    cur = root
    for part in Path(rel).parts:
        cur = cur / part
        if cur.is_symlink():
            return ""
    try:
        h = hashlib.sha256()
        with open(cur, "rb") as fh:
            while chunk := fh.read(1 << 20):
                h.update(chunk)
        return "sha256:" + h.hexdigest()
    except OSError:
        return ""


def _with_status(text: str, others: list[tuple[int, str]], settled: str, *, actor: str | None, at: str | None,
                 fallback_block: list[str] | None = None, parsed: tuple[dict, str] | None = None) -> str:
    """The page with the status what is still open on it gives (else `settled`). Only a person's
    decision confirms a page (`verified`, `confirmed`); an agent's is recorded as the revision's author."""
    if actor is not None and not actor.startswith("human:"):
        actor = None
        if settled == "confirmed" and not _signed((parsed or split_page(text))[0]):
            settled = "compiled"
    if any(k == "conflict" for _, k in others):
        lines = block_claim_lines(split_page(text)[1]) or list(fallback_block or [])
        n = block_dispute_count(text, lines)
        return set_page_status(text, "contradicted", note=conflict_note(n) if n else None,
                               verified_by=actor, at=at, claim_lines=lines)
    if others:
        return set_page_status(text, "needs-review", note=HELD_NOTE, verified_by=actor, at=at, parsed=parsed)
    return set_page_status(text, settled, verified_by=actor, at=at, parsed=parsed)


def _status_of(fm: dict) -> str:
    """`page_compile_status` of a page whose frontmatter is `fm`."""
    value = fm.get("compile_status")
    return value if value in COMPILE_STATUSES else "compiled"


def _archived(fm: dict) -> bool:
    """An archived page held (needs-review) for a revive: it stays archived when that is rejected."""
    return bool(fm.get("archived_source")) or (not fm.get("sources") and not fm.get("awaiting_review")
                                               and "(archived" in str(fm.get("description") or ""))


def _signed(fm: dict) -> bool:
    return _status_of(fm) == "confirmed" or bool(fm.get("verified"))


def _check(conn: sqlite3.Connection, item: ReviewItem, action: str, expected_revision: int | None) -> None:
    """Valid action, still open, every page at the revision the reviewer saw (else the item is
    refreshed — its stored revisions follow the pages — and Conflict is raised)."""
    valid = {"held": ("approve", "reject"), "conflict": ("use_new", "keep", "dismiss")}[item.kind]
    if action not in valid:
        raise InvalidInput(wrong_action(item.id, item.kind))
    row = conn.execute("SELECT state FROM review_items WHERE id = ?", (item.id,)).fetchone()
    if row is None or row[0] != OPEN:
        raise Conflict(f"review item {item.id} is already {row[0] if row else 'gone'}")
    stale = []
    for i, p in enumerate(item.page_list):
        current_rev = current_revision_number(conn, item.workspace, item.base_id, p.page_path)
        seen = int(expected_revision) if (i == 0 and expected_revision is not None) else p.expected_revision
        if current_rev != seen:
            stale.append((p.page_path, seen, current_rev))
    for page, _, current_rev in stale:
        conn.execute("UPDATE review_item_pages SET expected_revision = ? WHERE item_id = ? AND page_path = ?",
                     (current_rev, item.id, page))
        if page == item.page_path:
            conn.execute("UPDATE review_items SET expected_revision = ? WHERE id = ?", (current_rev, item.id))
    if stale:
        page, seen, current_rev = stale[0]
        raise Conflict(f"page {page} changed since revision {seen} (it is now {current_rev}); "
                       "the item was refreshed — review it again")


def _plan(batch: Batch, item: ReviewItem, action: str, hunks: Sequence[int] | None = None) -> None:
    """Add one item's decision to the batch (texts of its pages; held proposals on them rebased).
    `hunks`: the numbers of the hunks `action` applies to (the opposite applies to the others)."""
    state = STATES[action]
    taken = None if hunks is None else _taken(batch, item, action, hunks)
    if item.kind == "held" and (action == "approve" or taken) and _withdrawn(batch, item):
        action, state, taken = "reject", "superseded", None
    texts = (_plan_held(batch, item, action, taken) if item.kind == "held"
             else _plan_conflict(batch, item, action))
    if hunks is not None:
        batch.hunks[item.id] = sorted(set(int(n) for n in hunks))
    if taken:  # some of its hunks approved, the others not: recorded as what happened (QA s31 item 4)
        approved, total = sum(len(acc) for acc, _ in taken.values()), sum(n for _, n in taken.values())
        if 0 < approved < total:
            batch.partial[item.id] = (approved, total)
    batch.texts.update(texts)
    batch.decided.append((item, state))
    batch.decided_ids.add(item.id)
    batch.decided_by.update({rel: (item.id, STATES_ACTION[state]) for rel in texts})


def _withdrawn(batch: Batch, item: ReviewItem) -> bool:
    """A held item whose sources changed since the compile proposed it is withdrawn, not approved: what
    the pages say stays, their flags follow what is still open; the next compile proposes what the
    sources say now."""
    stale = sorted({rel for p in item.page_list
                    for rel in batch.stale_sources(item, batch.proposal(item.id, p.page_path, p.proposed_body) or "")})
    if not stale:
        return False
    batch.withdrawn[item.id] = (f"the sources of review item {item.id} changed since it was proposed "
                                f"({', '.join(stale)}); it was withdrawn — compile again")
    return True


def _taken(batch: Batch, item: ReviewItem, action: str, hunks: Sequence[int]) -> dict[str, tuple[set[int], int]]:
    """page -> (its hunks taken, how many it has), for `action` on the hunks numbered `hunks`."""
    cut = item_hunks(item, lambda rel: batch.text(item, rel), lambda rel, body: batch.proposal(item.id, rel, body))
    accepted = accepted_by_page(item, cut, action, hunks)
    return {rel: (acc, sum(1 for h in cut if h.page == rel)) for rel, acc in accepted.items()}


def _plan_held(batch: Batch, item: ReviewItem, action: str,
               taken: dict[str, tuple[set[int], int]] | None = None) -> dict[str, str]:
    """The pages of a held change set as approving (each gets its proposal) or rejecting it (each keeps
    what it says, the claims the proposal revised pinned and flagged) leaves them; with `taken`, each
    page as taking those of its hunks leaves it (all: approved; none: rejected; some: partial)."""
    texts: dict[str, str] = {}
    any_taken = taken is not None and any(acc for acc, _ in taken.values())
    seen = change_set_refs([batch.proposal(item.id, p.page_path, p.proposed_body) for p in item.page_list])
    for p in item.page_list:
        page_action, partial = action, None
        if taken is not None:
            acc, n = taken.get(p.page_path, (set(), 0))
            page_action = "approve" if (acc and len(acc) == n) or (n == 0 and any_taken) else "reject"
            partial = acc if acc and len(acc) < n else None
        current = batch.text(item, p.page_path)
        others = batch.others(item, p.page_path)
        conflicted = any(k == "conflict" for _, k in others)  # the current banner, if the proposal has none
        fallback = block_claim_lines(batch.body(current)) if current and conflicted else []
        proposed = batch.proposal(item.id, p.page_path, p.proposed_body)
        if partial is not None and proposed:
            part = partial_page(current, proposed, partial, p.page_path, by=batch.actor, at=batch.at, seen_refs=seen)
            if part is not None:
                texts[p.page_path] = _with_status(part, others, "confirmed", actor=batch.actor, at=batch.at,
                                                  fallback_block=fallback)
        elif page_action == "approve":
            if not proposed:
                raise InvalidInput(f"review item {item.id} has no proposed body for {p.page_path}")
            parsed = batch.parsed(proposed)
            settled = "archived" if parsed[0].get("compile_status") == "archived" else "confirmed"
            texts[p.page_path] = _with_status(proposed, others, settled, actor=batch.actor, at=batch.at,
                                              fallback_block=fallback, parsed=parsed)
        elif current is not None:
            texts[p.page_path] = _rejected(batch, p.page_path, current, proposed, others, fallback, seen)
    return texts


def _rejected(batch: Batch, rel: str, current: str, proposed: str | None, others: list[tuple[int, str]],
              fallback: list[str], seen: dict[str, str]) -> str:
    """A page as rejecting the held proposal for it leaves it: its claims kept, its status as before."""
    fm = batch.front(current)
    kept = pin_kept(current, proposed, rel, by=batch.actor, at=batch.at, split=(copy.deepcopy(fm), batch.body(current)),
                    seen_refs=seen)
    settled = ("archived" if _status_of(fm) == "archived" or _archived(fm)
               else "confirmed" if _signed(fm) else "compiled")
    return _with_status(kept, others, settled, actor=None, at=None, fallback_block=fallback)


def _plan_conflict(batch: Batch, item: ReviewItem, action: str) -> dict[str, str]:
    """The page as the conflict's decision leaves it (that one dispute decided); a held proposal on the
    page carries the same decision."""
    current = batch.text(item, item.page_path)
    if current is None:
        if action != "dismiss":
            raise Conflict(f"page {item.page_path} no longer exists")
        return {}
    fp = str(item.details.get("fingerprint") or "")
    decided, rec = _decided_dispute(item, current, fp, action), None
    if not fp.startswith(DISPUTE_PREFIX):  # a disagreement of sources (not a statement a person wrote)
        decided, rec = apply_decision(decided, current, item.details, action, by=batch.actor, at=batch.at)
    others = batch.others(item, item.page_path)
    settled = "confirmed" if action in ("use_new", "keep") or _signed(batch.front(current)) else "compiled"
    text = _with_status(decided, others, settled, actor=batch.actor if action != "dismiss" else None, at=batch.at)
    for oid, kind in others:  # a held change on this page carries the same decision
        if kind == "held":
            _carry_decision(batch, oid, item.page_path, fp, action, rec)
    texts = {item.page_path: text}
    if rec is not None:  # every other page stating the decided values from those lines says so (QA s32)
        flagged = flagged_pages(wiki_of(item.workspace, item.base_id), rec, item.page_path,
                                lambda rel: batch.text(item, rel))
        texts.update(flagged)
        for rel in flagged:
            for oid, kind in batch.others(item, rel):
                if kind == "held":
                    _carry_flags(batch, oid, rel, rec)
    return texts


def _decided_dispute(item: ReviewItem, current: str, fp: str, action: str) -> str:
    """The page with the dispute `fp` decided: a person's or agent's statement (issue 15), else the
    page's dispute block."""
    edited = decide_edit(current, fp, action)
    if edited is not None:
        return edited
    decided, left = decide_dispute(current, fp, action)
    if action == "use_new" and left == block_dispute_count(current):
        # the page lists no block for this dispute (an external compiler's page): swap the
        # one claim by its two sides, else publish the compiler's own use-new page
        decided = (swap_by_sides(decided, item.details.get("existing") or {},
                                 item.details.get("incoming") or {}) or item.proposed_body or decided)
    return decided


def _carry_decision(batch: Batch, held_id: int, rel: str, fp: str, action: str, rec: dict | None = None) -> None:
    body = _held_body(batch, held_id, rel)
    if body:
        decided = decide_edit(body, fp, action) or decide_dispute(body, fp, action)[0]
        batch.proposals[(held_id, rel)] = decided_page(decided, rec, body) if rec is not None else decided


def _carry_flags(batch: Batch, held_id: int, rel: str, rec: dict) -> None:
    """A held proposal on a page a decision flagged carries the flags (approving it keeps them)."""
    body = _held_body(batch, held_id, rel)
    if body:
        batch.proposals[(held_id, rel)] = flag_text(body, [rec])


def _held_body(batch: Batch, held_id: int, rel: str) -> str | None:
    r = batch.conn.execute("SELECT proposed_body FROM review_item_pages WHERE item_id = ? "
                           "AND page_path = ?", (held_id, rel)).fetchone()
    return batch.proposal(held_id, rel, r[0] if r else None)


def _commit(batch: Batch, workspace: str, kb_id: str) -> Path | None:
    """Publish the batch's pages in one promotion and record every decision in the same transaction."""
    conn, actor, now = batch.conn, batch.actor, batch.now
    texts = _changed(batch)
    leftover_dir = None
    before = {rel: current_revision_number(conn, workspace, kb_id, rel) for rel in texts}
    rebased_from = old_proposals(conn, list(batch.proposals))
    if texts:
        first = batch.decided[0][0]
        what = f"review:{first.id}:{STATES_ACTION[batch.decided[0][1]]}:{actor}" if len(batch.decided) == 1 else (
            f"review:bulk:{len(batch.decided)} items:{actor}")
        # The decision travels with the generation (decision.json beside it): a crash between the swap
        # and this transaction's commit is settled at start-up (review_publish).
        leftover_dir = publish_pages(
            conn, workspace, kb_id, texts, author=what,
            reason=(f"review {STATES_ACTION[batch.decided[0][1]]} of item {first.id}" if len(batch.decided) == 1
                    else f"review of items {', '.join(str(i.id) for i, _ in batch.decided)}"), now_us=now,
            decision={"item": first.id, "state": batch.decided[0][1], "actor": actor, "at": now,
                      "items": [[i.id, st] for i, st in batch.decided],
                      "partial": {str(i): list(an) for i, an in batch.partial.items()},
                      "rebased": [[oid, page, body] for (oid, page), body in batch.proposals.items()]},
            # in a bulk action each page's revision names the decision that wrote it
            notes=None if len(batch.decided) == 1 else {
                rel: (f"review:{iid}:{act}:{actor}", f"review {act} of item {iid} (one of {len(batch.decided)} "
                                                     "in a bulk action)")
                for rel, (iid, act) in batch.decided_by.items() if rel in texts})
    conn.executemany("UPDATE review_items SET state = ?, resolved_at = ?, resolved_by = ? WHERE id = ?",
                     [(state, now, actor, item.id) for item, state in batch.decided])
    record_partial(conn, [item.id for item, _ in batch.decided], batch.partial)
    after_publish(conn, workspace, kb_id, list(texts), [(o, p, b) for (o, p), b in batch.proposals.items()])
    record_decision(conn, workspace, kb_id, [(i.id, st) for i, st in batch.decided],
                    [(rel, n, current_revision_number(conn, workspace, kb_id, rel)) for rel, n in before.items()],
                    rebased_from, batch.hunks, actor=actor, now_us=now)
    return leftover_dir


def _changed(batch: Batch) -> dict[str, str]:
    """The batch's page texts that differ from the live pages: what its promotion writes."""
    return {rel: t for rel, t in batch.texts.items() if t != batch.live.get(rel)}


STATES_ACTION = {**{v: k for k, v in STATES.items()}, "superseded": "withdraw"}


def _no_compile_running(conn: sqlite3.Connection, workspace: str, kb_id: str) -> None:
    running = conn.execute("SELECT id FROM jobs WHERE workspace = ? AND base_id = ? AND phase = 'running'",
                           (workspace, kb_id)).fetchone()
    if running:
        raise Conflict(f"a compile of {kb_id} is running ({running[0]}); resolve when it ends")


def resolve(ctx: ServiceContext, item_id: int | str, action: str, *, expected_revision: int | None = None,
            actor: str | None = None, hunks: Sequence[int] | None = None) -> ReviewItem:
    """action: approve | reject (held) — use_new | keep | dismiss (conflict). `hunks` (a held item): the
    hunks (numbered from 1, as `show_item` lists them) the action applies to; the others get the
    opposite — `approve` with hunks 1,3 takes exactly those and keeps what the page says for the rest."""
    item = get_item(ctx, item_id)
    valid = {"held": ("approve", "reject"), "conflict": ("use_new", "keep", "dismiss")}[item.kind]
    if action not in valid:
        raise InvalidInput(wrong_action(item.id, item.kind))
    if item.state != OPEN:
        raise Conflict(f"review item {item.id} is already {item.state}")
    actor = actor or actor_name()
    with ctx.store.write() as conn:
        _no_compile_running(conn, item.workspace, item.base_id)
        try:
            _check(conn, item, action, expected_revision)
        except Conflict:
            conn.execute("COMMIT")  # the refreshed revisions are kept
            conn.execute("BEGIN IMMEDIATE")
            raise
        batch = Batch(conn, actor, ctx.now())
        _plan(batch, item, action, hunks)
        leftover_dir = _commit(batch, item.workspace, item.base_id)
    if leftover_dir is not None:
        shutil.rmtree(leftover_dir, ignore_errors=True)  # committed: the decision record is done
    if item.id in batch.withdrawn:
        raise Conflict(batch.withdrawn[item.id])
    return get_item(ctx, item.id)


@dataclass
class BatchResult:
    resolved: list[int] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    pages: int = 0  # pages the promotion wrote
    promoted: bool = False


def resolve_batch(ctx: ServiceContext, item_ids: list[int], action: str, *, actor: str | None = None,
                  seen: Mapping[int, int] | None = None,
                  progress: Callable[[str, int, int], None] | None = None) -> BatchResult:
    """Decide many items of one base with one action (approve/reject for held items, use_new/keep/
    dismiss for conflicts; an item of the other kind is skipped) through ONE promotion, each against
    the revision the person saw (`seen`: item id -> revision of its first page; default: the revisions
    the item shows). A skipped item is left as it was (or refreshed, when its page changed). All or
    nothing for what is published. `progress(phase, done, total)`: phase "deciding" | "publishing"."""
    actor = actor or actor_name()
    items = [get_item(ctx, i) for i in dict.fromkeys(int(i) for i in item_ids)]
    out = BatchResult()
    if not items:
        return out
    workspace, kb_id = _one_base(items)
    with ctx.store.write() as conn:
        _no_compile_running(conn, workspace, kb_id)
        batch = Batch(conn, actor, ctx.now())
        batch.prefetch(workspace, kb_id, [p.page_path for i in items for p in i.page_list] + [i.page_path for i in items])
        out.skipped += _plan_all(batch, items, action, seen, progress)
        if progress is not None:
            progress("publishing", len(items), len(items))
        leftover_dir = _commit(batch, workspace, kb_id) if batch.decided else None
        out.pages = len(_changed(batch))
    if leftover_dir is not None:
        shutil.rmtree(leftover_dir, ignore_errors=True)
        out.promoted = True
    out.skipped += [(i, why) for i, why in batch.withdrawn.items()]
    out.resolved = [i.id for i, _ in batch.decided if i.id not in batch.withdrawn]
    return out


def _one_base(items: list[ReviewItem]) -> tuple[str, str]:
    bases = {(i.workspace, i.base_id) for i in items}
    if len(bases) != 1:
        raise InvalidInput("a bulk review decision covers the items of one knowledge base")
    return bases.pop()


def _plan_all(batch: Batch, items: list[ReviewItem], action: str, seen: Mapping[int, int] | None,
              progress: Callable[[str, int, int], None] | None) -> list[tuple[int, str]]:
    """Check and plan each item's decision into the batch; [(skipped id, why)] of those refused."""
    skipped = []
    for n, item in enumerate(items, 1):
        try:
            _check(batch.conn, item, action, None if seen is None else seen.get(item.id))
            _plan(batch, item, action)
        except (Conflict, InvalidInput) as exc:
            skipped.append((item.id, str(exc)))
        if progress is not None and (n % 100 == 0 or n == len(items)):
            progress("deciding", n, len(items))
    return skipped


def resolve_many(ctx: ServiceContext, item_ids: list[int], action: str, *,
                 actor: str | None = None) -> tuple[list[int], list[tuple[int, str]]]:
    """`resolve_batch` as (resolved ids, [(skipped id, why)])."""
    result = resolve_batch(ctx, item_ids, action, actor=actor)
    return result.resolved, result.skipped


__all__ = ["BatchResult", "resolve", "resolve_batch", "resolve_many", "after_publish", "actor_name", "STATES"]
