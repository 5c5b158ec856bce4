"""Scheduled compiles in the host (issue 16): the shell around the pure rule of `kctui.core.cron`.

A base's schedule is part of its stored policy (`schedule`, `scheduleAlways` in `trust_policies`,
set by `kctui kb policy --schedule`); the last slot the host settled is `bases.last_scheduled_at`.
The scheduler calls `settle_schedule` inside its reconcile transaction; `status` calls
`next_scheduled_for`. Times are read in the host's local time zone (`local_zone`).
"""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import datetime, tzinfo
from functools import lru_cache
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from kctui.core import cron
from kctui.core.models import BasePhase, Trigger
from kctui.services.context import ServiceContext
from kctui.services.jobs import insert_job
from kctui.store.records import BaseRecord, update_base


def local_zone() -> tzinfo:
    """The host's time zone with its daylight-saving rules: `$TZ`, else /etc/localtime's zone name,
    else /etc/timezone; a fixed offset only when none of these names a zone. Looked up once per `$TZ`."""
    return _local_zone(os.environ.get("TZ", ""))


@lru_cache(maxsize=8)
def _local_zone(tz_env: str) -> tzinfo:
    candidates = [tz_env.lstrip(":")]
    try:
        link = os.readlink("/etc/localtime")
        if "zoneinfo/" in link:
            candidates.append(link.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    try:
        candidates.append(Path("/etc/timezone").read_text(encoding="utf-8").strip())
    except OSError:
        pass
    for name in candidates:
        if name:
            try:
                return ZoneInfo(name)
            except (ZoneInfoNotFoundError, ValueError, OSError):
                continue
    return datetime.now().astimezone().tzinfo or ZoneInfo("UTC")


def schedule_from_policy_json(data: dict, tz: tzinfo) -> cron.SchedulePolicy | None:
    expression = data.get("schedule")
    if not expression:
        return None
    try:
        expression = cron.check_expression(str(expression))
    except ValueError:
        return None  # a stored value that no longer parses schedules nothing
    return cron.SchedulePolicy(expression, bool(data.get("scheduleAlways", False)), tz) if expression else None


def load_schedule(conn: sqlite3.Connection, base: BaseRecord, tz: tzinfo | None = None) -> cron.SchedulePolicy | None:
    row = conn.execute("SELECT policy_json FROM trust_policies WHERE workspace = ? AND base_id = ?",
                       (base.workspace, base.id)).fetchone()
    if row is None:
        return None
    try:
        data = json.loads(row[0])
    except ValueError:
        return None
    return schedule_from_policy_json(data if isinstance(data, dict) else {}, tz or local_zone())


def _active_job(conn: sqlite3.Connection, base: BaseRecord) -> str | None:
    row = conn.execute("SELECT phase FROM jobs WHERE workspace = ? AND base_id = ? AND phase IN ('queued', 'running') "
                       "ORDER BY phase = 'running' DESC LIMIT 1", (base.workspace, base.id)).fetchone()
    return row[0] if row else None


def settle_schedule(conn: sqlite3.Connection, base: BaseRecord, now_us: int, *, has_sources: bool,
                    schedule: cron.SchedulePolicy | None) -> tuple[cron.ScheduleDecision, str | None]:
    """Apply the rule inside the caller's write transaction: queue a `scheduled` job and/or record the
    settled slot. Returns the decision and the id of the job queued (if any)."""
    decision = cron.scheduled_decision(
        schedule, last_run_us=base.last_scheduled_at, last_success_us=base.last_succeeded_at,
        sources_changed=base.pending_changes, now_us=now_us, active_job=_active_job(conn, base),
        paused=base.phase == BasePhase.PAUSED, has_sources=has_sources and bool(base.source_digest))
    job_id = None
    if decision.action == "queue":
        job_id = insert_job(conn, base, Trigger.SCHEDULED, base.source_digest, now_us)
        update_base(conn, base.workspace, base.id, now_us, phase=BasePhase.QUEUED.value,
                    last_scheduled_at=decision.slot_us)
    elif decision.action == "skip":
        update_base(conn, base.workspace, base.id, now_us, last_scheduled_at=decision.slot_us)
    return decision, job_id


def next_scheduled_for(ctx: ServiceContext, base: BaseRecord) -> int | None:
    """When the base's next scheduled pass is due, or None without a schedule."""
    row = ctx.store.query_one("SELECT policy_json FROM trust_policies WHERE workspace = ? AND base_id = ?",
                              (base.workspace, base.id))
    if row is None or '"schedule"' not in row[0]:
        return None
    try:
        data = json.loads(row[0])
    except ValueError:
        return None
    schedule = schedule_from_policy_json(data if isinstance(data, dict) else {}, local_zone())
    return cron.next_scheduled_at(schedule, base.last_scheduled_at, ctx.now())
