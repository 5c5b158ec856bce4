"""What a published review decision does to the other open items of its pages (run by the decision
itself, `review_decide`, and by crash recovery, `review_recovery`): held proposals on its pages carry
the decision, and every open item on them follows their new revision."""

from __future__ import annotations

import sqlite3


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
