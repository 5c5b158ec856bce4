# size: the search use cases (search, hits, a page view, the context packet) share one ranking of pages and one way to read a page hit.
"""Search over a knowledge base's promoted wiki, and context over both its layers: the use cases the CLI, the
API and the app share.

    search(ctx, ws, kb, query, limit=20)          -> {"items": [hit, …], "total", "match", "nextActions", …}
    hits(ctx, ws, kb, query, limit=20)            -> [hit, …]                 (the app's search screen)
    page_view(ctx, ws, kb, page)                  -> one page: status line, flag, claims with citations,
                                                     body and revision history (the app's page view)
    context(ctx, ws, kb, query, budget, fmt)      -> the packet over both layers, never over `budget`
    refresh(ctx, ws, kb)                          -> RefreshStats (what the promotion hook does)

Every call first brings the base's index up to date when its wiki generation moved (see
kctui/search/index.py), so results never depend on the promotion hook having run.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kctui import paths
from kctui.compiler.builtin import words as wd
from kctui.core.glyphs import status_glyph
from kctui.search import context as packets
from kctui.search.asked_for import asked_for, states
from kctui.search.claim_match import PageClaims, best_claims, page_claims
from kctui.search.decided_lines import decided_spans
from kctui.search.flags import flag_of
from kctui.search.index import (
    RefreshStats,
    SearchIndex,
    SearchIndexError,
    base_key,
    index_file,
)
from kctui.search.named_values import NAMED_BEFORE
from kctui.search.passage_counts import passage_share, passage_shares
from kctui.search.passage_index import neighbours, passage_expression, rank_passages, refresh_passages
from kctui.search.passage_scores import SECTION_HITS, SECTION_REACH, VALUE_REACH
from kctui.search.query import (
    ParsedQuery,
    QueryError,
    owners_of,
    parse_query,
    people_in,
    snippet,
    tokens,
)
from kctui.search.ranking import defines, fuse
from kctui.search.second_hop import second_hop
from kctui.search.time_words import asks_latest
from kctui.search.turn_form import SAID
from kctui.search.word_forms import with_forms
from kctui.services.bases import get_base
from kctui.services.context import ServiceContext
from kctui.services.errors import InvalidInput, IOFailure, NotFound
from kctui.services.search_refresh import ensure_fresh

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
HIT_CLAIMS = 5
PACKET_PAGES = 50
PACKET_CLAIMS = 8
FUSED_PAGES = 12  # the best pages whose claims are ranked against the raw passages
FUSED_PASSAGES = 100  # the raw passages ranked against the pages: 60 → 100 with turn_form.TALK, conversations
# 1,090 → 1,105 of 1,394 (80: 1,103, 150: 1,103; 60 with TALK 1,099, 150 without it 1,093)
STATING = 3  # a named page's claims that state what the query asks for (a time, an amount …), beyond those naming its words
MODES = ("all", "all-prefix", "any")
TITLE_BOOST = 2.0
DEFINES_BOOST = 1.0
_local = threading.local()


def open_index(ctx: ServiceContext) -> SearchIndex:
    """This thread's connection to the index beside the host's database."""
    path = index_file(Path(ctx.store.path).parent)
    cache: dict[Path, SearchIndex] = getattr(_local, "indexes", None) or {}
    _local.indexes = cache
    index = cache.get(path)
    if index is not None and path.exists():
        return index
    if index is not None:  # the file was removed: start a new one
        index.close()
    try:
        index = SearchIndex.open(path)
    except SearchIndexError as exc:
        raise IOFailure(str(exc)) from exc
    cache.pop(path, None)
    cache[path] = index
    while len(cache) > 4:  # a thread rarely uses more than one state directory
        cache.pop(next(iter(cache))).close()
    return index


def prepare(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str):
    """(base, this thread's index, the base's key in it, RefreshStats): the index brought up to date
    with the base's promoted generation first (what every read of the index starts with)."""
    base = get_base(ctx, workspace, kb_id)
    index = open_index(ctx)
    try:
        stats = ensure_fresh(ctx, base, index)
    except SearchIndexError as exc:
        raise IOFailure(str(exc)) from exc
    return base, index, base_key(base.workspace, base.id), stats


