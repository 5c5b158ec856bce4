"""The loopback protocol (host.md §6, contract version "1") over a real socket, plus the worker.

Most tests run the real ASGI app under uvicorn on 127.0.0.1 (port 0) in a thread, with a FakeClock
shared by every service context so retry schedules are crossed by moving the clock, never by sleeping.
The `kctui serve` path (`serve()` / `run_serve`) runs in a thread or a subprocess with its own clock.
A few envelope details run in-process through `httpx.ASGITransport`.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote

import httpx
import pytest
import uvicorn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from kctui import paths
from kctui.api import client as client_mod
from kctui.api.client import HttpTransport, run_worker_cli
from kctui.api.serve import ServeError, check_loopback_host, serve
from kctui.api.server import PREFIX, create_app
from kctui.api.token import TokenError, load_or_create_token, read_token
from kctui.config import Settings
from kctui.core.clock import FakeClock
from kctui.core.models import BasePhase, Trigger
from kctui.services import bases as bases_svc
from kctui.services import jobs as jobs_svc
from kctui.services import recovery
from kctui.services.context import ServiceContext
from kctui.services.worker import run_worker
from kctui.store.db import Store
from kctui.store.records import update_base

TOKEN = "test-token-" + "x" * 40
RFC3339_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$")
PAGE = "---\ntype: Concept\ntitle: Alpha\n---\n# Alpha\n\nA staged page.\n"
INDEX = "# Index\n\n1 page.\n\n## Concepts\n\n* [Alpha](/concepts/alpha.md) - A staged page.\n"
STAGED = {"index.md": INDEX, "concepts/alpha.md": PAGE}
JOB_FIELDS = {"id", "knowledgeBaseId", "trigger", "phase", "sourceDigest", "createdAt", "startedAt",
              "completedAt", "outputPath", "error"}
CLAIM_FIELDS = {"claimed", "contractVersion", "workspaceRoot", "knowledgeBasePath", "sourcePath",
                "previousWikiPath", "outputPath", "job"}
SUMMARY_FIELDS = {"policy", "phase", "sourceDigest", "lastCompiledDigest", "pendingChanges", "activeJobId",
                  "lastRequestedAt", "lastSucceededAt", "lastFailedAt", "lastError", "pausedReason",
                  "compilerVersion", "nextAutoCompileAt", "stableWindowSeconds", "quietWindowSeconds",
                  "minimumIntervalSeconds"}


# -- fixtures ---------------------------------------------------------------------------------------


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KCTUI_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("KCTUI_CONFIG_DIR", str(tmp_path / "config"))
    for var in ("KCTUI_LEASE_SECONDS", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path / "state"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_ctx(state: Path, clock: FakeClock):
    made: list[ServiceContext] = []

    def factory() -> ServiceContext:
        ctx = ServiceContext(store=Store.open(paths.database_file()), clock=clock, settings=Settings())
        made.append(ctx)
        return ctx

    yield factory
    for ctx in made:
        ctx.close()


@contextlib.contextmanager
def run_uvicorn(app) -> Iterator[str]:
    """Serve `app` on 127.0.0.1 (a free port) in a thread; yields the origin URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP_NODELAY on accept
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(5)


@pytest.fixture
def live(make_ctx) -> Iterator[str]:
    with run_uvicorn(create_app(make_ctx, TOKEN)) as url:
        yield url


@pytest.fixture
def api(live: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live + PREFIX, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10,
                      trust_env=False) as c:
        yield c


@pytest.fixture
def ws(tmp_path: Path) -> str:
    path = tmp_path / "workspace"
    path.mkdir()
    return str(path.resolve())


# -- helpers ----------------------------------------------------------------------------------------


def data(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"code", "message", "data"} and body["code"] == status
    assert isinstance(body["message"], str) and body["message"]
    return body["data"]


def error(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"code", "error", "message"}, body
    assert body["code"] == status and isinstance(body["error"], str) and body["error"]
    assert "Traceback" not in response.text
    return body["message"]


def new_base(api: httpx.Client, ws: str, name: str, files: dict[str, str] | None = None) -> dict[str, Any]:
    kb = data(api.post("/bases", json={"workspace": ws, "name": name}))["knowledgeBase"]
    for rel, text in (files or {"notes.md": f"# {name}\n\nSome notes.\n"}).items():
        target = Path(kb["sourcePath"]) / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return kb


