"""Fuzzing the loopback protocol from its own OpenAPI description (issue 7: "no 5xx, no hang, the store
still consistent afterwards").

The real app runs under uvicorn on 127.0.0.1 with the token set, on a real store in the test's
KCTUI_STATE_DIR, with two real knowledge bases made through the services from tiny source files (one
with a queued manual job, one with a promoted wiki and a running job). Schemathesis loads the document
the server itself answers at `GET /api/v1/knowledge/openapi.json` and generates requests from it, valid
(positive) and schema-violating (negative), and every answer is checked against the same document
(status documented, JSON, response schema) and against the envelope. On top of the generated data the
test varies what a schema cannot express:

- **reach**: with some probability a generated workspace, base id or job id is replaced by a real one
  (job ids are harvested from earlier answers), so requests get past "not found" and change state:
  compile, claim, cancel, results of both outcomes, policy switches;
- **the wire**: no token, a wrong token, another scheme; a body that is not JSON, not UTF-8, not an
  object, or over the 1 MiB limit.

Confinement: every absolute path a request names (workspace, `paths` and `path` to copy) is moved under the test's
sandbox folder when it points elsewhere, so no generated request can create `.a3s/` at `/` or copy a
real tree; that changes where a path points, never whether it is valid.

The runs are deterministic (`derandomize`, no example database) and bounded to keep the file well under
40 s. Afterwards: `PRAGMA integrity_check` is ok, no foreign key is dangling, at most one job is
running, and every base's active job is an open job of that base.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sqlite3
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest
import requests
import schemathesis
import uvicorn
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis import checks as st_checks
from starlette.routing import Route

from kctui import paths
from kctui.api.openapi import openapi_document
from kctui.api.server import MAX_BODY, PREFIX, create_app
from kctui.config import Settings
from kctui.core.models import CLAIMED_BY_EXTERNAL
from kctui.services import bases as bases_svc
from kctui.services import jobs as jobs_svc
from kctui.services import results as results_svc
from kctui.services.context import ServiceContext

TOKEN = "fuzz-token-" + "f" * 40
REQUEST_SECONDS = 5.0  # "no hang": every answer within this (a hung request fails at the client timeout)
CLIENT_TIMEOUT = 10.0
SEQUENTIAL_EXAMPLES = 800
CONCURRENT_EXAMPLES = 50
# schemathesis's own checks, by their public names: not a 5xx, the status and content type documented for
# the operation, the body valid against the operation's response schema
CHECKS = [getattr(st_checks, name) for name in ("not_a_server_error", "status_code_conformance",
                                                "content_type_conformance", "response_schema_conformance")]
PAGE = "---\ntype: Concept\ntitle: Beta\n---\n# Beta\n\nA page.\n"
INDEX = "# Index\n\n1 page.\n\n## Concepts\n\n* [Beta](/concepts/beta.md) - A page.\n"

# No shrinking: the server's state moves on between replays, so a shrunk example would not replay the
# failure; the first failing request is reported in full instead (and fast).
FUZZ_SETTINGS = dict(derandomize=True, database=None, deadline=None, print_blob=False,
                     phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck))


# -- the world: a real store with two bases, a server on loopback ------------------------------------


@dataclass
class World:
    """The sandbox and what requests can aim at: bases as (workspace, id), jobs as (workspace, base, job);
    both grow with what the answers name (bases created, jobs queued or claimed during the run)."""

    sandbox: Path
    workspaces: list[str]
    bases: list[tuple[str, str]]
    jobs: list[tuple[str, str, str]]
    claimed: list[tuple[str, str, str]]  # jobs some claim answered, latest last
    lock: threading.Lock = field(default_factory=threading.Lock)

    def harvest(self, payload: Any) -> None:
        data = payload.get("data") if isinstance(payload, dict) else None
        if not isinstance(data, dict):
            return
        if data.get("claimed") is True and Path(data["outputPath"]).is_relative_to(self.sandbox):
            # act as the compiler: a valid staged wiki, so a later "succeeded" result can promote it
            _write(Path(data["outputPath"]) / "index.md", INDEX)
            _write(Path(data["outputPath"]) / "concepts/beta.md", PAGE)
            with self.lock:
                self.claimed.append((data["workspaceRoot"], data["job"]["knowledgeBaseId"], data["job"]["id"]))
        kbs = [data.get("knowledgeBase"), *(data.get("items") or [])]
        jobs = [data.get("job"), data if "knowledgeBaseId" in data else None]
        with self.lock:
            for kb in kbs:
                if isinstance(kb, dict) and (kb["workspaceRoot"], kb["id"]) not in self.bases:
                    self.bases.append((kb["workspaceRoot"], kb["id"]))
            for job in jobs:
                if isinstance(job, dict) and (key := (job["workspaceRoot"], job["knowledgeBaseId"], job["id"])) \
                        not in self.jobs:
                    self.jobs.append(key)

    def snapshot(self) -> tuple[list[tuple[str, str]], list[tuple[str, str, str]], tuple[str, str, str]]:
        with self.lock:
            return list(self.bases), list(self.jobs), self.claimed[-1]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def open_ctx() -> ServiceContext:
    return ServiceContext.open(settings=Settings())


@pytest.fixture
def world(tmp_path: Path, state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> World:
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    sandbox = (tmp_path / "sandbox").resolve()
    ws_a, ws_b = sandbox / "ws-a", sandbox / "ws-b"
    for d in (ws_a, ws_b, sandbox / "empty-ws"):
        d.mkdir(parents=True)
    _write(sandbox / "inbox" / "note.md", "# Inbox\n\nA note to copy.\n")
    _write(sandbox / "lone.md", "# Lone\n\nOne file.\n")
    ctx = open_ctx()
    try:
        # alpha (manual): its manual job runs first and fails transiently, so a retry waits in the queue
        _, alpha = bases_svc.create_base(ctx, ws_a, "Alpha", description="the first base")
        _write(Path(alpha.workspace) / ".a3s/kb/bases/alpha/sources/a.md", "# A\n\nAlpha is a letter.\n")
        jobs_svc.request_compile(ctx, ws_a, "alpha")
        # beta: smart_auto, one promoted generation, then a second job claimed by an external compiler
        _, beta = bases_svc.create_base(ctx, ws_b, "Beta", policy="smart_auto")
        sources = Path(beta.workspace) / ".a3s/kb/bases/beta/sources"
        _write(sources / "b.md", "# B\n\nBeta follows alpha.\n")
        jobs_svc.request_compile(ctx, ws_b, "beta")
        claimed_base, first = jobs_svc.claim(ctx, claimed_by=CLAIMED_BY_EXTERNAL)
        results_svc.report_result(ctx, claimed_base.workspace, claimed_base.id, first.id, "failed",
                                  transient=True, error="fuzz setup: a transient failure")
        claimed_base, second = jobs_svc.claim(ctx, claimed_by=CLAIMED_BY_EXTERNAL)
        assert claimed_base.id == "beta"
        staged = paths.staged_wiki(Path(claimed_base.workspace), "beta", second.id)
        _write(staged / "index.md", INDEX)
        _write(staged / "concepts/beta.md", PAGE)
        changed, _, done = results_svc.report_result(ctx, claimed_base.workspace, "beta", second.id, "succeeded",
                                                     compiler_version="fuzz/1")
        assert changed and done.phase == "succeeded"
        _write(sources / "c.md", "# C\n\nA later note.\n")
        jobs_svc.request_compile(ctx, ws_b, "beta")
        running_base, running = jobs_svc.claim(ctx, claimed_by=CLAIMED_BY_EXTERNAL, workspace=str(ws_b))
        assert running_base.id == "beta" and running.phase == "running"
        jobs = [(j.workspace, j.base_id, j.id) for j in jobs_svc.list_jobs(ctx)]
        assert len(jobs) == 4 and (running.workspace, "beta", running.id) in jobs
    finally:
        ctx.close()
    return World(sandbox=sandbox, workspaces=[alpha.workspace, beta.workspace, str(sandbox / "empty-ws")],
                 bases=[(alpha.workspace, "alpha"), (beta.workspace, "beta")], jobs=jobs,
                 claimed=[(running.workspace, "beta", running.id)])


@contextlib.contextmanager
def run_uvicorn(app: Any) -> Iterator[str]:
    """Serve `app` on 127.0.0.1 (a free port) in a thread; yields the origin URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
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
def live(world: World) -> Iterator[str]:
    with run_uvicorn(create_app(open_ctx, TOKEN)) as url:
        yield url


