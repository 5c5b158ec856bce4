"""Scanning a base's sources and accepting a snapshot (the baseline for change classes, host.md §2)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

from kctui import paths
from kctui.services.context import ServiceContext


def stat_cache_path(workspace: str, kb_id: str) -> Path:
    key = hashlib.sha256(f"{workspace}\0{kb_id}".encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return paths.state_dir() / "statcache" / f"{kb_id}-{key}.cache"


def scan_base(ctx: ServiceContext, workspace: str, kb_id: str, *, stability: bool = True, cache=None):
    """Scan `sources/` with the persistent stat cache; returns the scanner's ScanResult.

    A long-lived caller (the scheduler) passes its in-memory cache and saves it itself; otherwise the
    cache is loaded from and saved to its file around this one scan."""
    from kctui.sources.scan import scan_sources  # noqa: PLC0415
    from kctui.sources.statcache import StatCache  # noqa: PLC0415

    owned = cache is None
    if owned:
        cache = StatCache.load(stat_cache_path(workspace, kb_id))
    result = scan_sources(
        paths.sources_path(Path(workspace), kb_id),
        cache=cache,
        now_us=ctx.now(),
        stability_window_s=ctx.settings.stability_window if stability else 0.0,
        max_files=ctx.settings.max_files,
        max_bytes=ctx.settings.max_bytes,
    )
    if owned:
        try:
            cache.save()
        except OSError:
            pass  # the cache only makes the next scan faster
    return result


def snapshot_files(result) -> dict[str, list]:
    return {p: [e.digest, e.size] for p, e in result.files.items()}


def accept_snapshot(conn: sqlite3.Connection, workspace: str, kb_id: str, result, now_us: int) -> None:
    files = snapshot_files(result)
    conn.execute(
        "INSERT INTO snapshots(workspace, base_id, digest, files_json, file_count, total_bytes, accepted_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(workspace, base_id) DO UPDATE SET digest = excluded.digest, "
        "files_json = excluded.files_json, file_count = excluded.file_count, "
        "total_bytes = excluded.total_bytes, accepted_at = excluded.accepted_at",
        (workspace, kb_id, result.digest, json.dumps(files, separators=(",", ":")), len(files),
         result.total_bytes, now_us),
    )


def load_accepted_snapshot(conn: sqlite3.Connection, workspace: str, kb_id: str) -> dict[str, tuple[str, int]] | None:
    row = conn.execute(
        "SELECT files_json FROM snapshots WHERE workspace = ? AND base_id = ?", (workspace, kb_id)
    ).fetchone()
    if row is None:
        return None
    return {p: (v[0], int(v[1])) for p, v in json.loads(row[0]).items()}
