"""Restart recovery without a person (host.md §5 "ours", §7; issue 2 acceptance).

- A built-in job whose process is killed while it runs: the next host's `recover_at_startup` fails it
  as transient with code `compiler_crashed` and queues a retry 300 s later (fake clock); once the
  clock passes that, the retry is claimed and succeeds end to end.
- An externally claimed job keeps its lease across the restart and fails as `lease_expired`
  (transient, retried) once the lease has passed.
- A promotion killed at every step during a real `report_result` is finished at restart (the job is
  recorded as succeeded) or rolled back (the job is retried); `wiki/` is always exactly the old or the
  new generation, never missing or mixed.
"""

from __future__ import annotations

import os
import signal
import threading
import traceback
from pathlib import Path

import pytest

from kctui import paths
from kctui.config import Settings
from kctui.core.clock import US, FakeClock
from kctui.core.models import CLAIMED_BY_BUILTIN, CLAIMED_BY_EXTERNAL
from kctui.publish.promote import CRASH_ENV, STEPS, exchange_available, journal_path
from kctui.services import bases, jobs, recovery, results
from kctui.services.context import ServiceContext
from kctui.services.local_transport import LocalTransport
from kctui.services.worker import run_worker

START_US = 1_780_000_000 * US
LEASE_S = Settings().lease_seconds


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KCTUI_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("KCTUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv(CRASH_ENV, raising=False)
    ws = tmp_path / "ws"
    ws.mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "note.md").write_text("# A note\n\nSome text.\n")
    (tmp_path / "src" / "other.txt").write_text("plain text\n")
    return ws


def open_ctx(t_us: int) -> ServiceContext:
    """A host (or a CLI command) starting at fake time `t_us`, with default settings."""
    return ServiceContext.open(clock=FakeClock(t_us), settings=Settings())


def in_killed_child(fn) -> None:
    """Run `fn()` in a forked child that then SIGKILLs itself (a crash right after `fn`); `fn` may also
    kill the child earlier (a promotion crash hook). Assert the child died by SIGKILL, not otherwise."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never returns into pytest
        os.close(r)
        try:
            fn()
        except BaseException:  # noqa: BLE001
            os.write(w, traceback.format_exc().encode())
            os._exit(3)
        os.kill(os.getpid(), signal.SIGKILL)
        os._exit(4)  # not reached
    os.close(w)
    with os.fdopen(r, "rb") as pipe:
        report = pipe.read().decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, f"child ended {status}:\n{report}"


def make_base(ws: Path, src: Path) -> str:
    ctx = open_ctx(START_US)
    try:
        _created, base = bases.create_base(ctx, ws, "Notes", from_paths=[str(src)])
        return base.id
    finally:
        ctx.close()


def stage_tree(ws: Path, kb_id: str, job_id: str) -> dict[str, bytes]:
    """Write a small valid generation of `job_id` into the job's staged folder; return its files."""
    files = {
        "index.md": f"# Index of {job_id}\n".encode(),
        "a.md": f"---\ntype: Note\njob: {job_id}\n---\nfirst page of {job_id}\n".encode(),
        "sub/b.md": f"---\ntype: Note\njob: {job_id}\n---\nsecond page of {job_id}\n".encode(),
    }
    staged = paths.staged_wiki(Path(ws), kb_id, job_id)
    for rel, data in files.items():
        (staged / rel).parent.mkdir(parents=True, exist_ok=True)
        (staged / rel).write_bytes(data)
    return files


def snapshot(root: Path) -> dict[str, bytes] | None:
    if not os.path.lexists(root):
        return None
    assert root.is_dir() and not root.is_symlink()
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def running_jobs(ctx: ServiceContext) -> list[str]:
    return [r[0] for r in ctx.store.query("SELECT id FROM jobs WHERE phase = 'running'")]


def queued_retry(ctx: ServiceContext, kb_id: str):
    rows = ctx.store.query("SELECT id, trigger, not_before FROM jobs WHERE base_id = ? AND phase = 'queued'", (kb_id,))
    assert len(rows) == 1, [tuple(r) for r in rows]
    return rows[0]


