"""Issue 14's kill -9 loop: start `kctui serve`, request a compile, SIGKILL the host at a random
moment (before it claims the job, while it compiles, while it promotes, after it finished), then run a
person's `kctui compile --wait`. Every round must exit 0 with a succeeded manual job and leave no job
running or queued: the wait recovers what the dead host left and runs the requested compile now,
ahead of the retry the recovery scheduled.

A small base (a handful of notes, one edited every round so each round has something to compile) keeps
the 25 rounds to about a minute; the moments come from a seeded random, so a failure replays."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kctui.config import Settings
from kctui.services import bases, jobs
from kctui.services.context import ServiceContext

ROUNDS = 25
SEED = 1414
KILL_WITHIN_S = (0.0, 0.8)  # the host's compile of this base takes a few hundred ms
ENV = {"KCTUI_SCAN_INTERVAL": "0.2"}


def kctui(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kctui", *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **ENV})


def start_host() -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "kctui", "serve", "--port", "0", "--no-watch"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, **ENV})
    line = proc.stdout.readline()
    assert "listening on http://127.0.0.1:" in line, line
    return proc


@pytest.mark.slow
def test_kill_9_the_host_then_compile_wait_succeeds_every_round(workspace: Path):
    rng = random.Random(SEED)
    svc = ServiceContext.open(settings=Settings())
    _, base = bases.create_base(svc, workspace, "Kill notes")
    sources = workspace / ".a3s/kb/bases" / base.id / "sources"
    for i in range(6):
        (sources / f"note{i}.md").write_text(f"# Note {i}\n\nRiver {i} flows north. It is {i + 3} km long.\n")
    moments = []
    for n in range(ROUNDS):
        (sources / f"note{n % 6}.md").write_text(f"# Note {n % 6}\n\nRiver {n % 6} flows north. "
                                                f"It is {n + 10} km long (round {n}).\n")
        host = start_host()
        try:
            _, _, requested = jobs.request_compile(svc, workspace, base.id)
            assert requested is not None
            delay = rng.uniform(*KILL_WITHIN_S)
            time.sleep(delay)
            phase_at_kill = jobs.get_job(svc, requested.id).phase
            moments.append((round(delay, 3), phase_at_kill))
        finally:
            host.send_signal(signal.SIGKILL)
            host.wait(10)
            host.stdout.close()
        proc = kctui("compile", str(workspace), base.id, "--wait", "--json")
        assert proc.returncode == 0, f"round {n} (killed after {delay:.3f} s, job {phase_at_kill}): {proc.stderr}"
        job = json.loads(proc.stdout)["job"]
        assert job["phase"] == "succeeded", f"round {n}: {job}"
        assert job["trigger"] == "manual"
        left = [j for j in jobs.list_jobs(svc, limit=1000) if j.phase in ("running", "queued")]
        assert not left, f"round {n}: left behind {[(j.id, j.phase, j.trigger) for j in left]}"
        # the wiki the wait promoted is the newest source state
        assert bases.get_base(svc, workspace, base.id).last_compiled_digest == job["sourceDigest"]
    svc.close()
    # the seeded moments cover a kill before the claim and one while the job ran
    phases = {p for _, p in moments}
    assert "running" in phases and ({"queued", "succeeded"} & phases), moments
