"""The loopback protocol (host.md §6, contract version "1") over a real socket: the round trip (create,
compile, claim, stage, report), the claim order across workspaces, results of cancelled and finished jobs,
retries crossed by moving the FakeClock, never by sleeping, and a staged tree that is refused."""

from __future__ import annotations

import os
from pathlib import Path

import httpx

from kctui.core.models import BasePhase, Trigger
from kctui.services import bases as bases_svc
from kctui.services import jobs as jobs_svc
from kctui.store.records import update_base
from tests.integration.api.support import (
    CLAIM_FIELDS,
    JOB_FIELDS,
    PAGE,
    RFC3339_UTC,
    SUMMARY_FIELDS,
    claim,
    compile_base,
    data,
    error,
    new_base,
    report,
    stage,
    summary,
)

# -- the round trip ---------------------------------------------------------------------------------


def test_create_compile_claim_write_result_promotes(api: httpx.Client, ws: str) -> None:
    created = data(api.post("/bases", json={"workspace": ws, "name": "Project Notes", "description": "d"}))
    kb = created["knowledgeBase"]
    assert created["changed"] is True and kb["id"] == "project-notes"
    assert kb["phase"] == "source_ready" and kb["hasWiki"] is False
    assert SUMMARY_FIELDS <= set(kb["compilation"])
    Path(kb["sourcePath"], "a.md").write_text("# A\n\nalpha\n", encoding="utf-8")

    requested = compile_base(api, ws, "project-notes")
    assert requested["changed"] is True and requested["job"]["phase"] == "queued"
    assert requested["job"]["trigger"] == "manual" and requested["knowledgeBase"]["phase"] == "queued"

    c = claim(api)
    # the reference fields exactly, plus our compileOptions (the base's policy: here the defaults)
    assert set(c) == CLAIM_FIELDS | {"compileOptions"} and c["claimed"] is True and c["contractVersion"] == "1"
    opts = c["compileOptions"]
    assert (opts["linkStyle"], opts["extractor"], opts["trustPolicy"]["autonomy"]) == ("wikilink", "builtin", "guarded")
    job = c["job"]
    assert JOB_FIELDS <= set(job)
    assert job["id"] == requested["job"]["id"] and job["knowledgeBaseId"] == "project-notes"
    assert (job["trigger"], job["phase"], job["completedAt"], job["error"]) == ("manual", "running", None, None)
    assert job["sourceDigest"].startswith("sha256:") and len(job["sourceDigest"]) == 71
    assert RFC3339_UTC.match(job["createdAt"]) and RFC3339_UTC.match(job["startedAt"])
    kb_path = Path(ws) / ".a3s/kb/bases/project-notes"
    assert c["workspaceRoot"] == ws and c["knowledgeBasePath"] == str(kb_path)
    assert c["sourcePath"] == str(kb_path / "sources") and c["previousWikiPath"] == str(kb_path / "wiki")
    assert job["outputPath"] == str(kb_path / ".a3s/compilation-output" / job["id"])
    assert c["outputPath"] == job["outputPath"] + "/wiki" and Path(c["outputPath"]).is_dir()
    assert job.get("claimedBy") == "external"

    # one job runs across all monitored workspaces: a second claim answers claimed false, all else null
    idle = claim(api, {"workspace": ws})
    assert idle == {"claimed": False, "contractVersion": "1", **{k: None for k in CLAIM_FIELDS - {"claimed", "contractVersion"}}}
    running = summary(api, ws, "project-notes")
    assert running["phase"] == "running" and running["activeJobId"] == job["id"]

    stage(c)
    done = data(report(api, ws, c, outcome="succeeded", compilerVersion="ext/1.0"))
    assert done["changed"] is True and done["job"]["phase"] == "succeeded"
    assert RFC3339_UTC.match(done["job"]["completedAt"])
    assert done["knowledgeBase"]["hasWiki"] is True
    assert (kb_path / "wiki/concepts/alpha.md").read_text(encoding="utf-8") == PAGE
    after = summary(api, ws, "project-notes")
    assert after["phase"] == "succeeded" and after["activeJobId"] is None
    assert after["lastCompiledDigest"] == job["sourceDigest"] and after["compilerVersion"] == "ext/1.0"
    assert (after["stableWindowSeconds"], after["quietWindowSeconds"], after["minimumIntervalSeconds"]) == (5, 30, 600)
    assert RFC3339_UTC.match(after["lastSucceededAt"])

    # ours: the job route
    got = data(api.get(f"/bases/project-notes/compilations/{job['id']}", params={"workspace": ws}))
    assert got["phase"] == "succeeded"
    listed = data(api.get("/bases", params={"workspace": ws}))
    assert listed["total"] == 1 and listed["items"][0]["id"] == "project-notes"


