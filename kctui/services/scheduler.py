"""Change detection and smart-automatic compilation in the host (host.md §2–§4).

`Scheduler.tick()` reconciles every monitored base: a stat-cached scan (the source of truth), the
quiet timer, the bulk-change pause, and — for `smart_auto` bases — an automatic job when the pure rule
of `kctui.core.schedule` says it is due. The watcher only makes a base's next reconcile happen at once.
`resume_base` is a person clearing a pause; `source_changes` is the read-only change report.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kctui import paths
from kctui.core import schedule as rules
from kctui.core.models import BasePhase, JobPhase, Policy, Trigger
from kctui.services.bases import get_base
from kctui.services.context import ServiceContext
from kctui.services.errors import InvalidInput
from kctui.services.jobs import insert_job, request_compile
from kctui.services.scheduled import load_schedule, settle_schedule
from kctui.services.snapshots import accept_snapshot, load_accepted_snapshot, scan_base
from kctui.sources.changes import SourceChanges, classify_changes
from kctui.store.records import (
    BASE_COLUMNS,
    BaseRecord,
    JobRecord,
    base_from_row,
    load_base,
    open_job_of_base,
    update_base,
)

log = logging.getLogger(__name__)


def windows_of(ctx: ServiceContext) -> rules.Windows:
    s = ctx.settings
    return rules.Windows(stability_s=s.stability_window, quiet_s=s.quiet_window,
                         min_interval_s=s.auto_min_interval, scan_interval_s=s.scan_interval)


def _job_active(conn, base: BaseRecord) -> bool:
    return conn.execute("SELECT 1 FROM jobs WHERE workspace = ? AND base_id = ? AND phase IN ('queued', 'running')",
                        (base.workspace, base.id)).fetchone() is not None


def next_auto_compile_for(ctx: ServiceContext, base: BaseRecord) -> int | None:
    job_active = ctx.store.query_one(
        "SELECT 1 FROM jobs WHERE workspace = ? AND base_id = ? AND phase IN ('queued', 'running')",
        (base.workspace, base.id)) is not None
    return rules.next_auto_compile_at(
        policy=base.policy, source_digest=base.source_digest, last_compiled_digest=base.last_compiled_digest,
        change_detected_at_us=base.change_detected_at, last_auto_requested_at_us=base.last_auto_requested_at,
        job_active=job_active, paused=base.phase == BasePhase.PAUSED, windows=windows_of(ctx))


def _changes_json(changes: SourceChanges | None) -> dict[str, int]:
    return changes.counts() if changes is not None else {}


@dataclass
class TickOutcome:
    key: str
    digest: str | None = None
    queued_job: str | None = None
    paused: str | None = None
    unstable: list[str] = field(default_factory=list)


class Scheduler:
    """Reconciles bases on a timer and on watcher marks. `tick()` is callable directly (tests)."""

    def __init__(self, ctx: ServiceContext, *, watcher: Any | None = None) -> None:
        self.ctx = ctx
        self.watcher = watcher
        self._last_scan_digest: dict[str, str | None] = {}
        self._dirty: set[str] = set()
        self._dirty_lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._caches: dict[str, Any] = {}
        self._cache_saved_at: dict[str, float] = {}
        self.cache_save_interval = 30.0

    # -- the loop --------------------------------------------------------------------------------------

    def mark_dirty(self, key: str) -> None:
        with self._dirty_lock:
            self._dirty.add(key)
        self._wake.set()

    def start(self) -> None:
        if self.watcher is None:
            from kctui.sources.watcher import SourceWatcher  # noqa: PLC0415

            self.watcher = SourceWatcher(self.mark_dirty)
        self._sync_watches()
        self.watcher.start()
        self._thread = threading.Thread(target=self._run, name="kctui-scheduler", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(2.0)
        self.save_caches()
        if self.watcher is not None:
            try:
                self.watcher.stop()
            except Exception:  # noqa: BLE001
                pass

    def _run(self) -> None:
        interval = max(0.05, self.ctx.settings.scan_interval)
        while not self._stop.is_set():
            try:
                self._sync_watches()
                self.tick()
                from kctui.services.recovery import expire_leases  # noqa: PLC0415

                expire_leases(self.ctx)
            except Exception:  # noqa: BLE001 - the loop must survive anything; the next tick retries
                log.exception("reconcile tick failed")
            self._wake.wait(interval)
            self._wake.clear()

    def _sync_watches(self) -> None:
        if self.watcher is None:
            return
        keys = {}
        for row in self.ctx.store.query("SELECT workspace, id FROM bases"):
            keys[f"{row[0]}\0{row[1]}"] = paths.sources_path(Path(row[0]), row[1])
        watched_attr = getattr(self.watcher, "watched_keys", ())
        watched = set(watched_attr() if callable(watched_attr) else watched_attr)
        for key, path in keys.items():
            if key not in watched:
                self.watcher.watch(key, path)
        for key in watched - set(keys):
            self.watcher.unwatch(key)
        refresh = getattr(self.watcher, "refresh", None)
        if callable(refresh):
            refresh()  # re-arms watches of a sources/ that reappeared or was replaced
        self._record_host_state("watcher", getattr(self.watcher, "mode", "live"),
                                getattr(self.watcher, "status_message", None))

    def _record_host_state(self, key: str, mode: str, message: str | None) -> None:
        value = json.dumps({"mode": mode, "message": message})
        row = self.ctx.store.query_one("SELECT value FROM host_state WHERE key = ?", (key,))
        if row is None or row[0] != value:
            with self.ctx.store.write() as conn:
                conn.execute("INSERT OR REPLACE INTO host_state(key, value, updated_at) VALUES (?, ?, ?)",
                             (key, value, self.ctx.now()))

    # -- one reconcile ---------------------------------------------------------------------------------

    def tick(self, only: set[str] | None = None) -> list[TickOutcome]:
        with self._dirty_lock:
            self._dirty.clear()
        rows = self.ctx.store.query(f"SELECT {BASE_COLUMNS} FROM bases ORDER BY workspace, id")
        out = []
        for row in rows:
            base = base_from_row(row)
            key = f"{base.workspace}\0{base.id}"
            if only is not None and key not in only:
                continue
            out.append(self.reconcile(base))
        return out

    def reconcile(self, base: BaseRecord) -> TickOutcome:
        ctx = self.ctx
        key = f"{base.workspace}\0{base.id}"
        result = scan_base(ctx, base.workspace, base.id, stability=True, cache=self._cache_for(base))
        self._maybe_save_cache(key)
        now = ctx.now()
        outcome = TickOutcome(key=key, digest=result.digest, unstable=list(result.unstable_paths))
        with ctx.store.write() as conn:
            base = load_base(conn, base.workspace, base.id)
            if base is not None:
                self._reconcile_base(conn, base, key, result, now, outcome)
        return outcome

    def _reconcile_base(self, conn, base: BaseRecord, key: str, result, now: int, outcome: TickOutcome) -> None:
        """Inside the reconcile's transaction: record the scan, then follow a pause, pause, or advance the
        base's digest and queue what its policy or schedule says is due."""
        previous = load_accepted_snapshot(conn, base.workspace, base.id)
        changes = classify_changes(previous, result) if result.root_ok else None
        self._write_scan_state(conn, base, result, changes, now)
        cda = rules.quiet_timer_update(
            change_detected_at_us=base.change_detected_at, previous_digest=self._last_scan_digest.get(key),
            current_digest=result.digest, has_unstable=bool(result.unstable_paths), now_us=now)
        self._last_scan_digest[key] = result.digest
        values: dict[str, Any] = {}
        if cda != base.change_detected_at:
            values["change_detected_at"] = cda
        reason = _pause_reason(result, previous, changes)
        if base.phase == BasePhase.PAUSED:
            outcome.paused = _follow_pause(conn, base, reason, values, now)
            return
        schedule = load_schedule(conn, base)
        if (base.policy == Policy.SMART_AUTO or schedule is not None) and reason:
            update_base(conn, base.workspace, base.id, now, phase=BasePhase.PAUSED.value, paused_reason=reason,
                        **values)
            outcome.paused = reason
            return
        if _settled(result) and result.digest and result.files and result.digest != base.source_digest:
            values["source_digest"] = result.digest
        if values:
            update_base(conn, base.workspace, base.id, now, **values)
            base = load_base(conn, base.workspace, base.id)
        self._queue_due(conn, base, result, schedule, now, outcome)

    def _queue_due(self, conn, base: BaseRecord, result, schedule, now: int, outcome: TickOutcome) -> None:
        """Queue the compile the base's policy (smart auto) or its schedule says is due, accepting the scan."""
        if base.policy == Policy.SMART_AUTO and result.digest and rules.auto_compile_due(
                policy=base.policy, source_digest=base.source_digest,
                last_compiled_digest=base.last_compiled_digest, change_detected_at_us=base.change_detected_at,
                last_auto_requested_at_us=base.last_auto_requested_at, job_active=_job_active(conn, base),
                now_us=now, has_sources=bool(result.files), has_unstable=bool(result.unstable_paths),
                windows=windows_of(self.ctx)):
            job_id = insert_job(conn, base, Trigger.SMART_AUTO, base.source_digest, now)
            accept_snapshot(conn, base.workspace, base.id, result, now)
            update_base(conn, base.workspace, base.id, now, phase=BasePhase.QUEUED.value, last_auto_requested_at=now)
            outcome.queued_job = job_id
        if schedule is not None and _settled(result):
            base = load_base(conn, base.workspace, base.id)
            _, job_id = settle_schedule(conn, base, now, has_sources=bool(result.files), schedule=schedule)
            if job_id:
                accept_snapshot(conn, base.workspace, base.id, result, now)
                outcome.queued_job = job_id

    def _cache_for(self, base: BaseRecord):
        from kctui.services.snapshots import stat_cache_path  # noqa: PLC0415
        from kctui.sources.statcache import StatCache  # noqa: PLC0415

        key = f"{base.workspace}\0{base.id}"
        if key not in self._caches:
            self._caches[key] = StatCache.load(stat_cache_path(base.workspace, base.id))
        return self._caches[key]

    def _maybe_save_cache(self, key: str, force: bool = False) -> None:
        import time  # noqa: PLC0415

        cache = self._caches.get(key)
        if cache is None or not getattr(cache, "dirty", True):
            return
        now = time.monotonic()
        if force or now - self._cache_saved_at.get(key, 0.0) >= self.cache_save_interval:
            try:
                cache.save()
            except OSError:
                pass
            self._cache_saved_at[key] = now

    def save_caches(self) -> None:
        for key in list(self._caches):
            self._maybe_save_cache(key, force=True)

    @staticmethod
    def _write_scan_state(conn, base: BaseRecord, result, changes: SourceChanges | None, now: int) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO scan_state(workspace, base_id, scanned_at, digest, file_count, total_bytes, "
            "unstable_json, changes_json, skipped_json, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (base.workspace, base.id, now, result.digest, len(result.files), result.total_bytes,
             json.dumps(list(result.unstable_paths)[:200]), json.dumps(_changes_json(changes)),
             json.dumps([list(s) for s in result.skipped][:200]), result.root_error or result.limit_error),
        )


