"""The CLI as a user runs it: real processes, JSON shaped like the protocol, one-line errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import assert_one_line_error, create_notes_kb, run


@pytest.fixture
def kb(workspace: Path) -> str:
    return create_notes_kb(workspace)


def test_compile_wait_end_to_end(workspace, kb):
    proc = run("compile", str(workspace), kb, "--wait", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    job = data["job"]
    assert job["phase"] == "succeeded" and job["trigger"] == "manual" and job["knowledgeBaseId"] == kb
    assert set(job) >= {"id", "knowledgeBaseId", "trigger", "phase", "sourceDigest", "createdAt", "startedAt",
                        "completedAt", "outputPath", "error"}
    assert job["createdAt"].endswith("Z")
    summary = data["knowledgeBase"]["compilation"]
    assert summary["lastCompiledDigest"] == job["sourceDigest"] and summary["phase"] == "succeeded"
    assert summary["stableWindowSeconds"] == 5 and summary["quietWindowSeconds"] == 30
    assert summary["minimumIntervalSeconds"] == 600
    wiki = workspace / ".a3s/kb/bases" / kb / "wiki"
    assert (wiki / "index.md").is_file()
    listing = json.loads(run("kb", "list", "--json", check=True).stdout)
    assert listing["total"] == 1 and listing["items"][0]["hasWiki"] is True
    jobs = json.loads(run("jobs", "--json", check=True).stdout)
    assert [j["phase"] for j in jobs["items"]] == ["succeeded"]
    status = json.loads(run("status", str(workspace), "--json", check=True).stdout)
    assert status["items"][0]["id"] == kb


def test_cancel_queued_job(workspace, kb):
    queued = json.loads(run("compile", str(workspace), kb, "--json", check=True).stdout)
    assert queued["job"]["phase"] == "queued"
    out = json.loads(run("cancel", str(workspace), kb, "--json", check=True).stdout)
    assert out["changed"] is True and out["job"]["phase"] == "cancelled"
    assert out["knowledgeBase"]["phase"] == "source_ready"


def test_policy_command(workspace, kb):
    out = json.loads(run("kb", "policy", str(workspace), kb, "--compilation", "smart_auto", "--json", check=True).stdout)
    assert out["changed"] is True and out["compilation"] == "smart_auto"


@pytest.mark.parametrize(
    "args, needles",
    [
        (("compile", "{ws}", "nope"), ("no knowledge base 'nope'",)),
        (("compile", "{ws}", "Not A Slug"), ("not a knowledge-base id",)),
        (("compile", "{ws}/missing", "my-notes"), ("/missing does not exist",)),
        (("compile", "{file}", "my-notes"), ("not monitored",)),
        (("search", "{ws}/missing", "my-notes", "foo"), ("/missing does not exist",)),
        (("kb", "create", "{ws}", "bad name/.."), ("must not contain a path separator",)),
        (("kb", "create", "{ws}", "up .. there"), ("must not contain '..'",)),
        (("compile", "{ws}", "my-notes", "--budget", "x"), ("No such option '--budget'", "compile --help")),
        (("context", "{ws}", "my-notes", "q", "--budget", "abc"), ("Invalid value for '--budget'",)),
        (("kb", "create"), ("Missing argument 'WORKSPACE'",)),
        (("--bogus",), ("No such option '--bogus'",)),
        (("cancel", "{ws}", "my-notes", "job-1-1"), ("no job 'job-1-1'",)),
        (("cancel", "{ws}", "my-notes", "../../x"), ("not a job id",)),
        (("kb", "create", "{file}", "X"), ("is not a directory",)),
        (("kb", "create", "{ws}/missing", "X"), ("does not exist",)),
        (("kb", "create", "{ws}", ""), ("name must not be empty",)),
        (("kb", "create", "{ws}", "Y", "--from", "{ws}/nothing-here"), ("does not exist",)),
    ],
)
def test_bad_input_is_one_clear_line(workspace, kb, args, needles):
    file = workspace / "plain-file"
    file.write_text("x")
    before = json.loads(run("status", "--json", check=True).stdout)
    proc = run(*(a.format(ws=workspace, file=file) for a in args))
    assert_one_line_error(proc, *needles)
    after = json.loads(run("status", "--json", check=True).stdout)
    assert before["items"] == after["items"], "bad input changes nothing"


def test_usage_errors_keep_their_status_and_help_stays_whole(workspace):
    assert run("compile", str(workspace), "x", "--bogus").returncode == 2
    shown = run("kb", "create", "--help")
    assert shown.returncode == 0 and shown.stdout.startswith("Usage:") and "--from" in shown.stdout
    bare = run("review")  # a group with no command shows its help, as before
    assert "Usage:" in bare.stdout + bare.stderr and "kctui: error" not in bare.stderr


def test_corrupt_database_is_reported_and_left_alone(state_dir, workspace):
    state_dir.mkdir(parents=True, exist_ok=True)
    db = state_dir / "kctui.sqlite3"
    garbage = b"this is not a database" * 100
    db.write_bytes(garbage)
    proc = run("status")
    assert_one_line_error(proc, "corrupt", str(db))
    assert db.read_bytes() == garbage, "nothing lost"


def test_read_only_state_directory(tmp_path, monkeypatch):
    ro = tmp_path / "ro-state"
    ro.mkdir()
    monkeypatch.setenv("KCTUI_STATE_DIR", str(ro))
    locked = False
    if shutil.which("chattr") and subprocess.run(["chattr", "+i", str(ro)], capture_output=True).returncode == 0:
        locked = True
    elif os.geteuid() != 0:
        ro.chmod(0o555)
    else:
        pytest.skip("cannot make a read-only folder here (root without chattr)")
    try:
        proc = run("kb", "list")
        assert_one_line_error(proc, "not writable", str(ro))
    finally:
        if locked:
            subprocess.run(["chattr", "-i", str(ro)], check=False)
        ro.chmod(0o755)


def test_second_host_is_told_who_holds_the_lock(state_dir):
    from kctui.services.hostlock import HostLock, HostLockHeld

    first = HostLock(role="kctui serve").acquire()
    try:
        with pytest.raises(HostLockHeld, match=f"pid={os.getpid()}|pid {os.getpid()}|{os.getpid()}"):
            HostLock(role="app").acquire()
    finally:
        first.release()
    HostLock().acquire().release()


def test_help_explains_commands():
    proc = run("--help", check=True)
    for cmd in ("kb", "compile", "cancel", "status", "jobs", "demo"):
        assert cmd in proc.stdout


def test_demo_no_tui(tmp_path):
    proc = run("demo", "--dir", str(tmp_path / "demo"), "--no-tui")
    assert proc.returncode == 0, proc.stderr
    assert "succeeded" in proc.stdout
    wiki = tmp_path / "demo" / ".a3s/kb/bases/demo-notes/wiki"
    assert (wiki / "index.md").is_file()


def test_compile_wait_after_a_host_died_mid_job_recovers_first_and_succeeds(workspace, kb):
    """A host killed mid-compile leaves its job `running`. `status` says it is interrupted, and a
    person's `compile --wait` recovers first and runs the requested compile now (not the retry in 5 min)."""
    from kctui.services import jobs as jobs_svc
    from kctui.services.context import ServiceContext

    run("compile", str(workspace), kb, check=True)
    svc = ServiceContext.open()
    claimed = jobs_svc.claim(svc)  # the built-in worker of a host that then died (no host lock is held)
    assert claimed is not None
    svc.close()
    status = run("status", check=True).stdout
    assert "interrupted (host stopped)" in status and "watcher: not running" in status
    assert "review         0 open items" in status
    data = json.loads(run("status", "--json", check=True).stdout)
    assert data["items"][0]["interrupted"] is True and data["items"][0]["openReviewItems"] == 0
    proc = run("compile", str(workspace), kb, "--wait", "--json")
    assert proc.returncode == 0, proc.stderr
    job = json.loads(proc.stdout)["job"]
    assert job["phase"] == "succeeded" and job["trigger"] == "manual"
    listed = json.loads(run("jobs", "--json", check=True).stdout)["items"]
    assert not [j for j in listed if j["phase"] in ("running", "queued")]
    assert [j["phase"] for j in listed if j["id"] == claimed[1].id] == ["failed"]
    assert "interrupted" not in run("status", check=True).stdout


