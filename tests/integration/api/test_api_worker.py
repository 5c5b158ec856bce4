"""The worker (`kctui worker`, `HttpTransport`) against other hosts and faults: another contract version,
a lost result answer, a cancellation mid-compile, a killed worker and its lease, and the transport's
statuses."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from kctui.api import client as client_mod
from kctui.api.client import HttpTransport, run_worker_cli
from kctui.api.server import PREFIX
from kctui.api.token import load_or_create_token
from kctui.services import jobs as jobs_svc
from kctui.services import recovery
from kctui.services.worker import run_worker
from tests.integration.api.support import (
    TOKEN,
    compile_base,
    data,
    error,
    new_base,
    report,
    run_uvicorn,
    summary,
    token_file_for,
)

# -- the worker against other hosts and faults ------------------------------------------------------


def test_worker_rejects_contract_version_2(state: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "job-dir" / "wiki"
    out.mkdir(parents=True)
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "a.md").write_text("# A\n")
    seen: list[str] = []

    async def fake_claim(request: Request) -> JSONResponse:
        seen.append("claim")
        job = {"id": "job-1", "knowledgeBaseId": "kb", "trigger": "manual", "phase": "running",
               "sourceDigest": "sha256:" + "0" * 64, "createdAt": "2026-07-26T00:00:00Z",
               "startedAt": "2026-07-26T00:00:01Z", "completedAt": None, "outputPath": str(out.parent), "error": None}
        return JSONResponse({"claimed": True, "contractVersion": "2", "workspaceRoot": str(tmp_path),
                             "knowledgeBasePath": str(tmp_path), "sourcePath": str(tmp_path / "sources"),
                             "previousWikiPath": None, "outputPath": str(out), "job": job})  # raw, unwrapped

    async def fake_other(request: Request) -> JSONResponse:
        seen.append(request.url.path)
        return JSONResponse({"code": 200, "message": "ok", "data": {}})

    fake = Starlette(routes=[Route(PREFIX + "/compilations/claim", fake_claim, methods=["POST"]),
                             Route(PREFIX + "/{rest:path}", fake_other, methods=["GET", "POST"])])
    token_file = tmp_path / "token"
    load_or_create_token(token_file)
    with run_uvicorn(fake) as url:
        assert run_worker_cli(url, str(token_file), once=True) == 1
    assert seen == ["claim"]  # no result, no state reads: it refused before doing anything
    assert list(out.iterdir()) == []
    assert "contract version '2'" in capsys.readouterr().err


class DropFirstResultResponse(httpx.BaseTransport):
    """Forwards every request; the first result's response is lost after the host processed it."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.log: list[tuple[str, str]] = []
        self.dropped = False

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.log.append((request.method, request.url.path))
        response = self.inner.handle_request(request)
        if request.url.path.endswith("/result") and not self.dropped:
            response.read()
            response.close()
            self.dropped = True
            raise httpx.ReadError("connection reset after the request was sent", request=request)
        return response

    def close(self) -> None:
        self.inner.close()


def test_ambiguous_result_failure_reads_state_and_sends_no_second_result(api, live, ws) -> None:
    kb = new_base(api, ws, "Ambiguous")
    job = compile_base(api, ws, kb["id"])["job"]
    faulty = DropFirstResultResponse()
    http = HttpTransport(live, TOKEN, transport=faulty)
    outcomes = run_worker(http, stop_event=threading.Event(), once=True)
    http.close()
    assert [o.result for o in outcomes] == ["succeeded"]
    results = [i for i, (m, p) in enumerate(faulty.log) if p.endswith("/result")]
    assert len(results) == 1 and faulty.dropped
    after = faulty.log[results[0] + 1:]
    assert after and all(m == "GET" and p.endswith(f"/bases/{kb['id']}/compilation") for m, p in after)
    s = summary(api, ws, kb["id"])
    assert s["phase"] == "succeeded" and s["lastCompiledDigest"] == job["sourceDigest"]