@pytest.fixture
def schema(live: str) -> Any:
    """The document as the running server serves it (token required), loaded by schemathesis."""
    loaded = schemathesis.openapi.from_url(f"{live}{PREFIX}/openapi.json",
                                           headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)
    loaded.validate()
    return loaded


# -- request shaping ---------------------------------------------------------------------------------

AUTH_VARIANTS = ["token"] * 14 + ["lowercase-scheme", "none", "wrong", "basic"]
WIRE_VARIANTS = ["as-generated"] * 16 + ["not-json", "not-utf8", "not-an-object", "too-large"]


@st.composite
def reach(draw: Any) -> dict[str, Any]:
    """What to aim a generated request at (indices resolved against the live pools when sent): `job` a
    known job (its workspace, base and id together; "claimed": the latest claimed one, likely still
    running), else `base` a known base, else `workspace` some folder and `id` some base id; None keeps
    the generated value (confined). `auth` and `wire` vary the token and the body as sent."""
    return {
        "job": draw(st.sampled_from(["claimed", "any", "claimed", None]).flatmap(
            lambda k: st.integers(0, 1_000) if k == "any" else st.just(k))),
        "base": draw(st.sampled_from([0, 1, "any", None]).flatmap(  # 0, 1: alpha and beta (they have sources)
            lambda k: st.integers(0, 1_000) if k == "any" else st.just(k))),
        "workspace": draw(st.sampled_from([None, "empty", "file", "missing", "dotdot", "other"])),
        "id": draw(st.sampled_from([None, None, None, "gamma", "alpha"])),
        "auth": draw(st.sampled_from(AUTH_VARIANTS)),
        "wire": draw(st.sampled_from(WIRE_VARIANTS)),
    }


