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

import logging
import os
import shutil
import stat
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kctui.publish.common import CRASH_ENV, PAGE_STEPS, PromotionError, live_path, reached
from kctui.publish.common import page_step as _check_crash_at
from kctui.publish.durable import fsync_dir, write_file
from kctui.publish.generation_journal import generation_pending
from kctui.publish.generation_journal import resolve_generation as settle_generation
from kctui.publish.pages_journal import (
    PAGE_JOURNAL_VERSION,
    apply_pages,
    clean,
    exclusive,
    live_digest,
    live_target,
    page_digest,
    page_journal_path,
    page_staging_path,
    pages_pending,
    recover_pages,
    resolve_pages,
    temp_page_journal_path,
    write_page_journal,
)
from kctui.publish.validate import validate_page

log = logging.getLogger(__name__)

__all__ = ["PAGE_STEPS", "PagePromotionResult", "page_digest", "page_journal_path", "page_staging_path",
           "pages_pending", "promote_pages", "recover_pages"]

_PARALLEL_FSYNC_FROM = 16   # more staged pages than this: fsync them a few at a time
_FSYNC_WORKERS = 4


@dataclass(frozen=True)
class PagePromotionResult:
    promotion_id: str
    written: tuple[str, ...]      # pages now at their new text
    removed: tuple[str, ...]      # pages now gone
    commit_seconds: float         # renames plus folder fsyncs: the critical section


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
        write_file(folder / name, data, sync=False)
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
    kb = Path(kb)
    crash_at = _check_crash_at(crash_at or os.environ.get(CRASH_ENV) or None)
    live = live_path(kb)
    for rel, text in changes.items():
        if text is not None:
            validate_page(rel, text)
    with exclusive(kb):
        _settle_earlier(kb)
        _check_live(live)
        entries, payloads = _plan(live, changes)
        removed = {e["path"] for e in entries if e["new"] is None}
        if removed and not _still_has_a_page(live, removed):
            raise PromotionError("removing these pages would leave the wiki without a page")
        if not entries:
            return PagePromotionResult(promotion_id, (), (), 0.0)

        staging = _stage(kb, entries, payloads)
        reached("pages_staged", crash_at)
        _journal(kb, staging, promotion_id, live, entries, crash_at)
        reached("page_journal_written", crash_at)
        commit_seconds = _commit(kb, live, entries, promotion_id, crash_at)
        try:
            clean(kb, crash_at)
        except OSError:  # committed already: the next promotion or start-up retries the clean-up
            log.exception("page promotion %s committed, but its clean-up failed", promotion_id)
        return PagePromotionResult(promotion_id, tuple(e["path"] for e in entries if e["new"] is not None),
                                   tuple(sorted(removed)), commit_seconds)


def _settle_earlier(kb: Path) -> None:
    """Finish or roll back an interrupted tree or page promotion of this base first."""
    try:
        if generation_pending(kb):
            settle_generation(kb, None)
        if pages_pending(kb):
            resolve_pages(kb, None)
    except OSError as exc:
        raise PromotionError(f"cannot settle an earlier promotion: {exc}") from exc


def _check_live(live: Path) -> None:
    """PromotionError unless the live wiki is a real directory."""
    try:
        live_st = os.lstat(live)
    except OSError as exc:
        raise PromotionError(f"the live wiki {live} cannot be read: {exc.strerror}") from exc
    if not stat.S_ISDIR(live_st.st_mode):
        raise PromotionError(f"the live wiki {live} is not a real directory")


def _plan(live: Path, changes: Mapping[str, str | None]) -> tuple[list[dict[str, Any]], list[bytes | None]]:
    """The journal's page entries (by path; pages already at their new text left out) and each one's new
    bytes (None: removed)."""
    entries: list[dict[str, Any]] = []
    payloads: list[bytes | None] = []
    for rel in sorted(changes):
        text = changes[rel]
        target = live_target(live, rel)
        try:
            old = live_digest(target)
        except OSError as exc:
            raise PromotionError(f"{rel}: cannot read the live page: {exc.strerror}") from exc
        data = None if text is None else text.encode("utf-8")
        new = None if data is None else page_digest(data)
        if new == old:
            continue  # already so: nothing to write
        entries.append({"path": rel, "staged": None if data is None else f"{len(payloads):06d}.md",
                        "new": new, "old": old})
        payloads.append(data)
    return entries, payloads


def _stage(kb: Path, entries: list[dict[str, Any]], payloads: list[bytes | None]) -> Path:
    """Step 1: every new page written to the staging folder and fsynced, then the folder; the folder."""
    staging = page_staging_path(kb)
    try:
        staging.mkdir(parents=True)
        _write_all_durable(staging, [(entry["staged"], data) for entry, data in zip(entries, payloads, strict=True)
                                     if data is not None])
        fsync_dir(staging)
        fsync_dir(staging.parent)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise PromotionError(f"cannot write the new pages to disk: {exc}") from exc
    return staging


def _journal(kb: Path, staging: Path, promotion_id: str, live: Path, entries: list[dict[str, Any]],
             crash_at: str | None) -> None:
    """Step 2: the journal written durably (on failure, it and the staging folder are dropped)."""
    journal = {"version": PAGE_JOURNAL_VERSION, "promotion_id": promotion_id, "live_path": str(live),
               "written_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "pages": entries}
    try:
        write_page_journal(kb, journal, crash_at)
    except OSError as exc:  # no page was moved yet: the journal, even renamed into place, says nothing
        temp_page_journal_path(kb).unlink(missing_ok=True)
        page_journal_path(kb).unlink(missing_ok=True)
        shutil.rmtree(staging, ignore_errors=True)
        raise PromotionError(f"cannot write the page promotion journal: {exc}") from exc


def _commit(kb: Path, live: Path, entries: list[dict[str, Any]], promotion_id: str, crash_at: str | None) -> float:
    """Steps 3 and 4: the staged pages renamed into place and the folders fsynced; the seconds it took."""
    started = time.perf_counter()
    try:
        apply_pages(kb, live, entries, crash_at, fresh=True)
    except (OSError, PromotionError) as exc:
        # Part of the pages may be in place: roll the rest forward (the journal makes it whole),
        # or leave the journal to start-up if even that fails.
        try:
            outcome = resolve_pages(kb, None)
        except (OSError, PromotionError):
            log.exception("page promotion %s interrupted; the journal stays for recovery", promotion_id)
            raise PromotionError(f"cannot move the new pages into place: {exc}") from exc
        if outcome is None or not outcome.finished:  # rolled back: every page is its old self
            raise PromotionError(f"cannot move the new pages into place: {exc}") from exc
        log.warning("page promotion %s: %s; every page was rolled forward by the journal", promotion_id, exc)
    return time.perf_counter() - started