def compile_base(api: httpx.Client, ws: str, kb_id: str) -> dict[str, Any]:
    return data(api.post(f"/bases/{kb_id}/compilations", json={"workspace": ws}))


def claim(api: httpx.Client, body: dict[str, Any] | None = None) -> dict[str, Any]:
    return data(api.post("/compilations/claim", json=body or {}))


def report(api: httpx.Client, ws: str, c: dict[str, Any], **body: Any) -> httpx.Response:
    job = c["job"]
    return api.post(f"/bases/{job['knowledgeBaseId']}/compilations/{job['id']}/result",
                    json={"workspace": ws, **body})


def summary(api: httpx.Client, ws: str, kb_id: str) -> dict[str, Any]:
    return data(api.get(f"/bases/{kb_id}/compilation", params={"workspace": ws}))


def stage(c: dict[str, Any], pages: dict[str, str] | None = None) -> None:
    for rel, text in (pages or STAGED).items():
        target = Path(c["outputPath"]) / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def token_file_for(directory: Path) -> Path:
    """A 0600 file holding the live fixture's TOKEN."""
    path = directory / "live-token"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, TOKEN.encode() + b"\n")
    os.close(fd)
    return path


def queued_jobs(make_ctx) -> list[Any]:
    return [j for j in jobs_svc.list_jobs(make_ctx()) if j.phase == "queued"]


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
    assert data(report(api, ws, c, outcome="succeeded", somethingNew={"x": 1}))["job"]["phase"] == "succeeded"
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


# -- envelope, auth, limits, types ------------------------------------------------------------------

ROUTES = [
    ("GET", "/bases"), ("POST", "/bases"), ("POST", "/bases/kb/compilations"), ("GET", "/bases/kb/compilation"),
    ("PATCH", "/bases/kb/compilation-policy"), ("GET", "/bases/kb/source-changes"),
    ("GET", "/bases/kb/compilations/job-1-1"), ("POST", "/bases/kb/compilations/job-1-1/cancel"),
    ("POST", "/compilations/claim"), ("POST", "/bases/kb/compilations/job-1-1/result"), ("GET", "/no-such-route"),
]


def test_every_route_needs_the_token(live: str) -> None:
    with httpx.Client(base_url=live + PREFIX, trust_env=False) as raw:
        for method, path in ROUTES:
            for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN},
                            {"Authorization": f"Basic {TOKEN}"}, {"Authorization": f"Bearer {TOKEN}x"},
                            {"Authorization": f"Bearer {TOKEN[:-1]}"}, {"Authorization": "Bearer"}):
                r = raw.request(method, path, headers=headers, json={})
                error(r, 401)
                assert r.headers["www-authenticate"] == "Bearer", (method, path)
        assert raw.get("/bases", headers={"Authorization": f"bearer {TOKEN}"}).status_code == 200


