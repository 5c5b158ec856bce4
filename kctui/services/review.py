"""The review queue (trust.md §4) where it meets a compile and a reviewer: a compile's `review.json`
read and its held updates and conflicts filed into the queue, and an item shown as a reviewer sees it.
Every resolution reaches `wiki/` through promotion, never by editing files in place, and requires the
page revision the reviewer saw (`expected_revision`).

The review services, in five modules:

- `review_queue`: the read side — an item and its pages, reading items back, paged listings and counts;
- `review` (this one): `review.json` and filing it, showing an item, the open items of every base;
- `review_decide`: deciding — one item, or a batch of one base, through ONE promotion;
- `review_bulk`: bulk actions — choosing the items (a job's, a source's, every one) and deciding them
  base by base;
- `review_publish`: publishing decisions (page promotion), what a published decision does to the
  other open items, and settling a decision a crash interrupted.

The compiler's review manifest, `<job dir>/review.json` beside the staged `wiki/`: a compiler that holds
updates or raises conflicts lists them there (an external compiler may omit it). The host validates it
with pydantic (fail closed: an invalid manifest fails the job as invalid output) and files each item in
the review queue in the same transaction that records the promotion.

```json
{"version": 1, "items": [
  {"kind": "held", "page": "concepts/x.md", "title": "X", "updateKind": "revise",
   "reason": "autonomy_ceiling", "summary": "…", "proposedBody": "<the whole page text>"},
  {"kind": "conflict", "page": "entities/python.md", "title": "Python", "reason": "contradiction",
   "summary": "3.12 eol", "proposedBody": "<page text using the new value>",
   "existing": {"value": "2028-10-31", "citation": "python.md:L12-L12", "source": "python.md"},
   "incoming": {"value": "2028-10-01", "citation": "notes.md:L3-L3", "source": "notes.md"},
   "fingerprint": "4c9b53ae5542f9c0"}
]}
```

A held item may be a change set: `"pages": [{"page", "title", "updateKind", "reason", "summary",
"proposedBody"}, …]` (its top-level fields then describe the first page) and `"sources"`.
"""

from __future__ import annotations

import difflib
import json
import re
import sqlite3
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from kctui import paths
from kctui.compiler.trust.disputes import block_dispute_count, decide_dispute
from kctui.core.page_status import same_content
from kctui.core.source_text import source_lines
from kctui.core.trust import HoldReason
from kctui.services.context import ServiceContext
from kctui.services.review_decide import resolve, resolve_many
from kctui.services.review_hunks import item_hunks
from kctui.services.review_queue import OPEN, PAGE_COLUMNS, ReviewItem, get_item, list_items, read_live_page
from kctui.services.review_reads import clear_read
from kctui.services.revisions import current_revision_number

MAX_MANIFEST_BYTES = 32 * 1024 * 1024
MAX_ITEMS = 10_000


class Side(BaseModel):
    model_config = ConfigDict(extra="ignore")
    value: str = Field(max_length=4000)
    citation: str = Field(max_length=2000)
    source: str = Field(default="", max_length=1024)
    line: str = Field(default="", max_length=4000)  # the cited source text, when the compiler gives it