def test_manual_beats_retry_beats_smart_auto_across_workspaces(api, make_ctx, clock, tmp_path) -> None:
    ws_a, ws_b = (str((tmp_path / n).resolve()) for n in ("ws-a", "ws-b"))
    for w in (ws_a, ws_b):
        os.mkdir(w)
    auto = new_base(api, ws_a, "Auto")
    flaky = new_base(api, ws_b, "Flaky")
    manual = new_base(api, ws_a, "Manual")
    ctx = make_ctx()
    with ctx.store.write() as conn:  # a smart_auto job queued first (the scheduler's work, set up directly)
        base = bases_svc.get_base(ctx, ws_a, auto["id"])
        jobs_svc.insert_job(conn, base, Trigger.SMART_AUTO, "sha256:" + "0" * 64, clock.now_us())
        update_base(conn, ws_a, auto["id"], clock.now_us(), phase=BasePhase.QUEUED.value)
    clock.advance(1)
    compile_base(api, ws_b, flaky["id"])
    first = claim(api)  # manual beats the older smart_auto job
    assert (first["job"]["knowledgeBaseId"], first["job"]["trigger"]) == (flaky["id"], "manual")
    failed = data(report(api, ws_b, first, outcome="failed", transient=True, error="model busy"))
    assert failed["job"]["phase"] == "failed" and failed["job"]["errorCode"] == "compiler_reported"
    assert failed["knowledgeBase"]["compilation"]["nextRetryAt"] is not None
    clock.advance(1)
    compile_base(api, ws_a, manual["id"])
    clock.advance(301)  # the retry is due now

    order = []
    for _ in range(3):
        c = claim(api)
        order.append((c["workspaceRoot"], c["job"]["knowledgeBaseId"], c["job"]["trigger"]))
        stage(c)
        data(report(api, c["workspaceRoot"], c, outcome="succeeded"))
    assert order == [(ws_a, manual["id"], "manual"), (ws_b, flaky["id"], "retry"), (ws_a, auto["id"], "smart_auto")]
    assert claim(api)["claimed"] is False


def test_result_for_cancelled_job_is_409_and_changes_nothing(api, ws) -> None:
    kb = new_base(api, ws, "Cancel me")
    compile_base(api, ws, kb["id"])
    c = claim(api)
    job_id = c["job"]["id"]
    cancelled = data(api.post(f"/bases/{kb['id']}/compilations/{job_id}/cancel", json={"workspace": ws}))
    assert cancelled["changed"] is True and cancelled["job"]["phase"] == "cancelled"
    before = summary(api, ws, kb["id"])
    assert before["phase"] == "source_ready" and before["activeJobId"] is None
    stage(c)
    message = error(report(api, ws, c, outcome="succeeded"), 409)
    assert "cancelled" in message
    error(report(api, ws, c, outcome="failed", transient=True, error="late"), 409)
    assert summary(api, ws, kb["id"]) == before
    assert not (Path(kb["knowledgeBasePath"]) / "wiki").exists()
    job = data(api.get(f"/bases/{kb['id']}/compilations/{job_id}", params={"workspace": ws}))
    assert job["phase"] == "cancelled"
    again = data(api.post(f"/bases/{kb['id']}/compilations/{job_id}/cancel", json={"workspace": ws}))
    assert again["changed"] is False