def confine(value: Any, sandbox: Path) -> Any:
    """An absolute path outside the sandbox moved inside it (lexically normalised first, so `..` cannot
    climb out); anything else unchanged. Validity (absolute or not, NUL or not) is kept."""
    if not isinstance(value, str) or not value.startswith("/") or "\0" in value:
        return value
    root = str(sandbox)
    normal = os.path.normpath(value)
    if normal == root or normal.startswith(root + "/"):
        return value
    return root + "/elsewhere" + (normal if normal != "/" else "")


def shape(case: Any, pins: dict[str, Any], w: World) -> None:
    """Aim a generated case (reach), confine its paths, set its token: in place."""
    bases, jobs, claimed = w.snapshot()
    params = case.path_parameters if isinstance(case.path_parameters, dict) else None
    aimed_ws: str | None = None
    if params is not None and "jobId" in params and pins["job"] is not None:
        aimed_ws, params["id"], params["jobId"] = claimed if pins["job"] == "claimed" else jobs[pins["job"] % len(jobs)]
    elif pins["base"] is not None and (params is None or "id" in params or case.method == "GET"):
        aimed_ws, kb = bases[pins["base"] % len(bases)]
        if params is not None and "id" in params:
            params["id"] = kb
    else:
        if pins["workspace"] is not None:
            aimed_ws = {"empty": w.workspaces[2], "file": str(w.sandbox / "lone.md"),
                        "missing": str(w.sandbox / "no-such-dir"), "dotdot": w.workspaces[0] + "/../ws-b",
                        "other": w.workspaces[1]}[pins["workspace"]]
        if params is not None and "id" in params and pins["id"] is not None:
            params["id"] = pins["id"]
    body = case.body if isinstance(case.body, dict) else None
    if body is not None:
        if aimed_ws is not None:
            body["workspace"] = aimed_ws
        elif "workspace" in body:
            body["workspace"] = confine(body["workspace"], w.sandbox)
        if isinstance(body.get("path"), str):  # ingest-path: a file or folder to copy
            body["path"] = confine(body["path"], w.sandbox)
            if aimed_ws is not None and (pins["base"] or 0) % 3 == 0:
                body["path"] = [str(w.sandbox / "inbox"), str(w.sandbox / "lone.md")][(pins["base"] or 0) % 2]
        if isinstance(body.get("paths"), list):
            body["paths"] = [confine(p, w.sandbox) for p in body["paths"]]
            if aimed_ws is not None and (pins["base"] or 0) % 3 == 0:
                body["paths"] = [str(w.sandbox / "inbox"), str(w.sandbox / "lone.md")][: 1 + (pins["base"] or 0) % 2]
    if case.method == "GET":
        query = dict(case.query or {})
        if aimed_ws is not None:
            query["workspace"] = aimed_ws
        elif "workspace" in query:
            query["workspace"] = confine(query["workspace"], w.sandbox)
        case.query = query
    headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
    auth = {"token": f"Bearer {TOKEN}", "lowercase-scheme": f"bearer {TOKEN}", "wrong": "Bearer not-the-token",
            "basic": "Basic dXNlcjpwYXNz"}.get(pins["auth"])
    if auth is not None:
        headers["Authorization"] = auth
    case.headers = headers