def _settled(result) -> bool:
    """A scan that saw the sources whole: readable, within the limits, nothing still being written."""
    return result.root_ok and not result.limit_error and not result.unstable_paths


def _pause_reason(result, previous: dict | None, changes: SourceChanges | None) -> str | None:
    return rules.automatic_pause_reason(
        root_ok=result.root_ok, root_error=result.root_error, limit_error=result.limit_error,
        previous_files=len(previous or {}), deleted_raw=changes.vanished if changes else 0,
        total_changed=changes.total_changed if changes else 0)


def _follow_pause(conn, base: BaseRecord, reason: str | None, values: dict[str, Any], now: int) -> str | None:
    """A paused base: the snapshot is not advanced while paused. The reason follows what the scans see
    while the bulk change goes on ("68 of 100" becomes "80 of 100"); it is never cleared here. Returns
    the pause reason."""
    if reason and reason != base.paused_reason:
        values["paused_reason"] = reason
    if values:
        update_base(conn, base.workspace, base.id, now, **values)
    return values.get("paused_reason", base.paused_reason)


# -- a person's actions and read-only reports --------------------------------------------------------

def source_changes(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str) -> dict[str, Any]:
    """The `source-changes` report (read-only: the store is not changed)."""
    base = get_base(ctx, workspace, kb_id)
    result = scan_base(ctx, base.workspace, base.id, stability=True)
    previous = load_accepted_snapshot(ctx.store.conn, base.workspace, base.id)
    changes = classify_changes(previous, result) if result.root_ok else None
    counts = _changes_json(changes) or {"added": 0, "modified": 0, "deleted": 0, "renamed": 0, "totalChanged": 0,
                                         "previousFiles": len(previous or {}), "currentFiles": 0}
    reason = base.paused_reason or _pause_reason(result, previous, changes)
    return {"changed": bool(changes and changes.changed) or not result.root_ok, **counts,
            "currentBytes": result.total_bytes, "unstablePaths": list(result.unstable_paths),
            "safetyPause": reason, "sourcesReadable": result.root_ok, "error": result.root_error or result.limit_error}


