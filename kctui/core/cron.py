"""Scheduled compiles (issue 16): when a cron schedule makes a pass due, as a pure rule.

A base may carry a cron expression (five fields: minute hour day-of-month month day-of-week) read in
the host's local time zone. Each time the expression names (a *slot*) is one scheduled pass; the host
records the last slot it settled, so every rule here is a function of that, the last successful pass,
whether the sources changed since it, and `now_us`. Nothing reads a clock, a file or the store.

- Missed slots (no host ran) collapse to one: only the latest slot at or before `now` counts.
- A slot is skipped (settled, no job) when the sources did not change since the last successful pass,
  unless the schedule is `always`, or when a job of the base is already queued (it compiles the newest).
- While a job of the base runs or the base is paused, a due slot waits.
- Daylight-saving time: a wall-clock time that happens twice (clocks go back) is one slot; one that
  never happens (clocks go forward) runs at the first moment after the gap.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from croniter import croniter as Croniter

US = 1_000_000
OFF = "off"
MAX_EXPRESSION_CHARS = 200


@dataclass(frozen=True)
class SchedulePolicy:
    expression: str
    always: bool = False
    tz: tzinfo = UTC


@dataclass(frozen=True)
class ScheduleDecision:
    action: str  # "queue" | "skip" | "wait"
    slot_us: int | None  # the slot this decision settles: record it as the last run ("queue", "skip")
    next_at_us: int | None  # the next slot after this one (what `status` shows)
    reason: str


def croniter(expression: str, start: datetime) -> Croniter:
    """croniter's iterator, loaded the first time a schedule is read (most bases have none, and every
    status call would pay for the import)."""
    from croniter import croniter as make  # noqa: PLC0415

    return make(expression, start)


def check_expression(expression: str) -> str | None:
    """The normalised expression, None for `off`; ValueError with one clear line otherwise."""
    text = " ".join(str(expression or "").split())
    if text.lower() == OFF:
        return None
    if not text or len(text) > MAX_EXPRESSION_CHARS or len(text.split()) != 5 or not _valid(text):
        raise ValueError(f"schedule {expression!r} is not a cron expression of five fields "
                         "(minute hour day-of-month month day-of-week, e.g. '0 2 * * *') or 'off'")
    try:  # valid syntax that names no time at all (30 February) is refused too
        start = datetime(2001, 1, 1, tzinfo=UTC)
        croniter(text, start).get_next(datetime)
        croniter(text, start).get_prev(datetime)
    except Exception:  # noqa: BLE001 - croniter's errors have no common base worth naming
        raise ValueError(f"schedule {expression!r} is not a cron expression that ever comes due") from None
    return text


def _valid(text: str) -> bool:
    from croniter import croniter as make  # noqa: PLC0415

    return bool(make.is_valid(text))


def _dt(us: int, tz: tzinfo) -> datetime:
    return datetime.fromtimestamp(us / US, tz)


def _us(dt: datetime) -> int:
    return int(round(dt.timestamp() * US))


def latest_slot_us(policy: SchedulePolicy, now_us: int) -> int:
    """The latest slot at or before `now_us`."""
    now = _dt(now_us, policy.tz)
    prev = croniter(policy.expression, now).get_prev(datetime)
    nxt = croniter(policy.expression, prev).get_next(datetime)
    return _us(nxt) if _us(nxt) <= now_us else _us(prev)


def same_slot(policy: SchedulePolicy, a_us: int, b_us: int) -> bool:
    """Two instants are one slot when equal, or when they show the same local wall-clock time (the hour
    that repeats when the clocks go back)."""
    if a_us == b_us:
        return True
    a, b = _dt(a_us, policy.tz), _dt(b_us, policy.tz)
    return a.replace(tzinfo=None, fold=0) == b.replace(tzinfo=None, fold=0)


def next_slot_us(policy: SchedulePolicy, after_us: int, last_run_us: int | None = None) -> int:
    """The first slot strictly after `after_us` that is not the slot `last_run_us` already settled."""
    it = croniter(policy.expression, _dt(after_us, policy.tz))
    for _ in range(4):
        at = _us(it.get_next(datetime))
        if last_run_us is None or not same_slot(policy, at, last_run_us):
            return at
    return at


def scheduled_decision(
    policy: SchedulePolicy | None,
    *,
    last_run_us: int | None,
    last_success_us: int | None,
    sources_changed: bool,
    now_us: int,
    active_job: str | None = None,
    paused: bool = False,
    has_sources: bool = True,
) -> ScheduleDecision:
    """What the host does about the schedule now.

    `last_run_us` is the last slot settled (or when the schedule was set); `last_success_us` the end of
    the last successful pass (None: never compiled, which counts as changed); `sources_changed` whether
    the sources differ from that pass; `active_job` "queued" / "running" / None for this base.
    """
    if policy is None:
        return ScheduleDecision("wait", None, None, "no schedule")
    if last_run_us is None:  # the schedule starts counting now
        return ScheduleDecision("skip", now_us, next_slot_us(policy, now_us), "schedule starts")
    slot = latest_slot_us(policy, now_us)
    if slot <= last_run_us or same_slot(policy, slot, last_run_us):
        return ScheduleDecision("wait", None, next_slot_us(policy, max(now_us, last_run_us), last_run_us), "not due")
    following = next_slot_us(policy, now_us, slot)
    if paused:
        return ScheduleDecision("wait", None, slot, "due, but the base is paused")
    if active_job == "running":
        return ScheduleDecision("wait", None, slot, "due after the running job")
    if active_job == "queued":
        return ScheduleDecision("skip", slot, following, "a job of this base is already queued")
    if not has_sources:
        return ScheduleDecision("skip", slot, following, "no source files")
    if not policy.always and not sources_changed and last_success_us is not None:
        return ScheduleDecision("skip", slot, following, "sources unchanged since the last successful pass")
    return ScheduleDecision("queue", slot, following, "due")


def next_scheduled_at(policy: SchedulePolicy | None, last_run_us: int | None, now_us: int) -> int | None:
    """When the next scheduled pass is due (a time at or before `now_us` when one is due now)."""
    if policy is None:
        return None
    if last_run_us is None:
        return next_slot_us(policy, now_us)
    slot = latest_slot_us(policy, now_us)
    if slot > last_run_us and not same_slot(policy, slot, last_run_us):
        return slot
    return next_slot_us(policy, max(now_us, last_run_us), last_run_us)

