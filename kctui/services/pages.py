"""The compiled pages of a knowledge base, for reading: the use cases of `kctui page list` and the app's
Pages screen.

    list_pages(ctx, ws, kb)           -> {"items": [page, …], "total", "counts"}: every page of the promoted
                                         wiki with its class, trust status (and why) and open review items
    page_detail(ctx, ws, kb, page)    -> `search.page_view` plus the body as Markdown to render (front matter
                                         dropped, links pointing at page paths), the pages it links to, each
                                         claim's cited source lines, and the page's open review items

Both read the search index (brought up to date first, so they see exactly the promoted generation) and
the store; neither writes anything.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from kctui.core.frontmatter import FrontmatterError, split_frontmatter
from kctui.core.trust import REASON_WORDS
from kctui.search.flags import flag_of
from kctui.services.context import ServiceContext
from kctui.services.review import cited_source_lines
from kctui.services.search import page_view, prepare

CLASS_ORDER = ("source", "concept", "entity", "page")
CITED_CLAIMS = 200  # claims whose cited lines are read (a page rarely has more)
CITED_LINES = 8
_WIKILINK = re.compile(r"\[\[(?P<slug>[^\]|\\]+)(?:\|(?P<text>(?:\\.|[^\]\\])*))?\]\]")
_MDLINK = re.compile(r"(?<!\\)\[(?P<text>(?:\\.|[^\]\\])*)\]\((?P<href>[^)\s]*)\)")


def _open_counts(ctx: ServiceContext, workspace: str, kb_id: str) -> dict[str, int]:
    """Open review items per page path (an item that revises several pages counts on each)."""
    rows = ctx.store.query(
        "SELECT p, COUNT(DISTINCT id) FROM (SELECT i.id AS id, i.page_path AS p FROM review_items i "
        "WHERE i.state = 'open' AND i.workspace = ? AND i.base_id = ? UNION SELECT i.id, rp.page_path FROM "
        "review_item_pages rp JOIN review_items i ON i.id = rp.item_id WHERE i.state = 'open' AND i.workspace = ? "
        "AND i.base_id = ?) GROUP BY p", (workspace, kb_id, workspace, kb_id))
    return {r[0]: int(r[1]) for r in rows}


def list_pages(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str) -> dict[str, Any]:
    """Every compiled page, grouped by class (sources, concepts, entities, then anything else) and
    by path within a class, each with its status (a flag wins over the compile status) and why."""
    base, index, key, _stats = prepare(ctx, workspace, kb_id)
    open_items = _open_counts(ctx, base.workspace, base.id)
    now = ctx.now()
    items = []
    for row in index.all_pages(key):
        flag = flag_of(row["compile_status"], json.loads(row["notice_json"]), row["stale_after"], now)
        items.append({"page": row["path"], "slug": row["slug"], "title": row["title"], "pageClass": row["kind"],
                      "status": flag["status"] if flag else row["compile_status"],
                      "why": flag["why"] if flag else "", "description": row["description"],
                      "openItems": open_items.get(row["path"], 0)})
    rank = {c: i for i, c in enumerate(CLASS_ORDER)}
    items.sort(key=lambda p: (rank.get(p["pageClass"], len(rank)), p["page"]))
    counts: dict[str, int] = {}
    for p in items:
        counts[p["pageClass"]] = counts.get(p["pageClass"], 0) + 1
    return {"workspaceRoot": base.workspace, "knowledgeBaseId": base.id, "compiled": bool(base.last_compiled_digest),
            "items": items, "total": len(items), "counts": counts}


def link_path(href: str, here: str = "") -> str | None:
    """The wiki page path a Markdown link's target names (`/concepts/x.md`, `../entities/y.md`,
    `entities/y.md`), or None for anything else (a web address, an anchor, a path out of the wiki)."""
    href = href.split("#", 1)[0].strip()
    if not href.endswith(".md") or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", href):
        return None
    if href.startswith("/"):
        parts = href.lstrip("/").split("/")
    else:
        parts = [p for p in here.split("/")[:-1] if p] + href.split("/")
    out: list[str] = []
    for part in parts:
        if part in ("", "."):
            continue
        if part == "..":
            if not out:
                return None
            out.pop()
            continue
        out.append(part)
    return "/".join(out) or None


def _unescape(text: str) -> str:
    return re.sub(r"\\([\\\[\]|])", r"\1", text)


def readable_markdown(body: str, here: str, resolve: dict[str, str]) -> tuple[str, list[str]]:
    """(the page body as Markdown to render, the page paths it links to in order). The front matter
    is dropped; a wikilink `[[slug|Text]]` becomes `[Text](path)` when `resolve` (slug -> path) knows
    the slug, else plain text; a Markdown link to a wiki page points at its page path."""
    try:
        _header, text, _used = split_frontmatter(body)
    except FrontmatterError:
        text = body
    order: list[str] = []

    def seen(path: str) -> None:
        if path not in order:
            order.append(path)

    def wiki(m: re.Match[str]) -> str:
        slug = m.group("slug").strip()
        label = _unescape(m.group("text") or slug).replace("[", "\\[").replace("]", "\\]")
        path = resolve.get(slug)
        if path is None:
            return label
        seen(path)
        return f"[{label}]({path})"

    def md(m: re.Match[str]) -> str:
        path = link_path(m.group("href"), here)
        if path is None or path not in resolve.values():
            return m.group(0)
        seen(path)
        return f"[{m.group('text')}]({path})"

    text = _WIKILINK.sub(wiki, text)
    text = _MDLINK.sub(md, text)
    return text.lstrip("\n"), order


def _open_items(ctx: ServiceContext, workspace: str, kb_id: str, page: str) -> list[dict[str, Any]]:
    rows = ctx.store.query(
        "SELECT i.id, i.kind, i.reason, i.summary, i.title, i.page_path, i.expected_revision FROM review_items i "
        "WHERE i.state = 'open' AND i.workspace = ? AND i.base_id = ? AND (i.page_path = ? OR i.id IN "
        "(SELECT item_id FROM review_item_pages WHERE page_path = ?)) ORDER BY i.id", (workspace, kb_id, page, page))
    return [{"id": r["id"], "kind": r["kind"], "reason": r["reason"],
             "reasonWords": REASON_WORDS.get(r["reason"], r["reason"]), "summary": r["summary"] or "",
             "title": r["title"] or "", "page": r["page_path"], "expectedRevision": r["expected_revision"]}
            for r in rows]


def page_detail(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, page: str) -> dict[str, Any]:
    """One page to read (see the module docstring). `page` is a path or a slug."""
    data = page_view(ctx, workspace, kb_id, page)
    base, index, key, _stats = prepare(ctx, workspace, kb_id)
    rows = index.all_pages(key)
    by_path = {r["path"]: r for r in rows}
    resolve: dict[str, str] = {}
    for r in rows:  # a slug two classes share resolves to the first class (sources, concepts, entities)
        resolve.setdefault(r["slug"], r["path"])
    markdown, linked = readable_markdown(data.get("body") or "", data["page"], resolve)
    now = ctx.now()
    links = []
    for path in linked:
        row = by_path[path]
        flag = flag_of(row["compile_status"], json.loads(row["notice_json"]), row["stale_after"], now)
        links.append({"page": path, "title": row["title"], "pageClass": row["kind"],
                      "status": flag["status"] if flag else row["compile_status"]})
    cache: dict[str, str | None] = {}
    for claim in data["claims"][:CITED_CLAIMS]:
        cite = str(claim.get("citation") or "").split("]", 1)[0] + "]"
        if cite not in cache:
            cache[cite] = cited_source_lines(base.workspace, base.id, cite, limit=CITED_LINES)
        claim["citedLines"] = cache[cite]
    data.update(markdown=markdown, links=links, openItems=_open_items(ctx, base.workspace, base.id, data["page"]))
    return data