def test_orphaned_builtin_job_is_failed_and_retried_without_a_person(env: Path) -> None:
    ws, kb = env, make_base(env, env.parent / "src")
    ctx = open_ctx(START_US)
    _changed, _base, job = jobs.request_compile(ctx, ws, kb)
    ctx.close()
    assert job is not None

    def host_claims_then_dies() -> None:
        c = open_ctx(START_US + 1 * US)
        got = jobs.claim(c, claimed_by=CLAIMED_BY_BUILTIN)
        assert got is not None and got[1].id == job.id

    in_killed_child(host_claims_then_dies)

    restart = START_US + 60 * US
    ctx = open_ctx(restart)
    try:
        assert running_jobs(ctx) == [job.id]  # the crash left it running, blocking every claim
        assert jobs.claim(ctx) is None
        report = recovery.recover_at_startup(ctx)
        assert report.jobs_failed == [job.id] and not report.leases_kept
        failed = jobs.get_job(ctx, job.id)
        assert (failed.phase, failed.transient, failed.error_code) == ("failed", 1, "compiler_crashed")
        assert failed.completed_at == restart
        assert running_jobs(ctx) == []
        retry = queued_retry(ctx, kb)
        assert retry["trigger"] == "retry" and retry["not_before"] == restart + 300 * US
        base = bases.get_base(ctx, ws, kb)
        assert base.retry_attempts == 1 and base.active_job_id is None and base.last_error_code == "compiler_crashed"

        assert recovery.recover_at_startup(ctx).jobs_failed == []  # idempotent
        ctx.clock.advance(299)
        assert jobs.claim(ctx) is None  # not before its time
        ctx.clock.advance(1)
        outcomes = run_worker(LocalTransport(ctx), stop_event=threading.Event(), once=True)
        assert [(o.job_id, o.result) for o in outcomes] == [(retry["id"], "succeeded")], outcomes
        done = jobs.get_job(ctx, retry["id"])
        assert done.phase == "succeeded" and done.trigger == "retry"
        base = bases.get_base(ctx, ws, kb)
        assert base.phase == "succeeded" and base.retry_attempts == 0 and base.last_error is None
        wiki = snapshot(paths.wiki_path(ws, kb))
        assert wiki and any(name.endswith(".md") and name != "index.md" for name in wiki)
    finally:
        ctx.close()


def test_external_job_keeps_its_lease_across_restart_then_expires(env: Path) -> None:
    ws, kb = env, make_base(env, env.parent / "src")
    ctx = open_ctx(START_US)
    _changed, _base, job = jobs.request_compile(ctx, ws, kb)
    ctx.close()
    claimed_at = START_US + 5 * US

    def external_claims_then_host_dies() -> None:
        c = open_ctx(claimed_at)
        got = jobs.claim(c, claimed_by=CLAIMED_BY_EXTERNAL)
        assert got is not None and got[1].id == job.id

    in_killed_child(external_claims_then_host_dies)
    lease_end = claimed_at + int(LEASE_S * US)

    ctx = open_ctx(START_US + 60 * US)
    try:
        report = recovery.recover_at_startup(ctx)
        assert report.leases_kept == [job.id] and report.jobs_failed == []
        kept = jobs.get_job(ctx, job.id)
        assert kept.phase == "running" and kept.claimed_by == "external" and kept.lease_expires_at == lease_end
        assert recovery.expire_leases(ctx) == []
        # Another restart just before the lease ends still keeps it.
        ctx.clock.t = lease_end - 1
        assert recovery.recover_at_startup(ctx).leases_kept == [job.id]
        assert recovery.expire_leases(ctx) == []
        assert jobs.get_job(ctx, job.id).phase == "running"

        ctx.clock.t = lease_end
        assert recovery.expire_leases(ctx) == [job.id]
        expired = jobs.get_job(ctx, job.id)
        assert (expired.phase, expired.transient, expired.error_code) == ("failed", 1, "lease_expired")
        assert running_jobs(ctx) == []
        retry = queued_retry(ctx, kb)
        assert retry["trigger"] == "retry" and retry["not_before"] == lease_end + 300 * US
        assert recovery.expire_leases(ctx) == []
        # The late external compiler's result is refused; nothing changes.
        from kctui.services.errors import Conflict  # noqa: PLC0415

        with pytest.raises(Conflict):
            results.report_result(ctx, ws, kb, job.id, "failed", transient=True, error="late")
        assert jobs.get_job(ctx, job.id).error_code == "lease_expired"
    finally:
        ctx.close()


