"""Page revisions: every page write of a promoted generation becomes the page's next immutable
revision (trust.md §6). Recorded inside the same transaction that records the promotion."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from kctui import paths
from kctui.core.clock import rfc3339
from kctui.services.bases import get_base
from kctui.services.context import ServiceContext
from kctui.services.errors import InvalidInput, NotFound

RESERVED = {"index.md", "log.md"}


@dataclass(frozen=True)
class Revision:
    page_path: str
    slug: str
    number: int
    body: str
    deleted: bool
    author: str
    at: int
    reason: str

    def json(self, with_body: bool = False) -> dict:
        data = {"page": self.page_path, "slug": self.slug, "revision": self.number, "deleted": self.deleted,
                "author": self.author, "at": rfc3339(self.at), "reason": self.reason}
        if with_body:
            data["body"] = self.body
        return data


def _pages(wiki: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    if not wiki.is_dir():
        return out
    for root, dirs, files in os.walk(wiki, followlinks=False):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".md") or name in RESERVED:
                continue
            full = Path(root) / name
            if full.is_symlink():
                continue
            rel = full.relative_to(wiki).as_posix()
            try:
                out[rel] = full.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
    return out


def _digest(body: str) -> str:
    return "sha256:" + hashlib.sha256(body.encode("utf-8")).hexdigest()


def record_generation(conn: sqlite3.Connection, workspace: str, kb_id: str, wiki: Path, *, author: str,
                      reason: str, now_us: int) -> int:
    """Compare the live wiki with each page's latest revision; record a revision for every page that is
    new, changed or gone. Returns how many revisions were written."""
    latest = {
        r[0]: (r[1], r[2], bool(r[3]))
        for r in conn.execute(
            "SELECT page_path, number, body_digest, deleted FROM page_revisions p WHERE workspace = ? AND base_id = ? "
            "AND number = (SELECT MAX(number) FROM page_revisions q WHERE q.workspace = p.workspace "
            "AND q.base_id = p.base_id AND q.page_path = p.page_path)",
            (workspace, kb_id),
        )
    }
    pages = _pages(wiki)
    written = 0
    for rel, body in pages.items():
        digest = _digest(body)
        prev = latest.get(rel)
        if prev is not None and prev[1] == digest and not prev[2]:
            continue
        number = prev[0] + 1 if prev else 1
        conn.execute(
            "INSERT INTO page_revisions(workspace, base_id, page_path, slug, number, body, body_digest, deleted, "
            "author, at, reason) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
            (workspace, kb_id, rel, Path(rel).stem, number, body, digest, author, now_us,
             reason if prev else f"{reason}: page created"),
        )
        written += 1
    for rel, (number, _digest_, deleted) in latest.items():
        if rel not in pages and not deleted:
            conn.execute(
                "INSERT INTO page_revisions(workspace, base_id, page_path, slug, number, body, body_digest, deleted, "
                "author, at, reason) VALUES (?, ?, ?, ?, ?, '', ?, 1, ?, ?, ?)",
                (workspace, kb_id, rel, Path(rel).stem, number + 1, _digest(""), author, now_us,
                 f"{reason}: page removed"),
            )
            written += 1
    return written


def record_pages(conn: sqlite3.Connection, workspace: str, kb_id: str, pages: dict[str, str | None], *,
                  author: str, reason: str, now_us: int) -> int:
    """The page-level twin of `record_generation` for a page promotion: a revision for each page in
    `pages` (path -> the text now live, None = removed) that differs from its latest revision, without
    reading the rest of the wiki. Returns how many revisions were written."""
    written = 0
    for rel in sorted(pages):
        body = pages[rel]
        prev = conn.execute(
            "SELECT number, body_digest, deleted FROM page_revisions WHERE workspace = ? AND base_id = ? "
            "AND page_path = ? ORDER BY number DESC LIMIT 1", (workspace, kb_id, rel)).fetchone()
        if body is None:
            if prev is None or prev[2]:
                continue
            conn.execute(
                "INSERT INTO page_revisions(workspace, base_id, page_path, slug, number, body, body_digest, deleted, "
                "author, at, reason) VALUES (?, ?, ?, ?, ?, '', ?, 1, ?, ?, ?)",
                (workspace, kb_id, rel, Path(rel).stem, prev[0] + 1, _digest(""), author, now_us,
                 f"{reason}: page removed"))
            written += 1
            continue
        digest = _digest(body)
        if prev is not None and prev[1] == digest and not prev[2]:
            continue
        conn.execute(
            "INSERT INTO page_revisions(workspace, base_id, page_path, slug, number, body, body_digest, deleted, "
            "author, at, reason) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
            (workspace, kb_id, rel, Path(rel).stem, prev[0] + 1 if prev else 1, body, digest, author, now_us,
             reason if prev else f"{reason}: page created"))
        written += 1
    return written


def _resolve_page(ctx: ServiceContext, workspace: str, kb_id: str, slug: str) -> str:
    if not slug or "\0" in slug or slug.startswith("/") or ".." in slug.split("/"):
        raise InvalidInput(f"'{slug}' is not a page slug")
    rows = ctx.store.query(
        "SELECT DISTINCT page_path FROM page_revisions WHERE workspace = ? AND base_id = ? AND (slug = ? OR page_path = ?)",
        (workspace, kb_id, slug, slug),
    )
    if not rows:
        raise NotFound(f"no page '{slug}' in knowledge base {kb_id}")
    if len(rows) > 1:
        options = ", ".join(sorted(r[0] for r in rows))
        raise InvalidInput(f"'{slug}' names several pages ({options}); give the page path")
    return rows[0][0]


def page_history(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, slug: str) -> list[Revision]:
    base = get_base(ctx, workspace, kb_id)
    page = _resolve_page(ctx, base.workspace, base.id, slug)
    rows = ctx.store.query(
        "SELECT page_path, slug, number, body, deleted, author, at, reason FROM page_revisions "
        "WHERE workspace = ? AND base_id = ? AND page_path = ? ORDER BY number",
        (base.workspace, base.id, page),
    )
    return [Revision(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6], r[7]) for r in rows]


def page_revision(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, slug: str,
                  number: int | None = None) -> Revision:
    history = page_history(ctx, workspace, kb_id, slug)
    if number is None:
        return history[-1]
    for rev in history:
        if rev.number == number:
            return rev
    raise NotFound(f"page '{slug}' has no revision {number} (it has 1–{history[-1].number})")


def current_revision_number(conn: sqlite3.Connection, workspace: str, kb_id: str, page_path: str) -> int:
    row = conn.execute(
        "SELECT MAX(number) FROM page_revisions WHERE workspace = ? AND base_id = ? AND page_path = ?",
        (workspace, kb_id, page_path),
    ).fetchone()
    return int(row[0] or 0)


def live_wiki(workspace: str, kb_id: str) -> Path:
    return paths.wiki_path(Path(workspace), kb_id)
