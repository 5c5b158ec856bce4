"""Garbage collection: what no live job or promotion owns is removed, each removal logged with its size.

Run at host start (after recovery, `recovery.recover_at_startup`) and after each job (the host's worker
and its lease check). The owner of each thing is checked, never guessed from its name:

- a job's staged folder (`<kb>/.a3s/compilation-output/<job>/`) is kept while its job is queued, or
  running with a live claim (a built-in job's claiming process alive, an external job's lease not
  expired), or while a promotion journal names a path inside it; the folder of a succeeded job gives
  its brief to the store first, as the job's own clean-up would have;
- a review decision's folder (`review-…`) is looked at under the store's write lock, which its publisher
  holds from the folder's creation to its commit: one whose items are all decided is dropped; one with
  an item still open is settled exactly as start-up recovery settles it (recorded if its pages are live,
  left pending if not). None is touched while a page promotion's journal is pending;
- an old generation parked at `<kb>/.a3s/wiki-old-<job>` is kept while the journal names it;
- a temporary file (`.<name>.<random>.tmp` of `atomic_write`) is kept while any process has it open or
  it is younger than `TEMP_GRACE_S`;
- the host lock file's content (`pid=… role=…`) is cleared when no process holds the lock.

The promoted `wiki/` is never looked into. `find_leftovers` only reads (`kctui doctor`);
`collect_garbage` removes."""

from __future__ import annotations

import fcntl
import json
import logging
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from kctui import paths
from kctui.core.models import CLAIMED_BY_EXTERNAL
from kctui.publish.common import journal_path
from kctui.publish.pages_journal import page_journal_path, temp_page_journal_path
from kctui.services.briefs import read_brief_file, store_brief
from kctui.services.context import ServiceContext
from kctui.services.probes import OpenFiles, human_size, lock_holder_text, pid_alive, tree_size

log = logging.getLogger(__name__)

TEMP_GRACE_S = 60.0  # a temporary file this young may be between its write and its rename
REVIEW_PREFIX = "review-"
TRASH_PREFIX = ".trash-"


@dataclass(frozen=True)
class Leftover:
    kind: str        # staged_output | review_folder | old_generation | temp_file | stale_lock
    path: Path
    size: int        # bytes (a hard-linked page counts in full)
    reason: str      # why nothing owns it
    base: str | None = None  # the base's id, for what lives in a base


@dataclass
class GcReport:
    removed: list[Leftover] = field(default_factory=list)
    failed: list[tuple[Leftover, str]] = field(default_factory=list)

    @property
    def freed(self) -> int:
        return sum(item.size for item in self.removed)

    def summary(self) -> str:
        if not self.removed and not self.failed:
            return "nothing to collect"
        text = f"{len(self.removed)} leftover(s) removed ({human_size(self.freed)})"
        return text + (f"; {len(self.failed)} could not be removed" if self.failed else "")


# -- what owns what ------------------------------------------------------------------------------

def _bases(ctx: ServiceContext) -> list[tuple[str, str, Path]]:
    return [(str(r["workspace"]), str(r["id"]), paths.kb_path(Path(r["workspace"]), r["id"]))
            for r in ctx.store.query("SELECT workspace, id FROM bases ORDER BY workspace, id")]


def _journal_paths(kb: Path) -> list[Path]:
    """The paths an in-progress generation promotion names (its staged tree, its parked old tree)."""
    try:
        entry = json.loads(journal_path(kb).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError):
        return [journal_path(kb)]  # unreadable: recovery sets it aside; own nothing less than everything
    if not isinstance(entry, dict):
        return []
    return [Path(str(entry[k])) for k in ("staged_path", "backup_path", "live_path") if entry.get(k)]


def _inside(path: Path, folder: Path) -> bool:
    try:
        Path(os.path.abspath(path)).relative_to(os.path.abspath(folder))
    except ValueError:
        return False
    return True


def job_owner(row: sqlite3.Row | None, now_us: int) -> str | None:
    """What keeps a job's staged folder: None when nothing does. A queued job owns none: its claim makes
    the folder afresh inside the write transaction that marks it running, and a removal re-checks under
    that same lock (`_remove_staged`), so a queued job's folder is what a claim killed before its commit
    left behind."""
    if row is None:
        return None
    phase = row["phase"]
    if phase != "running":
        return None
    if row["claimed_by"] == CLAIMED_BY_EXTERNAL:
        lease = row["lease_expires_at"]
        return f"job {row['id']} runs (lease live)" if lease is None or lease > now_us else None
    return f"job {row['id']} runs (pid {row['claim_pid']})" if pid_alive(row["claim_pid"]) else None