def refresh(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str) -> RefreshStats:
    return prepare(ctx, workspace, kb_id)[3]


def _parse(query: str, as_you_type: bool = False) -> ParsedQuery:
    try:
        return parse_query(query, as_you_type=as_you_type)
    except QueryError as exc:
        raise InvalidInput(str(exc)) from exc


def _check_limit(limit: int) -> int:
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput(f"limit must be a whole number from 1 to {MAX_LIMIT}")
    return limit


def _ranked(index: SearchIndex, key: str, parsed: ParsedQuery, limit: int) -> tuple[str, list, int]:
    """The first matching mode (all terms, then all as prefixes, then any term) and its pages, best
    first: bm25 (title, aliases, tags, body weighted) times 1 + TITLE_BOOST × (share of the page's
    title words the person typed)² (+ DEFINES_BOOST when the page's description defines what was
    typed: "X is …"), so the page a query names or defines outranks pages that only mention it;
    ties broken by page path. Returns (mode, [(id, score)], total matches)."""
    fetch = min(max(limit * 3, 30), 300)
    typed = {t for g in parsed.groups for t in tokens(g.label)}
    for mode in MODES:
        expr = parsed.expression(mode)
        candidates = index.rank(key, expr, fetch)
        if not candidates:
            continue

        def final(row) -> tuple[float, str]:
            title = tokens(row["title"])
            cover = sum(1 for t in title if t in typed) / len(title) if title else 0.0
            boost = DEFINES_BOOST if defines(row["description"] or "", typed) else 0.0
            return (row["score"] * (1.0 + TITLE_BOOST * cover * cover + boost), row["path"])

        ranked = [(r["id"], final(r)[0]) for r in sorted(candidates, key=final)[:limit]]
        total = len(candidates) if len(candidates) < fetch else index.count(key, expr)
        return mode, ranked, total
    return "none", [], 0


def _rows(index: SearchIndex, key: str, ranked: list[tuple[int, float]], parsed: ParsedQuery | None):
    """The ranked pages' stored rows, in rank order; with a snippet when `parsed` is given."""
    details = index.details(key, [i for i, _s in ranked], body=parsed is not None)
    for page_id, score in ranked:
        row = details.get(page_id)
        if row is not None:
            yield dict(row, score=score, snip=snippet(row["body"], parsed.groups) if parsed else "")


def _review_reasons(ctx: ServiceContext, base, page: str) -> list[dict[str, Any]]:
    rows = ctx.store.query(
        "SELECT i.id, i.kind, i.reason, i.summary FROM review_items i WHERE i.state = 'open' AND i.workspace = ? "
        "AND i.base_id = ? AND (i.page_path = ? OR i.id IN (SELECT item_id FROM review_item_pages WHERE page_path = ?)) "
        "ORDER BY i.id LIMIT 3", (base.workspace, base.id, page, page))
    from kctui.core.trust import REASON_WORDS

    return [{"id": r["id"], "kind": r["kind"], "reason": r["reason"],
             "reasonWords": REASON_WORDS.get(r["reason"], r["reason"]), "summary": (r["summary"] or "")[:300]}
            for r in rows]


def _flag(ctx: ServiceContext, base, row, claims: list[dict[str, Any]]) -> dict[str, Any] | None:
    flag = flag_of(row["compile_status"], json.loads(row["notice_json"]), row["stale_after"], ctx.now())
    if flag is None:
        return None
    if flag["status"] == "contradicted":
        flag["conflicts"] = [c for c in claims if c.get("conflict")][:10]
    if flag["status"] in ("contradicted", "needs-review"):
        review = _review_reasons(ctx, base, row["path"])
        if review:
            flag["review"] = review
    return flag


