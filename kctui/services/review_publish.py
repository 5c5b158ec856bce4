"""Publishing people's review decisions: only the pages they change are written into the live wiki,
through the page-level promotion of `kctui.publish.pages` (validated, journaled, crash-safe; `wiki/`
keeps its one writer: promotion). Every page written becomes the page's next immutable revision, in
the caller's transaction. One call = one promotion, however many decisions it carries."""

from __future__ import annotations

import itertools
import os
import shutil
import sqlite3
from pathlib import Path

from kctui import paths
from kctui.publish.pages import promote_pages
from kctui.publish.promote import PromotionError
from kctui.publish.validate import InvalidOutput
from kctui.services.errors import Conflict, IOFailure
from kctui.services.review_recovery import page_digest, write_decision
from kctui.services.revisions import record_pages

_sequence = itertools.count(1)


def publish_pages(conn: sqlite3.Connection, workspace: str, kb_id: str, pages: dict[str, str | None], *,
                  author: str, reason: str, now_us: int, decision: dict | None = None,
                  notes: dict[str, tuple[str, str]] | None = None) -> Path | None:
    """Inside the caller's write transaction (so no claim can start meanwhile): write `pages` (path ->
    text, None = remove) into the live wiki in one page promotion and record their revisions. With
    `decision` (what was decided: `item`/`state` for one item, or `items` for several) a
    `decision.json` is written first and left in place: the caller removes the returned folder once its
    transaction committed; a crash before that is settled at start-up by `review_recovery` (the items
    resolved if the pages are live, left pending if not). `notes`: a page's own (author, reason) for
    its revision, where it differs from the call's."""
    ws = Path(workspace)
    kb = paths.kb_path(ws, kb_id)
    if not (kb / "wiki").is_dir():
        raise Conflict(f"knowledge base {kb_id} has no promoted wiki yet")
    if not pages:
        return None
    gen_id = f"review-{now_us}-{os.getpid()}-{next(_sequence)}"
    folder = paths.job_dir(ws, kb_id, gen_id)
    try:
        if decision is not None:
            write_decision(folder, {**decision, "author": author, "reason": reason, "pages": {
                rel: None if text is None else page_digest(text) for rel, text in pages.items()}})
        promote_pages(kb, pages, gen_id)
    except InvalidOutput as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise Conflict(f"the reviewed page would not be valid: {exc}") from exc
    except (OSError, PromotionError) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise IOFailure(f"publishing the review decision failed; the wiki was kept: {exc}") from exc
    notes = notes or {}
    plain = {rel: text for rel, text in pages.items() if rel not in notes}
    record_pages(conn, workspace, kb_id, plain, author=author, reason=reason, now_us=now_us)
    for rel, (page_author, page_reason) in sorted(notes.items()):
        if rel in pages:
            record_pages(conn, workspace, kb_id, {rel: pages[rel]}, author=page_author, reason=page_reason,
                         now_us=now_us)
    return folder if decision is not None else None
