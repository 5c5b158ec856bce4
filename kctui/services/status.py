"""Read models for `status`, `kb list` and the app: bases with their summary, next retry, next auto time."""

from __future__ import annotations

from typing import Any

from kctui.services.context import ServiceContext
from kctui.services.shapes import knowledge_base_json
from kctui.store.records import BaseRecord


def next_retry_at(ctx: ServiceContext, base: BaseRecord) -> int | None:
    row = ctx.store.query_one(
        "SELECT not_before FROM jobs WHERE workspace = ? AND base_id = ? AND phase = 'queued' AND trigger = 'retry'",
        (base.workspace, base.id),
    )
    return row["not_before"] if row else None


def next_auto_at(ctx: ServiceContext, base: BaseRecord) -> int | None:
    try:
        from kctui.services.scheduler import next_auto_compile_for  # noqa: PLC0415
    except ImportError:
        return None
    return next_auto_compile_for(ctx, base)


def base_status_json(ctx: ServiceContext, base: BaseRecord, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    from kctui.services.pending_promotion import pending_promotion  # noqa: PLC0415
    from kctui.services.scheduler import scan_state_json  # noqa: PLC0415

    merged = {**scan_state_json(ctx, base), **(extra or {})}
    pending = pending_promotion(base.workspace, base.id)
    if pending is not None:  # a kill during promotion: the live generation may be newer than the record
        merged["pendingPromotion"] = pending
    from kctui.services.scheduled import next_scheduled_for  # noqa: PLC0415

    return knowledge_base_json(base, ctx.settings, next_auto_us=next_auto_at(ctx, base),
                               next_retry_us=next_retry_at(ctx, base), next_scheduled_us=next_scheduled_for(ctx, base),
                               extra=merged)
