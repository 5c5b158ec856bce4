"""What the protocol tests share: the token, staged pages, field sets, a uvicorn server in a thread,
the envelope checks and the short ways to drive the API (create, compile, claim, report), and
`serving()`, the `kctui serve` code path in a thread."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from kctui.api.serve import serve
from kctui.api.server import PREFIX
from kctui.api.token import read_token
from kctui.services import jobs as jobs_svc

TOKEN = "test-token-" + "x" * 40
RFC3339_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$")
# a staged page names a source of its base (a.md, or notes.md of `new_base`): the host refuses one with none
PAGE = ("---\ntype: Concept\ntitle: Alpha\nsources:\n- resource: a.md\n- resource: notes.md\n---\n# Alpha\n\n"
        "A staged page.\n")
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


def already_set() -> threading.Event:
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
