"""Table tests for scheduled compiles (issue 16): due, not due, missed runs, unchanged sources, DST."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from kctui.core.cron import SchedulePolicy, check_expression, next_scheduled_at, scheduled_decision

BERLIN = ZoneInfo("Europe/Berlin")
NIGHTLY = SchedulePolicy("0 2 * * *", tz=BERLIN)


def at(*parts: int, fold: int = 0) -> int:
    """Microseconds of a Berlin wall-clock time."""
    return int(datetime(*parts, tzinfo=BERLIN, fold=fold).timestamp() * 1_000_000)


def wall(us: int) -> str:
    return datetime.fromtimestamp(us / 1_000_000, BERLIN).strftime("%Y-%m-%d %H:%M %Z")


def decide(policy=NIGHTLY, *, last_run, now, changed=True, success=None, **kw):
    return scheduled_decision(policy, last_run_us=last_run, last_success_us=success if success is not None
                              else at(2026, 1, 1, 0, 0), sources_changed=changed, now_us=now, **kw)


@pytest.mark.parametrize(
    ("name", "last_run", "now", "action", "slot", "next_at"),
    [
        ("not due before the slot", at(2026, 5, 4, 12, 0), at(2026, 5, 5, 1, 59), "wait", None, "2026-05-05 02:00 CEST"),
        ("due exactly at the slot", at(2026, 5, 4, 12, 0), at(2026, 5, 5, 2, 0), "queue", "2026-05-05 02:00 CEST",
         "2026-05-06 02:00 CEST"),
        ("due a little after", at(2026, 5, 4, 12, 0), at(2026, 5, 5, 2, 0, 30), "queue", "2026-05-05 02:00 CEST",
         "2026-05-06 02:00 CEST"),
        ("settled slot is not due again", at(2026, 5, 5, 2, 0), at(2026, 5, 5, 9, 0), "wait", None,
         "2026-05-06 02:00 CEST"),
        # three nights without a host: one pass, for the latest slot
        ("missed runs collapse to one", at(2026, 5, 1, 2, 0), at(2026, 5, 4, 8, 0), "queue", "2026-05-04 02:00 CEST",
         "2026-05-05 02:00 CEST"),
    ],
)
def test_due_table(name, last_run, now, action, slot, next_at):
    d = decide(last_run=last_run, now=now)
    assert d.action == action, name
    assert (wall(d.slot_us) if d.slot_us is not None else None) == slot, name
    assert wall(d.next_at_us) == next_at, name


def test_missed_runs_then_settled_give_exactly_one_job():
    now = at(2026, 5, 4, 8, 0)
    first = decide(last_run=at(2026, 5, 1, 2, 0), now=now)
    assert first.action == "queue"
    # the host records the slot; the same and later ticks that night do nothing more
    for later in (now, now + 60_000_000, at(2026, 5, 5, 1, 59)):
        assert decide(last_run=first.slot_us, now=later).action == "wait"
    assert decide(last_run=first.slot_us, now=at(2026, 5, 5, 2, 0)).action == "queue"


@pytest.mark.parametrize(
    ("changed", "success", "always", "action", "reason"),
    [
        (False, at(2026, 5, 4, 23, 0), False, "skip", "sources unchanged since the last successful pass"),
        (False, at(2026, 5, 4, 23, 0), True, "queue", "due"),
        (True, at(2026, 5, 4, 23, 0), False, "queue", "due"),
        (False, None, False, "queue", "due"),  # never compiled: counts as changed
    ],
)
def test_unchanged_sources(changed, success, always, action, reason):
    policy = SchedulePolicy("0 2 * * *", always=always, tz=BERLIN)
    d = scheduled_decision(policy, last_run_us=at(2026, 5, 4, 2, 0), last_success_us=success,
                           sources_changed=changed, now_us=at(2026, 5, 5, 2, 5))
    assert (d.action, d.reason) == (action, reason)
    assert wall(d.slot_us) == "2026-05-05 02:00 CEST"  # a skip settles the slot too


@pytest.mark.parametrize(
    ("active", "paused", "has_sources", "action"),
    [("running", False, True, "wait"), ("queued", False, True, "skip"), (None, True, True, "wait"),
     (None, False, False, "skip"), (None, False, True, "queue")],
)
def test_what_the_base_is_doing(active, paused, has_sources, action):
    d = decide(last_run=at(2026, 5, 4, 2, 0), now=at(2026, 5, 5, 3, 0), active_job=active, paused=paused,
               has_sources=has_sources)
    assert d.action == action
    if action == "wait":
        assert d.slot_us is None and wall(d.next_at_us) == "2026-05-05 02:00 CEST"  # still due


def test_dst_spring_forward_runs_once_after_the_gap():
    # 2026-03-29: Berlin clocks jump from 02:00 to 03:00; 02:30 never happens
    policy = SchedulePolicy("30 2 * * *", tz=BERLIN)
    last = at(2026, 3, 28, 2, 30)
    assert decide(policy, last_run=last, now=at(2026, 3, 29, 1, 59)).action == "wait"
    d = decide(policy, last_run=last, now=at(2026, 3, 29, 3, 0))
    assert d.action == "queue" and wall(d.slot_us) == "2026-03-29 03:00 CEST"
    assert decide(policy, last_run=d.slot_us, now=at(2026, 3, 29, 12, 0)).action == "wait"
    assert wall(d.next_at_us) == "2026-03-30 02:30 CEST"


def test_dst_fall_back_runs_once_in_the_repeated_hour():
    # 2026-10-25: Berlin clocks go back from 03:00 CEST to 02:00 CET; 02:30 happens twice
    policy = SchedulePolicy("30 2 * * *", tz=BERLIN)
    first = decide(policy, last_run=at(2026, 10, 24, 2, 30), now=at(2026, 10, 25, 2, 31))
    assert first.action == "queue" and wall(first.slot_us) == "2026-10-25 02:30 CEST"
    second = at(2026, 10, 25, 2, 31, fold=1)  # an hour later, the same wall-clock time again
    assert wall(second) == "2026-10-25 02:31 CET"
    again = decide(policy, last_run=first.slot_us, now=second)
    assert again.action == "wait"
    assert wall(again.next_at_us) == "2026-10-26 02:30 CET"
    assert wall(first.next_at_us) == "2026-10-26 02:30 CET"


def test_a_new_schedule_starts_counting_now():
    now = at(2026, 5, 5, 9, 0)
    d = decide(last_run=None, now=now)
    assert (d.action, d.slot_us) == ("skip", now)
    assert wall(d.next_at_us) == "2026-05-06 02:00 CEST"


def test_next_scheduled_at():
    assert next_scheduled_at(None, None, at(2026, 5, 5, 9, 0)) is None
    assert wall(next_scheduled_at(NIGHTLY, at(2026, 5, 5, 2, 0), at(2026, 5, 5, 9, 0))) == "2026-05-06 02:00 CEST"
    # due now (a missed slot): shows that slot
    assert wall(next_scheduled_at(NIGHTLY, at(2026, 5, 1, 2, 0), at(2026, 5, 5, 9, 0))) == "2026-05-05 02:00 CEST"


@pytest.mark.parametrize("text", ["", "daily", "0 2 * *", "61 2 * * *", "0 2 * * * *", "0 2 * * mon extra",
                                  "0 0 30 2 *", "0 0 31 4 *", "@daily"])
def test_bad_expressions_are_one_clear_error(text):
    with pytest.raises(ValueError, match="not a cron expression"):
        check_expression(text)


def test_expressions_normalised_and_off():
    assert check_expression("  0   2 * * 1-5 ") == "0 2 * * 1-5"
    assert check_expression("OFF") is None
