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

import ctypes
import errno
import json
import logging
import os
import re
import shutil
import signal
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

log = logging.getLogger(__name__)

STEPS = ("fsync_staged", "journal_temp_written", "journal_written", "swapped", "renamed_live_to_backup",
         "renamed_staged_to_live", "parent_fsynced", "old_deleted", "journal_deleted")
CRASH_ENV = "KCTUI_TEST_PROMOTION_CRASH_AT"
JOURNAL_VERSION = 1
_JOB_ID = re.compile(r"[a-z0-9-]{1,96}")
_AT_FDCWD = -100
_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2
_EXCHANGE_UNSUPPORTED = {errno.EINVAL, errno.ENOSYS, errno.EXDEV, errno.ENOTSUP, errno.EOPNOTSUPP}

Mode = Literal["exchange", "rename", "first"]


class PromotionError(Exception):
    """Promotion failed on I/O; `wiki/` is still the previous generation (or still absent)."""


@dataclass(frozen=True)
class PromotionResult:
    job_id: str
    mode: Mode                # "exchange" (renameat2), "rename" (two renames) or "first" (no old wiki)
    live: Path                # <kb>/wiki, now the new generation
    old_path: Path | None     # where the previous generation went (already deleted when `cleaned`)
    swap_seconds: float       # swap plus parent fsync: the critical section
    cleaned: bool             # old tree and journal removed


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


def _temp_journal_path(kb: Path) -> Path:
    return Path(kb) / ".a3s" / "promotion.json.tmp"


def backup_path(kb: Path, job_id: str) -> Path:
    """Where the two-rename path parks the old generation (the exchange leaves it at the staged path)."""
    return Path(kb) / ".a3s" / f"wiki-old-{job_id}"


# --- renameat2 through ctypes and durable-filesystem helpers --------------------------------------

def _load_renameat2() -> Any:
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError, TypeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


_renameat2 = _load_renameat2()


def exchange_available() -> bool:
    """True when libc offers `renameat2` (whether the filesystem honours the flag shows at call time)."""
    return _renameat2 is not None


def _rename2(src: Path, dst: Path, flags: int) -> None:
    if _renameat2 is None:
        raise OSError(errno.ENOSYS, "renameat2 is not available", str(src))
    if _renameat2(_AT_FDCWD, os.fsencode(src), _AT_FDCWD, os.fsencode(dst), flags) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), str(src), None, str(dst))


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _raise(exc: OSError) -> None:
    raise exc


def _fsync_tree(root: Path) -> None:
    """fsync every regular file and folder under `root` (links never followed), then its parent."""
    for dirpath, _dirnames, filenames in os.walk(root, topdown=False, onerror=_raise, followlinks=False):
        for name in filenames:
            path = os.path.join(dirpath, name)
            if not stat.S_ISREG(os.lstat(path).st_mode):
                continue
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        _fsync_dir(Path(dirpath))
    _fsync_dir(Path(root).parent)


def _identity(path: Path) -> int | None:
    """The inode at `path` (None when nothing is there). Inodes, unlike device numbers, survive a
    reboot, and preflight checked that every path involved is on the one filesystem."""
    try:
        return os.lstat(path).st_ino
    except FileNotFoundError:
        return None


def _reached(step: str, crash_at: str | None) -> None:
    if crash_at == step:
        log.warning("test hook: killing the process at promotion step %s", step)
        os.kill(os.getpid(), signal.SIGKILL)


def _check_crash_at(crash_at: str | None) -> str | None:
    from kctui.publish.pages import PAGE_STEPS  # noqa: PLC0415  (one variable names the steps of both)

    if crash_at is not None and crash_at not in STEPS and crash_at not in PAGE_STEPS:
        raise ValueError(f"unknown promotion step {crash_at!r}; known: {', '.join(STEPS)}")
    return crash_at if crash_at in STEPS else None


_locks_guard = threading.Lock()
_locks: dict[str, threading.Lock] = {}


def _kb_lock(kb: Path) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(os.path.abspath(kb), threading.Lock())


# --- the journal ---------------------------------------------------------------------------------

class _Journal:
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
            if _identity(path) == self.old_id:
                return path
        return None

    def folders(self) -> set[Path]:
        return {self.live.parent, self.staged.parent, self.backup.parent}


def _write_journal(kb: Path, entry: dict[str, Any], crash_at: str | None) -> None:
    final, tmp = journal_path(kb), _temp_journal_path(kb)
    if not final.parent.is_dir():
        final.parent.mkdir(parents=True, exist_ok=True)
        _fsync_dir(final.parent.parent)
    data = json.dumps(entry, sort_keys=True, indent=1).encode("utf-8")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    _reached("journal_temp_written", crash_at)
    os.replace(tmp, final)
    _fsync_dir(final.parent)


