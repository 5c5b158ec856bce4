"""Smart-auto scheduling and the bulk-change pause through the services, with a fake clock."""

from __future__ import annotations

import time

import pytest

from kctui import paths
from kctui.config import Settings
from kctui.core.clock import FakeClock
from kctui.services import bases, jobs, results
from kctui.services.context import ServiceContext
from kctui.services.errors import InvalidInput
from kctui.services.scheduler import Scheduler, resume_base, source_changes
from tests.helpers import NoWatcher, write_staged_page


@pytest.fixture
def real_clock_svc():
    clock = FakeClock(start_us=time.time_ns() // 1000)
    ctx = ServiceContext.open(clock=clock, settings=Settings())
    yield ctx, clock
    ctx.close()


def auto_base(ctx, ws, n_files=3):
    _, base = bases.create_base(ctx, ws, "Auto", policy="smart_auto")
    src = paths.sources_path(ws, base.id)
    for i in range(n_files):
        (src / f"f{i:03}.md").write_text(f"# file {i}\n")
    return base, src


def queued(ctx):
    return [j for j in jobs.list_jobs(ctx) if j.phase == "queued"]


def finish(ctx, ws):
    base, job = jobs.claim(ctx)
    write_staged_page(ws, base.id, job.id)
    results.report_result(ctx, ws, base.id, job.id, "succeeded")
    return job


def test_quiet_window_boundaries_29_30_and_min_interval_629_630(real_clock_svc, workspace):
    ctx, clock = real_clock_svc
    base, src = auto_base(ctx, workspace)
    sched = Scheduler(ctx, watcher=NoWatcher())
    clock.advance(6)  # files are now stable
    sched.tick()  # t0: change detected
    t0 = clock.now_us()
    clock.advance(29)
    sched.tick()
    assert queued(ctx) == [], "not due at +29 s"
    clock.advance(1)
    [out] = sched.tick()
    assert out.queued_job and queued(ctx)[0].trigger == "smart_auto", "due at +30 s"
    finish(ctx, workspace)
    # an edit right away: the next automatic job waits for the 600 s minimum interval after +30 s
    (src / "f000.md").write_text("# file 0 changed\n")
    clock.advance(6)
    sched.tick()
    clock.t = t0 + 629 * 1_000_000
    sched.tick()
    assert queued(ctx) == [], "not due at +629 s"
    clock.t = t0 + 630 * 1_000_000
    sched.tick()
    assert [j.trigger for j in queued(ctx)] == ["smart_auto"], "due at +630 s"


def test_unstable_file_restarts_quiet_timer(real_clock_svc, workspace):
    ctx, clock = real_clock_svc
    base, src = auto_base(ctx, workspace)
    sched = Scheduler(ctx, watcher=NoWatcher())
    [out] = sched.tick()  # files just written: unstable
    assert out.unstable
    clock.advance(3)
    [out] = sched.tick()  # still within the 5 s stability window: the quiet timer restarts at +3 s
    assert out.unstable
    clock.advance(27)
    sched.tick()  # +30 s after the first change but only +27 s after the last unstable scan
    assert queued(ctx) == []
    clock.advance(3)
    sched.tick()
    assert len(queued(ctx)) == 1


def test_nothing_queued_when_digest_equals_last_compiled(real_clock_svc, workspace):
    ctx, clock = real_clock_svc
    _, base = bases.create_base(ctx, workspace, "Manual first")
    (paths.sources_path(workspace, base.id) / "a.md").write_text("# a\n")
    jobs.request_compile(ctx, workspace, base.id)
    finish(ctx, workspace)
    bases.set_compilation_policy(ctx, workspace, base.id, "smart_auto")
    sched = Scheduler(ctx, watcher=NoWatcher())
    for _ in range(3):
        clock.advance(700)
        sched.tick()
    assert queued(ctx) == []


def test_bulk_deletion_pauses_and_resume_queues_one_manual_compile(real_clock_svc, workspace):
    ctx, clock = real_clock_svc
    base, src = auto_base(ctx, workspace, n_files=100)
    jobs.request_compile(ctx, workspace, base.id)  # accepts the 100-file snapshot
    finish(ctx, workspace)
    for i in range(80):
        (src / f"f{i:03}.md").unlink()
    sched = Scheduler(ctx, watcher=NoWatcher())
    clock.advance(10)
    [out] = sched.tick()
    assert out.paused == "automatic compilation paused because 80 of 100 source files disappeared"
    b = bases.get_base(ctx, workspace, base.id)
    assert b.phase == "paused" and queued(ctx) == []
    clock.advance(3600)
    sched.tick()
    assert queued(ctx) == [], "still paused: no automatic work"
    (src / "f080.md").unlink()  # the bulk change goes on: the reason follows it, the pause stays
    clock.advance(10)
    [out] = sched.tick()
    assert out.paused == "automatic compilation paused because 81 of 100 source files disappeared"
    assert bases.get_base(ctx, workspace, base.id).paused_reason == out.paused
    (src / "f080.md").write_text("# back\n")
    report = source_changes(ctx, workspace, base.id)
    assert report["deleted"] == 80 and report["previousFiles"] == 100 and report["safetyPause"]
    b, job, counts = resume_base(ctx, workspace, base.id)
    assert job.trigger == "manual" and b.paused_reason is None and counts["deleted"] == 80
    assert [j.id for j in queued(ctx)] == [job.id]


def test_small_changes_do_not_pause(real_clock_svc, workspace):
    ctx, clock = real_clock_svc
    base, src = auto_base(ctx, workspace, n_files=3)
    jobs.request_compile(ctx, workspace, base.id)
    finish(ctx, workspace)
    (src / "f000.md").unlink()  # 3 -> 2 files
    clock.advance(10)
    [out] = Scheduler(ctx, watcher=NoWatcher()).tick()
    assert out.paused is None


def test_five_of_six_sources_vanishing_pauses_a_small_base(real_clock_svc, workspace):
    """QA s31 #16: policy.md's pause "when a large share of the sources vanished" held only from 20 files on."""
    ctx, clock = real_clock_svc
    base, src = auto_base(ctx, workspace, n_files=6)
    jobs.request_compile(ctx, workspace, base.id)
    finish(ctx, workspace)
    for i in range(5):
        (src / f"f{i:03}.md").unlink()
    sched = Scheduler(ctx, watcher=NoWatcher())
    clock.advance(10)
    [out] = sched.tick()
    assert out.paused == "automatic compilation paused because 5 of 6 source files disappeared"
    clock.advance(3600)  # past the quiet window and the minimum interval: still no automatic job
    sched.tick()
    assert queued(ctx) == [] and bases.get_base(ctx, workspace, base.id).phase == "paused"
    b, job, counts = resume_base(ctx, workspace, base.id)  # `u`: a person accepts the change
    assert counts["deleted"] == 5 and [j.id for j in queued(ctx)] == [job.id]


def test_vanished_sources_pause_and_resume_refuses(real_clock_svc, workspace):
    import shutil

    ctx, clock = real_clock_svc
    base, src = auto_base(ctx, workspace, n_files=3)
    jobs.request_compile(ctx, workspace, base.id)
    finish(ctx, workspace)
    shutil.rmtree(src)
    clock.advance(10)
    [out] = Scheduler(ctx, watcher=NoWatcher()).tick()
    assert out.paused and "paused because" in out.paused
    with pytest.raises(InvalidInput, match="cannot resume"):
        resume_base(ctx, workspace, base.id)
    src.mkdir()
    (src / "back.md").write_text("# back\n")
    b, job, _ = resume_base(ctx, workspace, base.id, compile=False)
    assert job is None and b.phase == "source_ready" and b.paused_reason is None


def test_manual_base_never_pauses_or_auto_compiles(real_clock_svc, workspace):
    ctx, clock = real_clock_svc
    _, base = bases.create_base(ctx, workspace, "Manual")
    src = paths.sources_path(workspace, base.id)
    for i in range(50):
        (src / f"m{i}.md").write_text(f"{i}")
    jobs.request_compile(ctx, workspace, base.id)
    finish(ctx, workspace)
    for i in range(50):
        (src / f"m{i}.md").unlink()
    (src / "left.md").write_text("x")
    clock.advance(1000)
    [out] = Scheduler(ctx, watcher=NoWatcher()).tick()
    assert out.paused is None and queued(ctx) == []
    assert bases.get_base(ctx, workspace, base.id).pending_changes
