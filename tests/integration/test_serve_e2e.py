"""End to end: `kctui serve` with short windows from the environment watches a smart_auto base,
compiles after an edit, pauses on a bulk deletion, and `kctui resume` queues one manual compile."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# Short windows, but a quiet window long enough that a loaded machine never lets a scan see half of the
# bulk deletion as "quiet" (the pause is judged against the snapshot of the last automatic job).
FAST = {"KCTUI_STABILITY_WINDOW": "0.3", "KCTUI_QUIET_WINDOW": "1.5", "KCTUI_AUTO_MIN_INTERVAL": "1",
        "KCTUI_SCAN_INTERVAL": "0.2"}


def kctui(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kctui", *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **FAST})


def jobs_now() -> list[dict]:
    return json.loads(kctui("jobs", "--json").stdout)["items"]


def wait_for(predicate, timeout: float = 20.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}; jobs: {jobs_now()}")


@pytest.fixture
def host(workspace: Path):
    proc = subprocess.Popen([sys.executable, "-m", "kctui", "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env={**os.environ, **FAST})
    line = proc.stdout.readline()
    assert "listening on http://127.0.0.1:" in line, line
    yield proc
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_serve_watches_compiles_pauses_and_resumes(workspace, host):
    src = workspace.parent / "seed"
    src.mkdir()
    for i in range(100):
        (src / f"note{i:03}.md").write_text(f"# Note {i}\n\nNote {i} is a number.\n")
    assert kctui("kb", "create", str(workspace), "Auto", "--policy", "smart_auto", "--from", str(src)).returncode == 0
    sources = workspace / ".a3s/kb/bases/auto/sources"

    def auto_succeeded(n):
        return lambda: len([j for j in jobs_now() if j["trigger"] == "smart_auto" and j["phase"] == "succeeded"]) >= n

    wait_for(auto_succeeded(1), what="the first automatic compile")
    (sources / "note000.md").write_text("# Note 0\n\nNote 0 changed.\n")
    wait_for(auto_succeeded(2), what="an automatic compile after the edit")
    assert len([j for j in jobs_now() if j["trigger"] == "smart_auto"]) == 2, "exactly one compile per change"

    for i in range(80):
        (sources / f"note{i:03}.md").unlink()
    reason = "automatic compilation paused because 80 of 100 source files disappeared"
    # a scan may catch the deletion half-way ("68 of 100"): the pause starts then, and its reason follows
    status = wait_for(lambda: (lambda s: s if s["items"][0]["compilation"]["pausedReason"] == reason else None)(
        json.loads(kctui("status", "--json").stdout)), what="the bulk-change pause")
    item = status["items"][0]
    assert item["phase"] == "paused"
    assert status["host"]["state"] == "running" and status["host"]["watcher"] in ("live", "polling")
    for key in ("sourceDigest", "pendingChanges", "nextAutoCompileAt", "pausedReason"):
        assert key in item["compilation"]
    assert "unstablePaths" in item["compilation"]
    time.sleep(1.5)
    assert len(jobs_now()) == 2, "paused: no job"

    resumed = kctui("resume", str(workspace), "auto", "--json")
    assert resumed.returncode == 0, resumed.stderr
    job_id = json.loads(resumed.stdout)["job"]["id"]
    wait_for(lambda: any(j["id"] == job_id and j["phase"] == "succeeded" for j in jobs_now()),
             what="the manual compile after resume")
    assert [j["trigger"] for j in jobs_now()].count("manual") == 1

    started = time.monotonic()
    host.send_signal(signal.SIGTERM)
    host.wait(timeout=5)
    assert time.monotonic() - started < 2.5, "stops within 2 s"
    assert not [j for j in jobs_now() if j["phase"] == "running"]


def test_sigterm_during_a_compile_leaves_no_job_running(workspace, host):
    src = workspace.parent / "big"
    src.mkdir()
    for i in range(300):
        (src / f"n{i:04}.md").write_text(f"# N {i}\n\n" + "word " * 2000)
    assert kctui("kb", "create", str(workspace), "Big", "--from", str(src)).returncode == 0
    assert kctui("compile", str(workspace), "big").returncode == 0
    wait_for(lambda: any(j["phase"] in ("running", "succeeded") for j in jobs_now()), what="the job to start")
    started = time.monotonic()
    host.send_signal(signal.SIGTERM)
    host.wait(timeout=5)
    assert time.monotonic() - started < 2.5
    assert not [j for j in jobs_now() if j["phase"] == "running"]
