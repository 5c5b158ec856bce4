"""Knowledge bases: create (empty or copied from paths), list, show, change policy."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from kctui import paths
from kctui.core.ids import MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS, is_valid_kb_id, kb_id_for_name, name_problem
from kctui.core.models import BasePhase, JobPhase, Policy, Trigger
from kctui.services.context import ServiceContext
from kctui.services.errors import Conflict, InvalidInput, IOFailure, NotFound
from kctui.services.source_copy import copy_paths_into
from kctui.services.workspaces import ensure_workspace, normalise_workspace, require_monitored
from kctui.store.records import (
    BASE_COLUMNS,
    BaseRecord,
    base_from_row,
    load_base,
    open_job_of_base,
    update_base,
    update_job,
)


def check_kb_id(kb_id: str) -> str:
    if not isinstance(kb_id, str) or not is_valid_kb_id(kb_id):
        raise InvalidInput(f"'{kb_id}' is not a knowledge-base id (lowercase letters, digits and '-', at most 64)")
    return kb_id


def create_base(
    ctx: ServiceContext,
    workspace: str | os.PathLike[str],
    name: str,
    *,
    description: str = "",
    policy: str = Policy.MANUAL,
    from_paths: list[str] | None = None,
    on_skip: Callable[[str], None] | None = None,
) -> tuple[bool, BaseRecord]:
    """Create a base (empty, or with copies of `from_paths` under the rules of `source_copy`; each file
    skipped is one line given to `on_skip`). A refused copy (a limit) leaves no new folder behind."""
    ws = normalise_workspace(workspace)
    name, description = _checked_fields(name, description, policy)
    kb_id = kb_id_for_name(name)
    now = ctx.now()
    existing = _get_existing(ctx, ws, kb_id)
    if existing is not None:
        if from_paths:
            raise Conflict(f"knowledge base {kb_id} already exists in {ws}; add files to its sources/ instead")
        return False, existing
    for p in from_paths or []:
        if not os.path.lexists(os.path.expanduser(p)):
            raise InvalidInput(f"{p} does not exist")
    _make_sources(ctx, paths.kb_path(Path(ws), kb_id), from_paths, on_skip)
    with ctx.store.write() as conn:
        ensure_workspace(conn, ws, now)
        cur = conn.execute(
            "INSERT OR IGNORE INTO bases(workspace, id, name, description, policy, phase, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (ws, kb_id, name, description, str(policy), BasePhase.SOURCE_READY, now, now),
        )
        if not cur.rowcount:  # adopted from disk by ensure_workspace: give it the real name
            update_base(conn, ws, kb_id, now, name=name, description=description, policy=str(policy))
        base = load_base(conn, ws, kb_id)
    assert base is not None
    return True, base


def _checked_fields(name: str, description: str, policy: str) -> tuple[str, str]:
    """A new base's name and description, stripped; InvalidInput for an empty or long one, or an
    unknown policy."""
    name = (name or "").strip()
    if not name:
        raise InvalidInput("name must not be empty")
    if len(name) > MAX_NAME_CHARS:
        raise InvalidInput(f"name is longer than {MAX_NAME_CHARS} characters")
    problem = name_problem(name)
    if problem:
        raise InvalidInput(f"name {name!r} {problem}")
    description = (description or "").strip()
    if len(description) > MAX_DESCRIPTION_CHARS:
        raise InvalidInput(f"description is longer than {MAX_DESCRIPTION_CHARS} characters")
    if policy not in (Policy.MANUAL, Policy.SMART_AUTO):
        raise InvalidInput("compilationPolicy must be 'manual' or 'smart_auto'")
    return name, description


def _make_sources(ctx: ServiceContext, kb: Path, from_paths: list[str] | None,
                  on_skip: Callable[[str], None] | None) -> None:
    """`<kb>/sources`, with copies of `from_paths` (each file skipped is one line given to `on_skip`).
    On a failure a base folder that did not exist before is removed again."""
    sources = kb / "sources"
    kb_existed = os.path.lexists(kb)
    try:
        sources.mkdir(parents=True, exist_ok=True)
        if from_paths:
            report = copy_paths_into(sources, list(from_paths), max_files=ctx.settings.max_files,
                                     max_bytes=ctx.settings.max_bytes)
            for skipped in report.skipped:
                if on_skip is not None:
                    on_skip(skipped.line())
    except (OSError, InvalidInput) as exc:
        if not kb_existed:
            shutil.rmtree(kb, ignore_errors=True)
        if isinstance(exc, InvalidInput):
            raise
        raise IOFailure(f"cannot create {sources}: {exc.strerror or exc}") from exc


def _get_existing(ctx: ServiceContext, ws: str, kb_id: str) -> BaseRecord | None:
    row = ctx.store.query_one(f"SELECT {BASE_COLUMNS} FROM bases WHERE workspace = ? AND id = ?", (ws, kb_id))
    return base_from_row(row) if row else None


def get_base(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str) -> BaseRecord:
    ws = normalise_workspace(workspace, must_exist=False)
    check_kb_id(kb_id)
    base = _get_existing(ctx, ws, kb_id)
    if base is None:
        if not ctx.store.query_one("SELECT 1 FROM workspaces WHERE path = ?", (ws,)):
            raise NotFound(f"workspace {ws} does not exist" if not os.path.lexists(ws)
                           else f"workspace {ws} is not monitored")
        raise NotFound(f"no knowledge base '{kb_id}' in {ws}")
    return base


def list_bases(ctx: ServiceContext, workspace: str | os.PathLike[str] | None = None) -> list[BaseRecord]:
    if workspace is None:
        rows = ctx.store.query(f"SELECT {BASE_COLUMNS} FROM bases ORDER BY workspace, id")
    else:
        ws = normalise_workspace(workspace, must_exist=False)
        with ctx.store.write() as conn:
            if os.path.isdir(ws):
                ensure_workspace(conn, ws, ctx.now())
            else:
                require_monitored(conn, ws)
        rows = ctx.store.query(f"SELECT {BASE_COLUMNS} FROM bases WHERE workspace = ? ORDER BY id", (ws,))
    return [base_from_row(r) for r in rows]


def set_compilation_policy(
    ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, policy: str
) -> tuple[bool, BaseRecord]:
    """Switching to manual cancels a queued automatic job."""
    if policy not in (Policy.MANUAL, Policy.SMART_AUTO):
        raise InvalidInput("policy must be 'manual' or 'smart_auto'")
    base = get_base(ctx, workspace, kb_id)
    now = ctx.now()
    with ctx.store.write() as conn:
        base = load_base(conn, base.workspace, kb_id)
        if base is None:
            raise NotFound(f"no knowledge base '{kb_id}' in {workspace}")
        if base.policy == policy:
            return False, base
        update_base(conn, base.workspace, kb_id, now, policy=str(policy))
        if policy == Policy.MANUAL:
            queued = open_job_of_base(conn, base.workspace, kb_id, JobPhase.QUEUED)
            if queued is not None and queued.trigger == Trigger.SMART_AUTO:
                from kctui.core.queue import fallback_phase  # noqa: PLC0415

                update_job(conn, queued.id, phase=JobPhase.CANCELLED, completed_at=now,
                           error="cancelled: the policy was switched to manual", error_code="cancelled")
                update_base(conn, base.workspace, kb_id, now,
                            phase=fallback_phase(base.source_digest, base.last_compiled_digest).value)
        else:
            # Enabling smart_auto never queues by itself: the scheduler decides on its next scan.
            update_base(conn, base.workspace, kb_id, now, last_auto_requested_at=base.last_auto_requested_at)
        base = load_base(conn, base.workspace, kb_id)
    assert base is not None
    return True, base