def test_bodies_over_one_mib_are_413(api: httpx.Client, ws: str) -> None:
    big = {"workspace": ws, "name": "x", "padding": "p" * (1 << 20)}
    error(api.post("/bases", json=big), 413)
    error(api.post("/compilations/claim", content=b"{" + b" " * (1 << 20) + b"}"), 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while streaming
        yield b'{"workspace": "' + ws.encode() + b'", "pad": "'
        for _ in range(17):
            yield b"p" * 65536
        yield b'"}'

    r = api.post("/compilations/claim", content=chunks())
    assert "content-length" not in r.request.headers
    error(r, 413)
    assert data(api.post("/compilations/claim", json={"pad": "p" * 1000}))["claimed"] is False


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        ("POST", "/bases", {"workspace": 5, "name": "x"}, "workspace"),
        ("POST", "/bases", {"workspace": "WS", "name": 7}, "name"),
        ("POST", "/bases", {"workspace": "WS", "name": "x", "description": ["d"]}, "description"),
        ("POST", "/bases", {"workspace": "WS", "name": "x", "compilationPolicy": True}, "compilationPolicy"),
        ("POST", "/bases", {"workspace": "WS", "name": "x", "paths": "one"}, "paths"),
        ("POST", "/bases", {"workspace": "WS", "name": "x", "paths": [1]}, "paths"),
        ("POST", "/bases", {"workspace": "relative/dir", "name": "x"}, "workspace"),
        ("POST", "/bases", {"workspace": "WS"}, "name"),
        ("POST", "/bases/kb/compilations", {"workspace": None}, "workspace"),
        ("PATCH", "/bases/kb/compilation-policy", {"workspace": "WS", "policy": 1}, "policy"),
        ("POST", "/compilations/claim", {"workspace": {"a": 1}}, "workspace"),
        ("POST", "/bases/kb/compilations/job-1-1/result", {"workspace": "WS", "outcome": 3}, "outcome"),
        ("POST", "/bases/kb/compilations/job-1-1/result", {"workspace": "WS", "outcome": "failed", "transient": 1}, "transient"),
        ("POST", "/bases/kb/compilations/job-1-1/result", {"workspace": "WS", "outcome": "failed", "error": 5}, "error"),
        ("POST", "/bases/kb/compilations/job-1-1/result", {"workspace": "WS", "outcome": "failed", "compilerVersion": 2}, "compilerVersion"),
        ("POST", "/bases/kb/compilations/job-1-1/result", {"workspace": "WS", "outcome": "failed", "errorCode": 2}, "errorCode"),
        ("POST", "/bases/kb/compilations/job-1-1/cancel", {}, "workspace"),
    ],
)
def test_wrong_types_are_400_naming_the_field(api, ws, method, path, body, field) -> None:
    body = {k: (ws if v == "WS" else v) for k, v in body.items()}
    message = error(api.request(method, path, json=body), 400)
    assert f"'{field}'" in message


def test_unknown_fields_ignored_and_bad_json_is_400(api, ws) -> None:
    made = data(api.post("/bases", json={"workspace": ws, "name": "Extra", "color": "blue", "x": [1, {}]}))
    assert made["knowledgeBase"]["id"] == "extra"
    assert claim(api, {"workspace": ws, "future": True})["claimed"] is False
    assert "JSON" in error(api.post("/compilations/claim", content=b"{not json"), 400)
    assert "object" in error(api.post("/compilations/claim", json=[1, 2]), 400)
    assert "workspace" in error(api.get("/bases/extra/compilation"), 400)
    assert "policy" in error(api.patch("/bases/extra/compilation-policy", json={"workspace": ws, "policy": "often"}), 400)
    changed = data(api.patch("/bases/extra/compilation-policy", json={"workspace": ws, "policy": "smart_auto"}))
    assert changed == {**changed, "changed": True, "job": None}
    assert changed["knowledgeBase"]["compilationPolicy"] == "smart_auto"