def _job_rows(ctx: ServiceContext, kb_id: str, workspace: str) -> dict[str, sqlite3.Row]:
    rows = ctx.store.query("SELECT id, phase, claimed_by, claim_pid, lease_expires_at FROM jobs "
                           "WHERE workspace = ? AND base_id = ?", (workspace, kb_id))
    return {str(r["id"]): r for r in rows}


# -- the scan --------------------------------------------------------------------------------------

def find_leftovers(ctx: ServiceContext, *, wall_now: float | None = None) -> list[Leftover]:
    """Everything under the state dir and the bases' `.a3s/` that nothing owns; nothing is changed."""
    wall = time.time() if wall_now is None else wall_now
    opened = OpenFiles()
    found: list[Leftover] = []
    for workspace, kb_id, kb in _bases(ctx):
        a3s = kb / ".a3s"
        if not a3s.is_dir():
            continue
        journal = _journal_paths(kb)
        found += _staged_leftovers(ctx, workspace, kb_id, kb, journal)
        for old in sorted(a3s.glob("wiki-old-*")):
            if not any(_inside(j, old) or _inside(old, j) for j in journal):
                found.append(Leftover("old_generation", old, tree_size(old),
                                      "an old wiki generation no promotion journal names", kb_id))
        found += _temp_leftovers(a3s, opened, wall, kb_id,
                                skip={paths.output_root(Path(workspace), kb_id), a3s / "page-promotion"})
    state = paths.state_dir()
    if state.is_dir():
        found += _temp_leftovers(state, opened, wall, None, skip=set())
        lock = paths.host_lock_file()
        held, text = lock_holder_text(lock)
        if not held and text:
            found.append(Leftover("stale_lock", lock, len(text), f"names a host that is gone ({text})"))
    return found


def _staged_leftovers(ctx: ServiceContext, workspace: str, kb_id: str, kb: Path,
                      journal: list[Path]) -> list[Leftover]:
    root = paths.output_root(Path(workspace), kb_id)
    try:
        entries = sorted(root.iterdir())
    except OSError:
        return []
    rows = _job_rows(ctx, kb_id, workspace)
    now = ctx.now()
    pages_pending = page_journal_path(kb).exists() or temp_page_journal_path(kb).exists()
    out: list[Leftover] = []
    for entry in entries:
        if any(_inside(j, entry) for j in journal):
            continue  # an in-progress promotion owns it
        if entry.name.startswith(REVIEW_PREFIX) and entry.is_dir() and not entry.is_symlink():
            if not pages_pending:
                out.append(Leftover("review_folder", entry, tree_size(entry),
                                    "a review decision's folder whose publisher is gone", kb_id))
            continue
        if job_owner(rows.get(entry.name), now) is not None:
            continue
        row = rows.get(entry.name)
        why = (f"job {entry.name} is {row['phase']}" if row is not None and row["phase"] != "running"
               else f"job {entry.name} was interrupted" if row is not None else "no job of this base has this name")
        out.append(Leftover("staged_output", entry, tree_size(entry), why, kb_id))
    return out


