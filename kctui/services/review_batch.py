"""The decisions of one promotion as they are planned (`review_decide`): the page texts and held
proposals the decisions so far leave, with what planning looks up once per batch — the open items on
each page, the live pages, the digests of the sources a proposal was made from."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from kctui import paths
from kctui.core.clock import rfc3339
from kctui.core.page_status import split_page
from kctui.services.review_items import ReviewItem, read_live_page

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