def test_worker_stops_on_cancellation_without_sending_a_result(api, live, ws, monkeypatch) -> None:
    kb = new_base(api, ws, "Cancelled while compiling")
    job_id = compile_base(api, ws, kb["id"])["job"]["id"]
    from kctui.services import worker as worker_mod

    real = worker_mod.compile_job

    def slow(request, *, progress=None, should_stop):  # the host cancels while the compiler works
        api.post(f"/bases/{kb['id']}/compilations/{job_id}/cancel", json={"workspace": ws})
        deadline = time.monotonic() + 5
        while not should_stop() and time.monotonic() < deadline:
            time.sleep(0.05)
        return real(request, progress=progress, should_stop=should_stop)

    monkeypatch.setattr(worker_mod, "compile_job", slow)
    log: list[str] = []

    class Recording(HttpTransport):
        def report(self, claim_: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
            log.append(body["outcome"])
            return super().report(claim_, body)

    http = Recording(live, TOKEN)
    outcomes = run_worker(http, stop_event=threading.Event(), once=True)
    http.close()
    assert [o.result for o in outcomes] == ["cancelled"] and log == []
    assert summary(api, ws, kb["id"])["phase"] == "source_ready"


KILLABLE_WORKER = """
import sys, time
from kctui.services import worker

def stuck(request, *, progress=None, should_stop):
    print("compiling", flush=True)
    time.sleep(120)

worker.compile_job = stuck
from kctui.api.client import run_worker_cli
sys.exit(run_worker_cli(sys.argv[1], sys.argv[2], True))
"""


def test_killed_worker_then_lease_then_one_successful_generation(api, live, ws, make_ctx, clock, state) -> None:
    kb = new_base(api, ws, "Lease")
    job_id = compile_base(api, ws, kb["id"])["job"]["id"]
    token_file = token_file_for(state.parent)
    proc = subprocess.Popen([sys.executable, "-c", KILLABLE_WORKER, live, str(token_file)],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "compiling"  # claimed, mid-job
    finally:
        proc.kill()  # SIGKILL: no result, no clean-up
        proc.wait()
    assert summary(api, ws, kb["id"])["activeJobId"] == job_id
    ctx = make_ctx()
    assert recovery.expire_leases(ctx) == []
    clock.advance(3600)  # the default lease (60 min) has passed
    assert recovery.expire_leases(ctx) == [job_id]
    failed = data(api.get(f"/bases/{kb['id']}/compilations/{job_id}", params={"workspace": ws}))
    assert (failed["phase"], failed["errorCode"], failed["transient"]) == ("failed", "lease_expired", True)
    clock.advance(300)  # the retry is due
    assert run_worker_cli(live, str(token_file), once=True) == 0  # the worker, started again
    late = {"job": {"id": job_id, "knowledgeBaseId": kb["id"]}}
    error(report(api, ws, late, outcome="succeeded"), 409)  # a late result of the killed run changes nothing
    finished = [j for j in jobs_svc.list_jobs(make_ctx()) if j.phase == "succeeded"]
    assert len(finished) == 1 and finished[0].trigger == "retry"
    s = summary(api, ws, kb["id"])
    assert s["phase"] == "succeeded" and s["retryAttempts"] == 0
    assert (Path(kb["knowledgeBasePath"]) / "wiki/index.md").is_file()


def test_transport_maps_statuses(live: str) -> None:
    with HttpTransport(live, "wrong-token") as http:
        with pytest.raises(client_mod.HostRefused, match="401"):
            http.claim()
    with HttpTransport("http://127.0.0.1:9", TOKEN, timeout=1) as http:  # nothing listens on port 9
        with pytest.raises(client_mod.TransportError):
            http.claim()


def test_send_result_never_resends_before_the_state_is_read() -> None:
    from kctui.services.worker import TransportError, send_result

    calls: list[str] = []
    state_failures = iter([True, True, False])

    class Flaky:
        def claim(self) -> dict[str, Any]:  # pragma: no cover - not used
            raise AssertionError

        def report(self, claim_: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
            calls.append("report")
            if calls.count("report") == 1:
                raise TransportError("reset")
            return {}

        def job_state(self, claim_: dict[str, Any]) -> dict[str, Any] | None:
            calls.append("state")
            if next(state_failures):
                raise TransportError("refused")
            return {"phase": "running"}  # the first send did not land: sending again is safe

    assert send_result(Flaky(), {}, {"outcome": "succeeded"}, sleep=lambda s: None) == "sent"
    assert calls == ["report", "state", "state", "state", "report"]