def _best_claims(claims: list[dict[str, Any]], parsed: ParsedQuery, n: int, title: str = "",
                 page: PageClaims | None = None) -> list[dict[str, Any]]:
    """The page's claims that name query terms, the most relevant first (kctui.search.claim_match);
    `page`: the claims as read once for the page (`page_claims`), when the caller has them."""
    return best_claims(page if page is not None else PageClaims(claims, title), parsed.groups, n)


def _hit(ctx: ServiceContext, base, row, parsed: ParsedQuery, rank: int, n_claims: int,
         page: PageClaims | None = None) -> dict[str, Any]:
    """A page hit; `page`: the row's claims as read once for the page (`page_claims`), when the caller has them."""
    claims = json.loads(row["claims_json"]) if page is None else page.claims
    flag = _flag(ctx, base, row, claims)
    return {
        "kind": "page", "rank": rank, "page": row["path"], "slug": row["slug"], "title": row["title"],
        "pageClass": row["kind"], "compileStatus": row["compile_status"],
        "status": flag["status"] if flag else row["compile_status"], "flag": flag,
        "score": round(-float(row["score"]), 4), "snippet": row["snip"] or "", "description": row["description"],
        "claims": _best_claims(claims, parsed, n_claims, str(row["title"] or ""), page),
    }


def _kb_json(base) -> dict[str, Any]:
    workspace = base.workspace.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return {"workspace": workspace, "id": base.id, "compiled": bool(base.last_compiled_digest),
            "pendingChanges": bool(base.pending_changes)}


def _next_actions(base, parsed: ParsedQuery, found: bool) -> list[str]:
    ws = base.workspace if len(base.workspace) <= 80 else "WORKSPACE"
    compile_cmd = f"kctui compile {ws} {base.id} --wait"
    if not base.last_compiled_digest:
        return [f"this knowledge base has no compiled wiki yet: compile it first ({compile_cmd})"]
    actions = []
    if not found:
        if len(parsed.groups) > 1:
            actions.append("broaden the query: fewer terms, or a shorter word ending in * (prefix)")
        else:
            actions.append("try another spelling or a shorter word ending in * (prefix)")
    if base.pending_changes:
        actions.append(f"sources changed since the last compile: compile again ({compile_cmd})")
    elif not found:
        actions.append(f"if the sources should say this, add them to sources/ and compile ({compile_cmd})")
    return actions


def search(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, query: str, *,
           limit: int = DEFAULT_LIMIT, as_you_type: bool = False) -> dict[str, Any]:
    """Compiled pages matching `query`, best first, each with status, snippet and the claims (with
    citations) that name the query's terms. `as_you_type` treats the last word as a prefix."""
    _check_limit(limit)
    parsed = _parse(query, as_you_type)
    base, index, key, stats = prepare(ctx, workspace, kb_id)
    mode, ranked, total = _ranked(index, key, parsed, limit)
    items = [_hit(ctx, base, r, parsed, n, HIT_CLAIMS) for n, r in enumerate(_rows(index, key, ranked, parsed), 1)]
    return {"workspaceRoot": base.workspace, "knowledgeBaseId": base.id, "query": parsed.text,
            "terms": parsed.labels, "ignored": list(parsed.ignored), "match": mode, "total": total,
            "items": items, "indexedPages": stats.pages,
            "nextActions": _next_actions(base, parsed, bool(items)) if not items or base.pending_changes else []}


def hits(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, query: str, *,
         limit: int = DEFAULT_LIMIT, as_you_type: bool = True) -> list[dict[str, Any]]:
    """The app's search screen: hits for the selected base (the last word typed is a prefix)."""
    return search(ctx, workspace, kb_id, query, limit=limit, as_you_type=as_you_type)["items"]


