"""Page-level promotion: write a few pages of the live `<kb>/wiki` (a review decision) without copying
the tree, durably and crash-safely. The one writer of `wiki/` stays promotion (this module and
`promote.py`, which share one lock per base and settle each other's interrupted work first).

Order of work; each name is a step of `PAGE_STEPS` where a test can kill the process:
1. every new page written to `<kb>/.a3s/page-promotion/NNNNNN.md` and fsynced, then the folder  `pages_staged`
2. journal `<kb>/.a3s/page-promotion.json`: temp, fsync, rename, fsync
                                                  `page_journal_temp_written`, `page_journal_written`
3. each staged page renamed over its live path (removed pages unlinked)   `page_renamed` (after the
   first), `pages_renamed` (after the last)
4. fsync every live folder whose entries changed: the promotion is committed  `page_folders_fsynced`
5. delete the staging folder, then the journal          `page_staging_deleted`, `page_journal_deleted`

The journal (JSON) lists, per page, its path, the staged file, the new digest (null: removed) and the
old digest (null: the page did not exist). Recovery reads the live pages: if none carries its new
state yet, nothing was published and the promotion is rolled back (staging and journal dropped, every
page its old self); if any does, every other page is rolled forward from its durable staged file. A
rename replaces a whole file, so each page is always its old or its new text, and after recovery the
set of pages is exactly the old or exactly the new generation.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import shutil
import stat
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kctui.publish.promote import (
    CRASH_ENV,
    PromotionError,
    RecoveryOutcome,
    _fsync_dir,
    _kb_lock,
    _reached,
    live_path,
)

log = logging.getLogger(__name__)

PAGE_STEPS = ("pages_staged", "page_journal_temp_written", "page_journal_written", "page_renamed",
              "pages_renamed", "page_folders_fsynced", "page_staging_deleted", "page_journal_deleted")
PAGE_JOURNAL_VERSION = 1
_PARALLEL_FSYNC_FROM = 16   # more staged pages than this: fsync them a few at a time
_FSYNC_WORKERS = 4


@dataclass(frozen=True)
class PagePromotionResult:
    promotion_id: str
    written: tuple[str, ...]      # pages now at their new text
    removed: tuple[str, ...]      # pages now gone
    commit_seconds: float         # renames plus folder fsyncs: the critical section


def page_journal_path(kb: Path) -> Path:
    return Path(kb) / ".a3s" / "page-promotion.json"


def _temp_page_journal_path(kb: Path) -> Path:
    return Path(kb) / ".a3s" / "page-promotion.json.tmp"


def page_staging_path(kb: Path) -> Path:
    return Path(kb) / ".a3s" / "page-promotion"


def page_digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _lock_path(kb: Path) -> Path:
    return Path(kb) / ".a3s" / "page-promotion.lock"


@contextlib.contextmanager
def _flock(kb: Path) -> Iterator[None]:
    """An advisory `flock` on the base's page promotion, across processes (the CLI approves while the
    host starts up and recovers); the kernel releases it when a holder is killed."""
    path = _lock_path(kb)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def _exclusive(kb: Path) -> Iterator[None]:
    """The base's promotion lock of `promote.py` (threads) plus the page promotion's `flock` (processes)."""
    with _kb_lock(kb), _flock(kb):
        yield


def pages_pending(kb: Path) -> bool:
    """Whether a page promotion was interrupted (or owes its clean-up) in this base."""
    return (page_journal_path(kb).exists() or _temp_page_journal_path(kb).exists()
            or os.path.lexists(page_staging_path(kb)))


def _check_crash_at(crash_at: str | None) -> str | None:
    from kctui.publish.promote import STEPS  # noqa: PLC0415

    if crash_at is not None and crash_at not in PAGE_STEPS and crash_at not in STEPS:
        raise ValueError(f"unknown page promotion step {crash_at!r}; known: {', '.join(PAGE_STEPS)}")
    return crash_at if crash_at in PAGE_STEPS else None


# --- the live pages, read without following links -----------------------------------------------

def _live_target(live: Path, rel: str) -> Path:
    """`live/rel`, refusing any folder on the way that is not a real directory (never a symlink) and a
    target that is neither absent nor a regular file."""
    cur = live
    parts = rel.split("/")
    for part in parts[:-1]:
        cur = cur / part
        try:
            st = os.lstat(cur)
        except FileNotFoundError:
            continue
        if not stat.S_ISDIR(st.st_mode):
            raise PromotionError(f"{rel}: {cur.relative_to(live)} in the live wiki is not a real folder")
    target = live / rel
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return target
    if not stat.S_ISREG(st.st_mode):
        raise PromotionError(f"{rel}: the live wiki has something other than a regular file there")
    return target


def _live_digest(target: Path) -> str | None:
    try:
        fd = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    try:
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        return page_digest(b"".join(chunks))
    finally:
        os.close(fd)


def _write(path: Path, data: bytes, *, sync: bool = True) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_all_durable(folder: Path, files: list[tuple[str, bytes]]) -> None:
    """Write every file, then fsync them: all written first lets the kernel write them back together,
    and a few fsyncs at a time let the filesystem journal commit them as a group (jbd2 batches
    concurrent fsyncs). Every file is on disk when this returns; the first failure is raised."""
    for name, data in files:
        _write(folder / name, data, sync=False)
    paths_ = [folder / name for name, _ in files]
    if len(paths_) <= _PARALLEL_FSYNC_FROM:
        for path in paths_:
            _fsync_file(path)
        return
    with ThreadPoolExecutor(max_workers=_FSYNC_WORKERS, thread_name_prefix="page-fsync") as pool:
        list(pool.map(_fsync_file, paths_))


def _still_has_a_page(live: Path, removed: set[str]) -> bool:
    for dirpath, dirnames, filenames in os.walk(live, followlinks=False):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if name.endswith(".md"):
                rel = os.path.relpath(os.path.join(dirpath, name), live).replace(os.sep, "/")
                if rel not in removed:
                    return True
    return False


# --- promotion -----------------------------------------------------------------------------------

def promote_pages(kb: Path, changes: Mapping[str, str | None], promotion_id: str, *,
                  crash_at: str | None = None) -> PagePromotionResult:
    """Write `changes` (page path -> new text, or None to remove the page) into the live `<kb>/wiki`
    in one durable, crash-safe step. Each page is validated first (`validate_page`); the live wiki
    must exist. InvalidOutput for a page that breaks a rule, PromotionError on I/O failure — in both
    cases the wiki is left exactly as it was. `crash_at` / $KCTUI_TEST_PROMOTION_CRASH_AT: SIGKILL at
    that step (tests only)."""
    from kctui.publish.promote import _resolve as settle_generation  # noqa: PLC0415
    from kctui.publish.promote import journal_path  # noqa: PLC0415
    from kctui.publish.validate import validate_page  # noqa: PLC0415

    kb = Path(kb)
    crash_at = _check_crash_at(crash_at or os.environ.get(CRASH_ENV) or None)
    live = live_path(kb)
    for rel, text in changes.items():
        if text is not None:
            validate_page(rel, text)
    with _exclusive(kb):
        try:
            if journal_path(kb).exists() or journal_path(kb).with_name("promotion.json.tmp").exists():
                settle_generation(kb, None)
            if pages_pending(kb):
                _resolve_pages(kb, None)
        except OSError as exc:
            raise PromotionError(f"cannot settle an earlier promotion: {exc}") from exc
        try:
            live_st = os.lstat(live)
        except OSError as exc:
            raise PromotionError(f"the live wiki {live} cannot be read: {exc.strerror}") from exc
        if not stat.S_ISDIR(live_st.st_mode):
            raise PromotionError(f"the live wiki {live} is not a real directory")
        entries: list[dict[str, Any]] = []
        payloads: list[bytes | None] = []
        for rel in sorted(changes):
            text = changes[rel]
            target = _live_target(live, rel)
            try:
                old = _live_digest(target)
            except OSError as exc:
                raise PromotionError(f"{rel}: cannot read the live page: {exc.strerror}") from exc
            data = None if text is None else text.encode("utf-8")
            new = None if data is None else page_digest(data)
            if new == old:
                continue  # already so: nothing to write
            entries.append({"path": rel, "staged": None if data is None else f"{len(payloads):06d}.md",
                            "new": new, "old": old})
            payloads.append(data)
        removed = {e["path"] for e in entries if e["new"] is None}
        if removed and not _still_has_a_page(live, removed):
            raise PromotionError("removing these pages would leave the wiki without a page")
        if not entries:
            return PagePromotionResult(promotion_id, (), (), 0.0)

        staging = page_staging_path(kb)
        try:
            staging.mkdir(parents=True)
            _write_all_durable(staging, [(entry["staged"], data) for entry, data in zip(entries, payloads, strict=True)
                                         if data is not None])
            _fsync_dir(staging)
            _fsync_dir(staging.parent)
        except OSError as exc:
            shutil.rmtree(staging, ignore_errors=True)
            raise PromotionError(f"cannot write the new pages to disk: {exc}") from exc
        _reached("pages_staged", crash_at)

        journal = {"version": PAGE_JOURNAL_VERSION, "promotion_id": promotion_id, "live_path": str(live),
                   "written_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "pages": entries}
        try:
            _write_page_journal(kb, journal, crash_at)
        except OSError as exc:
            _temp_page_journal_path(kb).unlink(missing_ok=True)
            shutil.rmtree(staging, ignore_errors=True)
            raise PromotionError(f"cannot write the page promotion journal: {exc}") from exc
        _reached("page_journal_written", crash_at)

        started = time.perf_counter()
        try:
            _apply(kb, live, entries, crash_at, fresh=True)
        except (OSError, PromotionError) as exc:
            # Part of the pages may be in place: roll the rest forward (the journal makes it whole),
            # or leave the journal to start-up if even that fails.
            try:
                _resolve_pages(kb, None)
            except (OSError, PromotionError):
                log.exception("page promotion %s interrupted; the journal stays for recovery", promotion_id)
            raise PromotionError(f"cannot move the new pages into place: {exc}") from exc
        commit_seconds = time.perf_counter() - started
        try:
            _clean(kb, crash_at)
        except OSError:  # committed already: the next promotion or start-up retries the clean-up
            log.exception("page promotion %s committed, but its clean-up failed", promotion_id)
        return PagePromotionResult(promotion_id, tuple(e["path"] for e in entries if e["new"] is not None),
                                   tuple(sorted(removed)), commit_seconds)


def _write_page_journal(kb: Path, entry: dict[str, Any], crash_at: str | None) -> None:
    final, tmp = page_journal_path(kb), _temp_page_journal_path(kb)
    data = json.dumps(entry, sort_keys=True).encode("utf-8")
    _write(tmp, data)
    _reached("page_journal_temp_written", crash_at)
    os.replace(tmp, final)
    _fsync_dir(final.parent)


def _apply(kb: Path, live: Path, entries: list[dict[str, Any]], crash_at: str | None, *,
           fresh: bool = False) -> None:
    """Move every page that is not yet in its new state into place; fsync the folders touched.
    `fresh`: the first pass of a promotion, which read every live page just now (no page is in place)."""
    staging = page_staging_path(kb)
    folders: set[Path] = set()
    first = True
    known: set[Path] = set()  # folders seen to exist
    for entry in entries:
        # the first pass checked every path (a real folder all the way) under this lock a moment ago
        target = live / entry["path"] if fresh else _live_target(live, entry["path"])
        folders.add(target.parent)
        if not fresh and _live_digest(target) == entry["new"]:
            continue  # already in place (a recovery rolling forward)
        if entry["new"] is None:
            target.unlink(missing_ok=True)
        else:
            source = staging / entry["staged"]
            if not fresh and _live_digest(source) != entry["new"]:
                raise OSError(f"the staged text of {entry['path']} is missing or changed")
            if target.parent not in known:
                folders |= _make_folders(live, target.parent)
                known.add(target.parent)
            os.rename(source, target)
        if first:
            _reached("page_renamed", crash_at)
            first = False
    _reached("pages_renamed", crash_at)
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        if folder.is_dir():
            _fsync_dir(folder)
    _reached("page_folders_fsynced", crash_at)


def _make_folders(live: Path, folder: Path) -> set[Path]:
    """Create the missing folders from `live` down to `folder`; return the parents to fsync."""
    made: set[Path] = set()
    missing = []
    cur = folder
    while cur != live and not cur.is_dir():
        missing.append(cur)
        cur = cur.parent
    for path in reversed(missing):
        path.mkdir()
        made.add(path.parent)
    return made


def _clean(kb: Path, crash_at: str | None) -> None:
    staging = page_staging_path(kb)
    if os.path.lexists(staging):
        shutil.rmtree(staging)
        _fsync_dir(staging.parent)
    _reached("page_staging_deleted", crash_at)
    page_journal_path(kb).unlink(missing_ok=True)
    _fsync_dir(page_journal_path(kb).parent)
    _reached("page_journal_deleted", crash_at)


# --- recovery ------------------------------------------------------------------------------------

def recover_pages(kb: Path, *, crash_at: str | None = None) -> RecoveryOutcome | None:
    """Finish or roll back a page promotion a crash interrupted. None when there was none."""
    kb = Path(kb)
    with _exclusive(kb):
        try:
            return _resolve_pages(kb, _check_crash_at(crash_at))
        except OSError as exc:
            raise PromotionError(f"cannot settle the page promotion journal of {kb}: {exc}") from exc


def _read_page_journal(kb: Path) -> dict[str, Any]:
    entry = json.loads(page_journal_path(kb).read_bytes().decode("utf-8"))
    if not isinstance(entry, dict) or entry.get("version") != PAGE_JOURNAL_VERSION:
        raise ValueError("unknown page journal version")
    if not isinstance(entry.get("promotion_id"), str) or not isinstance(entry.get("pages"), list):
        raise ValueError("page journal fields missing or malformed")
    for page in entry["pages"]:
        if not (isinstance(page, dict) and isinstance(page.get("path"), str)
                and all(isinstance(page.get(k), (str, type(None))) for k in ("staged", "new", "old"))):
            raise ValueError("page journal entry malformed")
        parts = page["path"].split("/")
        if page["path"].startswith("/") or any(p in ("", ".", "..") for p in parts):
            raise ValueError(f"page journal names an unsafe path {page['path']!r}")
        if page["new"] is not None and not (isinstance(page["staged"], str) and "/" not in page["staged"]):
            raise ValueError("page journal entry has no staged file")
    return entry


def _resolve_pages(kb: Path, crash_at: str | None) -> RecoveryOutcome | None:
    if _temp_page_journal_path(kb).exists():  # killed while writing the journal: nothing moved yet
        _temp_page_journal_path(kb).unlink(missing_ok=True)
    if not page_journal_path(kb).exists():
        if os.path.lexists(page_staging_path(kb)):
            shutil.rmtree(page_staging_path(kb))
            _fsync_dir(page_staging_path(kb).parent)
            return RecoveryOutcome("rolled_back", None, "dropped staged pages that were never journaled")
        return None
    try:
        journal = _read_page_journal(kb)
    except (OSError, ValueError) as exc:
        path = page_journal_path(kb)
        aside = path.with_name(f"page-promotion.json.corrupt-{time.time_ns()}")
        log.error("unreadable page promotion journal %s (%s); moved to %s", path, exc, aside)
        os.replace(path, aside)
        _fsync_dir(path.parent)
        return RecoveryOutcome("rolled_back", None, f"unreadable page promotion journal set aside ({exc})")
    live = live_path(kb)
    pid = journal["promotion_id"]
    entries = journal["pages"]
    applied = 0
    for entry in entries:
        try:
            if _live_digest(_live_target(live, entry["path"])) == entry["new"]:
                applied += 1
        except PromotionError:
            continue
    if applied == 0:
        _clean(kb, crash_at)
        return RecoveryOutcome("rolled_back", pid, "no page had been moved into place; every page is as it was")
    try:
        _apply(kb, live, entries, crash_at)
    except PromotionError as exc:
        raise OSError(str(exc)) from exc
    _clean(kb, crash_at)
    detail = ("the pages were in place; clean-up done" if applied == len(entries)
              else f"rolled {len(entries) - applied} of {len(entries)} page(s) forward")
    return RecoveryOutcome("finished", pid, detail)