def raw_body(wire: str) -> bytes | None:
    return {"not-json": b'{"workspace": ', "not-utf8": b'{"workspace": "\xff\xfe"}',
            "not-an-object": b'["workspace", 1, null]', "too-large": b" " * (MAX_BODY + 1)}.get(wire)


# -- checking one answer -----------------------------------------------------------------------------


@dataclass
class Tally:
    by_operation: Counter = field(default_factory=Counter)
    by_status: Counter = field(default_factory=Counter)
    ok_operations: Counter = field(default_factory=Counter)
    slowest: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, label: str, status: int, seconds: float) -> None:
        with self.lock:
            self.by_operation[label] += 1
            self.by_status[status] += 1
            if status < 300:
                self.ok_operations[label] += 1
            self.slowest = max(self.slowest, seconds)

    def report(self) -> str:
        return (f"{sum(self.by_status.values())} requests; statuses {dict(sorted(self.by_status.items()))}; "
                f"2xx by operation {dict(sorted(self.ok_operations.items()))}; slowest {self.slowest * 1000:.0f} ms")


def content_type(response: Any) -> str:
    """From a requests response or a schemathesis one (whose header values are lists)."""
    for name, value in response.headers.items():
        if name.lower() == "content-type":
            return value[0] if isinstance(value, list) else value
    return ""


def check_envelope(response: Any) -> None:
    assert content_type(response).startswith("application/json"), response.headers
    body = response.json()
    status = response.status_code
    if status < 400:
        assert set(body) == {"code", "message", "data"}, body
    else:
        assert set(body) == {"code", "error", "message"}, body
        assert body["error"] == HTTPStatus(status).phrase
        assert "Traceback" not in response.text
    assert body["code"] == status and isinstance(body["message"], str) and body["message"]


def send(case: Any, pins: dict[str, Any], w: World, base_url: str, session: requests.Session, tally: Tally) -> None:
    shape(case, pins, w)
    raw = raw_body(pins["wire"])
    started = time.monotonic()
    if raw is None:
        response = case.call(base_url=base_url, session=session, timeout=CLIENT_TIMEOUT)
    else:  # the same request with a broken body, sent as is
        kwargs = case.as_transport_kwargs(base_url=base_url)
        for key in ("json", "data"):
            kwargs.pop(key, None)
        headers = {**kwargs.pop("headers", {}), "Content-Type": "application/json"}
        response = session.request(**kwargs, headers=headers, data=raw, timeout=CLIENT_TIMEOUT)
    seconds = time.monotonic() - started
    what = f"{case.method} {case.formatted_path} query={case.query!r} body={str(case.body)[:300]!r} pins={pins}"
    tally.add(case.operation.label, response.status_code, seconds)
    assert seconds < REQUEST_SECONDS, f"{what} took {seconds:.1f} s"
    assert response.status_code < 500, f"{what} -> {response.status_code} {response.text[:500]}"
    if not (case.formatted_path.endswith("/openapi.json") and response.status_code == 200):  # that one is raw
        check_envelope(response)
    if pins["auth"] in ("none", "wrong", "basic"):
        assert response.status_code == 401, what
    elif pins["wire"] == "too-large":
        assert response.status_code == 413, what
    elif raw is not None and case.method != "GET" and response.status_code != 404:
        assert response.status_code == 400, what  # a broken body on a route that reads it
    case.validate_response(response, checks=CHECKS)
    if response.status_code < 300:
        w.harvest(response.json())