def page_view(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, page: str) -> dict[str, Any]:
    """One compiled page for reading: its status line and flag, claims with citations, the Markdown
    body as promoted, and its revision history (oldest first). `page` is a path (`entities/x.md`) or
    a slug."""
    from kctui.services.revisions import page_history

    if not isinstance(page, str) or not page or "\0" in page or page.startswith("/") or ".." in page.split("/"):
        raise InvalidInput(f"'{page}' is not a page path or slug")
    base, index, key, _stats = prepare(ctx, workspace, kb_id)
    rows = index.pages_named(key, page)
    if not rows:
        raise NotFound(f"no compiled page '{page}' in knowledge base {base.id}")
    if len(rows) > 1:
        raise InvalidInput(f"'{page}' names several pages ({', '.join(r['path'] for r in rows)}); give the path")
    row = rows[0]
    claims = json.loads(row["claims_json"])
    flag = _flag(ctx, base, row, claims)
    try:
        history = page_history(ctx, base.workspace, base.id, row["path"])
    except NotFound:
        history = []
    body = history[-1].body if history and not history[-1].deleted else _read_live(base, row["path"])
    status = flag["status"] if flag else row["compile_status"]
    line = f"{status_glyph(status, True)} {status}: {flag['why']}" if flag else f"{status_glyph(status)} {status}"
    return {"workspaceRoot": base.workspace, "knowledgeBaseId": base.id, "page": row["path"], "slug": row["slug"],
            "title": row["title"], "pageClass": row["kind"], "compileStatus": row["compile_status"],
            "status": status, "statusLine": line, "flag": flag, "description": row["description"],
            "claims": claims, "body": body, "history": [r.json() for r in history]}


def _read_live(base, rel: str) -> str:
    p = paths.wiki_path(Path(base.workspace), base.id) / rel
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as fh:
            return fh.read(4 * 1024 * 1024).decode("utf-8", errors="replace")
    except OSError:
        return ""


def check_budget(budget: int) -> int:
    if not isinstance(budget, int) or isinstance(budget, bool) or not packets.MIN_BUDGET <= budget <= packets.MAX_BUDGET:
        raise InvalidInput(f"budget must be from {packets.MIN_BUDGET:,} to {packets.MAX_BUDGET:,} bytes (got {budget})")
    return budget


def context(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, query: str, *,
            budget: int = packets.DEFAULT_BUDGET, fmt: str = "json") -> str:
    """A context packet over both layers, rendered (`json` or `text`), at most `budget` bytes: the
    compiled pages' claims and the raw source passages in one ranking (kctui.search.ranking), packed
    densely (kctui.search.packet)."""
    check_budget(budget)
    if fmt not in ("json", "text"):
        raise InvalidInput("format must be 'json' or 'text'")
    parsed = _parse(query)
    base, index, key, _stats = prepare(ctx, workspace, kb_id)
    _mode, ranked, _total = _ranked(index, key, parsed, PACKET_PAGES)
    typed = {t for g in parsed.groups for t in tokens(g.label)}
    wants = asked_for(parsed.text)
    pages = []
    for n, row in enumerate(_rows(index, key, ranked[:FUSED_PAGES], None), 1):
        read = page_claims(row["digest"], row["claims_json"], str(row["title"] or ""))
        claims = read.claims
        page = _packet_item(_hit(ctx, base, row, parsed, n, PACKET_CLAIMS, read))
        if wants:  # what a page the query names states of the kind asked for ("what do we pay Datadog")
            shown = {c["citation"] for c in page["claims"]}
            page["stating"] = [_slim(c) for c in claims if not c.get("conflict") and c.get("citation") not in shown
                               and states(wants, str(c.get("value" if c.get("attribute") in SAID else "text") or ""))][:STATING]
        pages.append(page)
    sources = paths.sources_path(Path(base.workspace), base.id)
    try:
        refresh_passages(index, key, sources)
        passages = with_forms(lambda expr, n: rank_passages(index, key, expr, n), lambda w: passage_share(index, key, w),
                              passage_expression(parsed, _other_names(index, key, typed)), typed, FUSED_PASSAGES)
        around = neighbours(index, key, passages, reach=VALUE_REACH, first=len(passages) if wants else 0,
                            before=NAMED_BEFORE if wants else 1, span=(SECTION_HITS, SECTION_REACH) if wants else (0, 0))
        hops = second_hop(lambda expr, n: rank_passages(index, key, expr, n), passage_shares(index, key), passages, typed)
    except SearchIndexError as exc:
        raise IOFailure(str(exc)) from exc
    statements = fuse(pages, passages, typed, around, wants=wants, owners=owners_of(parsed.text),
                      speakers=people_in(parsed.text), latest=asks_latest(parsed.text), hops=hops,
                      against=decided_spans(index, key))
    meta: dict[tuple[str, ...], dict[str, Any]] = {("page", p["page"]): p for p in pages}
    meta.update({("source", p.path, p.heading): {"source": p.path, "title": p.title, "heading": p.heading}
                 for p in [*passages, *around.values(), *(hit for _s, hit in hops)]})
    uncovered = [i for i, g in enumerate(parsed.groups) if index.count(key, g.fts()) == 0]
    actions = _next_actions(base, parsed, bool(statements))
    if statements and all(s.kind == "passage" for s in statements):
        actions.insert(0, "no compiled page matches; the evidence items are raw source text: read them as such")
    env = packets.Envelope(
        query=parsed.text, terms=parsed.labels, knowledge_base=_kb_json(base),
        uncovered=[parsed.groups[i].label for i in uncovered],
        next_actions_empty=actions or ["broaden the query"],
        hint_more="narrow the query (more specific terms) for fewer, better items")
    return packets.pack_statements(env, statements, meta, budget, fmt)


