"""A knowledge base's trust policy and compile options (trust.md §2), stored durably as validated JSON."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from kctui.core.cron import check_expression
from kctui.core.trust import Autonomy, NeverAutoGuard, TrustPolicy
from kctui.services.bases import get_base
from kctui.services.context import ServiceContext
from kctui.services.errors import InvalidInput

LINK_STYLES = ("wikilink", "markdown")
EXTRACTORS = ("builtin", "llm")
PAGE_CLASSES = ("source", "concept", "entity")
SOURCE_KINDS = ("markdown", "text", "pdf", "html")

log = logging.getLogger(__name__)


def _to_json(policy: TrustPolicy, link_style: str, extractor: str) -> dict[str, Any]:
    return {
        "enabled": policy.enabled,
        "autonomy": str(policy.autonomy),
        "compileSources": list(policy.compile_sources),
        "maintainKinds": list(policy.maintain_kinds),
        "neverAuto": [g.text() for g in policy.never_auto],
        "minConfidence": policy.min_confidence,
        "staleDays": policy.stale_days,
        "linkStyle": link_style,
        "extractor": extractor,
    }


def _from_json(data: dict[str, Any]) -> tuple[TrustPolicy, str, str]:
    d = TrustPolicy()
    policy = TrustPolicy(
        enabled=bool(data.get("enabled", d.enabled)),
        autonomy=str(data.get("autonomy", d.autonomy)),
        compile_sources=tuple(data.get("compileSources", d.compile_sources)),
        maintain_kinds=tuple(data.get("maintainKinds", d.maintain_kinds)),
        never_auto=tuple(NeverAutoGuard.parse(t) for t in data.get("neverAuto", [])),
        min_confidence=float(data.get("minConfidence", d.min_confidence)),
        stale_days=int(data.get("staleDays", d.stale_days)),
    )
    return policy, str(data.get("linkStyle", "wikilink")), str(data.get("extractor", "builtin"))


def _stored_json(ctx: ServiceContext, workspace: str, kb_id: str) -> dict[str, Any]:
    row = ctx.store.query_one(
        "SELECT policy_json FROM trust_policies WHERE workspace = ? AND base_id = ?", (workspace, kb_id)
    )
    data = json.loads(row["policy_json"]) if row else {}
    return data if isinstance(data, dict) else {}


def _schedule_of(data: dict[str, Any]) -> tuple[str | None, bool]:
    """The stored schedule (issue 16): a cron expression or None, and whether it runs unchanged sources."""
    return (data.get("schedule") or None), bool(data.get("scheduleAlways", False))


def load_policy(ctx: ServiceContext, workspace: str, kb_id: str) -> tuple[TrustPolicy, str, str]:
    row = ctx.store.query_one(
        "SELECT policy_json FROM trust_policies WHERE workspace = ? AND base_id = ?", (workspace, kb_id)
    )
    if row is None:
        return TrustPolicy(), "wikilink", "builtin"
    return _from_json(json.loads(row["policy_json"]))


def compile_options_json(ctx: ServiceContext, workspace: str, kb_id: str) -> dict[str, Any]:
    """What a compiler needs of the base's stored policy, as the claim route sends it to an external
    worker (`compileOptions`, a kctui extension of the claim answer): the trust policy, the link style
    and the extractor. A base with no stored policy gives the defaults; one whose stored policy cannot be
    read fails closed (autonomy suggest: every update is held), as the compiler does (`policy_of`)."""
    try:
        policy, link_style, extractor = load_policy(ctx, workspace, kb_id)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        log.warning("the trust policy of %s could not be read (%s); every update is held", kb_id, exc)
        policy, link_style, extractor = TrustPolicy(autonomy=Autonomy.SUGGEST), "wikilink", "builtin"
    trust = {k: v for k, v in _to_json(policy, link_style, extractor).items() if k not in ("linkStyle", "extractor")}
    return {"trustPolicy": trust, "linkStyle": link_style, "extractor": extractor}


def policy_json(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str) -> dict[str, Any]:
    base = get_base(ctx, workspace, kb_id)
    policy, link_style, extractor = load_policy(ctx, base.workspace, base.id)
    schedule, always = _schedule_of(_stored_json(ctx, base.workspace, base.id))
    return {"compilation": base.policy, **_to_json(policy, link_style, extractor), "schedule": schedule,
            "scheduleAlways": always}


def _cancel_queued_scheduled(conn, workspace: str, kb_id: str, now: int) -> None:  # noqa: ANN001
    """`--schedule off` cancels a queued scheduled job, as switching to manual cancels a smart_auto one."""
    from kctui.core.models import JobPhase, Trigger  # noqa: PLC0415
    from kctui.core.queue import fallback_phase  # noqa: PLC0415
    from kctui.store.records import load_base, open_job_of_base, update_base, update_job  # noqa: PLC0415

    queued = open_job_of_base(conn, workspace, kb_id, JobPhase.QUEUED)
    if queued is None or queued.trigger != Trigger.SCHEDULED:
        return
    update_job(conn, queued.id, phase=JobPhase.CANCELLED, completed_at=now,
               error="cancelled: the schedule was switched off", error_code="cancelled")
    base = load_base(conn, workspace, kb_id)
    update_base(conn, workspace, kb_id, now, phase=fallback_phase(base.source_digest, base.last_compiled_digest).value)


class PolicyFieldError(InvalidInput):
    """A bad policy value; `field` names it as the CLI spells its option (`min-confidence`)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def check_changes(
    *,
    enabled: bool | None = None,
    autonomy: str | None = None,
    never_auto: list[str] | None = None,
    min_confidence: float | None = None,
    stale_days: int | None = None,
    maintain_kinds: list[str] | None = None,
    compile_sources: list[str] | None = None,
    link_style: str | None = None,
    extractor: str | None = None,
) -> dict[str, Any]:
    """The rules of `kctui kb policy` (and the app's policy screen): the TrustPolicy fields to change,
    or PolicyFieldError naming the first bad value. Pure: reads and writes nothing."""
    given = {"enabled": enabled, "autonomy": autonomy, "never_auto": never_auto, "min_confidence": min_confidence,
             "stale_days": stale_days, "maintain_kinds": maintain_kinds, "compile_sources": compile_sources}
    changes = {name: _FIELD_CHECKS[name](value) for name, value in given.items() if value is not None}
    if link_style is not None and link_style not in LINK_STYLES:
        raise PolicyFieldError("link-style", "link-style must be wikilink or markdown")
    if extractor is not None and extractor not in EXTRACTORS:
        raise PolicyFieldError("extractor", "extractor must be builtin or llm")
    return changes


