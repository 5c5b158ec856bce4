"""The journal of a generation's promotion (`promote.py`) and the recovery that reads it: after a
kill, what sits at `wiki/` decides. The new inode means the swap happened (finish the clean-up); the
old inode means it did not (roll back: drop the journal); nothing, with an old generation parked,
means the kill fell between the two renames, and the new tree, durable and validated, is moved in.
Used by `promote.py` and by `pages.py` (which settles an interrupted generation first)."""

from __future__ import annotations

import errno
import json
import logging
import os
import shutil
import time
from pathlib import Path
from typing import Any

from kctui.publish.common import RecoveryOutcome, journal_path, reached, temp_journal_path
from kctui.publish.durable import RENAME_EXCHANGE, fsync_dir, identity, rename2, write_file

log = logging.getLogger("kctui.publish.promote")  # recovery logs as promotion always did

JOURNAL_VERSION = 1


class Journal:
    """The parsed journal, with the two generations' identities."""

    def __init__(self, entry: dict[str, Any]) -> None:
        self.job_id: str = entry["job_id"]
        self.live = Path(entry["live_path"])
        self.staged = Path(entry["staged_path"])
        self.backup = Path(entry["backup_path"])
        self.new_id: int = entry["staged_inode"]  # the new generation
        self.old_id: int | None = entry["live_inode"]  # the old one; None for a first generation

    def locate_old(self) -> Path | None:
        """Where the old generation is parked, if anywhere other than `wiki/`."""
        if self.old_id is None:
            return None
        for path in (self.staged, self.backup):
            if identity(path) == self.old_id:
                return path
        return None

    def folders(self) -> set[Path]:
        return {self.live.parent, self.staged.parent, self.backup.parent}


def generation_pending(kb: Path) -> bool:
    """Whether a generation's promotion was interrupted (or owes its clean-up) in this base."""
    return journal_path(kb).exists() or temp_journal_path(kb).exists()


def write_journal(kb: Path, entry: dict[str, Any], crash_at: str | None) -> None:
    final, tmp = journal_path(kb), temp_journal_path(kb)
    if not final.parent.is_dir():
        final.parent.mkdir(parents=True, exist_ok=True)
        fsync_dir(final.parent.parent)
    write_file(tmp, json.dumps(entry, sort_keys=True, indent=1).encode("utf-8"))
    reached("journal_temp_written", crash_at)
    os.replace(tmp, final)
    fsync_dir(final.parent)


def _read_journal(kb: Path) -> Journal:
    """Load and check the journal; raise ValueError when it is unreadable or malformed."""
    entry = json.loads(journal_path(kb).read_bytes().decode("utf-8"))
    if not isinstance(entry, dict) or entry.get("version") != JOURNAL_VERSION:
        raise ValueError("unknown journal version")
    fields = {"job_id": str, "live_path": str, "staged_path": str, "backup_path": str,
              "staged_inode": int, "live_inode": (int, type(None))}
    for key, kind in fields.items():
        if not isinstance(entry.get(key, ...), kind):
            raise ValueError(f"journal field {key} missing or malformed")
    return Journal(entry)


def delete_journal(kb: Path, crash_at: str | None) -> None:
    journal_path(kb).unlink(missing_ok=True)
    fsync_dir(journal_path(kb).parent)
    reached("journal_deleted", crash_at)


def put_back(kb: Path, journal: Journal) -> None:
    """The promotion failed before it committed: make `wiki/` the old generation again (absent for a
    first generation) and drop the journal. If even that fails, the journal stays for the next start."""
    live, staged = journal.live, journal.staged
    try:
        if identity(live) == journal.new_id:
            if journal.old_id is not None and identity(staged) == journal.old_id:
                rename2(staged, live, RENAME_EXCHANGE)
            else:
                os.rename(live, staged)
        old = journal.locate_old()
        if identity(live) is None and old is not None:
            os.rename(old, live)
        for folder in journal.folders():
            fsync_dir(folder)
        if identity(live) == journal.old_id:
            delete_journal(kb, None)
            return
        log.error("could not put the old wiki generation back; the journal stays for recovery")
    except OSError:
        log.exception("could not put the old wiki generation back; the journal stays for recovery")


def finish(kb: Path, journal: Journal, crash_at: str | None) -> None:
    """The new generation is live: delete the old tree (wherever it is parked), then the journal."""
    old = journal.locate_old()
    if old is not None:
        shutil.rmtree(old, onerror=_log_rmtree_error)
        fsync_dir(old.parent)
    reached("old_deleted", crash_at)
    delete_journal(kb, crash_at)


def _log_rmtree_error(_func: Any, path: str, exc_info: Any) -> None:
    log.warning("cannot delete %s of the old wiki generation: %s", path, exc_info[1])


# --- recovery ------------------------------------------------------------------------------------

def resolve_generation(kb: Path, crash_at: str | None) -> RecoveryOutcome | None:
    """Finish or roll back the generation's promotion the journal describes (the caller holds the
    base's lock). None when there was none; OSError when it cannot be settled now."""
    if temp_journal_path(kb).exists():  # killed while writing the journal: nothing was swapped yet
        log.warning("discarding a half-written promotion journal in %s", kb)
        temp_journal_path(kb).unlink(missing_ok=True)
    if not journal_path(kb).exists():
        return None
    try:
        journal = _read_journal(kb)
    except (OSError, ValueError) as exc:
        return _discard_corrupt_journal(kb, exc)

    job_id, live, staged = journal.job_id, journal.live, journal.staged
    at_live = identity(live)
    if at_live == journal.new_id:
        finish(kb, journal, crash_at)
        return RecoveryOutcome("finished", job_id, "the new generation was live; clean-up done")
    if at_live is None and journal.old_id is not None:
        if identity(staged) == journal.new_id:
            # Killed between the two renames: the old tree is parked and the new one is durable.
            os.rename(staged, live)
            for folder in journal.folders():
                fsync_dir(folder)
            finish(kb, journal, crash_at)
            return RecoveryOutcome("finished", job_id, "completed the second rename")
        old = journal.locate_old()
        if old is None:
            raise OSError(errno.ENOENT, "neither wiki generation can be found", str(live))
        os.rename(old, live)
        fsync_dir(live.parent)
        delete_journal(kb, crash_at)
        return RecoveryOutcome("rolled_back", job_id, "put the old generation back")
    if at_live is None:
        detail = "the first generation was never moved in; there is no wiki yet"
    elif at_live == journal.old_id:
        detail = "the swap never happened; the old generation is live"
    else:
        detail = "the live wiki is neither generation of the journal; left untouched"
        log.warning("promotion journal of %s: %s", job_id, detail)
    delete_journal(kb, crash_at)
    return RecoveryOutcome("rolled_back", job_id, detail)


def _discard_corrupt_journal(kb: Path, exc: Exception) -> RecoveryOutcome:
    """An unreadable journal (never the result of a kill: it is renamed into place whole): set it
    aside as evidence and leave `wiki/` untouched."""
    path = journal_path(kb)
    aside = path.with_name(f"promotion.json.corrupt-{time.time_ns()}")
    log.error("unreadable promotion journal %s (%s); moved to %s", path, exc, aside)
    os.replace(path, aside)
    fsync_dir(path.parent)
    return RecoveryOutcome("rolled_back", None, f"unreadable promotion journal set aside ({exc})")
