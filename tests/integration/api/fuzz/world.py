"""The fuzzed world and how one generated request is aimed, sent and checked (for test_api_fuzz.py):
the sandbox and its bases and jobs, `reach` and `shape` (aim and confine a case), `send` (the wire
variants and every check of an answer), the weighted `cases`, and the store's invariants afterwards."""


from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any

import requests
from hypothesis import HealthCheck, Phase
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis import checks as st_checks

from kctui import paths
from kctui.api.server import MAX_BODY
from kctui.config import Settings
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
PAGE = "---\ntype: Concept\ntitle: Beta\nsources:\n- resource: b.md\n---\n# Beta\n\nA page.\n"  # its source: b.md
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
            write_text(Path(data["outputPath"]) / "index.md", INDEX)
            write_text(Path(data["outputPath"]) / "concepts/beta.md", PAGE)
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


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def open_ctx() -> ServiceContext:
    return ServiceContext.open(settings=Settings())


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


def shape(case: Any, pins: dict[str, Any], w: World) -> None:  # noqa: C901 - one table of the API's routes and what each case needs
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
