"""What the two kinds of promotion share (a whole generation, `promote.py`; a few pages, `pages.py`):
their errors and recovery outcome, the names of the steps where a test can kill the process, the
one lock per base they both take, and where the live wiki and the generation journal are. Each kind
settles the other's interrupted work first, so each needs the other's step names and journal path."""

from __future__ import annotations

import logging
import os
import signal
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

log = logging.getLogger("kctui.publish.promote")  # the kill-point hook logs as promotion always did

STEPS = ("fsync_staged", "journal_temp_written", "journal_written", "swapped", "renamed_live_to_backup",
         "renamed_staged_to_live", "parent_fsynced", "old_deleted", "journal_deleted")
PAGE_STEPS = ("pages_staged", "page_journal_temp_written", "page_journal_written", "page_renamed",
              "pages_renamed", "page_folders_fsynced", "page_staging_deleted", "page_journal_deleted")
CRASH_ENV = "KCTUI_TEST_PROMOTION_CRASH_AT"


class PromotionError(Exception):
    """Promotion failed on I/O; `wiki/` is still the previous generation (or still absent)."""


@dataclass(frozen=True)
class RecoveryOutcome:
    action: Literal["finished", "rolled_back"]
    job_id: str | None        # None only when the journal was unreadable
    detail: str

    @property
    def finished(self) -> bool:
        return self.action == "finished"


def live_path(kb: Path) -> Path:
    return Path(kb) / "wiki"


def journal_path(kb: Path) -> Path:
    return Path(kb) / ".a3s" / "promotion.json"


def temp_journal_path(kb: Path) -> Path:
    return Path(kb) / ".a3s" / "promotion.json.tmp"


def reached(step: str, crash_at: str | None) -> None:
    if crash_at == step:
        log.warning("test hook: killing the process at promotion step %s", step)
        os.kill(os.getpid(), signal.SIGKILL)


def generation_step(crash_at: str | None) -> str | None:
    """The generation step to kill at (None for a page step: one variable names the steps of both)."""
    if crash_at is not None and crash_at not in STEPS and crash_at not in PAGE_STEPS:
        raise ValueError(f"unknown promotion step {crash_at!r}; known: {', '.join(STEPS)}")
    return crash_at if crash_at in STEPS else None


def page_step(crash_at: str | None) -> str | None:
    """The page step to kill at (None for a generation step)."""
    if crash_at is not None and crash_at not in PAGE_STEPS and crash_at not in STEPS:
        raise ValueError(f"unknown page promotion step {crash_at!r}; known: {', '.join(PAGE_STEPS)}")
    return crash_at if crash_at in PAGE_STEPS else None


_locks_guard = threading.Lock()
_locks: dict[str, threading.Lock] = {}


def kb_lock(kb: Path) -> threading.Lock:
    """The base's promotion lock (threads of this process); both kinds of promotion take it."""
    with _locks_guard:
        return _locks.setdefault(os.path.abspath(kb), threading.Lock())
