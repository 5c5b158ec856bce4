"""The monitored set of workspaces (durable: the reference forgets it on restart)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from kctui import paths
from kctui.core.ids import is_valid_kb_id
from kctui.services.context import ServiceContext
from kctui.services.errors import InvalidInput, NotFound

_RESOLVED: dict[str, str] = {}


def normalise_workspace(workspace: str | os.PathLike[str], *, must_exist: bool = True) -> str:
    """An absolute, resolved path string; a clear error when it is not a directory."""
    raw = os.fspath(workspace)
    cached = _RESOLVED.get(raw) if isinstance(raw, str) else None
    if cached is not None and (not must_exist or os.path.isdir(cached)):
        return cached
    if not raw or "\0" in raw:
        raise InvalidInput("workspace must be a path to a directory")
    path = Path(raw).expanduser()
    try:
        path = path.resolve(strict=False)
    except (OSError, RuntimeError) as exc:
        raise InvalidInput(f"workspace {raw} cannot be resolved: {exc}") from exc
    if must_exist:
        if not path.exists():
            raise InvalidInput(f"workspace {path} does not exist")
        if not path.is_dir():
            raise InvalidInput(f"workspace {path} is not a directory")
    if len(_RESOLVED) > 4096:
        _RESOLVED.clear()
    if path.is_dir() and isinstance(raw, str):
        _RESOLVED[raw] = str(path)
    return str(path)


def ensure_workspace(conn: sqlite3.Connection, workspace: str, now_us: int) -> bool:
    """Add to the monitored set inside the caller's transaction; True when it was new."""
    cur = conn.execute("INSERT OR IGNORE INTO workspaces(path, added_at) VALUES (?, ?)", (workspace, now_us))
    if cur.rowcount:
        _adopt_existing_bases(conn, workspace, now_us)
    return bool(cur.rowcount)


def _adopt_existing_bases(conn: sqlite3.Connection, workspace: str, now_us: int) -> None:
    """Bases already on disk in the reference layout (made by another host, or before a state reset)."""
    root = paths.bases_root(Path(workspace))
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False) and is_valid_kb_id(entry.name):
            if os.path.isdir(os.path.join(entry.path, "sources")):
                conn.execute(
                    "INSERT OR IGNORE INTO bases(workspace, id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                    (workspace, entry.name, entry.name, now_us, now_us),
                )


def add_workspace(ctx: ServiceContext, workspace: str | os.PathLike[str]) -> tuple[bool, str]:
    ws = normalise_workspace(workspace)
    with ctx.store.write() as conn:
        return ensure_workspace(conn, ws, ctx.now()), ws


def list_workspaces(ctx: ServiceContext) -> list[str]:
    return [r["path"] for r in ctx.store.query("SELECT path FROM workspaces ORDER BY path")]


def remove_workspace(ctx: ServiceContext, workspace: str | os.PathLike[str]) -> bool:
    ws = normalise_workspace(workspace, must_exist=False)
    with ctx.store.write() as conn:
        running = conn.execute(
            "SELECT 1 FROM jobs WHERE workspace = ? AND phase IN ('queued', 'running')", (ws,)
        ).fetchone()
        if running:
            raise InvalidInput(f"workspace {ws} has queued or running jobs; cancel them first")
        cur = conn.execute("DELETE FROM workspaces WHERE path = ?", (ws,))
        if not cur.rowcount:
            raise NotFound(f"workspace {ws} is not monitored")
    return True


def require_monitored(conn: sqlite3.Connection, workspace: str) -> None:
    if not conn.execute("SELECT 1 FROM workspaces WHERE path = ?", (workspace,)).fetchone():
        if not os.path.lexists(workspace):
            raise NotFound(f"workspace {workspace} does not exist")
        raise NotFound(f"workspace {workspace} is not monitored (add it with `kctui kb create` or `kctui WORKSPACE`)")
