"""A claim race (host.md §5, issue 2 acceptance): 4 processes over 3,000 queued jobs.

Each process opens its own Store and loops `jobs.claim` → `results.report_result` (a permanent
failure, so no promotion I/O) until nothing is queued. Exactly one job runs at a time across all
processes, so every claim races the other three for the write lock right after each result commits.
The union of the claimed ids must be exactly the 3,000 jobs, no id claimed twice, no process may see
any exception (in particular sqlite3.OperationalError "database is locked"), and at the end no job
is running.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import time
import traceback
from pathlib import Path

import pytest

from kctui.core.clock import FakeClock
from kctui.core.models import CLAIMED_BY_BUILTIN, BasePhase, Trigger
from kctui.services import jobs, results
from kctui.services.context import ServiceContext
from kctui.services.workspaces import ensure_workspace, normalise_workspace
from kctui.store.records import load_base, update_base

PROCESSES = 4
JOBS = 3_000
DEADLINE_S = 120.0  # a child gives up (and the test fails) rather than hang the suite


def _queue_jobs(ctx: ServiceContext, workspace: str, count: int) -> list[str]:
    """`count` bases in one workspace with one queued manual job each, in one transaction."""
    now = ctx.now()
    ids: list[str] = []
    with ctx.store.write() as conn:
        ensure_workspace(conn, workspace, now)
        conn.executemany(
            "INSERT INTO bases(workspace, id, name, phase, source_digest, created_at, updated_at) "
            "VALUES (?, ?, ?, 'queued', ?, ?, ?)",
            [(workspace, f"kb-{i:05d}", f"kb {i}", f"sha256:{i:064x}", now, now) for i in range(count)],
        )
        for i in range(count):
            base = load_base(conn, workspace, f"kb-{i:05d}")
            assert base is not None
            ids.append(jobs.insert_job(conn, base, Trigger.MANUAL, base.source_digest, now + i))
            update_base(conn, workspace, base.id, now, phase=BasePhase.QUEUED.value, last_requested_at=now)
    return ids


def _worker(index: int, workspace: str, out_dir: str, start) -> None:  # runs in a forked child
    claimed: list[str] = []
    errors: list[str] = []
    empty_polls = 0
    ctx = None
    try:
        ctx = ServiceContext.open(clock=FakeClock())
        rng = random.Random(index)
        start.wait()
        deadline = time.monotonic() + DEADLINE_S
        while True:
            if time.monotonic() > deadline:
                errors.append(f"worker {index}: deadline of {DEADLINE_S} s passed with work left")
                break
            got = jobs.claim(ctx, claimed_by=CLAIMED_BY_BUILTIN)
            if got is None:
                left = ctx.store.query_one("SELECT count(*) FROM jobs WHERE phase = 'queued'")[0]
                if not left:
                    break
                empty_polls += 1
                time.sleep(rng.random() * 0.001)  # another process holds the one running job
                continue
            base, job = got
            claimed.append(job.id)
            ok, _base, done = results.report_result(
                ctx, workspace, base.id, job.id, "failed", transient=False, error=f"race by worker {index}"
            )
            if not ok or done.phase != "failed":
                errors.append(f"worker {index}: result of {job.id} gave {ok} {done.phase}")
    except BaseException as exc:  # noqa: BLE001 - every exception is a failure of the test
        errors.append(f"worker {index}: {type(exc).__name__}: {exc}\n{traceback.format_exc()}")
    finally:
        if ctx is not None:
            ctx.close()
        Path(out_dir, f"worker-{index}.json").write_text(
            json.dumps({"claimed": claimed, "errors": errors, "empty_polls": empty_polls})
        )


@pytest.mark.slow
def test_four_processes_race_over_3000_jobs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KCTUI_STATE_DIR", str(tmp_path / "state"))
    workspace_dir = tmp_path / "ws"
    workspace_dir.mkdir()
    workspace = normalise_workspace(workspace_dir)
    ctx = ServiceContext.open(clock=FakeClock())
    try:
        expected = _queue_jobs(ctx, workspace, JOBS)
    finally:
        ctx.close()  # no connection crosses the fork
    assert len(set(expected)) == JOBS

    mp = multiprocessing.get_context("fork")
    start = mp.Event()
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    procs = [mp.Process(target=_worker, args=(i, workspace, str(out_dir), start)) for i in range(PROCESSES)]
    began = time.perf_counter()
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(DEADLINE_S + 30)
    elapsed = time.perf_counter() - began
    for p in procs:
        if p.is_alive():
            p.kill()
            p.join()
    assert all(p.exitcode == 0 for p in procs), [p.exitcode for p in procs]

    reports = [json.loads((out_dir / f"worker-{i}.json").read_text()) for i in range(PROCESSES)]
    errors = [e for r in reports for e in r["errors"]]
    assert not errors, "\n".join(errors)
    assert not any("database is locked" in e for e in errors)
    claimed = [jid for r in reports for jid in r["claimed"]]
    assert len(claimed) == len(set(claimed)), "a job was claimed twice"
    assert set(claimed) == set(expected)
    # Every process took part (a claim race needs rivals); not a hard rule of the queue, so only a hint.
    per_worker = [len(r["claimed"]) for r in reports]
    print(f"\nclaim race: {JOBS} jobs, {PROCESSES} processes, {elapsed:.2f} s; claims per process {per_worker}; "
          f"empty polls {[r['empty_polls'] for r in reports]}")

    ctx = ServiceContext.open(clock=FakeClock())
    try:
        assert ctx.store.integrity_ok()
        phases = dict(ctx.store.query("SELECT phase, count(*) FROM jobs GROUP BY phase"))
        assert phases == {"failed": JOBS}
        assert ctx.store.query_one("SELECT count(*) FROM jobs WHERE phase = 'running'")[0] == 0
        assert ctx.store.query_one("SELECT count(*) FROM bases WHERE active_job_id IS NOT NULL")[0] == 0
        assert ctx.store.query_one("SELECT count(*) FROM bases WHERE phase <> 'failed'")[0] == 0
    finally:
        ctx.close()