def _check_autonomy(autonomy: str) -> str:
    if autonomy not in tuple(a.value for a in Autonomy):
        raise PolicyFieldError("autonomy", "autonomy must be suggest, guarded or auto")
    return autonomy


def _check_never_auto(never_auto: list[str]) -> tuple[NeverAutoGuard, ...]:
    try:
        return tuple(NeverAutoGuard.parse(t) for t in never_auto if t.strip())
    except ValueError as exc:
        raise PolicyFieldError("never-auto", str(exc)) from exc


def _check_min_confidence(min_confidence: float) -> float:
    if not 0.0 <= min_confidence <= 1.0:
        raise PolicyFieldError("min-confidence", "min-confidence must be between 0 and 1")
    return float(min_confidence)


def _check_stale_days(stale_days: int) -> int:
    if not 1 <= stale_days <= 36_500:
        raise PolicyFieldError("stale-days", "stale-days must be between 1 and 36500")
    return int(stale_days)


def _check_maintain_kinds(maintain_kinds: list[str]) -> tuple[str, ...]:
    bad = [k for k in maintain_kinds if k not in PAGE_CLASSES]
    if bad:
        raise PolicyFieldError("maintain-kinds", f"unknown page class {bad[0]!r} (source, concept, entity)")
    return tuple(maintain_kinds)


def _check_compile_sources(compile_sources: list[str]) -> tuple[str, ...]:
    bad = [k for k in compile_sources if k not in SOURCE_KINDS]
    if bad:
        raise PolicyFieldError("compile-sources", f"unknown source kind {bad[0]!r} (markdown, text, pdf, html)")
    return tuple(compile_sources)


