"""The journal of a page-level promotion (`pages.py`) and the recovery that reads it, with the
cross-process lock both kinds of promotion take on a base. Recovery reads the live pages: if none
carries its new state yet, nothing was published and the promotion is rolled back (staging and journal
dropped, every page its old self); if any does, every other page is rolled forward from its durable
staged file. Used by `pages.py` and by `promote.py` (which settles an interrupted page promotion
before it swaps a generation in)."""

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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kctui.publish.common import PromotionError, RecoveryOutcome, kb_lock, live_path, page_step, reached
from kctui.publish.durable import fsync_dir, write_file

log = logging.getLogger("kctui.publish.pages")  # recovery logs as page promotion always did

PAGE_JOURNAL_VERSION = 1


def page_journal_path(kb: Path) -> Path:
    return Path(kb) / ".a3s" / "page-promotion.json"


def temp_page_journal_path(kb: Path) -> Path:
    return Path(kb) / ".a3s" / "page-promotion.json.tmp"


def page_staging_path(kb: Path) -> Path:
    return Path(kb) / ".a3s" / "page-promotion"


def page_digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _lock_path(kb: Path) -> Path:
    return Path(kb) / ".a3s" / "page-promotion.lock"


@contextlib.contextmanager
def page_flock(kb: Path) -> Iterator[None]:
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
def exclusive(kb: Path) -> Iterator[None]:
    """The base's promotion lock (threads, `common.kb_lock`) plus the page promotion's `flock` (processes)."""
    with kb_lock(kb), page_flock(kb):
        yield


def pages_pending(kb: Path) -> bool:
    """Whether a page promotion was interrupted (or owes its clean-up) in this base."""
    return (page_journal_path(kb).exists() or temp_page_journal_path(kb).exists()
            or os.path.lexists(page_staging_path(kb)))


# --- the live pages, read without following links -----------------------------------------------

def live_target(live: Path, rel: str) -> Path:
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


def live_digest(target: Path) -> str | None:
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


def write_page_journal(kb: Path, entry: dict[str, Any], crash_at: str | None) -> None:
    final, tmp = page_journal_path(kb), temp_page_journal_path(kb)
    data = json.dumps(entry, sort_keys=True).encode("utf-8")
    write_file(tmp, data)
    reached("page_journal_temp_written", crash_at)
    os.replace(tmp, final)
    fsync_dir(final.parent)


def apply_pages(kb: Path, live: Path, entries: list[dict[str, Any]], crash_at: str | None, *,
           fresh: bool = False) -> None:
    """Move every page that is not yet in its new state into place; fsync the folders touched.
    `fresh`: the first pass of a promotion, which read every live page just now (no page is in place)."""
    staging = page_staging_path(kb)
    folders: set[Path] = set()
    first = True
    known: set[Path] = set()  # folders seen to exist
    for entry in entries:
        # the first pass checked every path (a real folder all the way) under this lock a moment ago
        target = live / entry["path"] if fresh else live_target(live, entry["path"])
        folders.add(target.parent)
        if not fresh and live_digest(target) == entry["new"]:
            continue  # already in place (a recovery rolling forward)
        if entry["new"] is None:
            target.unlink(missing_ok=True)
        else:
            source = staging / entry["staged"]
            if not fresh and live_digest(source) != entry["new"]:
                raise OSError(f"the staged text of {entry['path']} is missing or changed")
            if target.parent not in known:
                folders |= _make_folders(live, target.parent)
                known.add(target.parent)
            os.rename(source, target)
        if first:
            reached("page_renamed", crash_at)
            first = False
    reached("pages_renamed", crash_at)
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        if folder.is_dir():
            fsync_dir(folder)
    reached("page_folders_fsynced", crash_at)


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


def clean(kb: Path, crash_at: str | None) -> None:
    staging = page_staging_path(kb)
    if os.path.lexists(staging):
        shutil.rmtree(staging)
        fsync_dir(staging.parent)
    reached("page_staging_deleted", crash_at)
    page_journal_path(kb).unlink(missing_ok=True)
    fsync_dir(page_journal_path(kb).parent)
    reached("page_journal_deleted", crash_at)


# --- recovery ---------------------------------------------------------------------------------

def recover_pages(kb: Path, *, crash_at: str | None = None) -> RecoveryOutcome | None:
    """Finish or roll back a page promotion a crash interrupted. None when there was none."""
    kb = Path(kb)
    with exclusive(kb):
        try:
            return resolve_pages(kb, page_step(crash_at))
        except OSError as exc:
            raise PromotionError(f"cannot settle the page promotion journal of {kb}: {exc}") from exc


def _read_page_journal(kb: Path) -> dict[str, Any]:
    entry = json.loads(page_journal_path(kb).read_bytes().decode("utf-8"))
    if not isinstance(entry, dict) or entry.get("version") != PAGE_JOURNAL_VERSION:
        raise ValueError("unknown page journal version")
    if not isinstance(entry.get("promotion_id"), str) or not isinstance(entry.get("pages"), list):
        raise ValueError("page journal fields missing or malformed")
    for page in entry["pages"]:
        _check_journal_page(page)
    return entry


def _check_journal_page(page: Any) -> None:
    """One page of the journal: its path safe inside the wiki, and a staged file when it writes one."""
    if not (isinstance(page, dict) and isinstance(page.get("path"), str)
            and all(isinstance(page.get(k), (str, type(None))) for k in ("staged", "new", "old"))):
        raise ValueError("page journal entry malformed")
    parts = page["path"].split("/")
    if page["path"].startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise ValueError(f"page journal names an unsafe path {page['path']!r}")
    if page["new"] is not None and not (isinstance(page["staged"], str) and "/" not in page["staged"]):
        raise ValueError("page journal entry has no staged file")


def resolve_pages(kb: Path, crash_at: str | None) -> RecoveryOutcome | None:
    if temp_page_journal_path(kb).exists():  # killed while writing the journal: nothing moved yet
        temp_page_journal_path(kb).unlink(missing_ok=True)
    if not page_journal_path(kb).exists():
        if os.path.lexists(page_staging_path(kb)):
            shutil.rmtree(page_staging_path(kb))
            fsync_dir(page_staging_path(kb).parent)
            return RecoveryOutcome("rolled_back", None, "dropped staged pages that were never journaled")
        return None
    try:
        journal = _read_page_journal(kb)
    except (OSError, ValueError) as exc:
        path = page_journal_path(kb)
        aside = path.with_name(f"page-promotion.json.corrupt-{time.time_ns()}")
        log.error("unreadable page promotion journal %s (%s); moved to %s", path, exc, aside)
        os.replace(path, aside)
        fsync_dir(path.parent)
        return RecoveryOutcome("rolled_back", None, f"unreadable page promotion journal set aside ({exc})")
    live = live_path(kb)
    pid = journal["promotion_id"]
    entries = journal["pages"]
    applied = 0
    for entry in entries:
        try:
            if live_digest(live_target(live, entry["path"])) == entry["new"]:
                applied += 1
        except PromotionError:
            continue
    if applied == 0:
        clean(kb, crash_at)
        return RecoveryOutcome("rolled_back", pid, "no page had been moved into place; every page is as it was")
    try:
        apply_pages(kb, live, entries, crash_at)
    except PromotionError as exc:
        raise OSError(str(exc)) from exc
    clean(kb, crash_at)
    detail = ("the pages were in place; clean-up done" if applied == len(entries)
              else f"rolled {len(entries) - applied} of {len(entries)} page(s) forward")
    return RecoveryOutcome("finished", pid, detail)