def _read_journal(kb: Path) -> _Journal:
    """Load and check the journal; raise ValueError when it is unreadable or malformed."""
    entry = json.loads(journal_path(kb).read_bytes().decode("utf-8"))
    if not isinstance(entry, dict) or entry.get("version") != JOURNAL_VERSION:
        raise ValueError("unknown journal version")
    fields = {"job_id": str, "live_path": str, "staged_path": str, "backup_path": str,
              "staged_inode": int, "live_inode": (int, type(None))}
    for key, kind in fields.items():
        if not isinstance(entry.get(key, ...), kind):
            raise ValueError(f"journal field {key} missing or malformed")
    return _Journal(entry)


def _delete_journal(kb: Path, crash_at: str | None) -> None:
    journal_path(kb).unlink(missing_ok=True)
    _fsync_dir(journal_path(kb).parent)
    _reached("journal_deleted", crash_at)


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
    with _kb_lock(kb):
        if journal_path(kb).exists() or _temp_journal_path(kb).exists():
            try:  # an earlier promotion still owes its clean-up, or was interrupted
                outcome = _resolve(kb, None)
            except OSError as exc:
                raise PromotionError(f"cannot settle an earlier promotion: {exc}") from exc
            log.info("settled an earlier promotion before promoting %s: %s", job_id, outcome)
        _settle_pages_first(kb)
        staged_st, live_st = _preflight(staged, live)
        try:
            if os.path.lexists(backup):
                shutil.rmtree(backup)
            _fsync_tree(staged)
        except OSError as exc:
            raise PromotionError(f"cannot flush the staged wiki to disk: {exc}") from exc
        _reached("fsync_staged", crash_at)

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
            _write_journal(kb, entry, crash_at)
        except OSError as exc:
            _temp_journal_path(kb).unlink(missing_ok=True)
            raise PromotionError(f"cannot write the promotion journal: {exc}") from exc
        _reached("journal_written", crash_at)
        journal = _Journal(entry)

        started = time.perf_counter()
        try:
            mode = _swap(staged, live, backup, live_st is not None, use_exchange, crash_at)
            for folder in journal.folders():
                _fsync_dir(folder)
        except OSError as exc:
            _put_back(kb, journal)
            raise PromotionError(f"cannot swap the staged wiki into place: {exc}") from exc
        _reached("parent_fsynced", crash_at)
        swap_seconds = time.perf_counter() - started
        old_path = {"first": None, "exchange": staged, "rename": backup}[mode]

        cleaned = False
        if cleanup:
            try:
                _finish(kb, journal, crash_at)
                cleaned = True
            except OSError:  # committed already: clean-up is retried by the next promotion or start-up
                log.exception("promotion of %s committed, but its clean-up failed", job_id)
        return PromotionResult(job_id, mode, live, old_path, swap_seconds, cleaned)


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
    from kctui.publish.pages import pages_pending, recover_pages  # noqa: PLC0415

    outcome = _settle(Path(kb), _check_crash_at(crash_at))
    if pages_pending(Path(kb)):
        pages_outcome = recover_pages(Path(kb), crash_at=crash_at)
        outcome = outcome or pages_outcome
    return outcome


def promotion_pending(kb: Path) -> bool:
    """Whether a promotion of either kind (generation or pages) was interrupted or owes its clean-up."""
    from kctui.publish.pages import pages_pending  # noqa: PLC0415

    return journal_path(kb).exists() or _temp_journal_path(kb).exists() or pages_pending(Path(kb))


def _settle_pages_first(kb: Path) -> None:
    """Under the base's lock: a page promotion interrupted earlier is finished or rolled back before a
    new generation is swapped in (the staged tree was built from the live pages of its time)."""
    from kctui.publish.pages import _flock, _resolve_pages, pages_pending  # noqa: PLC0415

    if pages_pending(kb):
        try:
            with _flock(kb):  # the thread lock is held by the caller
                outcome = _resolve_pages(kb, None)
        except OSError as exc:
            raise PromotionError(f"cannot settle an earlier page promotion: {exc}") from exc
        log.info("settled an earlier page promotion before a generation: %s", outcome)


