"""Whole-host status: is a host process running, and every base with its summary."""

from __future__ import annotations

import os
from typing import Any

from kctui import paths
from kctui.services import bases as bases_svc
from kctui.services.context import ServiceContext
from kctui.services.status import base_status_json


def host_process() -> dict[str, Any]:
    """Reads the host lock file: who holds it, and is that process alive."""
    try:
        text = paths.host_lock_file().read_text(encoding="utf-8").strip()
    except OSError:
        return {"state": "stopped", "pid": None, "detail": None}
    fields = dict(part.split("=", 1) for part in text.split() if "=" in part)
    pid = int(fields["pid"]) if fields.get("pid", "").isdigit() else None
    alive = False
    if pid:
        try:
            os.kill(pid, 0)
            alive = True
        except ProcessLookupError:
            alive = False
        except PermissionError:
            alive = True
    if not alive:
        return {"state": "stopped", "pid": None, "detail": None}
    return {"state": "running", "pid": pid, "detail": f"pid {pid}, {text.split('role=', 1)[-1]}"}


def host_status(ctx: ServiceContext, workspace: str | None = None) -> dict[str, Any]:
    from kctui.services.review_queue import open_counts_by_base  # noqa: PLC0415

    host = host_process()
    review_open = open_counts_by_base(ctx)
    items = []
    for b in bases_svc.list_bases(ctx, workspace):
        item = base_status_json(ctx, b)
        item["openReviewItems"] = review_open.get((b.workspace, b.id), 0)
        # a job left `running` by a host that is gone is interrupted, not running: the next host (or
        # `kctui compile --wait`) fails it for a retry at start-up
        item["interrupted"] = host["state"] == "stopped" and item["compilation"]["phase"] == "running"
        items.append(item)
    watcher = None
    if host["state"] == "running":
        from kctui.services.scheduler import watcher_state  # noqa: PLC0415 - only a running host has a watcher

        watcher = watcher_state(ctx)
    host["watcher"] = watcher["mode"] if watcher else None
    host["watcherMessage"] = watcher.get("message") if watcher else None
    return {"host": host, "items": items, "total": len(items)}
