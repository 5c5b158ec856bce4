"""Issue 16 point 1, dry runs: a dry run's brief is the brief of the real pass that follows (same counts,
same sections); the wiki (bytes and file stats), the review queue, revisions, jobs, briefs and events
are untouched by it; a real job is claimed while a dry run runs (kill -9: tests/reliability/
test_dry_run_crash.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kctui import paths
from kctui.services import dry_run as dr
from kctui.services import events
from kctui.services import jobs as jobs_svc
from kctui.services.compile_wait import compile_and_wait
from kctui.services.local_transport import LocalTransport
from tests.helpers import make_base
from tests.helpers.dry_run import comparable, demo_files, real_pass, store_state, tree


@pytest.fixture
def emitted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict]]:
    seen: list[tuple[str, dict]] = []
    monkeypatch.setattr(events, "emit", lambda name, data, **kw: seen.append((name, data)))
    return seen


def check_same(svc, base, run: dr.DryRun, emitted) -> None:
    """The real pass that follows does what the dry run said, and the dry run changed nothing."""
    wiki = paths.wiki_path(Path(base.workspace), base.id)
    markdown, items = real_pass(svc, base)
    counts = run.brief["counts"]
    assert comparable(run.brief["markdown"]) == comparable(markdown)
    assert counts["reviewItems"] == len(items)
    assert counts["held"] == sum(1 for r in items if r["kind"] == "held")
    assert counts["conflicts"] == sum(1 for r in items if r["kind"] == "conflict")
    # the candidate is the generation the real pass promoted (the fake clock gives both one moment)
    candidate = {k: v[0] for k, v in tree(run.candidate).items() if k != "log.md"}
    promoted = {k: v[0] for k, v in tree(wiki).items() if k != "log.md"}
    assert candidate == promoted
    assert [name for name, _ in emitted][:1] == ["knowledge.compiled"]  # the real pass emits; the dry run did not


def test_a_first_dry_run_says_what_the_first_pass_does_and_changes_nothing(svc, workspace, emitted) -> None:
    base = make_base(svc, workspace, files=demo_files())
    wiki = paths.wiki_path(workspace, base.id)
    before = store_state(svc)
    run = dr.run_dry_run(svc, workspace, base.id)
    assert run.phase == "succeeded", run.error
    c = run.brief["counts"]
    assert c["created"] > 5 and c["conflicts"] == 1 and c["held"] == 0  # the demo's one real disagreement
    assert not wiki.exists() and store_state(svc) == before and emitted == []
    assert run.candidate.is_dir() and str(run.candidate) in run.brief["markdown"]
    assert run.path.parent == workspace / ".a3s" / "kb" / "bases" / base.id / ".a3s" / "dry-run"
    assert json.loads((run.path / dr.RESULT_FILE).read_text())["result"]["brief"]["counts"] == c
    check_same(svc, base, run, emitted)


def test_a_dry_run_after_changes_holds_skips_and_touches_nothing(svc, workspace, emitted) -> None:
    base = make_base(svc, workspace, files=demo_files())
    real_pass(svc, base)
    src = paths.sources_path(workspace, base.id)
    wal = src / "sqlite-wal.md"
    wal.write_text(wal.read_text(encoding="utf-8").replace("1000 pages", "2000 pages"), encoding="utf-8")
    (src / "new-note.md").write_text("# Ripgrep\n\nRipgrep is a line-oriented search tool.\n", encoding="utf-8")
    (src / "blob.bin").write_bytes(b"\x00\x01binary" * 10)
    wiki = paths.wiki_path(workspace, base.id)
    cache = paths.kb_path(workspace, base.id) / ".a3s" / "cache"
    memos = {k: v for k, v in tree(cache).items() if "/" not in k}  # the page and digest memos
    wiki_before, state_before = tree(wiki), store_state(svc)
    emitted.clear()
    first = dr.run_dry_run(svc, workspace, base.id)
    run = dr.run_dry_run(svc, workspace, base.id)  # the next one replaces the first
    assert not first.path.exists() and sorted(os.listdir(run.path.parent)) == [run.path.name]
    c = run.brief["counts"]
    assert c["held"] >= 1 and c["created"] >= 1 and c["skipped"] == 1, c
    assert {h["reason"] for h in run.brief["held"]} == {"autonomy_ceiling"}
    assert run.brief["skipped"][0]["path"] == "blob.bin"
    assert tree(wiki) == wiki_before  # bytes, inodes, mtimes and ctimes: not even a hard link made
    assert store_state(svc) == state_before and emitted == []
    assert {k: v for k, v in tree(cache).items() if "/" not in k} == memos  # no wiki state cached
    check_same(svc, base, run, emitted)


def test_a_dry_run_never_takes_the_queue(svc, workspace) -> None:
    """While a dry run is in its update step a real job is queued and claimed; and a dry run runs
    while a real job holds the queue's one running slot."""
    base = make_base(svc, workspace, files=demo_files())
    claimed: list[dict] = []

    def during(event) -> None:
        if event.step == "update" and event.state == "started" and not claimed:
            jobs_svc.request_compile(svc, workspace, base.id)
            claimed.append(LocalTransport(svc).claim())

    run = dr.run_dry_run(svc, workspace, base.id, progress=during)
    assert run.phase == "succeeded" and claimed[0]["claimed"] is True
    assert jobs_svc.get_job(svc, claimed[0]["job"]["id"]).phase == "running"
    again = dr.run_dry_run(svc, workspace, base.id)  # the real job is still running
    assert again.phase == "succeeded"
    assert again.brief["counts"] == run.brief["counts"]


