"""Publishing a person's review decision: a new generation = the live wiki with the decided pages
replaced, validated and promoted atomically like any compile (`wiki/` has one writer: promotion)."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

from kctui import paths
from kctui.publish.promote import PromotionError, cleanup_after_promotion, promote
from kctui.publish.validate import InvalidOutput, validate_staged_tree
from kctui.services.errors import Conflict, IOFailure
from kctui.services.review_recovery import page_digest, write_decision
from kctui.services.revisions import record_generation


def _copy_tree(src: Path, dst: Path) -> None:
    for root, dirs, files in os.walk(src, followlinks=False):
        rel = Path(root).relative_to(src)
        (dst / rel).mkdir(parents=True, exist_ok=True)
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
        for name in files:
            p = os.path.join(root, name)
            if not os.path.islink(p) and os.path.isfile(p):
                shutil.copy2(p, dst / rel / name)


def publish_pages(conn: sqlite3.Connection, workspace: str, kb_id: str, pages: dict[str, str], *, author: str,
                  reason: str, now_us: int, decision: dict | None = None) -> Path | None:
    """Inside the caller's write transaction (so no claim can start meanwhile). With `decision` (a review
    item's resolution) a `decision.json` is written beside the staged tree first and left in place:
    the caller removes the returned folder once its transaction committed; a crash before that is
    settled at start-up by `review_recovery` (the item resolved if the new generation is live)."""
    ws = Path(workspace)
    kb = paths.kb_path(ws, kb_id)
    live = kb / "wiki"
    if not live.is_dir():
        raise Conflict(f"knowledge base {kb_id} has no promoted wiki yet")
    gen_id = f"review-{now_us}-{abs(hash(author)) % 10**8}"
    staged_root = paths.job_dir(ws, kb_id, gen_id)
    staged = staged_root / "wiki"
    try:
        if staged_root.exists():
            shutil.rmtree(staged_root)
        _copy_tree(live, staged)
        for rel, text in pages.items():
            target = staged / rel
            if staged.resolve() not in target.resolve().parents:
                raise Conflict(f"page path {rel} escapes the wiki")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        validate_staged_tree(staged)
        if decision is not None:
            write_decision(staged_root, {**decision, "author": author, "reason": reason, "pages": {
                rel: page_digest(text) for rel, text in pages.items()}})
        promote(kb, staged, gen_id)
    except InvalidOutput as exc:
        shutil.rmtree(staged_root, ignore_errors=True)
        raise Conflict(f"the reviewed page would not be valid: {exc}") from exc
    except (OSError, PromotionError) as exc:
        shutil.rmtree(staged_root, ignore_errors=True)
        raise IOFailure(f"publishing the review decision failed; the wiki was kept: {exc}") from exc
    try:
        cleanup_after_promotion(kb)
    finally:
        shutil.rmtree(staged_root if decision is None else staged, ignore_errors=True)
    record_generation(conn, workspace, kb_id, live, author=author, reason=reason, now_us=now_us)
    return staged_root if decision is not None else None
