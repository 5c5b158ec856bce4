"""`kctui doctor [--fix] [--json]` (issue 33) on a state dir seeded with each kind of leftover: a staged
folder of a failed job, a review decision's folder, a parked old generation, a temporary file, the
content of a host lock whose host is gone, an interrupted promotion's journal; and, in a second test, a
host that holds the lock but is stopped (its lock on a base stuck with it) and an orphaned kctui
process. The report names each; `--fix` cleans the leftovers and never ends a process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kctui import paths
from kctui.cli import main
from kctui.publish.common import journal_path
from kctui.services import jobs, results
from kctui.services.local_transport import LocalTransport
from kctui.services.worker import run_worker
from tests.helpers import make_base

OLD = time.time() - 3600


def doctor(*args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(main, ["doctor", "--json", *args])
    return result.exit_code, json.loads(result.stdout)


def seed(svc, workspace) -> dict[str, Path]:
    """A compiled base plus one leftover of each kind a crash can leave."""
    base = make_base(svc, workspace, "Notes")
    jobs.request_compile(svc, workspace, base.id)
    [outcome] = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
    assert outcome.result == "succeeded"
    kb = paths.kb_path(workspace, base.id)
    (paths.sources_path(workspace, base.id) / "b.md").write_text("# B\n\nBeta.\n")
    jobs.request_compile(svc, workspace, base.id)
    _, job = jobs.claim(svc)
    (paths.staged_wiki(workspace, base.id, job.id) / "p.md").write_text("staged " * 100)
    results.report_result(svc, workspace, base.id, job.id, "failed", transient=False, error="x")
    review_folder = paths.output_root(workspace, base.id) / "review-1-1-1"
    review_folder.mkdir()
    (review_folder / "decision.json").write_text("{not json")
    old = kb / ".a3s" / "wiki-old-job-9-9"
    old.mkdir()
    (old / "index.md").write_text("old\n")
    temp = kb / ".a3s" / "cache" / ".x.json.abc.tmp"
    temp.parent.mkdir(parents=True, exist_ok=True)
    temp.write_text("half")
    os.utime(temp, (OLD, OLD))
    lock = paths.host_lock_file()
    lock.write_text("pid=999999999 role=kctui serve\n")
    journal_path(kb).write_text(json.dumps({"version": 1, "job_id": "job-8-8", "live_path": str(kb / "wiki"),
                                            "staged_path": str(kb / ".a3s/nowhere"), "backup_path": str(kb / ".a3s/nowhere2"),
                                            "staged_inode": 1, "live_inode": os.stat(kb / "wiki").st_ino}))
    return {"staged_output": paths.job_dir(workspace, base.id, job.id), "review_folder": review_folder,
            "old_generation": old, "temp_file": temp, "stale_lock": lock, "promotion_journal": kb / ".a3s"}


def test_doctor_reports_each_kind_of_leftover_and_fix_cleans_them(svc, workspace):
    seeded = seed(svc, workspace)
    wiki = paths.wiki_path(workspace, "notes")
    pages = sorted(p.name for p in wiki.rglob("*.md"))
    code, found = doctor()
    assert code == 1 and not found["ok"]
    kinds = {item["kind"]: item for item in found["leftovers"]}
    assert set(kinds) == set(seeded), kinds
    for kind, path in seeded.items():
        assert kinds[kind]["path"] == str(path), kind
    assert kinds["staged_output"]["bytes"] == 700 and kinds["staged_output"]["base"] == "notes"
    assert found["host"]["state"] == "stopped" and found["orphans"] == []
    [b] = found["bases"]
    assert b["id"] == "notes" and b["stagedBytes"] >= 700 and b["stateBytes"] >= b["stagedBytes"] and b["promotionPending"]

    code, fixed = doctor("--fix")
    # recovery settles the journal and the review folder (an unreadable decision never promoted) first
    assert {i["kind"] for i in fixed["fixed"]["removed"]} >= set(seeded) - {"promotion_journal", "review_folder"}
    assert "rolled back" in fixed["fixed"]["recovery"]  # the journal: settled by recovery
    assert code == 0 and fixed["ok"] and fixed["leftovers"] == [], fixed
    assert not any(p.exists() for k, p in seeded.items() if k not in ("stale_lock", "promotion_journal"))
    assert paths.host_lock_file().read_text() == "" and not journal_path(paths.kb_path(workspace, "notes")).exists()
    assert sorted(p.name for p in wiki.rglob("*.md")) == pages  # the promoted wiki untouched

    result = CliRunner().invoke(main, ["doctor"])  # the person's report
    assert result.exit_code == 0 and "ok: nothing left behind" in result.stdout
    assert "base notes" in result.stdout


STOPPED_HOST = textwrap.dedent("""
    import fcntl, os, sys, time
    from kctui.services.hostlock import HostLock
    lock = HostLock(role="kctui serve").acquire()
    lock.note_url("http://127.0.0.1:9")  # nothing answers there
    fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)  # a base's page-promotion lock, held
    print("ready", flush=True)
    time.sleep(60)
""")


@pytest.fixture
def stopped_host(svc, workspace):
    base = make_base(svc, workspace, "Held")
    page_lock = paths.kb_path(workspace, base.id) / ".a3s" / "page-promotion.lock"
    page_lock.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([sys.executable, "-c", STOPPED_HOST, str(page_lock)], stdout=subprocess.PIPE, text=True,
                            env={**os.environ})
    assert proc.stdout.readline().strip() == "ready"
    os.kill(proc.pid, signal.SIGSTOP)
    yield proc, page_lock
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(5)
    proc.stdout.close()


@pytest.fixture
def orphan():
    """A kctui process whose parent is gone (its shell exited: it was re-parented to pid 1)."""
    shell = subprocess.run(["sh", "-c", f'{sys.executable} -c "import time; time.sleep(60)" kctui-orphan </dev/null >/dev/null 2>&1 & echo $!'],
                           capture_output=True, text=True, timeout=10)
    pid = int(shell.stdout.strip())
    ppid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    if ppid != 1:
        os.kill(pid, signal.SIGKILL)
        pytest.skip(f"a subreaper (pid {ppid}) adopted the orphan here; doctor looks for pid 1's adoptees")
    yield pid
    os.kill(pid, signal.SIGKILL)


def test_doctor_names_a_silent_host_its_stuck_lock_and_an_orphan_and_fix_ends_no_process(svc, workspace, stopped_host,
                                                                                          orphan):
    proc, page_lock = stopped_host
    code, found = doctor()
    assert code == 1
    assert found["host"]["state"] == "not_answering" and found["host"]["pid"] == proc.pid, found["host"]
    assert "stopped" in found["host"]["detail"]
    stuck = {lk["path"]: lk for lk in found["locks"] if lk["stuck"]}
    assert str(page_lock) in stuck and stuck[str(page_lock)]["pid"] == proc.pid, found["locks"]
    assert [o["pid"] for o in found["orphans"]] == [orphan] and "kctui-orphan" in found["orphans"][0]["command"]
    assert not [i for i in found["leftovers"] if i["kind"] == "stale_lock"]  # a held lock is no leftover

    code, fixed = doctor("--fix")
    assert code == 1 and fixed["fixed"]["recovery"] is None  # a host holds the lock: collection only
    os.kill(orphan, 0)
    os.kill(proc.pid, 0)  # both still there: --fix never ends a process
    text = CliRunner().invoke(main, ["doctor"]).stdout
    assert f"kill {orphan}" in text and "not_answering" in text
