"""The host's side of the search index (`kctui.search.index`): which generation of a base is live, and
the promotion hook that refreshes its pages. The index itself knows nothing of the host's store; this
module hands it the wiki to read and the host's part of the generation signature."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from kctui import paths
from kctui.search.index import RefreshStats, SearchIndex, index_file
from kctui.services.bases import get_base
from kctui.services.context import ServiceContext

log = logging.getLogger("kctui.search.index")  # the hook's warnings read as they always did


def db_generation(ctx: Any, base: Any) -> str:
    """The host's part of the signature: the last successful compile and the latest page revision."""
    row = ctx.store.query_one("SELECT MAX(rowid) FROM page_revisions WHERE workspace = ? AND base_id = ?",
                              (base.workspace, base.id))
    return f"{base.last_compiled_digest}|{row[0] if row else None}"


def compiled_wiki(base: Any) -> Path | None:
    """The wiki to index, or None for a base without a successful compile."""
    if not base.last_compiled_digest:
        return None
    return paths.wiki_path(Path(base.workspace), base.id)


def ensure_fresh(ctx: Any, base: Any, index: SearchIndex) -> RefreshStats:
    """Refresh the base's pages when its generation moved since the index last looked."""
    return index.refresh(base.workspace, base.id, compiled_wiki(base), db_generation(ctx, base))


def refresh_base_index(workspace: str | os.PathLike[str], kb_id: str, ctx: Any = None) -> RefreshStats | None:
    """The promotion hook: call after a promotion's transaction has committed. Never raises (search
    heals itself at the next query anyway); returns None when the refresh could not run."""
    own = ctx is None
    try:
        if own:
            ctx = ServiceContext.open()
        base = get_base(ctx, workspace, kb_id)
        index = SearchIndex.open(index_file(Path(ctx.store.path).parent))
        try:
            return ensure_fresh(ctx, base, index)
        finally:
            index.close()
    except Exception as exc:  # noqa: BLE001 - the hook must never break a promotion
        log.warning("search index refresh of %s in %s failed: %s", kb_id, workspace, exc)
        return None
    finally:
        if own and ctx is not None:
            ctx.close()
