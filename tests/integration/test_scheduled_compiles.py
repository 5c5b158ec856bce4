"""Scheduled compiles through the host's scheduler and the store, with a fake clock (issue 16)."""

from __future__ import annotations

import sqlite3
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from kctui import paths
from kctui.config import Settings
from kctui.core.clock import FakeClock, rfc3339
from kctui.services import bases, jobs, policy, results
from kctui.services.context import ServiceContext
from kctui.services.errors import InvalidInput
from kctui.services.hoststatus import host_status
from kctui.services.scheduled import next_scheduled_for
from kctui.services.scheduler import Scheduler
from kctui.store.db import Store
from kctui.store.migrations import MIGRATIONS
from tests.helpers import NoWatcher, write_staged_page

BERLIN = ZoneInfo("Europe/Berlin")


@pytest.fixture
def host(monkeypatch):
    monkeypatch.setenv("TZ", "Europe/Berlin")
    clock = FakeClock(start_us=time.time_ns() // 1000)
    ctx = ServiceContext.open(clock=clock, settings=Settings())
    yield ctx, clock
    ctx.close()


def nightly_base(ctx, ws, name="Nightly", **kw):
    _, base = bases.create_base(ctx, ws, name)
    src = paths.sources_path(ws, base.id)
    (src / "a.md").write_text("# A\n\nAlpha is a thing.\n")
    policy.update_policy(ctx, ws, base.id, schedule="0 2 * * *", **kw)
    return bases.get_base(ctx, ws, base.id), src


def queued(ctx):
    return [j for j in jobs.list_jobs(ctx) if j.phase == "queued"]


def finish(ctx, ws):
    base, job = jobs.claim(ctx)
    write_staged_page(ws, base.id, job.id)
    results.report_result(ctx, ws, base.id, job.id, "succeeded")
    return job


def go_to_next_slot(ctx, clock, base):
    nxt = next_scheduled_for(ctx, bases.get_base(ctx, base.workspace, base.id))
    assert datetime.fromtimestamp(nxt / 1e6, BERLIN).strftime("%H:%M") == "02:00"
    clock.t = nxt + 60 * 1_000_000
    return nxt


def test_a_due_slot_queues_one_scheduled_job_then_unchanged_sources_skip(host, workspace):
    ctx, clock = host
    base, src = nightly_base(ctx, workspace)
    sched = Scheduler(ctx, watcher=NoWatcher())
    clock.advance(6)
    sched.tick()
    assert queued(ctx) == [], "a manual base with a schedule queues nothing before its slot"
    go_to_next_slot(ctx, clock, base)
    sched.tick()
    [job] = queued(ctx)
    assert (job.trigger, job.priority) == ("scheduled", 2)
    sched.tick()
    assert len(queued(ctx)) == 1
    finish(ctx, workspace)
    # the next night: nothing changed since that success, so no job
    go_to_next_slot(ctx, clock, base)
    sched.tick()
    assert queued(ctx) == []
    # a change, then the next night: one job
    (src / "b.md").write_text("# B\n\nBeta is new.\n")
    clock.advance(10)
    sched.tick()
    go_to_next_slot(ctx, clock, base)
    sched.tick()
    assert [j.trigger for j in queued(ctx)] == ["scheduled"]


def test_schedule_always_runs_unchanged_sources(host, workspace):
    ctx, clock = host
    base, _ = nightly_base(ctx, workspace, schedule_always=True)
    sched = Scheduler(ctx, watcher=NoWatcher())
    go_to_next_slot(ctx, clock, base)
    sched.tick()
    finish(ctx, workspace)
    go_to_next_slot(ctx, clock, base)
    sched.tick()
    assert [j.trigger for j in queued(ctx)] == ["scheduled"]


def test_missed_nights_collapse_to_one_job_at_the_next_start(host, workspace):
    ctx, clock = host
    base, _ = nightly_base(ctx, workspace, schedule_always=True)  # even unchanged sources would run
    # no host ran for four nights; it starts at noon (a start just before the 02:00 slot would see that
    # slot come due a minute later, as it should: the clock starts at the real time of day)
    noon = (datetime.fromtimestamp(clock.t / 1e6, BERLIN) + timedelta(days=4)).replace(hour=12, minute=0)
    clock.t = int(noon.timestamp() * 1_000_000)
    sched = Scheduler(ctx, watcher=NoWatcher())  # a host starts
    sched.tick()
    assert [j.trigger for j in queued(ctx)] == ["scheduled"]
    finish(ctx, workspace)
    clock.advance(60)
    sched.tick()
    assert queued(ctx) == [], "the four missed nights were one pass"


def test_manual_and_retry_are_claimed_before_scheduled(host, workspace):
    ctx, clock = host
    base, _ = nightly_base(ctx, workspace)
    _, other = bases.create_base(ctx, workspace, "Other")
    (paths.sources_path(workspace, other.id) / "x.md").write_text("# X\n")
    go_to_next_slot(ctx, clock, base)
    Scheduler(ctx, watcher=NoWatcher()).tick()
    clock.advance(1)
    jobs.request_compile(ctx, workspace, other.id)
    first_base, first = jobs.claim(ctx)
    assert (first_base.id, first.trigger) == (other.id, "manual")


def test_status_shows_the_next_scheduled_run_and_off_clears_it(host, workspace):
    ctx, clock = host
    base, _ = nightly_base(ctx, workspace)
    [item] = host_status(ctx)["items"]
    nxt = item["compilation"]["nextScheduledCompileAt"]
    assert nxt == rfc3339(next_scheduled_for(ctx, base))
    assert datetime.fromisoformat(nxt.replace("Z", "+00:00")).astimezone(BERLIN).strftime("%H:%M") == "02:00"
    changed, data = policy.update_policy(ctx, workspace, base.id, schedule="off")
    assert changed and data["schedule"] is None
    [item] = host_status(ctx)["items"]
    assert item["compilation"]["nextScheduledCompileAt"] is None


def test_a_bad_schedule_is_one_line_and_changes_nothing(host, workspace):
    ctx, _ = host
    base, _ = nightly_base(ctx, workspace)
    before = policy.policy_json(ctx, workspace, base.id)
    with pytest.raises(InvalidInput, match="not a cron expression"):
        policy.update_policy(ctx, workspace, base.id, schedule="every night", autonomy="auto")
    assert policy.policy_json(ctx, workspace, base.id) == before
    assert before["schedule"] == "0 2 * * *" and before["scheduleAlways"] is False


def test_migration_keeps_jobs_and_what_references_them(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    for statements in MIGRATIONS[:7]:
        for statement in statements:
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 7")
    conn.execute("INSERT INTO workspaces VALUES ('/w', 1)")
    conn.execute("INSERT INTO bases(workspace, id, name, created_at, updated_at) VALUES ('/w', 'kb', 'KB', 1, 1)")
    conn.execute("INSERT INTO jobs(id, workspace, base_id, trigger, priority, phase, source_digest, created_at) "
                 "VALUES ('j1', '/w', 'kb', 'manual', 0, 'succeeded', 'd', 1)")
    conn.execute("INSERT INTO briefs(job_id, workspace, base_id, markdown, created_at) VALUES ('j1', '/w', 'kb', 'x', 1)")
    conn.close()
    store = Store.open(path)
    try:
        assert store.schema_version() == len(MIGRATIONS)
        assert store.query_one("SELECT trigger FROM jobs WHERE id = 'j1'")[0] == "manual"
        assert store.query_one("SELECT count(*) FROM briefs")[0] == 1
        assert store.query_one("PRAGMA foreign_keys")[0] == 1
        with store.write() as c:
            c.execute("INSERT INTO jobs(id, workspace, base_id, trigger, priority, phase, source_digest, created_at) "
                      "VALUES ('j2', '/w', 'kb', 'scheduled', 2, 'queued', 'd', 2)")
        with pytest.raises(sqlite3.IntegrityError):
            with store.write() as c:
                c.execute("INSERT INTO jobs(id, workspace, base_id, trigger, priority, phase, source_digest, "
                          "created_at) VALUES ('j3', '/w', 'kb', 'nightly', 2, 'queued', 'd', 3)")
    finally:
        store.close()


def test_schedule_off_cancels_a_queued_scheduled_job(host, workspace):
    ctx, clock = host
    base, _ = nightly_base(ctx, workspace)
    go_to_next_slot(ctx, clock, base)
    Scheduler(ctx, watcher=NoWatcher()).tick()
    [job] = queued(ctx)
    policy.update_policy(ctx, workspace, base.id, schedule="off")
    assert queued(ctx) == []
    assert jobs.get_job(ctx, job.id).phase == "cancelled"
    assert bases.get_base(ctx, workspace, base.id).phase == "source_ready"


def test_cli_kb_policy_schedule_and_status(workspace, monkeypatch):
    import json
    import subprocess
    import sys

    monkeypatch.setenv("TZ", "Europe/Berlin")

    def kctui(*args):
        return subprocess.run([sys.executable, "-m", "kctui", *args], capture_output=True, text=True, timeout=60)

    assert kctui("kb", "create", str(workspace), "Nightly").returncode == 0
    out = kctui("kb", "policy", str(workspace), "nightly", "--schedule", "30 1 * * *", "--schedule-always", "--json")
    data = json.loads(out.stdout)
    assert (data["changed"], data["schedule"], data["scheduleAlways"]) == (True, "30 1 * * *", True)
    bad = kctui("kb", "policy", str(workspace), "nightly", "--schedule", "nightly")
    assert bad.returncode != 0 and len(bad.stderr.strip().splitlines()) == 1 and "cron" in bad.stderr
    status = json.loads(kctui("status", "--json").stdout)
    at = status["items"][0]["compilation"]["nextScheduledCompileAt"]
    assert datetime.fromisoformat(at.replace("Z", "+00:00")).astimezone(BERLIN).strftime("%H:%M") == "01:30"
    assert "next scheduled" in kctui("status").stdout


async def test_api_policy_route_takes_the_schedule(host, workspace):
    import httpx

    from kctui.api.server import PREFIX, create_app

    ctx, clock = host
    _, base = bases.create_base(ctx, workspace, "Api")
    token = "sched-token-" + "s" * 40
    app = create_app(lambda: ServiceContext.open(clock=clock, settings=Settings()), token)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://kctui" + PREFIX,
                                 headers={"Authorization": f"Bearer {token}"}) as c:
        url = f"/bases/{base.id}/compilation-policy"
        r = await c.patch(url, json={"workspace": str(workspace), "policy": "manual", "schedule": "0 2 * * *"})
        assert r.status_code == 200 and r.json()["data"]["changed"] is True
        at = r.json()["data"]["knowledgeBase"]["compilation"]["nextScheduledCompileAt"]
        assert datetime.fromisoformat(at.replace("Z", "+00:00")).astimezone(BERLIN).strftime("%H:%M") == "02:00"
        r = await c.patch(url, json={"workspace": str(workspace), "policy": "smart_auto", "schedule": "0 0 30 2 *"})
        assert r.status_code == 400 and "ever comes due" in r.json()["message"]
        assert bases.get_base(ctx, workspace, base.id).policy == "manual", "a bad schedule changes nothing"
    assert policy.policy_json(ctx, workspace, base.id)["schedule"] == "0 2 * * *"
