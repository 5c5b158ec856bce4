"""`compile --wait` as a service (kctui.services.compile_wait) and as the CLI shows it: this process is the
host when none runs, a running host is waited for, Ctrl-C leaves or cancels the job as it should, and the
service itself never prints."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from kctui.cli import main
from kctui.services import compile_wait
from kctui.services import jobs as jobs_svc
from kctui.services.compile_wait import WaitInterrupted, compile_and_wait, pass_outcome
from kctui.services.hostlock import HostLock
from tests.helpers import make_base


@pytest.fixture
def running_host():
    """Another process's host lock (a second lock on the file conflicts as another process's would)."""
    lock = HostLock(role="test host").acquire()
    yield lock
    lock.release()


def _ctrl_c(*_args, **_kwargs):
    raise KeyboardInterrupt


def _lock_is_free() -> bool:
    lock = HostLock(role="after")
    free = lock.try_acquire()
    lock.release()
    return free


def test_with_no_host_this_process_compiles_reports_progress_and_prints_nothing(svc, workspace, capsys):
    base = make_base(svc, workspace, files={"a.md": "# Alpha\n\nAlpha is the first letter.\n"})
    steps: list[tuple[str, str]] = []
    notes: list[str] = []
    changed, got, job = compile_and_wait(svc, str(workspace), base.id,
                                         progress=lambda j, e: steps.append((j, e.step)), note=notes.append)
    assert changed and got.id == base.id
    assert job is not None and job.phase == "succeeded", job
    assert {j for j, _ in steps} == {job.id}
    assert steps[0][1] == "gather" and "brief" in {s for _, s in steps}
    assert notes == []  # nothing to recover, nobody else to wait for
    assert capsys.readouterr() == ("", "")
    outcome = pass_outcome(svc, job)
    assert outcome.has_brief and outcome.counts is not None and outcome.counts["pages"] >= 1
    assert _lock_is_free()


def test_with_a_host_running_it_asks_and_waits_for_that_host(svc, workspace, running_host):
    base = make_base(svc, workspace)
    notes: list[str] = []

    def host_ends_the_job(line: str) -> None:  # the running host's part: here it cancels the job
        notes.append(line)
        jobs_svc.cancel(svc, str(workspace), base.id)

    _, _, job = compile_and_wait(svc, str(workspace), base.id, note=host_ends_the_job)
    assert job is not None and job.phase == "cancelled"
    assert notes == [f"a running kctui host is compiling {job.id}; waiting…"]


def test_ctrl_c_while_waiting_for_a_running_host_leaves_the_job_to_it(svc, workspace, running_host, monkeypatch):
    base = make_base(svc, workspace)
    monkeypatch.setattr(compile_wait, "time", SimpleNamespace(sleep=_ctrl_c))
    with pytest.raises(WaitInterrupted) as stopped:
        compile_and_wait(svc, str(workspace), base.id)
    assert not stopped.value.cancelled
    assert jobs_svc.get_job(svc, stopped.value.job_id).phase == "queued"


def test_ctrl_c_while_compiling_here_cancels_the_job_and_lets_the_lock_go(svc, workspace, monkeypatch):
    base = make_base(svc, workspace)

    class Interrupted:  # the worker thread, as seen from the main thread when Ctrl-C arrives
        def __init__(self, **_kwargs) -> None:
            self.joins = 0

        def start(self) -> None:
            pass

        def is_alive(self) -> bool:
            return True

        def join(self, _timeout: float) -> None:
            self.joins += 1
            if self.joins == 1:
                raise KeyboardInterrupt

    monkeypatch.setattr(compile_wait, "threading", SimpleNamespace(Thread=Interrupted, Event=threading.Event))
    with pytest.raises(WaitInterrupted) as stopped:
        compile_and_wait(svc, str(workspace), base.id)
    assert stopped.value.cancelled
    assert jobs_svc.get_job(svc, stopped.value.job_id).phase == "cancelled"
    assert _lock_is_free()


def test_the_cli_says_what_became_of_the_job_and_exits_130(svc, workspace, running_host, monkeypatch):
    base = make_base(svc, workspace)
    monkeypatch.setattr(compile_wait, "time", SimpleNamespace(sleep=_ctrl_c))
    result = CliRunner().invoke(main, ["compile", str(workspace), base.id, "--wait"])
    assert result.exit_code == 130, result.output
    job = jobs_svc.list_jobs(svc, limit=1)[0]
    assert result.stderr.splitlines() == [f"  a running kctui host is compiling {job.id}; waiting…", "",
                                          f"kctui: stopped waiting; {job.id} goes on in the running host"]
    assert result.stdout == ""