def test_naming_a_workspace_monitors_it(api, tmp_path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    assert data(api.get("/bases", params={"workspace": str(other)}))["total"] == 0
    assert data(api.post("/compilations/claim", json={"workspace": str(tmp_path)}))["claimed"] is False
    error(api.post("/compilations/claim", json={"workspace": str(tmp_path / "missing")}), 400)


def test_naming_a_workspace_adopts_its_bases_on_disk(api, tmp_path) -> None:
    other = tmp_path / "made-by-another-host"
    sources = other / ".a3s/kb/bases/ref-kb/sources"
    sources.mkdir(parents=True)
    (sources / "a.md").write_text("# A\n", encoding="utf-8")
    ws = str(other.resolve())
    assert summary(api, ws, "ref-kb")["phase"] == "source_ready"
    assert compile_base(api, ws, "ref-kb")["job"]["phase"] == "queued"
    error(api.get("/bases/ref-kb/compilation", params={"workspace": str(tmp_path / "absent")}), 404)


def test_source_changes_is_read_only(api, ws, make_ctx, clock) -> None:
    kb = new_base(api, ws, "Changes", {"a.md": "alpha\n", "b.md": "beta\n", "c.md": "gamma\n"})
    compile_base(api, ws, kb["id"])
    c = claim(api)
    stage(c)
    data(report(api, ws, c, outcome="succeeded"))
    src = Path(kb["sourcePath"])
    (src / "a.md").write_text("alpha, edited\n", encoding="utf-8")
    (src / "b.md").rename(src / "b-moved.md")
    (src / "c.md").unlink()
    (src / "d.md").write_text("delta\n", encoding="utf-8")
    clock.advance(3600)  # the fake clock is long past the files' mtimes: none is unstable
    before = summary(api, ws, kb["id"])
    first = data(api.get(f"/bases/{kb['id']}/source-changes", params={"workspace": ws}))
    expected = {"changed": True, "added": 1, "modified": 1, "deleted": 1, "renamed": 1, "totalChanged": 4,
                "previousFiles": 3, "currentFiles": 3, "safetyPause": None}
    assert {k: first[k] for k in expected} == expected
    assert isinstance(first["currentBytes"], int) and isinstance(first["unstablePaths"], list)
    second = data(api.get(f"/bases/{kb['id']}/source-changes", params={"workspace": ws}))
    assert second == first and summary(api, ws, kb["id"]) == before and not queued_jobs(make_ctx)


async def test_envelope_in_process(make_ctx, ws, monkeypatch) -> None:
    app = create_app(make_ctx, TOKEN)
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://kctui" + PREFIX, headers=headers) as c:
            r = await c.post("/bases", json={"workspace": ws, "name": "Inproc"})
            assert r.json()["code"] == 200 and r.json()["data"]["changed"] is True
            assert r.headers["content-type"] == "application/json"
            assert error(await c.get("/bases/nope/compilation", params={"workspace": ws}), 404).startswith("no knowledge base")
            assert error(await c.delete("/compilations/claim"), 405)
            assert error(await c.get("/elsewhere"), 404)
            assert (await c.get("/bases")).json()["data"]["total"] == 1

            def broken(*args: Any, **kwargs: Any) -> Any:
                raise OSError(28, "No space left on device", "/state/kctui.sqlite3")

            monkeypatch.setattr(bases_svc, "list_bases", broken)
            assert "No space left" in error(await c.get("/bases"), 500)

            def locked(*args: Any, **kwargs: Any) -> Any:
                raise sqlite3.OperationalError("disk I/O error")

            monkeypatch.setattr(bases_svc, "list_bases", locked)
            assert "database error" in error(await c.get("/bases"), 500)

            def bug(*args: Any, **kwargs: Any) -> Any:
                raise KeyError("secret internals")

            monkeypatch.setattr(bases_svc, "list_bases", bug)
            r = await c.get("/bases")
            assert "secret" not in error(r, 500)
    finally:
        app.state.contexts.close_all()


# -- serving: loopback only, token file, lifecycle --------------------------------------------------


def test_non_loopback_bind_is_refused(state: Path) -> None:
    for host in ("0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "example.com", "127.0.0.1.example.com"):
        with pytest.raises(ServeError, match="loopback only"):
            check_loopback_host(host)
    for host in ("127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"):
        check_loopback_host(host)
    said: list[str] = []
    assert serve("0.0.0.0", 0, worker=False, echo=said.append) == 2
    assert "loopback only" in said[0] and not paths.host_lock_file().exists()
    assert not paths.api_token_file().exists()
    with socket.socket() as busy:  # a port in use: a clear error, and the lock is released again
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert serve("127.0.0.1", port, worker=False, echo=said.append) == 1
    assert "cannot listen on 127.0.0.1" in said[-1]
    assert serve("127.0.0.1", port, worker=False, echo=said.append, stop_event=_set()) == 0


def test_token_file_is_0600_and_refused_when_others_can_read_it(state: Path, tmp_path: Path) -> None:
    token = load_or_create_token()
    f = paths.api_token_file()
    assert (os.stat(f).st_mode & 0o777) == 0o600 and len(token) >= 43
    assert load_or_create_token() == token == read_token(f)
    os.chmod(f, 0o640)
    with pytest.raises(TokenError, match="readable by other users"):
        read_token()
    with pytest.raises(TokenError, match="readable by other users"):
        load_or_create_token()  # never silently replaced or used
    os.chmod(f, 0o600)
    link = tmp_path / "link-token"
    link.symlink_to(f)
    with pytest.raises(TokenError, match="symlink"):
        read_token(link)
    with pytest.raises(TokenError, match="no API token file"):
        read_token(tmp_path / "absent")


def _set() -> threading.Event:
    event = threading.Event()
    event.set()
    return event


@contextlib.contextmanager
def serving(worker: bool) -> Iterator[tuple[str, httpx.Client]]:
    """`serve()` (the `kctui serve` code path) in a thread, with the state dir's real token."""
    said: list[str] = []
    stop = threading.Event()
    rc: list[int] = []
    thread = threading.Thread(target=lambda: rc.append(serve("127.0.0.1", 0, worker=worker, stop_event=stop,
                                                             echo=said.append)), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not said:
        assert thread.is_alive() and time.monotonic() < deadline, rc
        time.sleep(0.01)
    match = re.fullmatch(r"kctui host listening on (http://127\.0\.0\.1:\d+)", said[0])
    assert match, said
    url = match.group(1)
    try:
        with httpx.Client(base_url=url + PREFIX, headers={"Authorization": f"Bearer {read_token()}"},
                          timeout=10, trust_env=False) as c:
            yield url, c
    finally:
        stop.set()
        t0 = time.monotonic()
        thread.join(5)
        assert not thread.is_alive() and rc == [0] and time.monotonic() - t0 < 2.5


def wait_phase(c: httpx.Client, ws: str, kb_id: str, phases: set[str], deadline: float = 10.0) -> dict[str, Any]:
    end = time.monotonic() + deadline
    while True:
        s = summary(c, ws, kb_id)
        if s["phase"] in phases or time.monotonic() > end:
            return s
        time.sleep(0.05)


def test_serve_with_builtin_worker_compiles_and_holds_the_lock(state: Path, ws: str) -> None:
    with serving(worker=True) as (url, c):
        kb = new_base(c, ws, "Built in", {"one.md": "# One\n", "two.txt": "two\n"})
        compile_base(c, ws, kb["id"])
        s = wait_phase(c, ws, kb["id"], {"succeeded", "failed"})
        assert s["phase"] == "succeeded", s
        assert (Path(kb["knowledgeBasePath"]) / "wiki/index.md").is_file()
        said: list[str] = []
        assert serve("127.0.0.1", 0, echo=said.append) == 1
        assert "another kctui host" in said[0]
    assert (os.stat(paths.api_token_file()).st_mode & 0o777) == 0o600


def test_stopping_the_host_reports_the_running_builtin_job_for_retry(state, ws, monkeypatch) -> None:
    from kctui.compiler.runner import CompileCancelled
    from kctui.services import worker as worker_mod

    started = threading.Event()

    def endless(request, *, progress=None, should_stop):
        started.set()
        while True:
            if should_stop():
                raise CompileCancelled()
            time.sleep(0.01)

    monkeypatch.setattr(worker_mod, "compile_job", endless)
    with serving(worker=True) as (url, c):
        kb = new_base(c, ws, "Interrupted")
        job_id = compile_base(c, ws, kb["id"])["job"]["id"]
        assert started.wait(10)
        assert summary(c, ws, kb["id"])["phase"] == "running"
    # `serving` checked that the host stopped within the 2 s budget
    ctx = ServiceContext.open()
    try:
        job = jobs_svc.get_job(ctx, job_id)
        assert (job.phase, job.error_code, bool(job.transient)) == ("failed", "compiler_crashed", True)
        assert [j.trigger for j in jobs_svc.list_jobs(ctx) if j.phase == "queued"] == ["retry"]
        assert not [j for j in jobs_svc.list_jobs(ctx) if j.phase == "running"]
    finally:
        ctx.close()


def test_kctui_worker_compiles_the_demo_base_against_serve_no_worker(state: Path, ws: str) -> None:
    demo = sorted(str(p) for p in (Path(paths.__file__).parent / "demo_sources").iterdir() if p.is_file())
    with serving(worker=False) as (url, c):
        made = data(c.post("/bases", json={"workspace": ws, "name": "Demo notes", "paths": demo}))
        kb = made["knowledgeBase"]
        assert sorted(p.name for p in Path(kb["sourcePath"]).iterdir()) == sorted(Path(p).name for p in demo)
        assert run_worker_cli(url, None, once=True) == 0  # nothing queued: exits at once
        job = compile_base(c, ws, kb["id"])["job"]
        time.sleep(0.3)
        assert summary(c, ws, kb["id"])["phase"] == "queued"  # --no-worker: nobody else claims
        assert run_worker_cli(url, str(paths.api_token_file()), once=True) == 0
        s = summary(c, ws, kb["id"])
        assert s["phase"] == "succeeded" and s["lastCompiledDigest"] == job["sourceDigest"]
        final = data(c.get(f"/bases/{kb['id']}/compilations/{job['id']}", params={"workspace": ws}))
        assert final["phase"] == "succeeded" and final["claimedBy"] == "external"
        wiki = Path(kb["knowledgeBasePath"]) / "wiki"
        assert (wiki / "index.md").is_file() and len(list(wiki.rglob("*.md"))) > len(demo)
        ctx = ServiceContext.open()
        try:
            assert not [j for j in jobs_svc.list_jobs(ctx) if j.phase in ("queued", "running")]
        finally:
            ctx.close()


def test_kctui_worker_compiles_under_the_bases_policy_not_the_default(state: Path, ws: str) -> None:
    """Issue 5: a remote `kctui worker --url` reads the base's policy from the claim's compileOptions;
    under `--autonomy suggest` nothing is written unattended: every update is held for review."""
    from click.testing import CliRunner

    from kctui.cli import main
    from kctui.services import review as review_svc

    with serving(worker=False) as (url, c):
        kb = new_base(c, ws, "Careful notes", {"alpha.md": "# Alpha\n\nAlpha is a service.\n\nPort: 8080\n",
                                               "beta.txt": "Beta runs on Alpha.\n"})
        out = CliRunner().invoke(main, ["kb", "policy", ws, kb["id"], "--autonomy", "suggest",
                                        "--link-style", "markdown"])
        assert out.exit_code == 0, out.output
        job = compile_base(c, ws, kb["id"])["job"]
        seen: list[dict[str, Any]] = []
        real_claim = HttpTransport.claim

        def spy(self: HttpTransport) -> dict[str, Any]:
            answer = real_claim(self)
            seen.append(answer)
            return answer

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(HttpTransport, "claim", spy)
            assert run_worker_cli(url, str(paths.api_token_file()), once=True) == 0
        assert seen and seen[0]["claimed"] and seen[0]["compileOptions"]["trustPolicy"]["autonomy"] == "suggest"
        assert seen[0]["compileOptions"]["linkStyle"] == "markdown"
        s = summary(c, ws, kb["id"])
        assert s["phase"] == "succeeded" and s["lastCompiledDigest"] == job["sourceDigest"]
        wiki = Path(kb["knowledgeBasePath"]) / "wiki"
        sources = sorted((wiki / "sources").glob("*.md"))
        assert sources
        for page in sources:  # held creates: stubs awaiting review, none of the compiled content
            text = page.read_text(encoding="utf-8")
            assert "compile_status: needs-review" in text and "8080" not in text, page.name
        ctx = ServiceContext.open()
        try:
            items = review_svc.list_items(ctx, ws, kb_id=kb["id"])
        finally:
            ctx.close()
        assert items and {i.reason for i in items} == {"autonomy_ceiling"}
        assert {p.page_path for i in items for p in i.page_list} >= {f"sources/{p.name}" for p in sources}


def test_http_transport_compile_options_reads_the_claim_extension() -> None:
    claim = {"compileOptions": {"trustPolicy": {"autonomy": "auto"}, "linkStyle": "markdown", "extractor": "llm"}}
    assert HttpTransport.compile_options(claim) == {"trust_policy": {"autonomy": "auto"}, "link_style": "markdown",
                                                    "extractor": "llm"}
    assert HttpTransport.compile_options({}) == {}  # another host: the defaults (guarded policy)
    assert HttpTransport.compile_options({"compileOptions": "x"}) == {}
    assert HttpTransport.compile_options({"compileOptions": {"linkStyle": "odd", "extractor": 3}}) == {}


def test_worker_refuses_a_non_loopback_url_and_a_loose_token_file(state: Path, tmp_path: Path, capsys) -> None:
    assert run_worker_cli("http://192.168.1.2:8765", None, once=True) == 2
    loose = tmp_path / "tok"
    loose.write_text("t" * 43)
    os.chmod(loose, 0o644)
    assert run_worker_cli("http://127.0.0.1:9", str(loose), once=True) == 1
    os.chmod(loose, 0o600)
    assert run_worker_cli("http://127.0.0.1:9", str(loose), once=True) == 1  # nothing listens on port 9
    err = capsys.readouterr().err
    assert "not a loopback address" in err and "readable by other users" in err
    assert "cannot reach the host" in err


def test_serve_stops_on_sigterm_within_two_seconds(state: Path) -> None:
    code = "import sys; from kctui.api.serve import run_serve; sys.exit(run_serve('127.0.0.1', 0, False))"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ})
    try:
        line = proc.stdout.readline().strip()
        assert re.fullmatch(r"kctui host listening on http://127\.0\.0\.1:\d+", line), (line, proc.stderr.read())
        url = line.rsplit(" ", 1)[1]
        r = httpx.get(url + PREFIX + "/bases", headers={"Authorization": f"Bearer {read_token()}"}, trust_env=False)
        assert r.status_code == 200
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(5) == 0
        assert time.monotonic() - t0 < 2.0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


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


# -- fuzzing ----------------------------------------------------------------------------------------

_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                     max_leaves=8)


