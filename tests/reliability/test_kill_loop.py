"""The kill -9 loop (issue 2 acceptance): ≥ 200 SIGKILLs over request / claim / result / cancel.

A forked child (forked after every import, so it starts working at once) runs random operations
through the services on a few small knowledge bases with real source files: manual requests (now and
then after changing a source, so follow-ups and digests move), claims as the built-in compiler,
results (a success after writing a small staged generation, so promotion runs; now and then an invalid
tree, rejected by validation; transient and permanent failures) and cancels. After each service call
returns, the child appends the acknowledged write to an ack log (flush + fsync). The parent SIGKILLs
it after a random 2–250 ms (log-uniform: most kills come early in a child's life, and a slow
machine's child still lives long enough now and then to report a success) and then checks, before
and after the restart recovery a new host would run:

- `PRAGMA integrity_check` is ok, at most one job runs, base and job rows agree;
- every acknowledged write is in the database: a requested job exists; a claimed job is not back to
  queued; a reported result's job is terminal with that phase; a cancelled job is cancelled;
- each base's `wiki/` is present once a success was acknowledged, and never mixed: every page of the
  live wiki names the same job (the staged pages record their job id and their count), and that job is
  the newest success of the base (or, before recovery, a job whose promotion is journalled);
- after `recover_at_startup`: no running job, no promotion journal, and `wiki/` is the newest success.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import signal
import threading
import time
import traceback
from collections import Counter
from pathlib import Path

import pytest

import kctui.sources.scan  # noqa: F401 - imported lazily by the services; load it before forking
import kctui.sources.statcache  # noqa: F401
from kctui import paths
from kctui.config import Settings
from kctui.core.models import CLAIMED_BY_BUILTIN
from kctui.publish.promote import journal_path
from kctui.services import bases, jobs, recovery, results
from kctui.services.context import ServiceContext
from kctui.services.local_transport import LocalTransport
from kctui.services.worker import run_worker

KILLS = 300
DELAY_MS = (2.0, 250.0)
KB_NAMES = ("Alpha notes", "Beta notes", "Gamma notes")
PAGE_RE = re.compile(r"\A---\ntype: Note\njob: (?P<job>[a-z0-9-]+)\npages: (?P<n>\d+)\n---\n")
INDEX_RE = re.compile(r"\A# Generation (?P<job>[a-z0-9-]+) with (?P<n>\d+) pages\n\Z")
TERMINAL = {"succeeded", "failed", "cancelled"}


def open_ctx() -> ServiceContext:
    return ServiceContext.open(settings=Settings())


# -- the child: random operations, each acknowledged after the call returned -------------------------

def write_generation(ws: str, kb: str, job_id: str, rng: random.Random, *, valid: bool = True) -> None:
    staged = paths.staged_wiki(Path(ws), kb, job_id)
    n = rng.randint(1, 3)
    for i in range(n):
        text = f"---\ntype: Note\njob: {job_id}\npages: {n}\n---\npage {i} of {job_id}\n"
        if not valid and i == 0:
            text = f"---\ntitle: no type\njob: {job_id}\n---\nrejected\n"
        sub = staged / ("deep" if i == 2 else "")
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"p{i}.md").write_text(text)
    (staged / "index.md").write_text(f"# Generation {job_id} with {n} pages\n")


def child_main(ws: str, kb_ids: list[str], ack_path: str, err_path: str, seed: int) -> None:
    rng = random.Random(seed)
    ack_fd = os.open(ack_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)

    def ack(**entry: object) -> None:
        os.write(ack_fd, (json.dumps(entry) + "\n").encode())
        os.fsync(ack_fd)

    current: tuple[str, str] | None = None  # (kb, job) claimed by this process and still running
    ctx = open_ctx()
    try:
        while True:
            if current is None:
                op = rng.choices(("request", "claim", "cancel"), weights=(3, 4, 1))[0]
            else:
                op = rng.choices(("request", "result", "cancel"), weights=(2, 6, 1))[0]
            if op == "request":
                kb = rng.choice(kb_ids)
                if rng.random() < 0.3:
                    (paths.sources_path(Path(ws), kb) / "changing.txt").write_text(f"{rng.random()}\n")
                _changed, _base, job = jobs.request_compile(ctx, ws, kb)
                if job is not None:
                    ack(op="request", kb=kb, job=job.id)
            elif op == "claim":
                got = jobs.claim(ctx, claimed_by=CLAIMED_BY_BUILTIN)
                if got is not None:
                    current = (got[1].base_id, got[1].id)
                    ack(op="claim", kb=current[0], job=current[1])
            elif op == "result":
                assert current is not None
                kb, jid = current
                r = rng.random()
                if r < 0.6:
                    write_generation(ws, kb, jid, rng, valid=rng.random() > 0.1)
                    _ok, _base, job = results.report_result(ctx, ws, kb, jid, "succeeded")
                else:
                    _ok, _base, job = results.report_result(
                        ctx, ws, kb, jid, "failed", transient=r < 0.85, error="random failure")
                current = None
                assert job.phase in TERMINAL, job
                ack(op="result", kb=kb, job=jid, phase=job.phase)
            else:
                kb = current[0] if current is not None and rng.random() < 0.5 else rng.choice(kb_ids)
                ok, _base, job = jobs.cancel(ctx, ws, kb)
                if ok and job is not None:
                    if current is not None and current[1] == job.id:
                        current = None
                    ack(op="cancel", kb=kb, job=job.id)
    except BaseException:  # noqa: BLE001 - any exception fails the test (the parent reads err_path)
        Path(err_path).write_text(traceback.format_exc())
        os._exit(3)


# -- the parent's checks ---------------------------------------------------------------------------

def read_acks(ack_path: Path) -> list[dict]:
    """The acknowledged writes; a line cut by the kill was never acknowledged and is dropped."""
    data = ack_path.read_bytes() if ack_path.exists() else b""
    if data and not data.endswith(b"\n"):
        data = data[: data.rfind(b"\n") + 1]
        with open(ack_path, "r+b") as f:
            f.truncate(len(data))
    return [json.loads(line) for line in data.decode().splitlines()]


def live_generation(wiki: Path) -> str | None:
    """The one job id every page of the live wiki names; fails the test when the wiki is mixed."""
    if not os.path.lexists(wiki):
        return None
    assert wiki.is_dir() and not wiki.is_symlink()
    files = sorted(p for p in wiki.rglob("*") if p.is_file())
    index = INDEX_RE.match((wiki / "index.md").read_text())
    assert index, f"{wiki}/index.md is not one of ours: {files}"
    gen, n = index["job"], int(index["n"])
    pages = [p for p in files if p.name != "index.md"]
    assert len(pages) == n, f"mixed wiki: index of {gen} says {n} pages, found {[str(p) for p in pages]}"
    for p in pages:
        m = PAGE_RE.match(p.read_text())
        assert m and m["job"] == gen and int(m["n"]) == n, f"mixed wiki: {p} does not belong to {gen}"
    return gen


def check_store(ctx: ServiceContext, ws: str, kb_ids: list[str], acks: list[dict], *, recovered: bool,  # noqa: C901 - one checklist of the store's invariants, read top to bottom
                stats: Counter) -> None:
    assert ctx.store.integrity_ok()
    assert not ctx.store.query("PRAGMA foreign_key_check")
    job_rows = {r["id"]: r for r in ctx.store.query(
        "SELECT id, base_id, phase, started_at, claimed_by, source_digest FROM jobs")}
    base_rows = {r["id"]: r for r in ctx.store.query(
        "SELECT id, phase, active_job_id, last_compiled_digest FROM bases WHERE workspace = ?", (ws,))}
    running = [j for j in job_rows.values() if j["phase"] == "running"]
    assert len(running) <= 1, running
    if recovered:
        assert not running, "a running built-in job survived recovery"
    for j in running:
        stats["running_at_kill"] += 1
        b = base_rows[j["base_id"]]
        assert b["active_job_id"] == j["id"] and b["phase"] == "running", (dict(b), dict(j))
    for b in base_rows.values():
        if b["active_job_id"] is not None:
            assert job_rows[b["active_job_id"]]["phase"] == "running", dict(b)

    last_success: dict[str, str] = {}
    for a in acks:
        job = job_rows.get(a["job"])
        assert job is not None, f"acknowledged {a} but the job is not in the database"
        if a["op"] == "claim":
            assert job["phase"] != "queued", f"claimed job went back to queued: {a}"
        elif a["op"] == "result":
            assert job["phase"] == a["phase"] and job["phase"] in TERMINAL, (a, dict(job))
            if a["phase"] == "succeeded":
                last_success[a["kb"]] = a["job"]
        elif a["op"] == "cancel":
            assert job["phase"] == "cancelled", (a, dict(job))

    for kb in kb_ids:
        kb_dir = paths.kb_path(Path(ws), kb)
        journalled = journal_path(kb_dir).exists()
        if recovered:
            assert not journalled and not journal_path(kb_dir).with_name("promotion.json.tmp").exists()
        elif journalled:
            stats["journal_at_kill"] += 1
        gen = live_generation(kb_dir / "wiki")
        if kb in last_success:
            assert gen is not None, f"wiki/ of {kb} is missing after an acknowledged success"
        if gen is None:
            assert not any(j["phase"] == "succeeded" and j["base_id"] == kb for j in job_rows.values())
            continue
        succeeded = [j for j in job_rows.values() if j["base_id"] == kb and j["phase"] == "succeeded"]
        newest = max(succeeded, key=lambda j: (j["started_at"], j["id"]), default=None)
        gen_job = job_rows[gen]
        if gen_job["phase"] == "running":  # promoted on disk, the kill came before COMMIT
            assert not recovered and journalled, (kb, dict(gen_job))
            stats["promoted_before_commit"] += 1
        else:
            assert newest is not None and newest["id"] == gen, f"wiki/ of {kb} is {gen}, newest success {newest}"
            assert base_rows[kb]["last_compiled_digest"] == gen_job["source_digest"]
        if kb in last_success and last_success[kb] != gen:  # only a later success may have replaced it
            assert gen_job["started_at"] > job_rows[last_success[kb]]["started_at"], (kb, gen, last_success[kb])


@pytest.mark.slow
def test_kill_minus_nine_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KCTUI_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("KCTUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("KCTUI_TEST_PROMOTION_CRASH_AT", raising=False)
    ws_dir = tmp_path / "ws"
    ws_dir.mkdir()
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.md").write_text("# A\n\nalpha\n")
    (src / "b.txt").write_text("beta\n")
    ctx = open_ctx()
    kb_ids = [bases.create_base(ctx, ws_dir, name, from_paths=[str(src)])[1].id for name in KB_NAMES]
    ws = bases.get_base(ctx, ws_dir, kb_ids[0]).workspace
    ctx.close()

    ack_path, err_path = tmp_path / "acks.jsonl", tmp_path / "child-error.txt"
    rng = random.Random(20260726)
    stats: Counter = Counter()
    began = time.perf_counter()
    for i in range(KILLS):
        pid = os.fork()
        if pid == 0:  # child: never returns into pytest
            try:
                child_main(ws, kb_ids, str(ack_path), str(err_path), seed=rng.randrange(1 << 30) + i)
            finally:
                os._exit(4)
        time.sleep(math.exp(rng.uniform(math.log(DELAY_MS[0]), math.log(DELAY_MS[1]))) / 1000)
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        if not (os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL):
            detail = err_path.read_text() if err_path.exists() else ""
            pytest.fail(f"kill {i}: the child ended by itself (status {status}) before the kill:\n{detail}")
        stats["kills"] += 1

        acks = read_acks(ack_path)
        ctx = open_ctx()  # a restarted host
        try:
            check_store(ctx, ws, kb_ids, acks, recovered=False, stats=stats)
            report = recovery.recover_at_startup(ctx)
            stats["orphans_failed"] += len(report.jobs_failed)
            stats["promotions_finished"] += len(report.promotions_finished)
            stats["promotions_rolled_back"] += len(report.promotions_rolled_back)
            check_store(ctx, ws, kb_ids, acks, recovered=True, stats=Counter())
        finally:
            ctx.close()
    elapsed = time.perf_counter() - began

    acks = read_acks(ack_path)
    stats.update(f"ack_{a['op']}" + (f"_{a['phase']}" if a["op"] == "result" else "") for a in acks)
    print(f"\nkill loop: {stats['kills']} kills in {elapsed:.1f} s; {dict(sorted(stats.items()))}")
    assert stats["kills"] >= 200
    assert stats["ack_result_succeeded"] > 0 and stats["ack_claim"] > 0 and stats["ack_cancel"] > 0

    # After all that, the queue still works end to end with the built-in compiler.
    ctx = open_ctx()
    try:
        for kb in kb_ids:  # a clean queue, so the next claim is ours
            jobs.cancel(ctx, ws, kb)
        _c, _b, job = jobs.request_compile(ctx, ws, kb_ids[0])
        outcomes = run_worker(LocalTransport(ctx), stop_event=threading.Event(), once=True)
        assert [(o.job_id, o.result) for o in outcomes] == [(job.id, "succeeded")], outcomes
        assert ctx.store.integrity_ok()
    finally:
        ctx.close()
