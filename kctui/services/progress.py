"""Live progress of a running pass in the store: the step checklist (gather … brief) with counts, the
current file and a log tail, so the app (or `kctui status`) can show it from any process."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from kctui.compiler.contract import ProgressEvent
from kctui.core.clock import rfc3339
from kctui.services.context import ServiceContext

STEPS = ("gather", "extract", "match", "update", "flag", "brief")
LOG_KEEP = 200


@dataclass(frozen=True)
class StepState:
    step: str
    state: str  # pending | started | progress | done
    done: int
    total: int
    current: str
    message: str
    started_at: int | None
    updated_at: int | None


class ProgressRecorder:
    """The worker's progress callback: writes through to the store, throttled (state changes always)."""

    def __init__(self, ctx: ServiceContext, min_interval: float = 0.2) -> None:
        self.ctx = ctx
        self.min_interval = min_interval
        self._last: dict[tuple[str, str], float] = {}
        self._seq: dict[str, int] = {}

    def __call__(self, job_id: str, event: ProgressEvent) -> None:
        key = (job_id, event.step)
        now_mono = time.monotonic()
        if event.state == "progress" and now_mono - self._last.get(key, 0.0) < self.min_interval:
            return
        self._last[key] = now_mono
        now = self.ctx.now()
        position = STEPS.index(event.step) if event.step in STEPS else len(STEPS)
        try:
            with self.ctx.store.write() as conn:
                conn.execute(
                    "INSERT INTO job_steps(job_id, step, position, state, done, total, current, message, started_at, "
                    "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(job_id, step) DO UPDATE SET "
                    "state = excluded.state, done = excluded.done, total = excluded.total, current = excluded.current, "
                    "message = excluded.message, updated_at = excluded.updated_at",
                    (job_id, event.step, position, event.state, event.done, event.total, event.current[:500],
                     event.message[:1000], now, now),
                )
                if event.message or event.state == "done":
                    seq = self._seq.get(job_id, 0) + 1
                    self._seq[job_id] = seq
                    line = event.message or f"{event.step} done ({event.done}/{event.total})"
                    conn.execute("INSERT OR REPLACE INTO job_log(job_id, seq, at, line) VALUES (?, ?, ?, ?)",
                                 (job_id, seq, now, line[:1000]))
                    conn.execute("DELETE FROM job_log WHERE job_id = ? AND seq <= ?", (job_id, seq - LOG_KEEP))
        except Exception:  # noqa: BLE001 - progress is best effort; the pass goes on
            return


def job_steps(ctx: ServiceContext, job_id: str) -> list[StepState]:
    rows = {r["step"]: r for r in ctx.store.query("SELECT * FROM job_steps WHERE job_id = ?", (job_id,))}
    out = []
    for step in STEPS:
        r = rows.get(step)
        if r is None:
            out.append(StepState(step, "pending", 0, 0, "", "", None, None))
        else:
            out.append(StepState(step, r["state"], r["done"], r["total"], r["current"], r["message"],
                                 r["started_at"], r["updated_at"]))
    return out


def job_log_tail(ctx: ServiceContext, job_id: str, n: int = 20) -> list[str]:
    rows = ctx.store.query("SELECT line FROM job_log WHERE job_id = ? ORDER BY seq DESC LIMIT ?", (job_id, n))
    return [r["line"] for r in reversed(rows)]


def progress_json(ctx: ServiceContext, job_id: str) -> dict[str, Any]:
    return {"jobId": job_id, "steps": [{"step": s.step, "state": s.state, "done": s.done, "total": s.total,
                                         "current": s.current, "updatedAt": rfc3339(s.updated_at)}
                                        for s in job_steps(ctx, job_id)],
            "log": job_log_tail(ctx, job_id)}
