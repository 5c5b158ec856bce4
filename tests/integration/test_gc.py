"""Garbage collection (issue 33, `kctui.services.gc`): what no live job or promotion owns is removed and
logged with its size; the owner is checked — a live job's folder, a folder a promotion journal names, a
review decision still in its publisher's hands, a temporary file still open — and the promoted wiki is
never touched."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time

from kctui import paths
from kctui.core.models import CLAIMED_BY_EXTERNAL
from kctui.publish.common import journal_path
from kctui.publish.pages_journal import page_journal_path
from kctui.services import briefs, gc, jobs, review
from kctui.services.hostlock import HostLock
from kctui.services.local_transport import LocalTransport
from kctui.services.worker import run_worker
from tests.helpers import make_base
from tests.helpers.review import make_held

OLD = time.time() - 3600  # an mtime older than the temporary files' grace


def compiled(svc, workspace, name="Notes"):
    base = make_base(svc, workspace, name)
    jobs.request_compile(svc, workspace, base.id)
    [outcome] = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
    assert outcome.result == "succeeded"
    return base


def digest(root) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        h.update(str(p.relative_to(root)).encode() + (p.read_bytes() if p.is_file() else b""))
    return h.hexdigest()


def claimed(svc, workspace, base, **kw):
    (paths.sources_path(workspace, base.id) / "b.md").write_text(f"# B\n\nBeta {time.monotonic_ns()}.\n")
    jobs.request_compile(svc, workspace, base.id)
    _, job = jobs.claim(svc, **kw)
    (paths.staged_wiki(workspace, base.id, job.id) / "x.md").write_text("staged\n")
    return job


def test_an_interrupted_jobs_folder_goes_a_live_ones_stays_and_the_wiki_is_untouched(svc, workspace, caplog):
    base = compiled(svc, workspace)
    wiki = paths.wiki_path(workspace, base.id)
    before = digest(wiki)
    live = claimed(svc, workspace, base)  # running, claimed by this (live) process
    dead = paths.job_dir(workspace, base.id, "job-1-1")  # no job of the base has this name
    (dead / "wiki").mkdir(parents=True)
    (dead / "wiki" / "p.md").write_text("x" * 1000)
    with caplog.at_level(logging.INFO, logger="kctui.services.gc"):
        report = gc.collect_garbage(svc)
    assert [i.path for i in report.removed] == [dead] and report.freed == 1000
    assert "removed staged_output" in caplog.text and "1000 B" in caplog.text
    assert paths.job_dir(workspace, base.id, live.id).is_dir()
    assert digest(wiki) == before


def test_a_failed_jobs_folder_goes_after_the_job(svc, workspace):
    base = compiled(svc, workspace)
    job = claimed(svc, workspace, base)
    from kctui.services import results  # noqa: PLC0415

    results.report_result(svc, workspace, base.id, job.id, "failed", transient=True, error="boom")
    assert paths.job_dir(workspace, base.id, job.id).is_dir()  # a failure leaves its folder
    assert [i.kind for i in gc.collect_garbage(svc).removed] == ["staged_output"]
    assert not paths.job_dir(workspace, base.id, job.id).exists()


def test_a_builtin_job_of_a_dead_process_is_no_owner(svc, workspace):
    base = compiled(svc, workspace)
    job = claimed(svc, workspace, base)
    with svc.store.write() as conn:  # the host that claimed it is gone
        conn.execute("UPDATE jobs SET claim_pid = 999999999 WHERE id = ?", (job.id,))
    assert [i.path.name for i in gc.find_leftovers(svc)] == [job.id]


def test_a_queued_jobs_folder_a_killed_claim_left_goes_and_its_claim_still_runs(svc, workspace):
    """A claim makes the job's folder inside its transaction: killed before the commit, the job is still
    queued and the folder stays behind. Nothing owns it (the claim makes it afresh)."""
    base = compiled(svc, workspace)
    _changed, _base, job = jobs.request_compile(svc, workspace, base.id)
    assert job is not None
    left = paths.job_dir(workspace, base.id, job.id)
    (left / "wiki").mkdir(parents=True)  # what the killed claim made
    assert jobs.get_job(svc, job.id).phase == "queued"
    assert [i.path for i in gc.collect_garbage(svc).removed] == [left]
    again = jobs.claim(svc)
    assert again is not None and again[1].id == job.id
    assert (left / "wiki").is_dir()  # the claim made it again


def test_an_external_job_keeps_its_folder_while_its_lease_lives(svc, workspace, clock):
    base = compiled(svc, workspace)
    job = claimed(svc, workspace, base, claimed_by=CLAIMED_BY_EXTERNAL)
    assert not gc.find_leftovers(svc)
    clock.advance(svc.settings.lease_seconds + 1)
    assert [i.path.name for i in gc.find_leftovers(svc)] == [job.id]


def test_a_folder_a_promotion_journal_names_is_kept(svc, workspace):
    base = compiled(svc, workspace)
    kb = paths.kb_path(workspace, base.id)
    staged = paths.staged_wiki(workspace, base.id, "job-2-2")
    staged.mkdir(parents=True)
    journal_path(kb).write_text(json.dumps({"staged_path": str(staged), "backup_path": str(kb / ".a3s/wiki-old-job-2-2"),
                                            "live_path": str(kb / "wiki")}))
    (kb / ".a3s/wiki-old-job-2-2").mkdir()
    (kb / ".a3s/wiki-old-job-3-3").mkdir()  # parked by no journal
    assert [i.path.name for i in gc.collect_garbage(svc).removed] == ["wiki-old-job-3-3"]
    assert staged.is_dir() and (kb / ".a3s/wiki-old-job-2-2").is_dir()


def test_a_succeeded_jobs_folder_gives_its_brief_to_the_store_first(svc, workspace):
    base = compiled(svc, workspace)
    job = claimed(svc, workspace, base)
    with svc.store.write() as conn:  # succeeded, but killed before its own clean-up kept the brief
        conn.execute("UPDATE jobs SET phase = 'succeeded', completed_at = 1 WHERE id = ?", (job.id,))
    (paths.job_dir(workspace, base.id, job.id) / "brief.md").write_text("# Brief\n\nkept\n")
    gc.collect_garbage(svc)
    assert not paths.job_dir(workspace, base.id, job.id).exists()
    assert "kept" in (briefs.brief_for_job(svc, job.id) or "")


def test_review_folders_settled_or_dropped_never_while_a_page_promotion_is_pending(svc, workspace):
    base = make_held(svc, workspace)
    kb, root = paths.kb_path(workspace, base.id), paths.output_root(workspace, base.id)
    item = review.list_items(svc, kb_id=base.id)[0]
    decided = root / "review-1-1-1"  # its publisher committed; only its removal was owed
    decided.mkdir(parents=True)
    (decided / "decision.json").write_text(json.dumps({"item": 10_000, "state": "approved", "pages": {}}))
    pending = root / "review-2-2-2"  # its publisher died before promoting: the item stays open
    pending.mkdir()
    (pending / "decision.json").write_text(json.dumps({"item": item.id, "state": "approved", "actor": "human:a",
                                                       "pages": {item.page_path: "sha256:" + "0" * 64}}))
    page_journal_path(kb).write_text("{}")  # a page promotion in progress owns them all
    assert not gc.collect_garbage(svc).removed and decided.is_dir() and pending.is_dir()
    page_journal_path(kb).unlink()
    removed = sorted(i.path.name for i in gc.collect_garbage(svc).removed)
    assert removed == ["review-1-1-1", "review-2-2-2"]
    assert review.get_item(svc, item.id).state == "open"


def test_temporary_files_go_only_when_old_and_closed(svc, workspace):
    base = compiled(svc, workspace)
    a3s = paths.kb_path(workspace, base.id) / ".a3s"
    young, old, held = a3s / ".y.json.abc.tmp", a3s / "cache" / ".o.json.def.tmp", a3s / ".h.json.ghi.tmp"
    for p in (young, old, held):
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("partial")
    os.utime(old, (OLD, OLD))
    os.utime(held, (OLD, OLD))
    with open(held, "rb"):  # some process has it open: still being written
        assert [i.path for i in gc.collect_garbage(svc).removed] == [old]
    assert young.exists() and held.exists()


def test_the_host_lock_of_a_gone_host_is_cleared_a_held_one_never(svc, workspace):
    lock = paths.host_lock_file()
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text("pid=999999999 role=kctui serve\n")
    assert [i.kind for i in gc.collect_garbage(svc).removed] == ["stale_lock"]
    assert lock.read_text() == ""
    with HostLock(role="kctui serve"):
        assert "pid=" in lock.read_text()
        assert not [i for i in gc.collect_garbage(svc).removed if i.kind == "stale_lock"]
    assert lock.read_text() == ""  # a released lock names nobody
