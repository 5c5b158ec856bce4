"""A review decision interrupted by a crash (trust.md §4: an approved change reaches `wiki/` through
promotion, so a kill can fall between the swap and the store's commit).

Publishing a decision writes `decision.json` beside its staged generation before promoting: the review
item(s) (`items`: every decision one promotion carries), its new state, who decided, and the digest of every page it writes. The folder is removed only
after the store committed. At start-up, after the promotion journal was settled (the new generation
finished, or the old one rolled back), each leftover decision is read against the live wiki:

- every decided page is live with the decided bytes: the decision was published, so the revisions are
  recorded and the item is resolved (if it is still open) — never left pending with a published body;
- otherwise the old generation is live: the item stays pending, as it was, and nothing is recorded.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
from pathlib import Path
from typing import Any

from kctui import paths
from kctui.atomic_write import write_atomically
from kctui.services.context import ServiceContext
from kctui.services.review_follow import after_publish
from kctui.services.revisions import record_pages

log = logging.getLogger(__name__)

DECISION_NAME = "decision.json"
PREFIX = "review-"


def page_digest(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_decision(folder: Path, decision: dict[str, Any]) -> None:
    """Durably: the decision must be on disk before the generation it explains can be live. Written
    whole or not at all (a temporary file renamed into place, `atomic_write`): a kill mid-write leaves
    no half record, and recovery reads a missing record as a decision that never reached promotion."""
    created = not folder.is_dir()
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(folder / DECISION_NAME, json.dumps(decision, sort_keys=True))
    _fsync_dir(folder)  # the rename, surely on disk (write_atomically forgives a failed folder fsync)
    if created:
        _fsync_dir(folder.parent)  # and the new folder's name


def _fsync_dir(folder: Path) -> None:
    dfd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def _published(wiki: Path, pages: dict[str, str | None]) -> bool:
    for rel, digest in pages.items():
        target = wiki / rel
        if digest is None:  # a removed page
            if os.path.lexists(target):
                return False
            continue
        try:
            if target.is_symlink() or page_digest(target.read_text(encoding="utf-8")) != digest:
                return False
        except (OSError, UnicodeDecodeError):
            return False
    return bool(pages)


def _live_pages(wiki: Path, pages: dict[str, str | None]) -> dict[str, str | None]:
    return {rel: None if digest is None else (wiki / rel).read_text(encoding="utf-8")
            for rel, digest in pages.items()}


def _decided(decision: dict[str, Any]) -> list[tuple[int, str, str, Any]]:
    """(item, state, actor, at) of every decision a record carries."""
    actor, at = str(decision.get("actor")), decision.get("at")
    if "items" not in decision:
        return [(int(decision["item"]), str(decision["state"]), actor, at)]
    out = []
    for d in decision["items"]:
        if isinstance(d, dict):
            out.append((int(d["item"]), str(d["state"]), str(d.get("actor", actor)), d.get("at", at)))
        else:
            item_id, state = d
            out.append((int(item_id), str(state), actor, at))
    return out


def recover_review_decisions(ctx: ServiceContext) -> tuple[list[int], list[int]]:
    """Settle leftover decisions of every base. Returns (items resolved now, items left pending)."""
    resolved: list[int] = []
    pending: list[int] = []
    for row in ctx.store.query("SELECT workspace, id FROM bases ORDER BY workspace, id"):
        root = paths.output_root(Path(row["workspace"]), row["id"])
        if not root.is_dir():
            continue
        for folder in sorted(p for p in root.iterdir() if p.name.startswith(PREFIX) and not p.is_symlink()):
            with ctx.store.write() as conn:  # a resolution still running elsewhere holds this lock
                if not folder.is_dir():
                    continue
                try:
                    decision = json.loads((folder / DECISION_NAME).read_text(encoding="utf-8"))
                    # one item ({"item", "state", "actor", "at"}); a promotion carrying several decisions
                    # lists them all (`items`: [[id, state], …] or [{"item", "state", …}, …])
                    decided = _decided(decision)
                    pages = {str(k): None if v is None else str(v) for k, v in dict(decision["pages"]).items()}
                except (OSError, ValueError, KeyError, TypeError):
                    shutil.rmtree(folder, ignore_errors=True)  # never got as far as promoting
                    continue
                wiki = paths.wiki_path(Path(row["workspace"]), row["id"])
                if _published(wiki, pages):
                    now = ctx.now()
                    record_pages(conn, row["workspace"], row["id"], _live_pages(wiki, pages),
                                 author=str(decision.get("author")),
                                 reason=f"{decision.get('reason')} (published before a crash; recorded at restart)",
                                 now_us=now)
                    after_publish(conn, row["workspace"], row["id"], [r for r, d in pages.items() if d is not None],
                                  [(int(o), str(p), str(b)) for o, p, b in decision.get("rebased") or []])
                    for item_id, state, actor, at in decided:
                        cur = conn.execute("UPDATE review_items SET state = ?, resolved_at = ?, resolved_by = ? "
                                           "WHERE id = ? AND state = 'open'", (state, int(at or now), actor, item_id))
                        if cur.rowcount:
                            resolved.append(item_id)
                else:
                    pending.extend(item_id for item_id, *_ in decided)
                shutil.rmtree(folder, ignore_errors=True)
    if resolved or pending:
        log.info("review decisions interrupted by a crash: %d resolved (published), %d left pending",
                 len(resolved), len(pending))
    return resolved, pending
