"""Table tests for host.md §3–§4: smart-auto windows and the bulk-change pause, with a fake clock."""

from __future__ import annotations

import pytest

from kctui.core.clock import US, FakeClock
from kctui.core.schedule import (
    DEFAULT_WINDOWS,
    MAX_REASON_CHARS,
    Windows,
    auto_compile_due,
    automatic_pause_reason,
    bulk_pause_reason,
    is_unstable,
    limit_pause_reason,
    next_auto_compile_at,
    queue_on_enable,
    quiet_timer_update,
    sources_missing_reason,
    windows_from_env,
)
from kctui.sources.changes import classify_changes

D_OLD = "sha256:" + "a" * 64
D_NEW = "sha256:" + "b" * 64
D_NEWER = "sha256:" + "c" * 64


def base_state(**overrides):
    state = dict(
        policy="smart_auto",
        source_digest=D_NEW,
        last_compiled_digest=D_OLD,
        change_detected_at_us=None,
        last_auto_requested_at_us=None,
        job_active=False,
    )
    state.update(overrides)
    return state


# -- the quiet window: not due at +29 s, due at +30 s --------------------------------------------------


@pytest.mark.parametrize(
    ("offset_s", "due"),
    [(0, False), (1, False), (29, False), (29.999999, False), (30, True), (31, True), (3600, True)],
)
def test_quiet_window_boundary(offset_s, due):
    clock = FakeClock()
    t0 = clock.now_us()
    state = base_state(change_detected_at_us=t0)
    now = clock.advance(offset_s)
    assert auto_compile_due(**state, now_us=now) is due
    assert next_auto_compile_at(**state) == t0 + 30 * US


# -- the minimum interval: after an automatic job at +30 s, not due at +629 s, due at +630 s -----------


@pytest.mark.parametrize(("offset_s", "due"), [(70, False), (600, False), (629, False), (630, True), (631, True)])
def test_minimum_interval_boundary(offset_s, due):
    clock = FakeClock()
    t0 = clock.now_us()
    first = base_state(change_detected_at_us=t0)
    assert not auto_compile_due(**first, now_us=clock.advance(29))
    assert auto_compile_due(**first, now_us=clock.advance(1))  # +30 s: the first automatic job
    requested_at = clock.now_us()
    # That job compiled D_NEW; an edit at +40 s makes D_NEWER pending.
    second = base_state(
        source_digest=D_NEWER,
        last_compiled_digest=D_NEW,
        change_detected_at_us=t0 + 40 * US,
        last_auto_requested_at_us=requested_at,
    )
    assert auto_compile_due(**second, now_us=t0 + offset_s * US) is due
    assert next_auto_compile_at(**second) == t0 + 630 * US


def test_first_automatic_job_has_no_previous_interval():
    clock = FakeClock()
    state = base_state(change_detected_at_us=clock.now_us())
    assert auto_compile_due(**state, now_us=clock.advance(30))


@pytest.mark.parametrize(
    ("overrides", "why"),
    [
        ({"source_digest": D_OLD}, "digest equals the last compiled digest"),
        ({"job_active": True}, "a job of this base is queued or running"),
        ({"policy": "manual"}, "manual policy never compiles automatically"),
        ({"paused": True}, "a paused base waits for a person"),
        ({"source_digest": None}, "no snapshot yet"),
        ({"has_sources": False}, "an empty source set is not compiled"),
        ({"has_unstable": True}, "a file is still being written"),
    ],
)
def test_nothing_is_due(overrides, why):
    clock = FakeClock()
    state = base_state(change_detected_at_us=clock.now_us())
    state.update(overrides)
    has_unstable = state.pop("has_unstable", False)
    assert not auto_compile_due(**state, has_unstable=has_unstable, now_us=clock.advance(10_000)), why


def test_next_auto_compile_at_is_none_when_nothing_will_be_due():
    assert next_auto_compile_at(**base_state(source_digest=D_OLD)) is None
    assert next_auto_compile_at(**base_state(job_active=True)) is None


def test_enabling_smart_auto_with_nothing_pending_queues_nothing():
    assert not queue_on_enable(D_OLD, D_OLD)
    assert queue_on_enable(D_NEW, D_OLD)
    assert queue_on_enable(D_NEW, None)
    assert not queue_on_enable(None, None)


def test_windows_are_parameters():
    short = Windows(stability_s=0.2, quiet_s=0.5, min_interval_s=2, scan_interval_s=0.1)
    clock = FakeClock()
    state = base_state(change_detected_at_us=clock.now_us())
    assert not auto_compile_due(**state, windows=short, now_us=clock.advance(0.499))
    assert auto_compile_due(**state, windows=short, now_us=clock.advance(0.001))


# -- the quiet timer and the stability window ----------------------------------------------------------


@pytest.mark.parametrize(
    ("previous", "current", "unstable", "restarts"),
    [
        (D_OLD, D_OLD, False, False),  # nothing new: keep the timer
        (D_OLD, D_NEW, False, True),  # a new digest restarts it
        (D_OLD, D_OLD, True, True),  # any unstable file restarts it
        (None, D_NEW, False, True),  # the first digest seen
    ],
)
def test_quiet_timer_update(previous, current, unstable, restarts):
    clock = FakeClock()
    started = clock.now_us()
    now = clock.advance(12)
    got = quiet_timer_update(
        change_detected_at_us=started,
        previous_digest=previous,
        current_digest=current,
        has_unstable=unstable,
        now_us=now,
    )
    assert got == (now if restarts else started)