def test_compile_wait_ends_with_one_line_of_counts(workspace, kb):
    """The last line says how the pass went in counts and where to read more; skipped files and
    warnings are not hidden behind a plain `✔ succeeded`."""
    src = workspace / ".a3s/kb/bases" / kb / "sources"
    (src / "blob.bin").write_bytes(b"\x00\x01\x02binary\x00" * 50)
    proc = run("compile", str(workspace), kb, "--wait")
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    brief = run("brief", str(workspace), kb, check=True).stdout
    skipped = brief.split("## Files skipped", 1)[1].split("##", 1)[0].count("\n* ")
    assert skipped >= 1
    assert " pages changed, 0 held, 0 conflicts, " in last, last
    assert f"{skipped} file{'s' if skipped != 1 else ''} skipped" in last and "warning" in last
    assert "⚠ succeeded with" in last
    assert f"read more: kctui brief {workspace.resolve()} {kb} job-" in last or f"read more: kctui brief {workspace} {kb} job-" in last


def test_compile_wait_whose_reader_went_away_still_compiles(workspace, kb):
    """`kctui compile … --wait 2>&1 | head -1`: the compile runs in this process; a closed pipe silences
    its progress, it never fails the job."""
    import sys

    r, w = os.pipe()
    os.close(r)  # nobody reads: the first progress line meets a broken pipe
    proc = subprocess.run([sys.executable, "-m", "kctui", "compile", str(workspace), kb, "--wait"], stdout=w, stderr=w,
                          timeout=60, env=os.environ.copy())
    os.close(w)
    jobs = json.loads(run("jobs", "--json", check=True).stdout)
    assert [j["phase"] for j in jobs["items"]] == ["succeeded"], (proc.returncode, jobs["items"][0]["error"])
