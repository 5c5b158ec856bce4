"""Reviewed marks (issue 35): an item a person opened is marked read; the mark clears when the item's
content changes (a later pass refreshes its proposal or its sides — `review.file_manifest`), so it
counts as unread again. Durable in the store (`review_reads`), shared by every screen and process:
the review pane's "12 unread / 40", and `N` (the next unread open item, across bases)."""

from __future__ import annotations

import sqlite3

from kctui.services.context import ServiceContext

_UNREAD = ("FROM review_items i WHERE i.state = 'open' AND NOT EXISTS "
           "(SELECT 1 FROM review_reads r WHERE r.item_id = i.id)")


def mark_read(ctx: ServiceContext, item_id: int, reader: str = "") -> None:
    with ctx.store.write() as conn:
        conn.execute("INSERT INTO review_reads(item_id, read_at, reader) SELECT id, ?, ? FROM review_items "
                     "WHERE id = ? ON CONFLICT(item_id) DO NOTHING", (ctx.now(), reader, int(item_id)))


def is_read(ctx: ServiceContext, item_id: int) -> bool:
    return ctx.store.query_one("SELECT 1 FROM review_reads WHERE item_id = ?", (int(item_id),)) is not None


def clear_read(conn: sqlite3.Connection, item_id: int) -> None:
    """Inside the caller's transaction: the item's content changed, it is unread again."""
    conn.execute("DELETE FROM review_reads WHERE item_id = ?", (int(item_id),))


def unread_count(ctx: ServiceContext) -> int:
    row = ctx.store.query_one(f"SELECT COUNT(*) {_UNREAD}")
    return int(row[0]) if row else 0


def next_unread(ctx: ServiceContext, after: int | None = None) -> int | None:
    """The id of the next unread open item after `after` (oldest first, any base), wrapping round; None
    when every open item was read."""
    row = ctx.store.query_one(f"SELECT i.id {_UNREAD} AND i.id > ? ORDER BY i.id LIMIT 1", (int(after or 0),))
    if row is None and after:
        row = ctx.store.query_one(f"SELECT i.id {_UNREAD} ORDER BY i.id LIMIT 1")
    return int(row[0]) if row else None


__all__ = ["mark_read", "is_read", "clear_read", "unread_count", "next_unread"]
