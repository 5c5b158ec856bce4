"""The queue through the services and a real store, with a fake clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from kctui import paths
from kctui.core.models import CLAIMED_BY_EXTERNAL
from kctui.services import bases, jobs, results
from kctui.services.errors import Conflict, InvalidInput, NotFound
from kctui.store.records import load_base
from tests.helpers import make_base, write_staged_page


def claim_and_report(svc, ws: Path, outcome="succeeded", **kw):
    claimed = jobs.claim(svc)
    assert claimed is not None
    base, job = claimed
    if outcome == "succeeded":
        write_staged_page(ws, base.id, job.id)
    return results.report_result(svc, ws, base.id, job.id, outcome, **kw)


def test_request_claim_result_promotes(svc, workspace):
    base = make_base(svc, workspace)
    changed, b, job = jobs.request_compile(svc, workspace, base.id)
    assert changed and b.phase == "queued" and job.trigger == "manual" and job.source_digest.startswith("sha256:")
    b2, claimed = jobs.claim(svc)
    assert claimed.id == job.id and claimed.phase == "running" and b2.phase == "running" and b2.active_job_id == job.id
    assert paths.staged_wiki(workspace, base.id, job.id).is_dir()
    write_staged_page(workspace, base.id, job.id, body="generation one")
    _, b3, j3 = results.report_result(svc, workspace, base.id, job.id, "succeeded", compiler_version="")
    assert j3.phase == "succeeded" and j3.compiler_version == "1"
    assert b3.phase == "succeeded" and b3.last_compiled_digest == job.source_digest and b3.active_job_id is None
    assert "generation one" in (paths.wiki_path(workspace, base.id) / "page.md").read_text()


def test_second_claim_while_one_runs_gets_nothing(svc, workspace):
    a = make_base(svc, workspace, "A")
    b = make_base(svc, workspace, "B")
    jobs.request_compile(svc, workspace, a.id)
    jobs.request_compile(svc, workspace, b.id)
    assert jobs.claim(svc) is not None
    assert jobs.claim(svc) is None


def test_claim_order_across_two_workspaces(svc, clock, tmp_path):
    ws1, ws2 = tmp_path / "w1", tmp_path / "w2"
    ws1.mkdir(), ws2.mkdir()
    ws1, ws2 = ws1.resolve(), ws2.resolve()
    auto = make_base(svc, ws1, "Auto")
    retry = make_base(svc, ws2, "Retry")
    manual = make_base(svc, ws1, "Manual")
    # a smart_auto job first (oldest), then a retry, then a manual one (newest)
    with svc.store.write() as conn:
        jobs.insert_job(conn, load_base(conn, str(ws1), auto.id), "smart_auto", "sha256:x", clock.now_us())
    clock.advance(1)
    jobs.request_compile(svc, ws2, retry.id)
    claim_and_report(svc, ws2, "failed", transient=True, error="model down")
    clock.advance(301)
    jobs.request_compile(svc, ws1, manual.id)
    order = []
    for _ in range(3):
        base, job = jobs.claim(svc)
        order.append((base.id, job.trigger))
        results.report_result(svc, base.workspace, base.id, job.id, "failed", transient=False)
    assert order == [("manual", "manual"), ("retry", "retry"), ("auto", "smart_auto")]


def test_retry_boundaries_300_1800_7200_and_fourth_final(svc, clock, workspace):
    base = make_base(svc, workspace)
    jobs.request_compile(svc, workspace, base.id)
    delays = []
    for attempt in range(4):
        _, b, job = claim_and_report(svc, workspace, "failed", transient=True, error=f"attempt {attempt}")
        assert job.phase == "failed" and job.error_code == "compiler_reported" and b.phase == "failed"
        retry = jobs.list_jobs(svc, kb_id=base.id)[0]
        if attempt == 3:
            assert retry.phase == "failed", "the fourth transient failure stays failed"
            assert jobs.claim(svc) is None
            break
        assert retry.trigger == "retry" and retry.phase == "queued"
        delay = (retry.not_before - clock.now_us()) // 1_000_000
        delays.append(delay)
        clock.advance(delay - 1)
        assert jobs.claim(svc) is None, "not due one second early"
        clock.advance(1)
    assert delays == [300, 1800, 7200]


def test_permanent_failure_never_retries_and_keeps_wiki(svc, workspace):
    base = make_base(svc, workspace)
    jobs.request_compile(svc, workspace, base.id)
    claim_and_report(svc, workspace, "succeeded")
    wiki_page = paths.wiki_path(workspace, base.id) / "page.md"
    before = wiki_page.read_text()
    (paths.sources_path(workspace, base.id) / "b.md").write_text("# B\n")
    jobs.request_compile(svc, workspace, base.id)
    _, b, job = claim_and_report(svc, workspace, "failed", transient=False, error="x" * 5000)
    assert len(job.error) == 1000 and b.last_error == "x" * 1000
    assert jobs.claim(svc) is None
    assert wiki_page.read_text() == before


def test_manual_request_promotes_queued_auto_job_with_newest_digest(svc, clock, workspace):
    base = make_base(svc, workspace)
    with svc.store.write() as conn:
        jid = jobs.insert_job(conn, load_base(conn, str(workspace), base.id), "smart_auto", "sha256:old", clock.now_us())
    changed, b, job = jobs.request_compile(svc, workspace, base.id)
    assert job.id == jid and job.trigger == "manual" and job.source_digest != "sha256:old"
    assert len([j for j in jobs.list_jobs(svc) if j.phase == "queued"]) == 1


def test_follow_up_after_run_that_saw_new_changes(svc, workspace):
    base = make_base(svc, workspace)
    jobs.request_compile(svc, workspace, base.id)
    _, running = jobs.claim(svc)
    changed, _, _ = jobs.request_compile(svc, workspace, base.id)
    assert not changed, "same sources while running: nothing to follow up"
    (paths.sources_path(workspace, base.id) / "new.md").write_text("# New\n")
    changed, b, _ = jobs.request_compile(svc, workspace, base.id)
    assert changed and b.follow_up == 1
    write_staged_page(workspace, base.id, running.id)
    _, b, _ = results.report_result(svc, workspace, base.id, running.id, "succeeded")
    assert b.phase == "queued"
    follow = [j for j in jobs.list_jobs(svc) if j.phase == "queued"]
    assert len(follow) == 1 and follow[0].trigger == "manual" and follow[0].source_digest == b.source_digest


def test_cancel_queued_and_running(svc, workspace):
    base = make_base(svc, workspace)
    jobs.request_compile(svc, workspace, base.id)
    changed, b, job = jobs.cancel(svc, workspace, base.id)
    assert changed and job.phase == "cancelled" and b.phase == "source_ready"
    jobs.request_compile(svc, workspace, base.id)
    _, running = jobs.claim(svc)
    changed, b, job = jobs.cancel(svc, workspace, base.id, running.id)
    assert changed and job.phase == "cancelled" and job.cancel_requested == 1 and b.active_job_id is None
    assert jobs.job_should_stop(svc, running.id)
    write_staged_page(workspace, base.id, running.id)
    with pytest.raises(Conflict):
        results.report_result(svc, workspace, base.id, running.id, "succeeded")
    assert not paths.wiki_path(workspace, base.id).exists(), "a refused result publishes nothing"
    assert jobs.get_job(svc, running.id).phase == "cancelled"


def test_cancel_falls_back_to_succeeded_when_compiled_and_nothing_pending(svc, workspace):
    base = make_base(svc, workspace)
    jobs.request_compile(svc, workspace, base.id)
    claim_and_report(svc, workspace)
    jobs.request_compile(svc, workspace, base.id)  # same digest
    _, b, _ = jobs.cancel(svc, workspace, base.id)
    assert b.phase == "succeeded"
    (paths.sources_path(workspace, base.id) / "c.md").write_text("# C\n")
    jobs.request_compile(svc, workspace, base.id)
    _, b, _ = jobs.cancel(svc, workspace, base.id)
    assert b.phase == "source_ready"


def test_result_conflicts_and_not_found(svc, workspace):
    base = make_base(svc, workspace)
    jobs.request_compile(svc, workspace, base.id)
    _, job = jobs.claim(svc)
    results.report_result(svc, workspace, base.id, job.id, "failed")
    with pytest.raises(Conflict):
        results.report_result(svc, workspace, base.id, job.id, "failed")
    with pytest.raises(NotFound):
        results.report_result(svc, workspace, base.id, "job-1-1", "failed")
    with pytest.raises(InvalidInput):
        results.report_result(svc, workspace, base.id, job.id, "maybe")
    with pytest.raises(InvalidInput):
        results.report_result(svc, workspace, base.id, "../etc", "failed")


@pytest.mark.parametrize(
    "mutate, reason",
    [
        (lambda w: (w / "page.md").unlink(), "no .md"),
        (lambda w: (w / "page.md").write_text("no frontmatter\n"), "frontmatter"),
        (lambda w: (w / "page.md").write_text("---\ntitle: x\n---\nbody\n"), "type"),
        (lambda w: (w / "page.md").write_text("---\ntitle: x\n"), "never closed"),
        (lambda w: (w / "evil.md").symlink_to("/etc/passwd"), "symlink"),
        (lambda w: (w / "UPPER.MD").write_text("---\ntype: Source\n---\n"), ".md"),
        (lambda w: (w / "bad.md").write_bytes(b"---\ntype: Source\n---\n\xff\xfe"), "UTF-8"),
    ],
)
def test_invalid_output_fails_permanently_and_frees_queue(svc, workspace, mutate, reason):
    base = make_base(svc, workspace)
    other = make_base(svc, workspace, "Other")
    jobs.request_compile(svc, workspace, base.id)
    _, job = jobs.claim(svc)
    staged = paths.staged_wiki(workspace, base.id, job.id)
    write_staged_page(workspace, base.id, job.id)
    mutate(staged)
    _, b, j = results.report_result(svc, workspace, base.id, job.id, "succeeded")
    assert j.phase == "failed" and j.error_code == "invalid_output" and j.transient == 0
    assert reason.lower() in j.error.lower()
    assert b.phase == "failed" and b.active_job_id is None
    jobs.request_compile(svc, workspace, other.id)
    assert jobs.claim(svc)[1].base_id == other.id, "the queue is free"


def test_policy_switch_to_manual_cancels_queued_auto_job(svc, clock, workspace):
    base = make_base(svc, workspace, policy="smart_auto")
    with svc.store.write() as conn:
        jid = jobs.insert_job(conn, load_base(conn, str(workspace), base.id), "smart_auto", "sha256:x", clock.now_us())
    changed, b = bases.set_compilation_policy(svc, workspace, base.id, "manual")
    assert changed and b.policy == "manual"
    assert jobs.get_job(svc, jid).phase == "cancelled"


def test_external_claim_gets_a_lease(svc, clock, workspace):
    base = make_base(svc, workspace)
    jobs.request_compile(svc, workspace, base.id)
    _, job = jobs.claim(svc, claimed_by=CLAIMED_BY_EXTERNAL)
    assert job.claimed_by == "external" and job.lease_expires_at == clock.now_us() + 3600 * 1_000_000


def test_empty_sources_cannot_compile(svc, workspace):
    base = make_base(svc, workspace, files={})
    with pytest.raises(InvalidInput, match="no files"):
        jobs.request_compile(svc, workspace, base.id)


def test_create_from_paths_never_copies_symlinks(svc, workspace, tmp_path):
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "a.md").write_text("# A\n")
    (src / "sub" / "b.txt").write_text("b\n")
    (src / "link.md").symlink_to(tmp_path / "secret.md")
    (tmp_path / "secret.md").write_text("secret\n")
    changed, base = bases.create_base(svc, workspace, "Copied", from_paths=[str(src)])
    files = sorted(p.relative_to(paths.sources_path(workspace, base.id)).as_posix()
                   for p in paths.sources_path(workspace, base.id).rglob("*") if p.is_file())
    assert files == ["a.md", "sub/b.txt"]
    again, _ = bases.create_base(svc, workspace, "Copied")
    assert not again


def test_state_is_durable_across_reopen(svc, workspace):
    from kctui.services.context import ServiceContext

    base = make_base(svc, workspace)
    jobs.request_compile(svc, workspace, base.id)
    svc.close()
    again = ServiceContext.open()
    assert [b.id for b in bases.list_bases(again)] == [base.id]
    assert [j.phase for j in jobs.list_jobs(again)] == ["queued"]
    again.close()