def test_one_dry_run_per_base_at_a_time(svc, workspace) -> None:
    from kctui.services.errors import Conflict

    base = make_base(svc, workspace, files=demo_files())

    def during(event) -> None:
        if event.step == "match" and event.state == "started":
            with pytest.raises(Conflict, match="already running"):
                dr.run_dry_run(svc, workspace, base.id)

    assert dr.run_dry_run(svc, workspace, base.id, progress=during).phase == "succeeded"


def test_a_dry_run_of_an_empty_base_says_what_a_compile_says_and_changes_nothing(svc, workspace, emitted) -> None:
    from kctui.services.errors import InvalidInput

    base = make_base(svc, workspace, files={})
    before = store_state(svc)
    with pytest.raises(InvalidInput, match=r"^cannot do a dry run of notes: its sources/ folder has no files"):
        dr.run_dry_run(svc, workspace, base.id)
    with pytest.raises(InvalidInput, match=r"^cannot compile notes: its sources/ folder has no files"):
        jobs_svc.request_compile(svc, workspace, base.id)
    assert store_state(svc) == before and emitted == []
    assert not dr.dry_run_root(workspace, base.id).exists() or not os.listdir(dr.dry_run_root(workspace, base.id))


def test_the_api_runs_a_dry_run_and_returns_the_job_with_its_brief(svc, workspace, clock, emitted) -> None:
    from starlette.testclient import TestClient

    from kctui.api.server import PREFIX, create_app
    from kctui.config import Settings
    from kctui.services.context import ServiceContext

    base = make_base(svc, workspace, files=demo_files())
    token = "t" * 40
    app = create_app(lambda: ServiceContext.open(clock=clock, settings=Settings()), token)
    before = store_state(svc)
    with TestClient(app) as client:
        url = f"{PREFIX}/bases/{base.id}/compilations"
        headers = {"Authorization": f"Bearer {token}"}
        bad = client.post(url, json={"workspace": str(workspace), "dryRun": "yes"}, headers=headers)
        assert bad.status_code == 400 and "dryRun" in bad.json()["message"]
        got = client.post(url, json={"workspace": str(workspace), "dryRun": True}, headers=headers)
        assert got.status_code == 200, got.text
        job = got.json()["data"]["job"]
        kept = client.get(f"{url}/{job['id']}", params={"workspace": str(workspace)}, headers=headers)
        assert kept.status_code == 200 and kept.json()["data"] == job
        gone = client.get(f"{url}/dry-run-1-abc", params={"workspace": str(workspace)}, headers=headers)
        assert gone.status_code == 404
    assert job["dryRun"] is True and job["trigger"] == "dry_run" and job["phase"] == "succeeded"
    brief = job["result"]["brief"]
    assert brief["counts"]["conflicts"] == 1 and brief["candidateWiki"].startswith(job["outputPath"])
    assert got.json()["message"].startswith(f"dry run {job['id']}: would create {brief['counts']['created']}")
    assert store_state(svc) == before and emitted == []
    assert not paths.wiki_path(workspace, base.id).exists()


def test_a_candidate_the_result_route_would_refuse_fails_the_dry_run_as_it_fails_the_pass(
        svc, workspace, monkeypatch, emitted) -> None:
    from kctui.services import review

    monkeypatch.setattr(review, "MAX_MANIFEST_BYTES", 100)  # the demo's one conflict is more
    base = make_base(svc, workspace, files=demo_files())
    run = dr.run_dry_run(svc, workspace, base.id)
    assert (run.phase, run.error_code) == ("failed", "invalid_output")
    assert run.error == "staged output rejected: review.json is larger than 32 MiB"
    assert run.to_json()["result"]["brief"]["counts"]["conflicts"] == 1
    assert "A real pass would fail here: [invalid_output]" in run.brief["markdown"]
    _, _, job = compile_and_wait(svc, base.workspace, base.id)
    assert (job.phase, job.error_code, job.error) == ("failed", run.error_code, run.error)