def resume_base(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, *,
                compile: bool = True) -> tuple[BaseRecord, JobRecord | None, dict[str, Any]]:
    """Clear a bulk-change pause: rescan with no stability window and no bulk check, accept that
    snapshot, and queue a manual compile (unless `compile=False`)."""
    base = get_base(ctx, workspace, kb_id)
    counts = source_changes(ctx, base.workspace, base.id)
    if not counts["sourcesReadable"]:
        raise InvalidInput(f"cannot resume {kb_id}: {counts['error'] or 'its sources/ folder is missing'}")
    if compile:
        _, base, job = request_compile(ctx, base.workspace, base.id)
        return base, job, counts
    result = scan_base(ctx, base.workspace, base.id, stability=False)
    if not result.root_ok or result.limit_error:
        raise InvalidInput(f"cannot resume {kb_id}: {result.root_error or result.limit_error}")
    now = ctx.now()
    from kctui.core.queue import fallback_phase  # noqa: PLC0415

    with ctx.store.write() as conn:
        base = load_base(conn, base.workspace, base.id)
        accept_snapshot(conn, base.workspace, base.id, result, now)
        digest = result.digest if result.files else base.source_digest
        active = open_job_of_base(conn, base.workspace, base.id, JobPhase.RUNNING) or open_job_of_base(
            conn, base.workspace, base.id, JobPhase.QUEUED)
        phase = base.phase if base.phase != BasePhase.PAUSED else (
            (BasePhase.RUNNING if active.phase == "running" else BasePhase.QUEUED).value if active
            else fallback_phase(digest, base.last_compiled_digest).value)
        update_base(conn, base.workspace, base.id, now, paused_reason=None, phase=phase, source_digest=digest,
                    change_detected_at=None)
        base = load_base(conn, base.workspace, base.id)
    return base, None, counts


