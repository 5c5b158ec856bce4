"""A full or read-only disk (issue 33): ENOSPC is injected at every write of a pass with its promotion,
and of a bulk approval, in turn (the k-th write and all after it fail: `tests/helpers/full_disk.py`).
Each attempt either succeeds (the fault fell on a write the pass may skip, like a cache) or fails with
one line and the code `disk_full`, leaving the promoted wiki byte for byte as it was and nothing
`running`; the next attempt, with space freed, succeeds; no staged folder stays behind."""

from __future__ import annotations

import errno
import hashlib
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from kctui import paths
from kctui.cli import main
from kctui.compiler.builtin import extractor
from kctui.publish.validate import validate_staged_tree
from kctui.services import bases, gc, jobs, review
from kctui.services.errors import DiskFull, ReadOnly
from kctui.services.local_transport import LocalTransport
from kctui.services.review_bulk import bulk_resolve, select_items
from kctui.services.worker import run_claim, run_worker
from tests.helpers import make_base
from tests.helpers.full_disk import FullDisk
from tests.helpers.review import make_held

NOTES = {f"n{i}.md": f"# Note {i}\n\nRiver {i} flows north. It is {i + 3} km long.\n" for i in range(3)}


@pytest.fixture(autouse=True)
def one_process(monkeypatch):
    """Extraction in this process, where the fault is injected (a pool's workers would not see it)."""
    monkeypatch.setattr(extractor, "worker_count", lambda: 1)


def tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        h.update(str(p.relative_to(root)).encode())
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


def compile_now(svc, ws, kb_id) -> str:
    jobs.request_compile(svc, ws, kb_id)
    [outcome] = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True,
                           after_job=lambda: gc.collect_after_job(svc))  # as the host's worker does
    return outcome.result


def leftovers(svc) -> list:
    return [item for item in gc.find_leftovers(svc) if item.kind in ("staged_output", "review_folder")]


def test_a_full_disk_at_every_write_of_a_pass_and_its_promotion(svc, workspace, clock):
    base = make_base(svc, workspace, "Full disk", files=NOTES)
    assert compile_now(svc, workspace, base.id) == "succeeded"
    wiki, src = paths.wiki_path(workspace, base.id), paths.sources_path(workspace, base.id)
    where: dict[str, int] = {}
    k = 0
    while True:
        k += 1
        (src / "n1.md").write_text(f"# Note 1\n\nRiver 1 flows north. It is {k + 100} km long.\n")
        before = tree_digest(wiki)
        _, _, requested = jobs.request_compile(svc, workspace, base.id)
        claim = LocalTransport(svc).claim()  # the claim itself writes outside the full disk
        assert claim["claimed"] and claim["job"]["id"] == requested.id
        with FullDisk(k) as disk:
            outcome = run_claim(LocalTransport(svc), claim, stop_event=threading.Event())
        gc.collect_after_job(svc)  # as the host's worker does after each job
        job = jobs.get_job(svc, requested.id)
        assert job.phase in ("succeeded", "failed"), (k, job)
        if job.phase == "failed":
            assert disk.fired and job.error_code == "disk_full", (k, job.error_code, job.error)
            assert "\n" not in job.error and "no space left on device" in job.error, job.error
            assert tree_digest(wiki) == before, f"write {k}: the wiki changed on a failed pass"
            assert job.transient, "a full disk is worth a retry once space is freed"
            where[job.error.split(" failed")[0]] = where.get(job.error.split(" failed")[0], 0) + 1
            clock.advance(3600)  # past the retry's back-off
            assert compile_now(svc, workspace, base.id) == "succeeded", f"write {k}: the next attempt failed"
        assert not [j for j in jobs.list_jobs(svc, limit=1000) if j.phase == "running"]
        assert bases.get_base(svc, workspace, base.id).last_compiled_digest == requested.source_digest, k
        assert not leftovers(svc), (k, leftovers(svc))
        if not disk.fired:
            break  # the whole pass and promotion ran without reaching the k-th write
        assert outcome.result in ("failed", "succeeded"), outcome
    assert k > 20, f"only {k} writes: the injection missed the pass"
    # the disk filled up inside the pass and inside the promotion, both seen
    assert "writing the staged wiki" in where and "publishing the new wiki" in where, where


@pytest.mark.parametrize("code, name", [(errno.ENOSPC, "disk_full"), (errno.EROFS, "read_only")])
def test_a_claim_on_an_unwritable_disk_leaves_the_queue_as_it_was(svc, workspace, code, name):
    base = make_base(svc, workspace, "Full disk", files=NOTES)
    _, _, job = jobs.request_compile(svc, workspace, base.id)
    with FullDisk(1, code=code), pytest.raises(DiskFull if name == "disk_full" else ReadOnly) as raised:
        jobs.claim(svc)
    assert raised.value.code == name and raised.value.message.startswith(f"[{name}] ")
    assert jobs.get_job(svc, job.id).phase == "queued"
    assert compile_now(svc, workspace, base.id) == "succeeded"


def test_a_full_disk_at_every_write_of_a_bulk_approval(svc, workspace):
    base = make_held(svc, workspace)
    wiki = paths.wiki_path(workspace, base.id)
    k, failures, rolled_forward = 0, 0, 0
    while True:
        k += 1
        before = tree_digest(wiki)
        items = select_items(svc, everything=True).items
        assert items, "nothing held"
        with FullDisk(k) as disk:
            try:
                out = bulk_resolve(svc, items, "approve", actor="human:ada")
            except DiskFull as exc:
                out = None
                assert "\n" not in exc.message and exc.message.startswith("[disk_full] "), exc.message
        if out is None or not out.applied:
            failures += 1
            assert tree_digest(wiki) == before, f"write {k}: the wiki changed on a failed approval"
            assert {review.get_item(svc, i.id).state for i in items} == {"open"}
            assert not leftovers(svc), (k, leftovers(svc))
            continue
        # succeeded: the fault, if it fired, fell on a write the page journal's roll-forward redid
        validate_staged_tree(wiki)
        if not disk.fired:
            break
        items = [i for i in items if review.get_item(svc, i.id).state == "open"]
        assert not items, f"write {k}: the approval succeeded for some items only"
        rolled_forward += 1
        base = make_held(svc, workspace, name=f"Langs {k}")  # fresh held updates for the next write
        wiki = paths.wiki_path(workspace, base.id)
    assert failures >= 3, f"the approval wrote only {failures} times"
    assert {review.get_item(svc, i.id).state for i in items} == {"approved"}


def test_the_cli_says_one_line_with_the_code(svc, workspace):
    make_held(svc, workspace)
    with FullDisk(1):
        result = CliRunner().invoke(main, ["review", "approve", "--all", "--yes"])
    lines = [line for line in result.stderr.splitlines() if line.strip()] if result.stderr_bytes else []
    assert result.exit_code == 1, result.output
    assert len(lines) == 1 and lines[0].startswith("kctui: error: ") and "[disk_full] " in lines[0], lines
    assert "the wiki was kept" in lines[0]