def test_result_errors_400_404_and_409_for_a_finished_job(api, ws) -> None:
    kb = new_base(api, ws, "Errors")
    compile_base(api, ws, kb["id"])
    c = claim(api)
    assert "outcome" in error(report(api, ws, c, outcome="maybe"), 400)
    assert "transient" in error(report(api, ws, c, outcome="failed", transient="yes"), 400)
    unknown = {**c, "job": {**c["job"], "id": "job-1-1"}}
    error(report(api, ws, unknown, outcome="succeeded"), 404)
    error(api.post("/bases/no-such-kb/compilations/job-1-1/result", json={"workspace": ws, "outcome": "failed"}), 404)
    error(api.get("/bases/no-such-kb/compilation", params={"workspace": ws}), 404)
    stage(c)
    assert "unknown field 'somethingNew'" in error(report(api, ws, c, outcome="succeeded", somethingNew={"x": 1}), 400)
    assert data(report(api, ws, c, outcome="succeeded"))["job"]["phase"] == "succeeded"
    assert "not running" in error(report(api, ws, c, outcome="succeeded"), 409)


def test_error_cut_and_fourth_transient_failure_is_final(api, ws, clock) -> None:
    kb = new_base(api, ws, "Flaky")
    compile_base(api, ws, kb["id"])
    for attempt, wait in enumerate((300, 1800, 7200, None), 1):
        c = claim(api)
        assert c["claimed"], attempt
        assert c["job"]["trigger"] == ("manual" if attempt == 1 else "retry")
        done = data(report(api, ws, c, outcome="failed", transient=True, error="  " + "e" * 5000 + "  ",
                           errorCode="model_unavailable"))
        assert len(done["job"]["error"]) == 1000 and done["job"]["errorCode"] == "model_unavailable"
        s = done["knowledgeBase"]["compilation"]
        assert s["phase"] == "failed" and len(s["lastError"]) == 1000
        if wait is None:
            assert s["nextRetryAt"] is None
            break
        clock.advance(wait - 1)
        assert claim(api)["claimed"] is False  # not due one second early
        clock.advance(1)
    clock.advance(10 * 3600)
    assert claim(api)["claimed"] is False
    assert summary(api, ws, kb["id"])["retryAttempts"] == 4


def test_empty_error_gets_the_default_message_and_permanent_failure_never_retries(api, ws, clock) -> None:
    kb = new_base(api, ws, "Permanent")
    compile_base(api, ws, kb["id"])
    done = data(report(api, ws, claim(api), outcome="failed", error="   "))
    assert done["job"]["error"] == "knowledge compiler reported a failure" and done["job"]["transient"] is False
    clock.advance(86400)
    assert claim(api)["claimed"] is False


def test_staged_symlink_fails_the_job_permanently_with_the_reason(api, ws, tmp_path) -> None:
    kb = new_base(api, ws, "Links")
    compile_base(api, ws, kb["id"])
    c = claim(api)
    stage(c)
    (tmp_path / "outside.md").write_text(PAGE, encoding="utf-8")
    os.symlink(tmp_path / "outside.md", Path(c["outputPath"]) / "escape.md")
    done = data(report(api, ws, c, outcome="succeeded"))
    job = done["job"]
    assert (job["phase"], job["errorCode"], job["transient"]) == ("failed", "invalid_output", False)
    assert "symlink" in job["error"]
    assert done["knowledgeBase"]["hasWiki"] is False and not (Path(kb["knowledgeBasePath"]) / "wiki").exists()
    assert claim(api)["claimed"] is False  # the queue is free and nothing is retried