def _temp_leftovers(top: Path, opened: OpenFiles, wall: float, kb_id: str | None, skip: set[Path]) -> list[Leftover]:
    out: list[Leftover] = []
    for dirpath, dirs, files in os.walk(top, followlinks=False):
        dirs[:] = [d for d in dirs if Path(dirpath, d) not in skip and not d.startswith("wiki-old-")]
        for name in files:
            if not (name.startswith(".") and name.endswith(".tmp")):
                continue
            path = Path(dirpath, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if wall - st.st_mtime < TEMP_GRACE_S or str(path) in opened:
                continue
            out.append(Leftover("temp_file", path, st.st_size, "a temporary file no process has open", kb_id))
    return out


# -- removal ---------------------------------------------------------------------------------------

def collect_garbage(ctx: ServiceContext, *, wall_now: float | None = None) -> GcReport:
    """Remove every leftover `find_leftovers` finds, re-checking each owner at the moment of removal."""
    report = GcReport()
    for item in find_leftovers(ctx, wall_now=wall_now):
        try:
            done = _remove(ctx, item)
        except OSError as exc:
            report.failed.append((item, str(exc)))
            log.warning("gc: cannot remove %s: %s", item.path, exc)
            continue
        if done:
            report.removed.append(item)
            log.info("gc: removed %s %s (%s): %s", item.kind, item.path, human_size(item.size), item.reason)
    return report


def collect_after_job(ctx: ServiceContext) -> None:
    """Garbage collection after a job; a failure is logged, never raised (the next job collects again)."""
    try:
        collect_garbage(ctx)
    except Exception:  # noqa: BLE001 - never let clean-up break the worker
        log.exception("collecting leftovers after a job failed")


def _remove(ctx: ServiceContext, item: Leftover) -> bool:
    if item.kind == "stale_lock":
        return _clear_lock(item.path)
    if item.kind == "temp_file":
        item.path.unlink(missing_ok=True)
        return True
    if item.kind == "old_generation":
        kb = item.path.parent.parent
        if any(_inside(j, item.path) or _inside(item.path, j) for j in _journal_paths(kb)):
            return False
        shutil.rmtree(item.path)
        return True
    if item.kind == "review_folder":
        return _remove_review_folder(ctx, item)
    return _remove_staged(ctx, item)


def _clear_lock(path: Path) -> bool:
    fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # a host took it meanwhile: its content is its own
        os.ftruncate(fd, 0)
        os.fsync(fd)
        return True
    finally:
        os.close(fd)


def _remove_staged(ctx: ServiceContext, item: Leftover) -> bool:
    """Under the store's write lock (no claim or result meanwhile), the owner checked again; the folder
    is renamed aside there and deleted after the lock is released."""
    folder = item.path
    kb = folder.parent.parent.parent
    workspace = _workspace_of(ctx, item.base, kb)
    with ctx.store.write() as conn:
        if not os.path.lexists(folder) or any(_inside(j, folder) for j in _journal_paths(kb)):
            return False
        row = conn.execute("SELECT id, phase, claimed_by, claim_pid, lease_expires_at FROM jobs "
                           "WHERE id = ? AND base_id = ? AND workspace = ?",
                           (folder.name, item.base, workspace)).fetchone()
        if job_owner(row, ctx.now()) is not None:
            return False
        if row is not None and row["phase"] == "succeeded":
            _keep_brief(conn, folder, row["id"], workspace, item.base, ctx.now())
        if folder.is_symlink() or not folder.is_dir():
            folder.unlink()
            return True
        aside = folder.with_name(f"{TRASH_PREFIX}{folder.name}-{os.getpid()}-{time.monotonic_ns()}")
        os.rename(folder, aside)
    shutil.rmtree(aside)
    return True


def _workspace_of(ctx: ServiceContext, kb_id: str | None, kb: Path) -> str:
    for workspace, base_id, path in _bases(ctx):
        if base_id == kb_id and os.path.abspath(path) == os.path.abspath(kb):
            return workspace
    return ""


def _keep_brief(conn: sqlite3.Connection, folder: Path, job_id: str, workspace: str, kb_id: str | None,
                now: int) -> None:
    """A succeeded job's brief reaches the store before its folder goes (as `results.report_result` does)."""
    if conn.execute("SELECT 1 FROM briefs WHERE job_id = ?", (job_id,)).fetchone():
        return
    text = read_brief_file(folder)
    if text is not None:
        store_brief(conn, job_id, workspace, kb_id, text, now)


def _remove_review_folder(ctx: ServiceContext, item: Leftover) -> bool:
    """Under the write lock its publisher holds until it committed: all items decided → the folder is
    only owed its removal; an item still open → settled as start-up recovery settles it."""
    from kctui.services.review_publish import DECISION_NAME, settle_decision  # noqa: PLC0415

    folder = item.path
    kb = folder.parent.parent.parent
    if page_journal_path(kb).exists():
        return False
    workspace = _workspace_of(ctx, item.base, kb)
    with ctx.store.write() as conn:
        if not folder.is_dir():
            return False
        try:
            decision = json.loads((folder / DECISION_NAME).read_text(encoding="utf-8"))
            items = [int(d["item"] if isinstance(d, dict) else d[0]) for d in decision.get("items") or []]
            items += [int(decision["item"])] if "item" in decision else []
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
            items = []
        marks = ",".join("?" * len(items))
        still_open = bool(items) and conn.execute(
            f"SELECT 1 FROM review_items WHERE state = 'open' AND id IN ({marks}) LIMIT 1", items).fetchone()
        if still_open:
            resolved: list[int] = []
            pending: list[int] = []
            settle_decision(ctx, conn, workspace, str(item.base), folder, resolved, pending)
            log.info("gc: settled an interrupted review decision in %s: %d resolved, %d left pending",
                     folder, len(resolved), len(pending))
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return not folder.exists()


__all__ = ["GcReport", "Leftover", "collect_after_job", "collect_garbage", "find_leftovers", "human_size", "lock_holder_text",
           "pid_alive", "tree_size"]