def test_restart_after_the_lease_passed_fails_the_external_job(env: Path) -> None:
    ws, kb = env, make_base(env, env.parent / "src")
    ctx = open_ctx(START_US)
    _changed, _base, job = jobs.request_compile(ctx, ws, kb)
    ctx.close()
    in_killed_child(lambda: jobs.claim(open_ctx(START_US), claimed_by=CLAIMED_BY_EXTERNAL))
    ctx = open_ctx(START_US + int(LEASE_S * US) + 1)
    try:
        report = recovery.recover_at_startup(ctx)
        assert report.jobs_failed == [job.id] and report.leases_kept == []
        assert jobs.get_job(ctx, job.id).error_code == "lease_expired"
        assert queued_retry(ctx, kb)["trigger"] == "retry"
    finally:
        ctx.close()


# -- promotion interrupted inside a real report_result --------------------------------------------

def _steps(generation: str) -> list[str]:
    if generation == "first":
        skip = {"swapped", "renamed_live_to_backup"}
    elif exchange_available():
        skip = {"renamed_live_to_backup", "renamed_staged_to_live"}
    else:
        skip = {"swapped"}
    return [s for s in STEPS if s not in skip]


# Where the kill falls relative to the transaction that records the success:
# before the swap → rolled back, the job fails as crashed and is retried;
# after the swap but before COMMIT → recovery finishes it and records the success;
# in the clean-up after COMMIT → the success is already recorded.
NEW_AFTER = {"swapped", "renamed_live_to_backup", "renamed_staged_to_live", "parent_fsynced",
             "old_deleted", "journal_deleted"}


@pytest.mark.parametrize(("generation", "step"), [
    pytest.param(g, s, id=f"{g}-{s}") for g in ("replace", "first") for s in _steps(g)
])
def test_promotion_killed_in_report_result_is_settled_at_restart(env: Path, generation: str, step: str) -> None:
    ws, kb = env, make_base(env, env.parent / "src")
    ctx = open_ctx(START_US)
    old_files = None
    try:
        if generation == "replace":  # one good generation first
            _c, _b, first = jobs.request_compile(ctx, ws, kb)
            assert jobs.claim(ctx) is not None
            old_files = stage_tree(ws, kb, first.id)
            assert results.report_result(ctx, ws, kb, first.id, "succeeded")[2].phase == "succeeded"
            assert snapshot(paths.wiki_path(ws, kb)) == old_files
        ctx.clock.advance(10)
        _c, _b, job = jobs.request_compile(ctx, ws, kb)
        got = jobs.claim(ctx)
        assert got is not None and got[1].id == job.id
        new_files = stage_tree(ws, kb, job.id)
    finally:
        ctx.close()

    def report_and_die() -> None:
        os.environ[CRASH_ENV] = step
        c = open_ctx(START_US + 20 * US)
        results.report_result(c, ws, kb, job.id, "succeeded")

    in_killed_child(report_and_die)
    assert CRASH_ENV not in os.environ

    wiki = paths.wiki_path(ws, kb)
    assert snapshot(wiki) in (old_files, new_files)  # even before recovery: never missing or mixed
    restart = START_US + 30 * US
    ctx = open_ctx(restart)
    try:
        report = recovery.recover_at_startup(ctx)
        assert not journal_path(paths.kb_path(ws, kb)).exists()
        assert not journal_path(paths.kb_path(ws, kb)).with_name("promotion.json.tmp").exists()
        assert running_jobs(ctx) == []
        after = jobs.get_job(ctx, job.id)
        if step in NEW_AFTER:
            assert snapshot(wiki) == new_files
            assert after.phase == "succeeded"
            assert bases.get_base(ctx, ws, kb).phase == "succeeded"
            if step in ("swapped", "renamed_live_to_backup", "renamed_staged_to_live", "parent_fsynced"):
                assert report.promotions_finished == [job.id]
            assert not ctx.store.query("SELECT 1 FROM jobs WHERE phase = 'queued'")
            return
        assert snapshot(wiki) == old_files  # rolled back: the previous generation (or still none)
        assert (after.phase, after.transient, after.error_code) == ("failed", 1, "compiler_crashed")
        assert report.jobs_failed == [job.id]
        retry = queued_retry(ctx, kb)
        assert retry["not_before"] == restart + 300 * US
        ctx.clock.advance(300)
        got = jobs.claim(ctx)
        assert got is not None and got[1].id == retry["id"]
        retry_files = stage_tree(ws, kb, retry["id"])
        assert results.report_result(ctx, ws, kb, retry["id"], "succeeded")[2].phase == "succeeded"
        assert snapshot(wiki) == retry_files
        assert not journal_path(paths.kb_path(ws, kb)).exists()
    finally:
        ctx.close()
