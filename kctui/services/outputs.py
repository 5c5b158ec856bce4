"""Kept answers (`kctui ask --keep`, `k` on the app's ask screen, the MCP `ask` tool's `keep`): an answer
written as an output page under `wiki/outputs/` (kctui.core.outputs) through page promotion, the one
writer of `wiki/` — with the question, the answer, its verified citations (the compiled page, the source
and its lines, and a digest of those lines as they are now), the generation it was asked against and who
asked. Only verified citations are kept; an answer with none is not kept. The compiler carries the page
into each new generation and marks it stale when a cited line changes (kctui.compiler.steps.outputs);
search and context never read it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from kctui import paths
from kctui.core.clock import rfc3339
from kctui.core.outputs import lines_digest, lines_of, output_path, render_output
from kctui.search.answer import at_lines, statements
from kctui.services.bases import get_base
from kctui.services.context import ServiceContext
from kctui.services.errors import Conflict
from kctui.services.review_decide import _no_compile_running, actor_name
from kctui.services.review_publish import publish_pages

MAX_SOURCE_BYTES = 64 << 20


def _source_text(root: Path, rel: str) -> str | None:
    try:
        fd = os.open(root / rel, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        return fh.read(MAX_SOURCE_BYTES).decode("utf-8", "replace")


def kept_citations(root: Path, result: dict[str, Any], items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The statements the answer's verified citations point at, each with the digest of its source lines."""
    stmts = statements(items)
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    for c in result["citations"]:
        if not c.get("verified"):
            continue
        for s in at_lines(stmts, c["item"], tuple(c["lines"]) if c.get("lines") else None):
            if (s.item, s.path, s.text) in seen or s.lines is None or not s.source:
                continue
            seen.add((s.item, s.path, s.text))
            text = _source_text(root, s.source)
            lines = None if text is None else lines_of(text, s.lines[0], s.lines[1])
            entry: dict[str, Any] = {
                "item": s.item, "page": s.path[len("wiki/"):] if s.path.startswith("wiki/") else "",
                "text": s.text, "source": s.source, "lines": list(s.lines),
                "digest": lines_digest(lines) if lines is not None else "", "verified": True}
            if s.kind == "claim":
                entry["citation"] = f"^[{s.source}:L{s.lines[0]}-L{s.lines[1]}]"
            out.append(entry)
    return out


def keep_answer(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, result: dict[str, Any],
                items: list[dict[str, Any]], *, asker: str | None = None) -> str:
    """Write the answer as `wiki/outputs/<question>-<hash>.md`; returns that path. Conflict when it has
    no verified citation or a compile of the base is running (its generation would not carry the page)."""
    base = get_base(ctx, workspace, kb_id)
    ws, kb = base.workspace, base.id
    root = paths.sources_path(Path(ws), kb)
    cites = kept_citations(root, result, items)
    if not cites:
        raise Conflict("the answer has no verified citation to a source line, so it is not kept")
    who = asker or actor_name()
    now = ctx.now()
    rel = output_path(result["question"], now)
    text = render_output(question=result["question"], answer=result["answer"], mode=result["mode"],
                         verified=bool(result["verified"]), citations=cites, flags=result["flags"], asked_by=who,
                         asked_at=rfc3339(now) or "", generation=result.get("generation") or "none",
                         model=result.get("model") or "")
    with ctx.store.write() as conn:
        _no_compile_running(conn, ws, kb)
        publish_pages(conn, ws, kb, {rel: text}, author=who, reason=f"kept answer to “{result['question'][:80]}”",
                      now_us=now)
    return f"wiki/{rel}"