class ManifestPage(BaseModel):
    """One page of a held change set: its own proposal (the whole page text) and summary."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    page: str = Field(max_length=1024)
    title: str = Field(default="", max_length=1000)
    update_kind: Literal["create", "append", "revise", "supersede"] | None = Field(default=None, alias="updateKind")
    reason: str = ""
    summary: str = Field(default="", max_length=4000)
    proposed_body: str | None = Field(default=None, alias="proposedBody", max_length=4_000_000)

    @field_validator("page")
    @classmethod
    def _safe_page(cls, v: str) -> str:
        return safe_page(v)


class ManifestItem(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    kind: Literal["held", "conflict"]
    page: str = Field(max_length=1024)
    title: str = Field(default="", max_length=1000)
    update_kind: Literal["create", "append", "revise", "supersede"] | None = Field(default=None, alias="updateKind")
    reason: str
    summary: str = Field(default="", max_length=4000)
    proposed_body: str | None = Field(default=None, alias="proposedBody", max_length=4_000_000)
    existing: Side | None = None
    incoming: Side | None = None
    # A conflict's identity (the fact's key and both values): a person's decision is recorded on the page
    # under `resolved_conflicts`, so the compiler does not raise the same disagreement again.
    fingerprint: str | None = Field(default=None, max_length=200, pattern=r"^[0-9A-Za-z_.:-]*$")
    # A held change set (issue 13): every page one source change revises, decided as one item. Absent:
    # the item is its one page. `sources`: the source paths whose change it carries.
    pages: list[ManifestPage] = Field(default_factory=list, max_length=MAX_ITEMS)
    sources: list[str] = Field(default_factory=list, max_length=MAX_ITEMS)

    def page_list(self) -> list[ManifestPage]:
        if self.pages and self.kind == "held":
            return self.pages
        return [ManifestPage(page=self.page, title=self.title, updateKind=self.update_kind, reason=self.reason,
                         summary=self.summary, proposedBody=self.proposed_body)]

    @field_validator("page")
    @classmethod
    def _safe_page(cls, v: str) -> str:
        return safe_page(v)

    @field_validator("reason")
    @classmethod
    def _known_reason(cls, v: str) -> str:
        if v not in {r.value for r in HoldReason}:
            raise ValueError(f"unknown reason code {v!r}")
        return v


def safe_page(v: str) -> str:
    if (not v.endswith(".md") or v.startswith("/") or "\\" in v or "\0" in v
            or any(part in ("", ".", "..") for part in v.split("/"))):
        raise ValueError(f"page path {v!r} escapes the wiki or is not a .md page")
    return v


class ClosedConflict(BaseModel):
    model_config = ConfigDict(extra="ignore")
    page: str = Field(max_length=1024)
    fingerprint: str = Field(max_length=200)

    @field_validator("page")
    @classmethod
    def _safe_page(cls, v: str) -> str:
        return safe_page(v)


class Manifest(BaseModel):
    """`settled`: pages whose earlier held proposals this pass replaced (it proposed them again in full
    from the current sources): their open held items are superseded even if nothing is held for them
    now. `closedConflicts`: disagreements no longer there (a source changed or went away): their open
    conflict items are superseded. Both optional."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    version: Literal[1] = 1
    items: list[ManifestItem] = Field(default_factory=list, max_length=MAX_ITEMS)
    settled: list[str] = Field(default_factory=list, max_length=MAX_ITEMS)
    closed_conflicts: list[ClosedConflict] = Field(default_factory=list, alias="closedConflicts",
                                                   max_length=MAX_ITEMS)

    @field_validator("settled")
    @classmethod
    def _safe_pages(cls, v: list[str]) -> list[str]:
        return [safe_page(p) for p in v]


class ManifestError(Exception):
    pass


