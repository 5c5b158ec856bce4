"""QA session 30 #7: a kill -9 of the process running a pass (`kctui compile --wait`) left its extractor
pool's forkserver, resource tracker and workers alive for good (a worker holds the pipes the others wait
on). Each worker now watches the pass's process and exits when it is gone; here the pass's process is
killed ALONE (not its process group) and no process it started may survive. And `kctui doctor` names an
orphan and every process under it in one listing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kctui.services.doctor import orphans

POOL = """
import sys, threading, time, types
from kctui.compiler.builtin import extractor as bx
threading.Thread(target=time.sleep, args=(120,), daemon=True).start()  # a host runs threads: forkserver
pool = bx.BuiltinExtractor._new_pool(types.SimpleNamespace(_method=sys.argv[1]), 2)
futures = [pool.submit(time.sleep, 120) for _ in range(4)]
print("ready", flush=True)
time.sleep(120)
"""


def session_pids(sid: int) -> set[int]:
    """The live (not zombie) processes of session `sid`."""
    out = set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == sid and fields[0] not in ("Z", "X"):
            out.add(int(name))
    return out


def until(check, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return check()


@pytest.mark.parametrize("method", ["forkserver", "spawn", "fork"])
def test_a_kill_of_the_pass_process_leaves_no_pool_process_behind(method):
    proc = subprocess.Popen([sys.executable, "-c", POOL, method], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            start_new_session=True, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        # the workers (and, with forkserver or spawn, the server and the resource tracker) are up
        assert until(lambda: len(session_pids(proc.pid)) >= 3, 60), session_pids(proc.pid)
        started = session_pids(proc.pid) - {proc.pid}
        os.kill(proc.pid, signal.SIGKILL)  # the pass's process alone, as `kill -9 PID` does
        proc.wait(10)
        assert until(lambda: not session_pids(proc.pid), 30), (
            f"{method}: still alive after the kill: {sorted(session_pids(proc.pid))} of {sorted(started)}")
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.stdout.close()


TREE = ("import subprocess, sys, time; "
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); time.sleep(60)")


def test_doctor_names_an_orphan_and_every_process_under_it_at_once(tmp_path, monkeypatch):
    monkeypatch.setenv("KCTUI_STATE_DIR", str(tmp_path / "state"))
    shell = subprocess.run(["sh", "-c", f'{sys.executable} -c "{TREE}" kctui-orphan </dev/null >/dev/null 2>&1 & echo $!'],
                           capture_output=True, text=True, timeout=10, env=dict(os.environ))
    root = int(shell.stdout.strip())
    try:
        ppid = int(Path(f"/proc/{root}/stat").read_text().rsplit(")", 1)[1].split()[1])
        if ppid != 1:
            pytest.skip(f"a subreaper (pid {ppid}) adopted the orphan here; doctor looks for pid 1's adoptees")
        assert until(lambda: any(o["pid"] != root for o in orphans(None)), 20)
        found = orphans(None)
        assert found[0]["pid"] == root and "kctui-orphan" in found[0]["command"]
        child = found[1]
        assert child["parent"] == root and "kctui" not in child["command"]  # named although its command is not kctui's
    finally:
        for o in orphans(None):
            try:
                os.kill(o["pid"], signal.SIGKILL)
            except ProcessLookupError:
                pass
