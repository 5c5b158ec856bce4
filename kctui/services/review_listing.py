"""Paged listing and honest counts of the review queue: `review list --limit N --offset M` and the
review pane's title ("5999 open: 5499 held, 500 conflicts · showing 500"). Counts come from the store
(held + conflicts = open, always), never from the rows that happen to be loaded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kctui.services.context import ServiceContext
from kctui.services.errors import InvalidInput
from kctui.services.review_items import ITEM_COLUMNS, OPEN, ReviewItem, item_filter, load_pages
from kctui.services.review_items import item_from_row as _item

DEFAULT_LIMIT = 50
MAX_LIMIT = 10_000


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
    items = tuple(_item(r, pages.get(int(r["id"]), ())) for r in rows)
    return ListingPage(items, int(total_row[0]) if total_row else 0, int(limit), int(offset),
                       open_counts(ctx, workspace, kb_id))


__all__ = ["Counts", "ListingPage", "open_counts", "list_page", "DEFAULT_LIMIT"]