def read_manifest(job_dir: Path) -> Manifest | None:
    path = job_dir / "review.json"
    if not path.exists():
        return None
    if path.is_symlink() or not path.is_file():
        raise ManifestError("review.json is not a regular file")
    if path.stat().st_size > MAX_MANIFEST_BYTES:
        raise ManifestError("review.json is larger than 32 MiB")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Manifest.model_validate(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ManifestError(f"review.json is not valid JSON: {exc}") from exc
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise ManifestError(f"review.json: {where}: {err['msg']}") from exc


def _open_items_on(conn: sqlite3.Connection, workspace: str, kb_id: str, pages: list[str], kind: str) -> list[int]:
    found: set[int] = set()
    for i in range(0, len(pages), 500):
        chunk = pages[i:i + 500]
        found |= {int(r[0]) for r in conn.execute(
            "SELECT DISTINCT i.id FROM review_item_pages p CROSS JOIN review_items i ON i.id = p.item_id "
            f"WHERE p.page_path IN ({','.join('?' * len(chunk))}) AND i.workspace = ? AND i.base_id = ? "
            "AND i.kind = ? AND i.state = 'open'", (*chunk, workspace, kb_id, kind))}
    return sorted(found)


def _supersede(conn: sqlite3.Connection, ids: list[int], now_us: int, job_id: str) -> None:
    for iid in ids:
        conn.execute("UPDATE review_items SET state = 'superseded', resolved_at = ?, resolved_by = ? "
                     "WHERE id = ? AND state = 'open'", (now_us, job_id, iid))


def file_manifest(conn: sqlite3.Connection, workspace: str, kb_id: str, job_id: str, manifest: Manifest | None,
                  now_us: int) -> int:
    """Inside the promotion's transaction: file the pass's items with the revision the reviewer will
    see. An item's identity is stable (issue 13): a held change set that shares a page with an open
    one refreshes it in place (its id stays; its pages, proposals and expected revisions follow this
    pass), a conflict with the same page and fingerprint likewise. Open held items of pages this pass
    proposed again in full (`settled`) and not filed again are superseded, as are conflicts no longer
    there (`closedConflicts`)."""
    if manifest is None:
        return 0
    filed: set[int] = set()
    for it in manifest.items:
        filed.add(_file_item(conn, workspace, kb_id, job_id, it, filed, now_us))
    _supersede(conn, [i for i in _open_items_on(conn, workspace, kb_id, list(manifest.settled), "held")
                      if i not in filed], now_us, job_id)
    for closed in manifest.closed_conflicts:
        _supersede(conn, _open_conflicts(conn, workspace, kb_id, closed.page, closed.fingerprint, filed), now_us, job_id)
    follow_revisions(conn, workspace, kb_id)
    return len(manifest.items)


def _file_item(conn: sqlite3.Connection, workspace: str, kb_id: str, job_id: str, it: ManifestItem, filed: set[int],
               now_us: int) -> int:
    """File one item: refresh the open item it is (its id stays) or add it. Returns its id."""
    pages = it.page_list()
    paths = [p.page for p in pages]
    if it.kind == "held":
        same = [i for i in _open_items_on(conn, workspace, kb_id, paths, "held") if i not in filed]
    else:
        same = _open_conflicts(conn, workspace, kb_id, it.page, it.fingerprint, filed)
    revs = [current_revision_number(conn, workspace, kb_id, p) for p in paths]
    values = (it.page, Path(it.page).stem, it.title, it.update_kind, it.reason, it.summary, it.proposed_body,
              json.dumps(_details(it), sort_keys=True), revs[0])
    if same:
        iid = same[0]
        if _content(conn, iid) != (it.proposed_body, json.dumps(_details(it), sort_keys=True),
                                   [(p.page, p.proposed_body) for p in pages]):
            clear_read(conn, iid)  # what the person read is not what the item says now
        conn.execute("UPDATE review_items SET page_path = ?, slug = ?, title = ?, update_kind = ?, reason = ?, "
                     "summary = ?, proposed_body = ?, details_json = ?, expected_revision = ?"
                     + (", job_id = ?" if it.kind == "held" else "") + " WHERE id = ?",
                     (*values, *((job_id,) if it.kind == "held" else ()), iid))
        _supersede(conn, same[1:], now_us, job_id)
        conn.execute("DELETE FROM review_item_pages WHERE item_id = ?", (iid,))
    else:
        cur = conn.execute(
            "INSERT INTO review_items(workspace, base_id, job_id, kind, page_path, slug, title, update_kind, "
            "reason, summary, proposed_body, details_json, expected_revision, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (workspace, kb_id, job_id, it.kind, *values, now_us))
        iid = int(cur.lastrowid)
    for pos, (p, rev) in enumerate(zip(pages, revs)):
        conn.execute(f"INSERT INTO review_item_pages({PAGE_COLUMNS}, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (iid, p.page, p.title, p.update_kind, p.reason or it.reason, p.summary, p.proposed_body,
                      rev, pos))
    return iid


def _content(conn: sqlite3.Connection, iid: int) -> tuple[str | None, str, list[tuple[str, str | None]]]:
    """What a person reads of an item: its proposal, its sides, each page's proposal."""
    row = conn.execute("SELECT proposed_body, details_json FROM review_items WHERE id = ?", (iid,)).fetchone()
    pages = [(str(r[0]), r[1]) for r in conn.execute(
        "SELECT page_path, proposed_body FROM review_item_pages WHERE item_id = ? ORDER BY position", (iid,))]
    return (row[0], json.dumps(json.loads(row[1] or "{}"), sort_keys=True), pages) if row else (None, "", [])


def _open_conflicts(conn: sqlite3.Connection, workspace: str, kb_id: str, page: str, fingerprint: str | None,
                    filed: set[int]) -> list[int]:
    """The open conflict items on `page` with this fingerprint, not filed by this pass."""
    return [int(row[0]) for row in conn.execute(
        "SELECT id, details_json FROM review_items WHERE workspace = ? AND base_id = ? "
        "AND page_path = ? AND kind = 'conflict' AND state = 'open' ORDER BY id", (workspace, kb_id, page)).fetchall()
        if row[0] not in filed and json.loads(row[1] or "{}").get("fingerprint") == fingerprint]


def _details(it: ManifestItem) -> dict[str, Any]:
    details: dict[str, Any] = {}
    if it.existing:
        details["existing"] = it.existing.model_dump()
    if it.incoming:
        details["incoming"] = it.incoming.model_dump()
    if it.fingerprint:
        details["fingerprint"] = it.fingerprint
    if it.sources:
        details["sources"] = list(it.sources)
    return details


def follow_revisions(conn: sqlite3.Connection, workspace: str, kb_id: str) -> None:
    """Every open item of the base shows (and is checked against) its pages' current revisions where
    that is safe: a conflict is decided against the page as it is, so it always follows; a held
    proposal follows only if the page changed in its flags alone (stale, status). A page whose content
    changed under a held proposal keeps the revision the proposal was made against, so approving it
    is refused as a revision conflict, never applied over newer content."""
    rows = conn.execute(
        "SELECT p.item_id, p.page_path, p.expected_revision, i.kind, i.page_path FROM review_item_pages p "
        "JOIN review_items i ON i.id = p.item_id WHERE i.workspace = ? AND i.base_id = ? AND i.state = 'open'",
        (workspace, kb_id)).fetchall()
    pages = list(dict.fromkeys(str(r[1]) for r in rows))
    current: dict[str, int] = {}
    for at in range(0, len(pages), 500):  # the pages' current revisions, a few queries for the base
        chunk = pages[at:at + 500]
        current.update((str(page), int(n or 0)) for page, n in conn.execute(
            "SELECT page_path, MAX(number) FROM page_revisions WHERE workspace = ? AND base_id = ? AND "
            f"page_path IN ({','.join('?' * len(chunk))}) GROUP BY page_path", (workspace, kb_id, *chunk)))
    for item_id, page, seen, kind, head in rows:
        now = current.get(str(page), 0)
        if now == seen:
            continue
        if kind == "held":
            bodies = dict(conn.execute(
                "SELECT number, body FROM page_revisions WHERE workspace = ? AND base_id = ? AND page_path = ? "
                "AND number IN (?, ?)", (workspace, kb_id, page, seen, now)).fetchall())
            if seen not in bodies or now not in bodies or not same_content(bodies[seen], bodies[now]):
                continue
        conn.execute("UPDATE review_item_pages SET expected_revision = ? WHERE item_id = ? AND page_path = ?",
                     (now, item_id, page))
        if page == head:
            conn.execute("UPDATE review_items SET expected_revision = ? WHERE id = ?", (now, item_id))


def live_page_text(item: ReviewItem, page_path: str | None = None) -> str | None:
    return read_live_page(paths.wiki_path(Path(item.workspace), item.base_id), page_path or item.page_path)


_CITATION = re.compile(r"^(?P<path>.+?):(?:L(?P<start>\d+)(?:-L(?P<end>\d+))?|p(?P<page>\d+))$")


def cited_source_lines(workspace: str, kb_id: str, citation: str, limit: int = 40) -> str | None:
    """The cited lines of a source (never following a symlink or leaving `sources/`)."""
    m = _CITATION.match(citation.strip().lstrip("^[").rstrip("]"))
    if not m or m.group("page"):
        return None
    rel = m.group("path")
    if rel.startswith("/") or ".." in rel.split("/") or "\0" in rel:
        return None
    root = paths.sources_path(Path(workspace), kb_id)
    target = root / rel
    cur = root
    for part in Path(rel).parts:
        cur = cur / part
        if cur.is_symlink():
            return None
    try:
        lines = source_lines(target)
    except OSError:
        return None
    start = int(m.group("start"))
    end = int(m.group("end") or start)
    chosen = lines[start - 1: min(end, start - 1 + limit)]
    return "\n".join(f"{n:>5}  {t}" for n, t in enumerate(chosen, start))


def show_item(ctx: ServiceContext, item_id: int | str) -> dict[str, Any]:
    item = get_item(ctx, item_id)
    current = live_page_text(item)
    data = item.json()
    data["currentBody"] = current
    data["proposedBody"] = item.proposed_body
    if item.kind == "held":
        diffs = []
        for page, shown in zip(item.page_list, data["pages"]):
            text = current if page.page_path == item.page_path else live_page_text(item, page.page_path)
            shown["diff"] = "".join(difflib.unified_diff(
                (text or "").splitlines(keepends=True), (page.proposed_body or "").splitlines(keepends=True),
                fromfile=f"a/{page.page_path} (revision {page.expected_revision})",
                tofile=f"b/{page.page_path} (proposed)"))
            diffs.append(shown["diff"])
            shown["currentText"], shown["proposedText"] = text, page.proposed_body
        data["diff"] = "".join(diffs)
        data["hunks"] = [{**h.json(), "citedLines": {c: cited_source_lines(item.workspace, item.base_id, c, limit=8)
                                                     for c in h.hunk.citations[:6]}}
                         for h in item_hunks(item, lambda rel: live_page_text(item, rel))]
    else:
        if current is not None:  # what use-new would publish: this dispute decided, nothing else
            decided, left = decide_dispute(current, str(item.details.get("fingerprint") or ""), "use_new")
            if left < block_dispute_count(current):
                data["proposedBody"] = decided
        for side in ("existing", "incoming"):
            s = item.details.get(side)
            if s:
                s["citedLines"] = cited_source_lines(item.workspace, item.base_id, s.get("citation", ""))
                data[side] = s
    with ctx.store.write() as conn:
        data["currentRevision"] = current_revision_number(conn, item.workspace, item.base_id, item.page_path)
    return data


__all__ = ["MAX_MANIFEST_BYTES", "Manifest", "ManifestError", "read_manifest", "file_manifest", "follow_revisions",
           "show_item", "cited_source_lines", "live_page_text",
           # the review queue's names the app calls on this module
           "OPEN", "ReviewItem", "get_item", "list_items", "resolve", "resolve_many"]
