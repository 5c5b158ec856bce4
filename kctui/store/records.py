"""Typed rows of the store and the small queries the services share."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class BaseRecord:
    workspace: str
    id: str
    name: str
    description: str
    policy: str
    phase: str
    source_digest: str | None
    last_compiled_digest: str | None
    active_job_id: str | None
    follow_up: int
    retry_attempts: int
    last_requested_at: int | None
    last_succeeded_at: int | None
    last_failed_at: int | None
    last_error: str | None
    last_error_code: str | None
    paused_reason: str | None
    compiler_version: str | None
    change_detected_at: int | None
    last_auto_requested_at: int | None
    created_at: int
    updated_at: int
    last_scheduled_at: int | None = None  # the last slot of the base's schedule the host settled

    @property
    def pending_changes(self) -> bool:
        return bool(self.source_digest) and self.source_digest != self.last_compiled_digest


@dataclass(frozen=True)
class JobRecord:
    id: str
    workspace: str
    base_id: str
    trigger: str
    priority: int
    phase: str
    source_digest: str
    created_at: int
    not_before: int | None
    started_at: int | None
    completed_at: int | None
    error: str | None
    error_code: str | None
    transient: int | None
    cancel_requested: int
    claimed_by: str | None
    claim_pid: int | None
    lease_expires_at: int | None
    compiler_version: str | None


_BASE_FIELDS = [f.name for f in fields(BaseRecord)]
_JOB_FIELDS = [f.name for f in fields(JobRecord)]
BASE_COLUMNS = ", ".join(_BASE_FIELDS)
JOB_COLUMNS = ", ".join(_JOB_FIELDS)


def base_from_row(row: sqlite3.Row) -> BaseRecord:
    return BaseRecord(**{k: row[k] for k in _BASE_FIELDS})


def job_from_row(row: sqlite3.Row) -> JobRecord:
    return JobRecord(**{k: row[k] for k in _JOB_FIELDS})


# The loaders below select exactly BASE_COLUMNS / JOB_COLUMNS, in field order, so they build the
# records positionally (measurably cheaper than the by-name lookups of base_from_row / job_from_row).
_LOAD_BASE = f"SELECT {BASE_COLUMNS} FROM bases WHERE workspace = ? AND id = ?"
_LOAD_JOB = f"SELECT {JOB_COLUMNS} FROM jobs WHERE id = ?"
_OPEN_JOB_OF_BASE = f"SELECT {JOB_COLUMNS} FROM jobs WHERE workspace = ? AND base_id = ? AND phase = ?"
# The phase spelled as a literal: with `phase = ?` SQLite's choice of the partial indexes depends on the
# bound value, so it re-prepares the statement on every call (about 5x slower than with a literal).
_OPEN_JOB_OF_BASE_BY_PHASE = {
    phase: f"SELECT {JOB_COLUMNS} FROM jobs WHERE workspace = ? AND base_id = ? AND phase = '{phase}'"
    for phase in ("queued", "running", "succeeded", "failed", "cancelled")
}


def load_base(conn: sqlite3.Connection, workspace: str, kb_id: str) -> BaseRecord | None:
    row = conn.execute(_LOAD_BASE, (workspace, kb_id)).fetchone()
    return BaseRecord(*row) if row else None


def load_job(conn: sqlite3.Connection, job_id: str) -> JobRecord | None:
    row = conn.execute(_LOAD_JOB, (job_id,)).fetchone()
    return JobRecord(*row) if row else None


def open_job_of_base(conn: sqlite3.Connection, workspace: str, kb_id: str, phase: str) -> JobRecord | None:
    sql = _OPEN_JOB_OF_BASE_BY_PHASE.get(phase)
    if sql is not None:
        row = conn.execute(sql, (workspace, kb_id)).fetchone()
    else:
        row = conn.execute(_OPEN_JOB_OF_BASE, (workspace, kb_id, phase)).fetchone()
    return JobRecord(*row) if row else None


def next_sequence(conn: sqlite3.Connection, name: str) -> int:
    row = conn.execute(
        "INSERT INTO sequences(name, value) VALUES (?, 1) "
        "ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value",
        (name,),
    ).fetchone()
    return int(row[0])


def update_base(conn: sqlite3.Connection, workspace: str, kb_id: str, now_us: int, **values: object) -> None:
    values["updated_at"] = now_us
    cols = ", ".join(f"{k} = :{k}" for k in values)
    conn.execute(
        f"UPDATE bases SET {cols} WHERE workspace = :_ws AND id = :_id", {**values, "_ws": workspace, "_id": kb_id}
    )


def update_job(conn: sqlite3.Connection, job_id: str, **values: object) -> None:
    cols = ", ".join(f"{k} = :{k}" for k in values)
    conn.execute(f"UPDATE jobs SET {cols} WHERE id = :_id", {**values, "_id": job_id})
