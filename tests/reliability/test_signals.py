"""Signals at any moment (issue 33): SIGTERM, SIGHUP and SIGINT at seeded random moments of `kctui serve`
during a compile, and of the app's start-up under a pseudo-terminal (some rounds close the terminal
instead: the kernel's SIGHUP). Every process exits within 2 s, none is left (the process's whole session
is gone), and no job is left `running`: the one the host was compiling was handed back for a retry
before the process exited (checked before any recovery runs). `kctui mcp` and `kctui worker` too."""

from __future__ import annotations

import fcntl
import os
import pty
import random
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from kctui.config import Settings
from kctui.services import bases, jobs
from kctui.services.context import ServiceContext

EXIT_WITHIN_S = 2.0
ROUNDS = 20
SEED = 3333
ENV = {"KCTUI_SCAN_INTERVAL": "0.2"}


def session_left(sid: int) -> list[int]:
    """Processes still in session `sid` (the child was its leader: everything it started is in it)."""
    left = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            stat = Path(f"/proc/{p}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split() if ")" in stat else []
        if len(fields) < 5:  # a process that is going away can read back empty: it is not left
            continue
        if int(fields[4]) == sid and fields[0] not in ("Z", "X"):
            left.append(int(p))
    return left


def wait_exit(pid: int, limit: float) -> tuple[float, int | None]:
    """Seconds until `pid` (a child) exited, and its wait status; (inf, None) when it did not."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return time.monotonic() - start, status
        time.sleep(0.01)
    return float("inf"), None


def running_jobs(svc: ServiceContext) -> list:
    return [j for j in jobs.list_jobs(svc, limit=10_000) if j.phase == "running"]


@pytest.fixture
def notes(workspace):
    """A base whose compile takes about a second here: the moments fall before, in and after it."""
    svc = ServiceContext.open(settings=Settings())
    _, base = bases.create_base(svc, workspace, "Signal notes")
    src = workspace / ".a3s/kb/bases" / base.id / "sources"
    for i in range(40):
        (src / f"n{i}.md").write_text(f"# Note {i}\n\n" + "".join(
            f"River {i}-{j} flows north. It is {j + 2} km long.\n" for j in range(25)))
    yield svc, base, src
    svc.close()


@pytest.mark.slow
def test_serve_exits_within_2s_of_a_signal_at_20_moments_of_a_compile(workspace, notes, tmp_path):
    svc, base, src = notes
    rng = random.Random(SEED)
    signals = [signal.SIGTERM, signal.SIGHUP, signal.SIGINT]
    seen = set()
    for n in range(ROUNDS):
        (src / "n0.md").write_text(f"# Note 0\n\nRiver zero is {n + 100} km long (round {n}).\n")
        log = tmp_path / f"serve-{n}.log"  # what the host said, for a failing round's message
        with open(log, "wb") as out:
            host = subprocess.Popen([sys.executable, "-m", "kctui", "serve", "--port", "0", "--no-watch"],
                                    stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                    env={**os.environ, **ENV})
        jobs.request_compile(svc, workspace, base.id)
        if n % 4 == 0:  # a moment of start-up: imports, the lock, recovery, the server, the first claim
            time.sleep(rng.uniform(0.0, 1.0))
        else:  # a moment of the compile or its promotion, counted from the host's first line
            deadline = time.monotonic() + 30
            while "listening on" not in log.read_text(errors="replace") and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rng.uniform(0.0, 1.2))
        phase = jobs.list_jobs(svc, limit=1)[0].phase
        sig = signals[n % len(signals)]
        host.send_signal(sig)
        took, status = wait_exit(host.pid, 10)
        seen.add(phase)
        said = log.read_text(errors="replace")[-1500:]
        assert took <= EXIT_WITHIN_S, f"round {n}: {sig.name} with the job {phase}: exit took {took:.2f} s\n{said}"
        assert not session_left(host.pid), f"round {n}: processes left {session_left(host.pid)}"
        assert not running_jobs(svc), f"round {n}: {sig.name} left a job running: {running_jobs(svc)}\n{said}"
        host.returncode = status  # reaped above
    assert "running" in seen, f"no signal fell during a compile: {seen}"


def _app_in_pty(env: dict[str, str]) -> tuple[int, int]:
    pid, master = pty.fork()
    if pid == 0:  # the child: session leader, the pty its controlling terminal
        try:
            os.execve(sys.executable, [sys.executable, "-m", "kctui"], env)
        finally:
            os._exit(127)
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    return pid, master


def _drain(master: int, stop: threading.Event) -> None:
    while not stop.is_set():
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                if not os.read(master, 1 << 16):
                    return
            except OSError:
                return


@pytest.mark.slow
def test_the_app_exits_within_2s_of_a_signal_at_20_moments_of_its_start_up_in_a_pty(workspace, notes, tmp_path):
    svc, base, src = notes
    env = {**os.environ, **ENV, "TERM": "xterm-256color"}
    env.pop("TEXTUAL", None)
    rng = random.Random(SEED + 1)
    hows = ["SIGTERM", "SIGHUP", "SIGINT", "close"]
    for n in range(ROUNDS):
        (src / "n0.md").write_text(f"# Note 0\n\nRiver zero is {n + 200} km long (round {n}).\n")
        jobs.request_compile(svc, workspace, base.id)  # the app's host compiles as soon as it is up
        pid, master = _app_in_pty(env)
        stop = threading.Event()
        reader = threading.Thread(target=_drain, args=(master, stop), daemon=True)
        reader.start()
        try:
            time.sleep(rng.uniform(0.0, 2.5))  # imports, Textual's start, the host's start and recovery, the compile
            how = hows[n % len(hows)]
            if how == "close":  # the terminal goes away: the kernel hangs up on the session
                stop.set()
                reader.join()
                os.close(master)
            else:
                os.kill(pid, getattr(signal, how))
            took, _status = wait_exit(pid, 10)
        finally:
            stop.set()
            if took == float("inf"):
                os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            try:
                os.close(master)
            except OSError:
                pass
        assert took <= EXIT_WITHIN_S, f"round {n}: {how}: the app took {took:.2f} s to exit"
        assert not session_left(pid), f"round {n}: {how}: processes left {session_left(pid)}"
        assert not running_jobs(svc), f"round {n}: {how} left a job running: {running_jobs(svc)}"


def _mcp_call_compile(proc: subprocess.Popen, workspace: Path, kb_id: str) -> None:
    """Speak just enough MCP (JSON-RPC lines on stdin) to start a compile the process runs itself."""
    import json  # noqa: PLC0415

    for message in (
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "compile_knowledge_base", "arguments": {"workspace": str(workspace), "knowledge_base": kb_id}}},
    ):
        proc.stdin.write((json.dumps(message) + "\n").encode())
        proc.stdin.flush()


@pytest.mark.slow
def test_mcp_exits_within_2s_of_a_signal_and_hands_its_compile_back(workspace, notes):
    svc, base, src = notes
    rng = random.Random(SEED + 2)
    signals = [signal.SIGTERM, signal.SIGHUP, signal.SIGINT]
    seen = set()
    for n in range(6):
        (src / "n0.md").write_text(f"# Note 0\n\nRiver zero is {n + 300} km long (round {n}).\n")
        proc = subprocess.Popen([sys.executable, "-m", "kctui", "mcp", str(workspace)], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            _mcp_call_compile(proc, workspace, base.id)
            if n % 3 == 0:  # a moment of start-up
                time.sleep(rng.uniform(0.0, 1.0))
            else:  # a moment of the compile this process runs itself (no host runs)
                deadline = time.monotonic() + 5
                while not running_jobs(svc) and time.monotonic() < deadline:
                    time.sleep(0.01)
                time.sleep(rng.uniform(0.0, 0.3))
            seen.update(j.phase for j in running_jobs(svc)[:1] or jobs.list_jobs(svc, limit=1))
            sig = signals[n % len(signals)]
            proc.send_signal(sig)
            took, _status = wait_exit(proc.pid, 10)
        finally:
            proc.stdin.close()
            if proc.poll() is None and took == float("inf"):
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)
        assert took <= EXIT_WITHIN_S, f"round {n}: {sig.name}: mcp took {took:.2f} s"
        assert not session_left(proc.pid), f"round {n}: processes left {session_left(proc.pid)}"
        assert not running_jobs(svc), f"round {n}: {sig.name} left a job running: {running_jobs(svc)}"
        proc.returncode = _status
    assert "running" in seen, f"no signal fell during the compile: {seen}"


@pytest.mark.slow
def test_a_worker_exits_within_2s_of_a_signal_and_its_job_is_handed_back(workspace, notes):
    svc, base, src = notes
    host = subprocess.Popen([sys.executable, "-m", "kctui", "serve", "--port", "0", "--no-worker", "--no-watch"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
                            env={**os.environ, **ENV})
    try:
        line = host.stdout.readline()
        url = line.strip().rsplit(" ", 1)[-1]
        assert url.startswith("http://127.0.0.1:"), line
        rng = random.Random(SEED + 3)
        phases = []
        for n, sig in enumerate([signal.SIGTERM, signal.SIGHUP, signal.SIGINT]):
            for i in range(40):  # every source changed: a pass long enough to be caught in
                (src / f"n{i}.md").write_text(f"# Note {i}\n\n" + "".join(
                    f"Lake {i}-{j} is {j + n} m deep (round {n}).\n" for j in range(25)))
            jobs.request_compile(svc, workspace, base.id)
            worker = subprocess.Popen([sys.executable, "-m", "kctui", "worker", "--url", url],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
            # claimed and compiling: the signal falls a random moment after the pass starts (counted from
            # the claim, not from the worker's start, so that a fast machine does not finish the pass first)
            deadline = time.monotonic() + 20
            while jobs.list_jobs(svc, limit=1)[0].phase == "queued" and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rng.uniform(0.0, 0.15))
            phase = jobs.list_jobs(svc, limit=1)[0].phase
            phases.append(phase)
            worker.send_signal(sig)
            took, status = wait_exit(worker.pid, 10)
            worker.returncode = status
            assert took <= EXIT_WITHIN_S, f"round {n}: {sig.name} with the job {phase}: worker took {took:.2f} s"
            assert not session_left(worker.pid)
            assert not running_jobs(svc), f"round {n}: {sig.name} left a job running"  # reported, not leased
        assert "running" in phases, phases
    finally:
        host.send_signal(signal.SIGTERM)
        host.wait(10)
        host.stdout.close()
