"""Atomic promotion of a staged `<job>/wiki` to `<kb>/wiki`, with crash recovery (host.md §7).

Order of work; each name is a step of `STEPS` where a test can kill the process:
1. fsync every staged file and folder and the staged folder's parent            `fsync_staged`
2. journal `<kb>/.a3s/promotion.json`: temp, fsync, rename, fsync   `journal_temp_written`, `journal_written`
3. swap: `renameat2(RENAME_EXCHANGE)`                                           `swapped`
   or live -> backup, staged -> live          `renamed_live_to_backup`, `renamed_staged_to_live`
   or, with no live wiki yet, staged -> live                                    `renamed_staged_to_live`
4. fsync the folders whose entries changed: the promotion is committed          `parent_fsynced`
5. delete the old tree, then the journal                            `old_deleted`, `journal_deleted`

The journal (JSON) holds `job_id`, `live_path`, `staged_path`, `backup_path` (where two renames park
the old tree; the exchange leaves it at `staged_path`), `staged_inode` (the new generation),
`live_inode` (the old one, or null), and for people `swap`, `device`, `written_at`, `version`.
Recovery reads what sits at `wiki/` now: the new inode means the swap happened (finish
the clean-up); the old inode means it did not (roll back: drop the journal); nothing, with an old
generation parked, means the kill fell between the two renames, and the new tree, durable and
validated, is moved in. Whatever the kill, `wiki/` ends as exactly one whole generation.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from kctui.publish.common import (
    CRASH_ENV,
    STEPS,
    PromotionError,
    RecoveryOutcome,
    journal_path,
    kb_lock,
    live_path,
    reached,
    temp_journal_path,
)
from kctui.publish.common import generation_step as _check_crash_at
from kctui.publish.durable import EXCHANGE_UNSUPPORTED as _EXCHANGE_UNSUPPORTED
from kctui.publish.durable import RENAME_EXCHANGE as _RENAME_EXCHANGE
from kctui.publish.durable import RENAME_NOREPLACE as _RENAME_NOREPLACE
from kctui.publish.durable import exchange_available
from kctui.publish.durable import fsync_dir as _fsync_dir
from kctui.publish.durable import fsync_tree as _fsync_tree
from kctui.publish.durable import rename2 as _rename2
from kctui.publish.generation_journal import JOURNAL_VERSION, Journal, finish, put_back, write_journal
from kctui.publish.generation_journal import resolve_generation as _resolve
from kctui.publish.pages_journal import page_flock, pages_pending, recover_pages, resolve_pages

log = logging.getLogger(__name__)

_JOB_ID = re.compile(r"[a-z0-9-]{1,96}")

Mode = Literal["exchange", "rename", "first"]

__all__ = ["CRASH_ENV", "JOURNAL_VERSION", "STEPS", "PromotionError", "PromotionResult", "RecoveryOutcome",
           "backup_path", "cleanup_after_promotion", "exchange_available", "journal_path", "live_path",
           "promote", "promotion_pending", "recover_promotion"]


@dataclass(frozen=True)
class PromotionResult:
    job_id: str
    mode: Mode                # "exchange" (renameat2), "rename" (two renames) or "first" (no old wiki)
    live: Path                # <kb>/wiki, now the new generation
    old_path: Path | None     # where the previous generation went (already deleted when `cleaned`)
    swap_seconds: float       # swap plus parent fsync: the critical section
    cleaned: bool             # old tree and journal removed


def backup_path(kb: Path, job_id: str) -> Path:
    """Where the two-rename path parks the old generation (the exchange leaves it at the staged path)."""
    return Path(kb) / ".a3s" / f"wiki-old-{job_id}"


# --- promotion -----------------------------------------------------------------------------------

def promote(kb: Path, staged: Path, job_id: str, *, crash_at: str | None = None,
            use_exchange: bool | None = None, cleanup: bool = True) -> PromotionResult:
    """Make the (already validated) tree at `staged` the live `<kb>/wiki` in one durable step.

    `use_exchange`: None = RENAME_EXCHANGE where offered, else two renames; True = require it; False =
    force the two renames. `cleanup=False` leaves the old tree and journal for
    `cleanup_after_promotion(kb)`. `crash_at` / $KCTUI_TEST_PROMOTION_CRASH_AT: SIGKILL at that step
    (tests only). PromotionError on I/O failure, with `wiki/` left as it was.
    """
    kb, staged = Path(kb), Path(staged)
    crash_at = _check_crash_at(crash_at or os.environ.get(CRASH_ENV) or None)
    if not _JOB_ID.fullmatch(job_id):
        raise PromotionError(f"invalid job id {job_id!r}")
    live, backup = live_path(kb), backup_path(kb, job_id)
    with kb_lock(kb):
        _settle_earlier(kb, job_id)
        _settle_pages_first(kb)
        staged_st, live_st = _preflight(staged, live)
        try:
            if os.path.lexists(backup):
                shutil.rmtree(backup)
            _fsync_tree(staged)
        except OSError as exc:
            raise PromotionError(f"cannot flush the staged wiki to disk: {exc}") from exc
        reached("fsync_staged", crash_at)

        entry = {
            "version": JOURNAL_VERSION,
            "job_id": job_id,
            "live_path": str(live),
            "staged_path": str(staged),
            "backup_path": str(backup),
            "device": staged_st.st_dev,  # informative only: device numbers can change across a reboot
            "swap": "first" if live_st is None else ("rename" if use_exchange is False else "exchange"),
            "staged_inode": staged_st.st_ino,
            "live_inode": live_st.st_ino if live_st else None,
            "written_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        try:
            write_journal(kb, entry, crash_at)
        except OSError as exc:  # nothing was swapped yet: the journal, even renamed into place, says nothing
            temp_journal_path(kb).unlink(missing_ok=True)
            journal_path(kb).unlink(missing_ok=True)
            raise PromotionError(f"cannot write the promotion journal: {exc}") from exc
        reached("journal_written", crash_at)
        journal = Journal(entry)

        started = time.perf_counter()
        try:
            mode = _swap(staged, live, backup, live_st is not None, use_exchange, crash_at)
            for folder in journal.folders():
                _fsync_dir(folder)
        except OSError as exc:
            put_back(kb, journal)
            raise PromotionError(f"cannot swap the staged wiki into place: {exc}") from exc
        reached("parent_fsynced", crash_at)
        swap_seconds = time.perf_counter() - started
        old_path = {"first": None, "exchange": staged, "rename": backup}[mode]
        cleaned = cleanup and _clean_up(kb, journal, job_id, crash_at)
        return PromotionResult(job_id, mode, live, old_path, swap_seconds, cleaned)


def _settle_earlier(kb: Path, job_id: str) -> None:
    """Under the base's lock: an earlier promotion that still owes its clean-up, or was interrupted, is
    settled before this one."""
    if journal_path(kb).exists() or temp_journal_path(kb).exists():
        try:
            outcome = _resolve(kb, None)
        except OSError as exc:
            raise PromotionError(f"cannot settle an earlier promotion: {exc}") from exc
        log.info("settled an earlier promotion before promoting %s: %s", job_id, outcome)


def _clean_up(kb: Path, journal: Journal, job_id: str, crash_at: str | None) -> bool:
    """The old tree and the journal removed; False when that failed (the promotion is committed already:
    clean-up is retried by the next promotion or start-up)."""
    try:
        finish(kb, journal, crash_at)
        return True
    except OSError:
        log.exception("promotion of %s committed, but its clean-up failed", job_id)
        return False


def cleanup_after_promotion(kb: Path, *, crash_at: str | None = None) -> RecoveryOutcome | None:
    """Delete the old tree, then the journal, of a promotion made with `cleanup=False`."""
    return _settle(Path(kb), _check_crash_at(crash_at or os.environ.get(CRASH_ENV) or None))


def recover_promotion(kb: Path, *, crash_at: str | None = None) -> RecoveryOutcome | None:
    """At start-up: finish or roll back a promotion a crash interrupted. None when there was none.

    `finished`: `wiki/` is the new generation; the host marks `job_id` succeeded.
    `rolled_back`: `wiki/` is the old generation (or still absent); the job is left for a retry.
    A page-level promotion (`kctui.publish.pages`) interrupted in the same base is settled too; its
    outcome is returned when there was no generation journal.
    """
    outcome = _settle(Path(kb), _check_crash_at(crash_at))
    if pages_pending(Path(kb)):
        pages_outcome = recover_pages(Path(kb), crash_at=crash_at)
        outcome = outcome or pages_outcome
    return outcome


def promotion_pending(kb: Path) -> bool:
    """Whether a promotion of either kind (generation or pages) was interrupted or owes its clean-up."""
    return journal_path(kb).exists() or temp_journal_path(kb).exists() or pages_pending(Path(kb))


def _settle_pages_first(kb: Path) -> None:
    """Under the base's lock: a page promotion interrupted earlier is finished or rolled back before a
    new generation is swapped in (the staged tree was built from the live pages of its time)."""
    if pages_pending(kb):
        try:
            with page_flock(kb):  # the thread lock is held by the caller
                outcome = resolve_pages(kb, None)
        except OSError as exc:
            raise PromotionError(f"cannot settle an earlier page promotion: {exc}") from exc
        log.info("settled an earlier page promotion before a generation: %s", outcome)


def _settle(kb: Path, crash_at: str | None) -> RecoveryOutcome | None:
    with kb_lock(kb):
        try:
            return _resolve(kb, crash_at)
        except OSError as exc:
            raise PromotionError(f"cannot settle the promotion journal of {kb}: {exc}") from exc


def _preflight(staged: Path, live: Path) -> tuple[os.stat_result, os.stat_result | None]:
    try:
        staged_st = os.lstat(staged)
    except OSError as exc:
        raise PromotionError(f"staged wiki {staged} cannot be read: {exc.strerror}") from exc
    if not stat.S_ISDIR(staged_st.st_mode):
        raise PromotionError(f"staged wiki {staged} is not a real directory")
    if os.path.abspath(staged) == os.path.abspath(live):
        raise PromotionError("the staged wiki is the live wiki")
    try:
        live_st: os.stat_result | None = os.lstat(live)
    except FileNotFoundError:
        return staged_st, None
    except OSError as exc:
        raise PromotionError(f"live wiki {live} cannot be read: {exc.strerror}") from exc
    if not stat.S_ISDIR(live_st.st_mode):
        raise PromotionError(f"live wiki {live} is not a real directory; refusing to replace it")
    if live_st.st_dev != staged_st.st_dev:
        raise PromotionError(f"staged wiki {staged} is on another filesystem than {live}")
    return staged_st, live_st


def _swap(staged: Path, live: Path, backup: Path, has_live: bool, use_exchange: bool | None,
          crash_at: str | None) -> Mode:
    if not has_live:
        try:
            _rename2(staged, live, _RENAME_NOREPLACE)  # never clobber a wiki that appeared meanwhile
        except OSError as exc:
            if exc.errno not in _EXCHANGE_UNSUPPORTED:
                raise
            os.rename(staged, live)
        reached("renamed_staged_to_live", crash_at)
        return "first"
    if use_exchange is not False:
        try:
            _rename2(staged, live, _RENAME_EXCHANGE)
        except OSError as exc:
            if use_exchange or exc.errno not in _EXCHANGE_UNSUPPORTED:
                raise
            log.info("RENAME_EXCHANGE unavailable here (%s); using two renames", exc.strerror)
        else:
            reached("swapped", crash_at)
            return "exchange"
    os.rename(live, backup)
    reached("renamed_live_to_backup", crash_at)
    os.rename(staged, live)  # on failure the caller puts the parked old generation back
    reached("renamed_staged_to_live", crash_at)
    return "rename"
