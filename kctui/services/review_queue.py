"""The review queue's read side (trust.md §4): what an item is (a held update or a conflict, and its
pages), how items are read back, the live page an item is decided against, and paged listings with
honest counts (`review list --limit N --offset M`; the review pane's title "5999 open: 5499 held, 500
conflicts · showing 500"). Counts come from the store (held + conflicts = open, always), never from the
rows that happen to be loaded. The leaf of the review services: `review` (filing a compile's
review.json, showing an item), `review_decide` and `review_bulk` (deciding) build on it, and it imports
none of them."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kctui.core.clock import rfc3339
from kctui.core.review_label import item_label
from kctui.core.trust import REASON_WORDS
from kctui.services.context import ServiceContext
from kctui.services.errors import InvalidInput, NotFound

OPEN = "open"
DEFAULT_LIMIT = 50
MAX_LIMIT = 10_000
ITEM_COLUMNS = ("id, workspace, base_id, job_id, kind, page_path, slug, title, update_kind, reason, summary, "
                "proposed_body, details_json, expected_revision, state, created_at, resolved_at, resolved_by")


@dataclass(frozen=True)
class ItemPage:
    """One page of an item (a held change set has one per page it revises; any other item has one)."""
    page_path: str
    title: str
    update_kind: str | None
    reason: str
    summary: str
    proposed_body: str | None
    expected_revision: int

    def json(self) -> dict[str, Any]:
        return {"page": self.page_path, "kind": self.update_kind, "title": self.title, "reason": self.reason,
                "summary": self.summary, "expectedRevision": self.expected_revision}


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
    pages: tuple[ItemPage, ...] = ()

    @property
    def reason_words(self) -> str:
        return REASON_WORDS.get(self.reason, self.reason)

    @property
    def page_list(self) -> tuple[ItemPage, ...]:
        return self.pages or (ItemPage(self.page_path, self.title, self.update_kind, self.reason, self.summary,
                                       self.proposed_body, self.expected_revision),)

    @property
    def partial(self) -> tuple[int, int] | None:
        """(hunks approved, hunks in all) of a decision that took some of a held item's hunks (QA s31 item
        4); None for a whole decision or an open item."""
        part = self.details.get("partial") if self.state in ("approved", "rejected") else None
        if isinstance(part, dict) and isinstance(part.get("approved"), int) and isinstance(part.get("of"), int):
            return part["approved"], part["of"]
        return None

    @property
    def label(self) -> str:
        """The item's name in a list: a change set's sources and page count (`kctui.core.review_label`)."""
        return item_label(self.kind, self.title, self.page_path, [str(s) for s in self.details.get("sources") or []],
                          len(self.page_list))

    @property
    def state_words(self) -> str:
        """The state as a person reads it: `partly approved (37/38)` for a decision on some hunks."""
        part = self.partial
        return f"partly approved ({part[0]}/{part[1]})" if part else self.state

    def json(self) -> dict[str, Any]:
        return {
            "id": self.id, "workspaceRoot": self.workspace, "knowledgeBaseId": self.base_id, "jobId": self.job_id,
            "kind": self.kind, "page": self.page_path, "slug": self.slug, "title": self.title,
            "updateKind": self.update_kind, "reason": self.reason, "reasonWords": self.reason_words,
            "summary": self.summary, "expectedRevision": self.expected_revision, "state": self.state,
            "stateWords": self.state_words, "label": self.label,
            "partial": ({"approved": self.partial[0], "of": self.partial[1]} if self.partial else None),
            "createdAt": rfc3339(self.created_at), "resolvedAt": rfc3339(self.resolved_at),
            "resolvedBy": self.resolved_by, **({"existing": self.details.get("existing"),
                                                 "incoming": self.details.get("incoming")} if self.kind == "conflict" else {}),
            "pages": [p.json() for p in self.page_list], "sources": list(self.details.get("sources") or []),
        }


PAGE_COLUMNS = "item_id, page_path, title, update_kind, reason, summary, proposed_body, expected_revision"


def pages_of(rows: list[Any]) -> dict[int, tuple[ItemPage, ...]]:
    out: dict[int, list[ItemPage]] = {}
    for r in rows:
        out.setdefault(int(r[0]), []).append(ItemPage(r[1], r[2], r[3], r[4], r[5], r[6], int(r[7])))
    return {k: tuple(v) for k, v in out.items()}


def load_pages(query: Any, ids: list[int]) -> dict[int, tuple[ItemPage, ...]]:
    out: dict[int, tuple[ItemPage, ...]] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        out.update(pages_of(list(query(
            f"SELECT {PAGE_COLUMNS} FROM review_item_pages WHERE item_id IN ({','.join('?' * len(chunk))}) "
            "ORDER BY item_id, position", tuple(chunk)))))
    return out


def item_from_row(row: sqlite3.Row, pages: tuple[ItemPage, ...] = ()) -> ReviewItem:
    d = dict(row)
    d["details"] = json.loads(d.pop("details_json") or "{}")
    return ReviewItem(**d, pages=pages)


def item_filter(workspace: str | None, kb_id: str | None, state: str | None) -> tuple[str, list[Any]]:
    """The WHERE clause (and its parameters) choosing the items of a workspace, a base and a state."""
    sql, params = " WHERE 1 = 1", []
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
    return sql, params


def list_items(ctx: ServiceContext, workspace: str | None = None, *, state: str | None = OPEN,
               kb_id: str | None = None) -> list[ReviewItem]:
    where, params = item_filter(workspace, kb_id, state)
    rows = ctx.store.query(f"SELECT {ITEM_COLUMNS} FROM review_items{where} ORDER BY id", tuple(params))
    pages = load_pages(ctx.store.query, [int(r["id"]) for r in rows])
    return [item_from_row(r, pages.get(int(r["id"]), ())) for r in rows]


def get_item(ctx: ServiceContext, item_id: int | str) -> ReviewItem:
    try:
        iid = int(item_id)
    except (TypeError, ValueError):
        raise InvalidInput(f"'{item_id}' is not a review item id (a number)") from None
    row = ctx.store.query_one(f"SELECT {ITEM_COLUMNS} FROM review_items WHERE id = ?", (iid,))
    if row is None:
        raise NotFound(f"no review item {iid}")
    return item_from_row(row, load_pages(ctx.store.query, [iid]).get(iid, ()))


def actor_name() -> str:
    import getpass  # noqa: PLC0415

    try:
        return f"human:{getpass.getuser()}"
    except Exception:  # noqa: BLE001
        return "human:unknown"


def read_live_page(wiki: Path, rel: str) -> str | None:
    """The text of `wiki/rel` when it is a regular file (not a symlink), else None."""
    p = wiki / rel
    try:
        if not stat.S_ISREG(os.lstat(p).st_mode):
            return None
        with open(p, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError):
        return None


@dataclass(frozen=True)
class Counts:
    held: int
    conflicts: int

    @property
    def open(self) -> int:
        return self.held + self.conflicts

    def words(self, shown: int | None = None) -> str:
        """"5999 open: 5499 held, 500 conflicts · showing 500" (the last part when not all are shown)."""
        text = (f"{self.open} open: {self.held} held, {self.conflicts} conflict{'s' if self.conflicts != 1 else ''}")
        if shown is not None and shown < self.open:
            text += f" · showing {shown}"
        return text


@dataclass(frozen=True)
class ListingPage:
    items: tuple[ReviewItem, ...]
    total: int
    limit: int
    offset: int
    counts: Counts

    @property
    def next(self) -> int | None:
        end = self.offset + len(self.items)
        return end if end < self.total else None

    def json(self) -> dict[str, Any]:
        return {"items": [i.json() for i in self.items], "total": self.total, "limit": self.limit,
                "offset": self.offset, "next": self.next,
                "counts": {"open": self.counts.open, "held": self.counts.held, "conflicts": self.counts.conflicts}}


def open_counts(ctx: ServiceContext, workspace: str | None = None, kb_id: str | None = None) -> Counts:
    where, params = item_filter(workspace, kb_id, OPEN)
    rows = ctx.store.query(f"SELECT kind, COUNT(*) FROM review_items{where} GROUP BY kind", tuple(params))
    by_kind = {r[0]: int(r[1]) for r in rows}
    return Counts(held=by_kind.get("held", 0), conflicts=by_kind.get("conflict", 0))


def open_counts_by_base(ctx: ServiceContext) -> dict[tuple[str, str], int]:
    """Open items of every base, by (workspace, base id): one query, for status lines."""
    rows = ctx.store.query("SELECT workspace, base_id, COUNT(*) FROM review_items WHERE state = 'open' "
                           "GROUP BY workspace, base_id")
    return {(r[0], r[1]): int(r[2]) for r in rows}


def list_page(ctx: ServiceContext, workspace: str | None = None, *, state: str | None = OPEN,
              kb_id: str | None = None, limit: int = DEFAULT_LIMIT, offset: int = 0,
              kind: str | None = None) -> ListingPage:
    """One page of items (oldest first), the total matching, and the open counts. `kind`: only held
    items or only conflicts."""
    if not 1 <= int(limit) <= MAX_LIMIT:
        raise InvalidInput(f"--limit must be between 1 and {MAX_LIMIT}, not {limit}")
    if int(offset) < 0:
        raise InvalidInput(f"--offset must be 0 or more, not {offset}")
    where, params = item_filter(workspace, kb_id, state)
    if kind is not None:
        if kind not in ("held", "conflict"):
            raise InvalidInput(f"kind must be held or conflict, not {kind!r}")
        where, params = (f"{where} AND kind = ?" if where else " WHERE kind = ?"), [*params, kind]
    total_row = ctx.store.query_one(f"SELECT COUNT(*) FROM review_items{where}", tuple(params))
    rows = ctx.store.query(f"SELECT {ITEM_COLUMNS} FROM review_items{where} ORDER BY id LIMIT ? OFFSET ?",
                           (*params, int(limit), int(offset)))
    pages = load_pages(ctx.store.query, [int(r["id"]) for r in rows])
    items = tuple(item_from_row(r, pages.get(int(r["id"]), ())) for r in rows)
    return ListingPage(items, int(total_row[0]) if total_row else 0, int(limit), int(offset),
                       open_counts(ctx, workspace, kb_id))