@st.composite
def fuzz_request(draw, ws: str, job_ids: list[str]) -> tuple[str, str, Any, dict[str, str]]:
    kb = quote(draw(st.sampled_from(["fuzz", "fuzz-2", "Fuzz", "no-such", "a" * 70]) | st.text(min_size=1, max_size=12)), safe="")
    kb = kb if kb not in (".", "..") else "dot"
    job = draw(st.sampled_from(job_ids + ["job-1-1", "JOB", "x" * 100]))
    method, path = draw(st.sampled_from([
        ("GET", "/bases"), ("POST", "/bases"), ("POST", f"/bases/{kb}/compilations"),
        ("GET", f"/bases/{kb}/compilation"), ("PATCH", f"/bases/{kb}/compilation-policy"),
        ("GET", f"/bases/{kb}/source-changes"), ("GET", f"/bases/{kb}/compilations/{job}"),
        ("POST", f"/bases/{kb}/compilations/{job}/cancel"), ("POST", "/compilations/claim"),
        ("POST", f"/bases/{kb}/compilations/{job}/result")]))
    fields = {
        # never a real folder outside the test's workspace: a fuzzed "/" would create /.a3s
        "workspace": st.sampled_from([ws, ws + "/", "relative", "/no/such/dir", ""]) | st.integers() | st.none()
        | st.lists(st.integers(), max_size=2),
        "name": st.sampled_from(["Fuzz", "fuzz 2", "x" * 81]) | _json,
        "description": _json, "compilationPolicy": st.sampled_from(["manual", "smart_auto", "often"]) | _json,
        "policy": st.sampled_from(["manual", "smart_auto", "often"]) | _json,
        "outcome": st.sampled_from(["succeeded", "failed", "maybe"]) | _json,
        "transient": _json, "error": _json, "compilerVersion": _json, "errorCode": _json, "unknown": _json,
    }
    chosen = draw(st.lists(st.sampled_from(sorted(fields)), unique=True, max_size=6))
    shape = draw(st.sampled_from(["object", "json", "bytes"]))
    body = ({k: draw(fields[k]) for k in chosen} if shape == "object" else draw(_json) if shape == "json"
            else draw(st.binary(max_size=40) | st.sampled_from([b"NaN", b'{"workspace": NaN}', b"\xff\xfe{}", b"{"])))
    params = {"workspace": draw(st.sampled_from([ws, "relative", "/no/such", ""]))} if method == "GET" else {}
    return method, path, body, params


def test_fuzzed_requests_never_5xx_and_leave_the_store_consistent(api, ws, make_ctx) -> None:
    kb = new_base(api, ws, "Fuzz")
    compile_base(api, ws, kb["id"])
    job_ids = [claim(api)["job"]["id"]]

    @settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck), database=None,
              derandomize=True)
    @given(req=fuzz_request(ws, job_ids))
    def run(req: tuple[str, str, Any, dict[str, str]]) -> None:
        method, path, body, params = req
        if isinstance(body, bytes):
            r = api.request(method, path, content=body, params=params)
        else:
            r = api.request(method, path, json=body, params=params)
        assert r.status_code < 500, (method, path, body, r.text)
        envelope = r.json()
        assert envelope["code"] == r.status_code and ("data" in envelope) == (r.status_code < 400)

    run()
    ctx = make_ctx()
    assert ctx.store.integrity_ok()
    running = [j for j in jobs_svc.list_jobs(ctx, limit=10_000) if j.phase == "running"]
    assert len(running) <= 1
    for base in bases_svc.list_bases(ctx):
        if base.active_job_id:
            assert [j.id for j in running] == [base.active_job_id]