# The protocol's cycle gets more of the requests: compile, claim, result, cancel.
WEIGHTS = {"requestCompilation": 3, "claim": 3, "reportResult": 4, "cancelJob": 1}


def cases(schema: Any) -> Any:
    """Requests generated from the served document: every operation, valid and schema-violating data."""
    strategies = []
    for result in schema.get_all_operations():
        operation = result.ok()
        weight = WEIGHTS.get(operation.definition.raw.get("operationId"), 1)
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            strategies += [operation.as_strategy(generation_mode=mode)] * weight
    # (st.one_of would fold the repeated strategies into one: pick by index instead)
    return st.sampled_from(range(len(strategies))).flatmap(lambda i: strategies[i])


# -- the store afterwards ----------------------------------------------------------------------------


def assert_store_consistent() -> dict[str, int]:
    """The invariants; returns the number of jobs in each phase (for the report)."""
    conn = sqlite3.connect(paths.database_file())
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        running = conn.execute("SELECT id, workspace, base_id FROM jobs WHERE phase = 'running'").fetchall()
        assert len(running) <= 1, running
        for ws, kb, active in conn.execute("SELECT workspace, id, active_job_id FROM bases").fetchall():
            if active is not None:
                row = conn.execute("SELECT workspace, base_id, phase FROM jobs WHERE id = ?", (active,)).fetchone()
                assert row is not None and row[:2] == (ws, kb) and row[2] in ("queued", "running"), (ws, kb, row)
        for job_id, ws, kb in running:
            active = conn.execute("SELECT active_job_id FROM bases WHERE workspace = ? AND id = ?", (ws, kb)).fetchone()
            assert active == (job_id,), (job_id, active)
        return dict(conn.execute("SELECT phase, count(*) FROM jobs GROUP BY phase ORDER BY phase").fetchall())
    finally:
        conn.close()


# -- the tests ---------------------------------------------------------------------------------------


def test_fuzzed_requests_from_the_openapi_document(schema: Any, live: str, world: World) -> None:
    tally = Tally()
    with requests.Session() as session:
        session.trust_env = False

        @settings(max_examples=SEQUENTIAL_EXAMPLES, **FUZZ_SETTINGS)
        @given(case=cases(schema), pins=reach())
        def run(case: Any, pins: dict[str, Any]) -> None:
            send(case, pins, world, live, session, tally)

        run()
    print("\nsequential fuzz:", tally.report(), "; jobs by phase afterwards:", assert_store_consistent())
    documented = {op.ok().label for op in schema.get_all_operations()}
    assert set(tally.by_operation) == documented, "every operation was exercised"
    # the fuzzer gets past "not found": state-changing answers happened, not only rejections
    assert {"POST /api/v1/knowledge/bases", "POST /api/v1/knowledge/bases/{id}/compilations",
            "POST /api/v1/knowledge/compilations/claim", "GET /api/v1/knowledge/bases/{id}/compilation",
            "GET /api/v1/knowledge/bases/{id}/source-changes",
            "POST /api/v1/knowledge/bases/{id}/compilations/{jobId}/result"} <= set(tally.ok_operations), tally.report()
    assert tally.by_status[400] and tally.by_status[401] and tally.by_status[404] and tally.by_status[413]


def test_fuzzed_requests_in_concurrent_bursts(schema: Any, live: str, world: World) -> None:
    """Bursts of generated requests at once (claims, results, cancels, compiles racing each other):
    still no 5xx and no hang, and still one running job at most."""
    tally = Tally()
    local = threading.local()
    sessions: list[requests.Session] = []

    def session() -> requests.Session:
        if getattr(local, "session", None) is None:
            local.session = requests.Session()
            local.session.trust_env = False
            sessions.append(local.session)
        return local.session

    try:
        with ThreadPoolExecutor(max_workers=6) as pool:

            @settings(max_examples=CONCURRENT_EXAMPLES, **FUZZ_SETTINGS)
            @given(burst=st.lists(st.tuples(cases(schema), reach()), min_size=4, max_size=8))
            def run(burst: list[tuple[Any, dict[str, Any]]]) -> None:
                # session() inside the worker: one requests.Session per thread (they are not thread-safe)
                futures = [pool.submit(lambda c=c, p=p: send(c, p, world, live, session(), tally)) for c, p in burst]
                for f in futures:
                    f.result(timeout=CLIENT_TIMEOUT * 2)

            run()
    finally:
        for s in sessions:
            s.close()
    print("\nconcurrent fuzz:", tally.report(), "; jobs by phase afterwards:", assert_store_consistent())


