"""The compiled layer of a base as a list (seeds/003 `list_knowledge_pages`): every promoted page with
its class and status, archived pages (the recovery area) left out unless asked for. Read from the
search index, which follows the promoted wiki (`kctui.services.search`)."""

from __future__ import annotations

import os
from typing import Any

from kctui.core.page_status import COMPILE_STATUSES
from kctui.services.context import ServiceContext
from kctui.services.errors import InvalidInput
from kctui.services.policy import PAGE_CLASSES
from kctui.services.search import prepare

MAX_LIMIT = 1000


def list_pages(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, *, page_class: str | None = None,
               status: str | None = None, archived: bool = False, limit: int = 100, offset: int = 0) -> dict[str, Any]:
    """`{items, total, limit, offset, next}`: pages by path; `status` filters on the page's
    `compile_status` (asking for `archived` includes archived pages)."""
    _check_listing(page_class, status, limit, offset)
    base, index, key, _stats = prepare(ctx, workspace, kb_id)
    rows = [r for r in index.all_pages(key) if _listed(r, page_class, status, archived)]
    shown = rows[int(offset): int(offset) + int(limit)]
    items = [{"page": r["path"], "slug": r["slug"], "pageClass": r["kind"], "title": r["title"],
              "description": r["description"], "status": r["compile_status"]} for r in shown]
    nxt = int(offset) + len(shown)
    return {"knowledgeBaseId": base.id, "items": items, "total": len(rows), "limit": int(limit),
            "offset": int(offset), "next": nxt if nxt < len(rows) else None}


def _check_listing(page_class: str | None, status: str | None, limit: int, offset: int) -> None:
    if page_class is not None and page_class not in PAGE_CLASSES:
        raise InvalidInput(f"page class {page_class!r} must be one of {', '.join(PAGE_CLASSES)}")
    if status is not None and status not in COMPILE_STATUSES:
        raise InvalidInput(f"status {status!r} must be one of {', '.join(COMPILE_STATUSES)}")
    if not 1 <= int(limit) <= MAX_LIMIT:
        raise InvalidInput(f"limit must be between 1 and {MAX_LIMIT}, not {limit}")
    if int(offset) < 0:
        raise InvalidInput(f"offset must be 0 or more, not {offset}")


def _listed(row: Any, page_class: str | None, status: str | None, archived: bool) -> bool:
    """A page of the class and status asked for; an archived page only when archived pages are asked for."""
    return ((archived or status == "archived" or row["compile_status"] != "archived")
            and (page_class is None or row["kind"] == page_class)
            and (status is None or row["compile_status"] == status))


__all__ = ["list_pages"]
