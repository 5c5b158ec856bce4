"""Benchmark: request → claim → result cycles per second through the services vs raw sqlite3.

    python benchmarks/job_queue.py                  # 3,000 timed cycles of each loop
    python benchmarks/job_queue.py --cycles 500     # a quicker run
    python benchmarks/job_queue.py --profile        # also print where the services spend their time
    python benchmarks/job_queue.py --dir /dev/shm   # on tmpfs: no fsync cost, so only CPU overhead shows

The loops run in this process, in the same run, on a real database file in a temporary state
directory with the same schema (the store's migrations) and the same pragmas (WAL,
`synchronous=FULL`, foreign keys, busy timeout), one knowledge base, one job per cycle:

services  request  a `store.write()` transaction (`BEGIN IMMEDIATE`) running the services' enqueue
                   path: `jobs.insert_job` (next sequence number + INSERT) and the base update
                   (`records.update_base`) — the job and base rows `request_compile` writes, without
                   its source scan and snapshot row (file I/O, measured by benchmarks/scan.py;
                   `--scan` makes the request a real `request_compile` on a one-file base);
          claim    `jobs.claim(ctx)`: its one UPDATE … RETURNING, the base update, and the job folder
                   it must prepare (`<job>/wiki`, a mkdir the raw loop does not do);
          result   `results.report_result(..., "failed", transient=False)`: a permanent failure, so
                   no validation or promotion I/O (those are measured by the promotion tests).
raw       request  BEGIN IMMEDIATE; bump the job sequence (UPSERT … RETURNING); INSERT job; UPDATE base;
                   COMMIT
          claim    BEGIN IMMEDIATE; UPDATE jobs … WHERE id = (SELECT … ORDER BY … LIMIT 1) RETURNING *;
                   UPDATE base; COMMIT
          result   BEGIN IMMEDIATE; UPDATE job; UPDATE base; COMMIT

The same rows change in both loops; the ratio services/raw is the figure (goal: ≥ 0.5). A third loop,
"raw+dirs", is raw plus the two mkdirs of the job folder inside the claim transaction, as the claim
service does: on a journaling filesystem the new folders ride on the next fsync, and this line shows
how much of the gap that is. The loops alternate in blocks of --block cycles, so load from other
processes falls on all of them alike.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

GOAL = 0.5


def _setup_env(root: Path) -> None:
    os.environ["KCTUI_STATE_DIR"] = str(root / "state")
    os.environ["KCTUI_CONFIG_DIR"] = str(root / "config")


class ServicesLoop:
    """One request → claim → result cycle through the services, on its own knowledge base."""

    name = "services"

    def __init__(self, root: Path, *, scan: bool = False) -> None:
        from kctui.config import Settings
        from kctui.core.models import BasePhase, Trigger
        from kctui.services import bases, jobs, results
        from kctui.services.context import ServiceContext
        from kctui.store.records import load_base, update_base

        ws_dir = root / "ws-services"
        ws_dir.mkdir()
        (root / "src").mkdir(exist_ok=True)
        (root / "src" / "note.md").write_text("# A note\n")
        self.ctx = ctx = ServiceContext.open(settings=Settings())
        _created, base = bases.create_base(ctx, ws_dir, "Bench", from_paths=[str(root / "src" / "note.md")])
        ws, kb = base.workspace, base.id
        digest = "sha256:" + "0" * 64

        def request() -> None:
            if scan:
                jobs.request_compile(ctx, ws, kb)
                return
            now = ctx.now()
            with ctx.store.write() as conn:
                b = load_base(conn, ws, kb)
                jobs.insert_job(conn, b, Trigger.MANUAL, digest, now)
                update_base(conn, ws, kb, now, phase=BasePhase.QUEUED.value, source_digest=digest,
                            last_requested_at=now, paused_reason=None, retry_attempts=0, change_detected_at=None)

        def cycle() -> None:
            request()
            got = jobs.claim(ctx)
            assert got is not None
            results.report_result(ctx, ws, kb, got[1].id, "failed", transient=False, error="bench")

        self.cycle = cycle

    def close(self) -> None:
        self.ctx.close()


class RawLoop:
    """The same cycle through raw sqlite3: same schema, pragmas, transactions and row changes."""

    name = "raw"

    def __init__(self, root: Path, *, job_dirs: bool = False) -> None:
        from kctui.store.db import BUSY_TIMEOUT_MS, Store

        self.name = "raw+dirs" if job_dirs else "raw"
        path = root / f"{self.name}.sqlite3"
        out_root = root / f"ws-{self.name}" / ".a3s" / "kb" / "bases" / "bench" / ".a3s" / "compilation-output"
        if job_dirs:
            out_root.mkdir(parents=True)
        Store.open(path).close()  # the same schema, from the same migrations
        self.conn = conn = sqlite3.connect(str(path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        assert conn.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal"
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        ws, kb, digest = "/bench/ws", "bench", "sha256:" + "0" * 64
        t0 = time.time_ns() // 1000
        conn.execute("INSERT INTO workspaces(path, added_at) VALUES (?, ?)", (ws, t0))
        conn.execute("INSERT INTO bases(workspace, id, name, created_at, updated_at) VALUES (?, ?, 'Bench', ?, ?)",
                     (ws, kb, t0, t0))
        pid = os.getpid()

        def cycle() -> None:
            now = time.time_ns() // 1000
            conn.execute("BEGIN IMMEDIATE")
            seq = conn.execute("INSERT INTO sequences(name, value) VALUES ('job', 1) "
                               "ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value").fetchone()[0]
            conn.execute(
                "INSERT INTO jobs(id, workspace, base_id, trigger, priority, phase, source_digest, created_at) "
                "VALUES (?, ?, ?, 'manual', 0, 'queued', ?, ?)", (f"job-{now}-{seq}", ws, kb, digest, now))
            conn.execute("UPDATE bases SET phase = 'queued', source_digest = ?, last_requested_at = ?, "
                         "updated_at = ? WHERE workspace = ? AND id = ?", (digest, now, now, ws, kb))
            conn.execute("COMMIT")

            now = time.time_ns() // 1000
            conn.execute("BEGIN IMMEDIATE")
            row = conn.execute(
                """UPDATE jobs SET phase = 'running', started_at = :now, claimed_by = 'builtin', claim_pid = :pid,
                       lease_expires_at = :lease
                   WHERE id = (
                       SELECT j.id FROM jobs j JOIN workspaces w ON w.path = j.workspace
                       WHERE j.phase = 'queued' AND (j.not_before IS NULL OR j.not_before <= :now)
                         AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.phase = 'running')
                       ORDER BY j.priority, j.created_at, j.id LIMIT 1)
                   RETURNING *""", {"now": now, "pid": pid, "lease": now + 3_600_000_000}).fetchone()
            assert row is not None
            jid = row[0]
            conn.execute("UPDATE bases SET phase = 'running', active_job_id = ?, updated_at = ? "
                         "WHERE workspace = ? AND id = ?", (jid, now, ws, kb))
            if job_dirs:  # the same `<job>/wiki` folder the claim service prepares, in the same place
                jdir = os.path.join(out_root, jid)
                os.mkdir(jdir)
                os.mkdir(os.path.join(jdir, "wiki"))
            conn.execute("COMMIT")

            now = time.time_ns() // 1000
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("UPDATE jobs SET phase = 'failed', completed_at = ?, error = 'bench', error_code = "
                         "'compiler_reported', transient = 0 WHERE id = ? AND phase = 'running'", (now, jid))
            conn.execute("UPDATE bases SET phase = 'failed', last_failed_at = ?, last_error = 'bench', "
                         "last_error_code = 'compiler_reported', retry_attempts = 0, follow_up = 0, "
                         "active_job_id = NULL, updated_at = ? WHERE workspace = ? AND id = ?", (now, now, ws, kb))
            conn.execute("COMMIT")

        self.cycle = cycle

    def close(self) -> None:
        self.conn.close()


def run_blocks(loops: list, cycles: int, block: int) -> dict[str, float]:
    """Alternate blocks of `block` cycles between the loops (so background noise hits both alike);
    return cycles per second of each over `cycles` timed cycles."""
    for loop in loops:  # warm-up
        for _ in range(min(50, cycles)):
            loop.cycle()
    spent = {loop.name: 0.0 for loop in loops}
    done = 0
    while done < cycles:
        n = min(block, cycles - done)
        for loop in loops:
            cycle = loop.cycle
            started = time.perf_counter()
            for _ in range(n):
                cycle()
            spent[loop.name] += time.perf_counter() - started
        done += n
    return {name: cycles / seconds for name, seconds in spent.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cycles", type=int, default=3000, help="timed cycles of each loop (default 3000)")
    parser.add_argument("--block", type=int, default=100, help="cycles per block; the loops alternate blocks")
    parser.add_argument("--scan", action="store_true", help="request through request_compile (with its scan)")
    parser.add_argument("--profile", action="store_true", help="cProfile the services loop afterwards")
    parser.add_argument("--dir", default=None, help="where to make the temporary state (default: system temp)")
    args = parser.parse_args(argv)

    root = Path(tempfile.mkdtemp(prefix="kctui-bench-queue-", dir=args.dir))
    loops: list = []
    try:
        _setup_env(root)
        loops = [RawLoop(root), ServicesLoop(root, scan=args.scan), RawLoop(root, job_dirs=True)]
        rates = run_blocks(loops, args.cycles, args.block)
        s, r, rd = rates["services"], rates["raw"], rates["raw+dirs"]
        ratio = s / r
        request = "request_compile (with its source scan)" if args.scan else "insert_job + base update (no scan)"
        print(f"{args.cycles} cycles each, alternating blocks of {args.block}; request via {request}; "
              "result: permanent failure (no promotion)")
        print(f"services  {s:8.0f} cycles/s  {1e3 / s:6.3f} ms/cycle")
        print(f"raw       {r:8.0f} cycles/s  {1e3 / r:6.3f} ms/cycle")
        print(f"ratio     {ratio:8.2f}            goal >= {GOAL}: {'met' if ratio >= GOAL else 'NOT met'}")
        print(f"(for reference: raw + the claim's two mkdirs of <job>/wiki  {rd:6.0f} cycles/s  "
              f"{1e3 / rd:6.3f} ms/cycle; services / that = {s / rd:.2f})")
        if args.profile:
            prof = cProfile.Profile()
            services = loops[1]
            prof.enable()
            for _ in range(args.cycles):
                services.cycle()
            prof.disable()
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(25)
            print(out.getvalue())
        return 0
    finally:
        for loop in loops:
            loop.close()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