def test_an_unstable_file_keeps_pushing_the_job_back():
    clock = FakeClock()
    detected = clock.now_us()
    for _ in range(10):  # a file rewritten every 10 s for 100 s
        now = clock.advance(10)
        detected = quiet_timer_update(
            change_detected_at_us=detected, previous_digest=D_NEW, current_digest=D_NEW, has_unstable=True, now_us=now
        )
        assert not auto_compile_due(**base_state(change_detected_at_us=detected), now_us=now)
    assert not auto_compile_due(**base_state(change_detected_at_us=detected), now_us=clock.advance(29))
    assert auto_compile_due(**base_state(change_detected_at_us=detected), now_us=clock.advance(1))


@pytest.mark.parametrize(("age_s", "unstable"), [(0, True), (4.999, True), (5, False), (6, False), (-1, True)])
def test_stability_window(age_s, unstable):
    now = FakeClock().now_us()
    assert is_unstable(now - int(age_s * US), now, DEFAULT_WINDOWS) is unstable


# -- the bulk-change pause -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("previous", "deleted", "total", "pauses"),
    [
        (200, 150, 150, True),  # 150 of 200 disappeared
        (3, 1, 1, False),  # 3 -> 2 files: a small base losing one file is normal
        (3, 2, 2, False),  # two files of a small base: below the 3-deletion floor
        (3, 3, 3, True),  # all of 3 files
        (6, 5, 5, True),  # 5 of 6 (QA s31 #16)
        (6, 3, 3, False),  # 2 * 3 == 6 is not more than 6
        (40, 19, 19, False),  # under half
        (38, 20, 20, True),  # 40 > 38
        (40, 20, 20, False),  # 2 * 20 == 40 is not more than 40
        (10_000, 100, 100, False),  # exactly 100 of a large base
        (10_000, 101, 101, True),  # more than 100 deletions
        (0, 500, 500, False),  # checked only when the previous snapshot had files
        (10_000, 0, 1000, False),  # exactly 1,000 changes
        (10_000, 0, 1001, True),  # more than 1,000 changes
        (398, 0, 200, True),  # 200 >= 200 and 400 > 398
        (400, 0, 200, False),
        (1000, 0, 199, False),
    ],
)
def test_bulk_pause_thresholds(previous, deleted, total, pauses):
    reason = bulk_pause_reason(previous, deleted, total)
    assert (reason is not None) is pauses
    if reason:
        assert reason.startswith("automatic compilation paused because")
        assert len(reason) <= MAX_REASON_CHARS


def test_bulk_pause_reason_words():
    assert bulk_pause_reason(200, 150, 150) == (
        "automatic compilation paused because 150 of 200 source files disappeared"
    )
    assert "1,500 source files changed at once" in (bulk_pause_reason(50_000, 0, 1500) or "")


def test_renames_count_as_deletions_for_the_pause():
    previous = {f"notes/{i:03d}.md": (f"sha256:{i:064x}", 10) for i in range(200)}
    moved = {f"archive/{i:03d}.md": state for i, state in enumerate(previous.values())}
    changes = classify_changes(previous, moved)
    assert (changes.renamed, changes.deleted, changes.added) == (200, 0, 0)
    assert changes.vanished == 200
    assert bulk_pause_reason(changes.previous_files, changes.vanished, changes.total_changed) == (
        "automatic compilation paused because 200 of 200 source files disappeared"
    )


def test_missing_sources_pauses_and_never_reads_as_all_deleted():
    reason = sources_missing_reason(False, "the sources folder /mnt/notes/sources is missing")
    assert reason and "missing" in reason and "paused" in reason
    assert sources_missing_reason(True, None) is None
    combined = automatic_pause_reason(
        root_ok=False, root_error="the sources folder /x is missing", limit_error=None,
        previous_files=200, deleted_raw=200, total_changed=200,
    )  # fmt: skip
    assert combined and "disappeared" not in combined and "missing" in combined


def test_limit_pause_and_bound():
    assert limit_pause_reason(None) is None
    assert "20,000" in (limit_pause_reason("sources/ holds more than 20,000 files") or "")
    assert len(sources_missing_reason(False, "x" * 5000) or "") == MAX_REASON_CHARS


# -- settings ------------------------------------------------------------------------------------------


def test_windows_from_env():
    w = windows_from_env(
        {"KCTUI_STABILITY_WINDOW": "0.5", "KCTUI_QUIET_WINDOW": "2", "KCTUI_AUTO_MIN_INTERVAL": "10",
         "KCTUI_SCAN_INTERVAL": "0.25"}
    )  # fmt: skip
    assert (w.stability_s, w.quiet_s, w.min_interval_s, w.scan_interval_s) == (0.5, 2, 10, 0.25)
    assert windows_from_env({}) == DEFAULT_WINDOWS == Windows(5, 30, 600, 5)
    with pytest.raises(ValueError, match="KCTUI_QUIET_WINDOW"):
        windows_from_env({"KCTUI_QUIET_WINDOW": "soon"})
    with pytest.raises(ValueError, match="KCTUI_AUTO_MIN_INTERVAL"):
        windows_from_env({"KCTUI_AUTO_MIN_INTERVAL": "-1"})