# check_changes: each TrustPolicy field a person may set -> its value as the policy holds it, or
# PolicyFieldError (checked in check_changes' order, so the first bad value is the one named)
_FIELD_CHECKS: dict[str, Callable[[Any], Any]] = {
    "enabled": lambda enabled: enabled,
    "autonomy": _check_autonomy,
    "never_auto": _check_never_auto,
    "min_confidence": _check_min_confidence,
    "stale_days": _check_stale_days,
    "maintain_kinds": _check_maintain_kinds,
    "compile_sources": _check_compile_sources,
}


def update_policy(
    ctx: ServiceContext,
    workspace: str | os.PathLike[str],
    kb_id: str,
    *,
    enabled: bool | None = None,
    autonomy: str | None = None,
    never_auto: list[str] | None = None,
    min_confidence: float | None = None,
    stale_days: int | None = None,
    maintain_kinds: list[str] | None = None,
    compile_sources: list[str] | None = None,
    link_style: str | None = None,
    extractor: str | None = None,
    schedule: str | None = None,
    schedule_always: bool | None = None,
) -> tuple[bool, dict[str, Any]]:
    """Validate every value first (`check_changes`, the cron expression); nothing is stored unless all
    are valid. `schedule` is a cron expression or "off"; setting a new one starts its count now (no slot
    before it runs)."""
    base = get_base(ctx, workspace, kb_id)
    policy, cur_link, cur_extractor = load_policy(ctx, base.workspace, base.id)
    cur_schedule, cur_always = _schedule_of(_stored_json(ctx, base.workspace, base.id))
    new_schedule = cur_schedule
    if schedule is not None:
        try:
            new_schedule = check_expression(schedule)
        except ValueError as exc:
            raise PolicyFieldError("schedule", str(exc)) from exc
    new_always = cur_always if schedule_always is None else bool(schedule_always)
    changes = check_changes(enabled=enabled, autonomy=autonomy, never_auto=never_auto, min_confidence=min_confidence,
                            stale_days=stale_days, maintain_kinds=maintain_kinds, compile_sources=compile_sources,
                            link_style=link_style, extractor=extractor)
    new_policy = replace(policy, **changes)
    new_link = link_style or cur_link
    new_extractor = extractor or cur_extractor
    changed = (new_policy, new_link, new_extractor, new_schedule, new_always) != (
        policy, cur_link, cur_extractor, cur_schedule, cur_always)
    if changed:
        stored = {**_to_json(new_policy, new_link, new_extractor), "schedule": new_schedule,
                  "scheduleAlways": new_always}
        with ctx.store.write() as conn:
            if new_schedule != cur_schedule:
                conn.execute("UPDATE bases SET last_scheduled_at = ? WHERE workspace = ? AND id = ?",
                             (ctx.now() if new_schedule else None, base.workspace, base.id))
            if new_schedule is None and cur_schedule is not None:
                _cancel_queued_scheduled(conn, base.workspace, base.id, ctx.now())
            conn.execute(
                "INSERT INTO trust_policies(workspace, base_id, policy_json, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(workspace, base_id) DO UPDATE SET policy_json = excluded.policy_json, "
                "updated_at = excluded.updated_at",
                (base.workspace, base.id, json.dumps(stored, sort_keys=True), ctx.now()),
            )
    return changed, policy_json(ctx, base.workspace, base.id)


def save_policy(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, *,
                compilation: str | None = None, **trust: Any) -> tuple[bool, dict[str, Any]]:
    """What `kctui kb policy … --compilation … --autonomy …` does in one call (the app's policy
    screen): every value is checked first — a bad one raises PolicyFieldError and nothing is stored —
    then the trust policy is stored (`update_policy`) and the compilation policy switched
    (`bases.set_compilation_policy`, which cancels a queued automatic job on a switch to manual)."""
    from kctui.services.bases import set_compilation_policy

    base = get_base(ctx, workspace, kb_id)
    if compilation is not None and compilation not in ("manual", "smart_auto"):
        raise PolicyFieldError("compilation", "compilation must be manual or smart_auto")
    check_changes(**{k: v for k, v in trust.items() if k not in ("schedule", "schedule_always")})
    changed = False
    if any(v is not None for v in trust.values()):
        changed, _ = update_policy(ctx, base.workspace, base.id, **trust)
    if compilation is not None:
        switched, _ = set_compilation_policy(ctx, base.workspace, base.id, compilation)
        changed = changed or switched
    return changed, policy_json(ctx, base.workspace, base.id)