def _other_names(index: SearchIndex, key: str, typed: set[str]) -> list[str]:
    """The words of the other names of what the query names (a page's title and aliases, when one of them
    was typed), for the raw passages: a turn that calls Lena "Len" is about Lena."""
    out: list[str] = []
    for title, aliases in index.names(key, sorted(typed)):
        out += name_words(typed, (title, *aliases))
    return out


def name_words(typed: set[str], names: Iterable[str]) -> list[str]:
    """The words of a page's names for the raw passages, but a name the typed words open: its other words
    are what the short form leaves out when they are ordinary words ("Kestrel" of "Kestrel Discovery", a
    firm's alias: "discovery" is no other name of it), not another way to call it ("Vogel" of "Lena Vogel",
    "Ben" of "Benedict")."""
    out: list[str] = []
    for name in names:
        words = tokens(name)
        k = 0
        while k < len(words) and words[k] in typed:
            k += 1
        out += words[:k] if 0 < k < len(words) and all(wd.zipf(w) >= wd.COMMON_ZIPF for w in words[k:]) else words
    return out


def _slim(claim: dict[str, Any]) -> dict[str, Any]:
    return {"text": claim["text"], "value": claim["value"], "citation": claim["citation"], "matches": claim.get("matches", 0)}


def _packet_flag(flag: dict[str, Any] | None) -> dict[str, Any] | None:
    """A page's flag as the text packet shows it, no more: its status and why, its first disputed claims
    (each as a packet writes a claim, its citation ending it: the disputed value is in the text) and review
    items, each list only when it has any."""
    if not flag:
        return None
    out = {"status": flag["status"], "why": flag["why"]}
    if flag.get("conflicts"):
        out["conflicts"] = [f"{c['text']} {c['citation']}".strip() for c in flag["conflicts"][:4]]
    if flag.get("review"):
        out["review"] = [{k: r[k] for k in ("id", "kind", "reasonWords")} for r in flag["review"][:2]]
    return out


def _packet_item(hit: dict[str, Any]) -> dict[str, Any]:
    """A page as a packet item: what an assistant needs, without the search screen's extras."""
    item = {k: hit[k] for k in ("kind", "rank", "page", "title", "status", "flag", "description")}
    item["flag"] = _packet_flag(item["flag"])
    item["claims"] = [_slim(c) for c in hit["claims"]]
    return item