def _settle(kb: Path, crash_at: str | None) -> RecoveryOutcome | None:
    with _kb_lock(kb):
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
        _reached("renamed_staged_to_live", crash_at)
        return "first"
    if use_exchange is not False:
        try:
            _rename2(staged, live, _RENAME_EXCHANGE)
        except OSError as exc:
            if use_exchange or exc.errno not in _EXCHANGE_UNSUPPORTED:
                raise
            log.info("RENAME_EXCHANGE unavailable here (%s); using two renames", exc.strerror)
        else:
            _reached("swapped", crash_at)
            return "exchange"
    os.rename(live, backup)
    _reached("renamed_live_to_backup", crash_at)
    os.rename(staged, live)  # on failure the caller puts the parked old generation back
    _reached("renamed_staged_to_live", crash_at)
    return "rename"


def _put_back(kb: Path, journal: _Journal) -> None:
    """The promotion failed before it committed: make `wiki/` the old generation again (absent for a
    first generation) and drop the journal. If even that fails, the journal stays for the next start."""
    live, staged = journal.live, journal.staged
    try:
        if _identity(live) == journal.new_id:
            if journal.old_id is not None and _identity(staged) == journal.old_id:
                _rename2(staged, live, _RENAME_EXCHANGE)
            else:
                os.rename(live, staged)
        old = journal.locate_old()
        if _identity(live) is None and old is not None:
            os.rename(old, live)
        for folder in journal.folders():
            _fsync_dir(folder)
        if _identity(live) == journal.old_id:
            _delete_journal(kb, None)
            return
        log.error("could not put the old wiki generation back; the journal stays for recovery")
    except OSError:
        log.exception("could not put the old wiki generation back; the journal stays for recovery")


def _finish(kb: Path, journal: _Journal, crash_at: str | None) -> None:
    """The new generation is live: delete the old tree (wherever it is parked), then the journal."""
    old = journal.locate_old()
    if old is not None:
        shutil.rmtree(old, onerror=_log_rmtree_error)
        _fsync_dir(old.parent)
    _reached("old_deleted", crash_at)
    _delete_journal(kb, crash_at)


def _log_rmtree_error(_func: Any, path: str, exc_info: Any) -> None:
    log.warning("cannot delete %s of the old wiki generation: %s", path, exc_info[1])


# --- recovery ------------------------------------------------------------------------------------

def _resolve(kb: Path, crash_at: str | None) -> RecoveryOutcome | None:
    if _temp_journal_path(kb).exists():  # killed while writing the journal: nothing was swapped yet
        log.warning("discarding a half-written promotion journal in %s", kb)
        _temp_journal_path(kb).unlink(missing_ok=True)
    if not journal_path(kb).exists():
        return None
    try:
        journal = _read_journal(kb)
    except (OSError, ValueError) as exc:
        return _discard_corrupt_journal(kb, exc)

    job_id, live, staged = journal.job_id, journal.live, journal.staged
    at_live = _identity(live)
    if at_live == journal.new_id:
        _finish(kb, journal, crash_at)
        return RecoveryOutcome("finished", job_id, "the new generation was live; clean-up done")
    if at_live is None and journal.old_id is not None:
        if _identity(staged) == journal.new_id:
            # Killed between the two renames: the old tree is parked and the new one is durable.
            os.rename(staged, live)
            for folder in journal.folders():
                _fsync_dir(folder)
            _finish(kb, journal, crash_at)
            return RecoveryOutcome("finished", job_id, "completed the second rename")
        old = journal.locate_old()
        if old is None:
            raise OSError(errno.ENOENT, "neither wiki generation can be found", str(live))
        os.rename(old, live)
        _fsync_dir(live.parent)
        _delete_journal(kb, crash_at)
        return RecoveryOutcome("rolled_back", job_id, "put the old generation back")
    if at_live is None:
        detail = "the first generation was never moved in; there is no wiki yet"
    elif at_live == journal.old_id:
        detail = "the swap never happened; the old generation is live"
    else:
        detail = "the live wiki is neither generation of the journal; left untouched"
        log.warning("promotion journal of %s: %s", job_id, detail)
    _delete_journal(kb, crash_at)
    return RecoveryOutcome("rolled_back", job_id, detail)


def _discard_corrupt_journal(kb: Path, exc: Exception) -> RecoveryOutcome:
    """An unreadable journal (never the result of a kill: it is renamed into place whole): set it
    aside as evidence and leave `wiki/` untouched."""
    path = journal_path(kb)
    aside = path.with_name(f"promotion.json.corrupt-{time.time_ns()}")
    log.error("unreadable promotion journal %s (%s); moved to %s", path, exc, aside)
    os.replace(path, aside)
    _fsync_dir(path.parent)
    return RecoveryOutcome("rolled_back", None, f"unreadable promotion journal set aside ({exc})")