# -- the document itself ------------------------------------------------------------------------------


def test_document_is_valid_openapi_3() -> None:
    doc = openapi_document(PREFIX, max_body=MAX_BODY)
    schemathesis.openapi.from_dict(doc).validate()  # against the OpenAPI 3.0 meta-schema
    try:
        from openapi_spec_validator import validate  # noqa: PLC0415 - a stricter check when it is installed
    except ImportError:
        pass
    else:
        validate(openapi_document(PREFIX, max_body=MAX_BODY))
    # structural checks that do not depend on a validator
    assert doc["openapi"].startswith("3.0.") and doc["info"]["version"] == "1"
    assert doc["security"] == [{"bearerAuth": []}]
    assert doc["components"]["securitySchemes"]["bearerAuth"] == {**doc["components"]["securitySchemes"]["bearerAuth"],
                                                                 "type": "http", "scheme": "bearer"}
    schemas = doc["components"]["schemas"]
    assert schemas["ResultBody"]["properties"]["outcome"]["enum"] == ["succeeded", "failed"]
    assert set(schemas["ResultBody"]["required"]) == {"workspace", "outcome"}
    assert schemas["PolicyBody"]["properties"]["policy"]["enum"] == ["manual", "smart_auto"]
    assert set(schemas["CreateBaseBody"]["required"]) == {"workspace", "name"}
    assert set(schemas["Error"]["required"]) == {"code", "error", "message"}
    assert set(schemas["Claim"]["required"]) == {"claimed", "contractVersion", "workspaceRoot", "knowledgeBasePath",
                                                 "sourcePath", "previousWikiPath", "outputPath", "job"}

    def refs(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            if "$ref" in node:
                yield node["$ref"]
            for v in node.values():
                yield from refs(v)
        elif isinstance(node, list):
            for v in node:
                yield from refs(v)

    for ref in refs(doc):
        _, section, kind, name = ref.split("/")
        assert name in doc[section][kind], f"dangling {ref}"
    op_ids = [op["operationId"] for item in doc["paths"].values() for op in item.values()]
    assert len(op_ids) == len(set(op_ids))
    for item in doc["paths"].values():
        for op in item.values():
            assert "200" in op["responses"] and "401" in op["responses"]
            for code in op["responses"]:
                assert code == "200" or int(code) >= 400


def test_every_route_is_documented_and_every_documented_route_exists(tmp_path: Path) -> None:
    app = create_app(open_ctx, TOKEN)
    served = {(r.path, m.lower()) for r in app.routes if isinstance(r, Route) for m in r.methods if m != "HEAD"}
    doc = openapi_document(PREFIX, max_body=MAX_BODY)
    documented = {(p, m) for p, item in doc["paths"].items() for m in item}
    assert served == documented
    for route in app.routes:  # the path parameters are the same names
        if isinstance(route, Route):
            in_path = set(route.param_convertors)
            for method in route.methods - {"HEAD"}:
                op = doc["paths"][route.path][method.lower()]
                assert {p["name"] for p in op.get("parameters", []) if p["in"] == "path"} == in_path


async def test_the_document_is_served_with_the_token_only(world: World) -> None:
    app = create_app(open_ctx, TOKEN)
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://kctui" + PREFIX) as c:
            denied = await c.get("/openapi.json")
            assert denied.status_code == 401 and set(denied.json()) == {"code", "error", "message"}
            served = await c.get("/openapi.json", headers={"Authorization": f"Bearer {TOKEN}"})
            assert served.status_code == 200 and served.headers["content-type"] == "application/json"
            assert served.json() == json.loads(json.dumps(openapi_document(PREFIX, max_body=MAX_BODY)))
    finally:
        app.state.contexts.close_all()
