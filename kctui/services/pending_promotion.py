"""A promotion a kill interrupted, as `status` says it (QA session 30 #8): after a kill -9 during the swap
the new generation can already be live at `wiki/` while the store still names the previous one, until
recovery (any host start, `kctui doctor --fix`, the next `kctui compile --wait`) finishes the record.
Read only: the journals of `publish/` are looked at, never changed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from kctui import paths
from kctui.publish.common import journal_path
from kctui.publish.promote import promotion_pending

FINISH = "kctui doctor --fix"  # recovery without a compile; any host start (kctui, kctui serve) does it too


def _inode(path: Path) -> int | None:
    try:
        return os.stat(path).st_ino
    except OSError:
        return None


def pending_promotion(workspace: str, kb_id: str) -> dict[str, Any] | None:
    """None when no promotion of the base waits for recovery; else what it is: the job whose generation
    (or page promotion) it is, whether that new generation is already live, and the command that finishes it."""
    kb = paths.kb_path(Path(workspace), kb_id)
    if not promotion_pending(kb):
        return None
    job_id, live = None, None
    try:
        entry = json.loads(journal_path(kb).read_text(encoding="utf-8"))
        job_id = entry.get("job_id") if isinstance(entry, dict) else None
        if isinstance(entry, dict) and isinstance(entry.get("staged_inode"), int):
            live = _inode(kb / "wiki") == entry["staged_inode"]
    except (OSError, ValueError):
        pass  # a page promotion, or a journal still being written: recovery reads it properly
    return {"jobId": job_id, "newGenerationLive": live, "finish": FINISH}


def pending_words(pending: dict[str, Any]) -> str:
    """`⚠ promotion pending (job-…): the new generation is live, its record is not; kctui doctor --fix finishes it`."""
    job = f" ({pending['jobId']})" if pending.get("jobId") else ""
    if pending.get("newGenerationLive"):
        state = "the new generation is live at wiki/, its record (digest, brief, review items) not yet"
    elif pending.get("newGenerationLive") is False:
        state = "the previous generation is still live; recovery finishes or rolls back the swap"
    else:
        state = "interrupted; recovery finishes it or rolls it back"
    return f"⚠ promotion pending{job}: {state}; `{pending['finish']}` (or any host start) finishes it"