def scan_state_json(ctx: ServiceContext, base: BaseRecord) -> dict[str, Any]:
    row = ctx.store.query_one("SELECT * FROM scan_state WHERE workspace = ? AND base_id = ?", (base.workspace, base.id))
    if row is None:
        return {"lastScanAt": None, "unstablePaths": [], "pendingChangeCounts": None, "skipped": [], "scanError": None}
    from kctui.core.clock import rfc3339  # noqa: PLC0415

    return {"lastScanAt": rfc3339(row["scanned_at"]), "unstablePaths": json.loads(row["unstable_json"]),
            "pendingChangeCounts": json.loads(row["changes_json"]) or None,
            "skipped": json.loads(row["skipped_json"]), "scanError": row["error"]}


def watcher_state(ctx: ServiceContext) -> dict[str, Any] | None:
    row = ctx.store.query_one("SELECT value FROM host_state WHERE key = 'watcher'")
    return json.loads(row[0]) if row else None


__all__ = ["Scheduler", "resume_base", "source_changes", "next_auto_compile_for", "scan_state_json",
           "watcher_state", "Callable"]


class SchedulerService:
    """The scheduler and the watcher as a host background service (start/stop), with its own store
    connection."""

    name = "kctui-scheduler"

    def __init__(self, ctx_factory: Callable[[], ServiceContext] | None = None, *, watcher: Any | None = None) -> None:
        self.ctx_factory = ctx_factory or ServiceContext.open
        self.watcher = watcher
        self.scheduler: Scheduler | None = None
        self._ctx: ServiceContext | None = None

    def start(self) -> None:
        self._ctx = self.ctx_factory()
        self.scheduler = Scheduler(self._ctx, watcher=self.watcher)
        self.scheduler.start()

    def stop(self) -> None:
        if self.scheduler is not None:
            self.scheduler.stop()
        if self._ctx is not None:
            self._ctx.close()
            self._ctx = None
