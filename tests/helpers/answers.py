"""A knowledge base compiled through the real worker (`compiled_base`), and a fake OpenAI-compatible
model on loopback that answers `kctui ask` (the `answerer` fixture): each
request is answered by `answerer.reply(prompt)` -> the reply's content (a string), streamed as
server-sent events in `answerer.pieces` pieces; with `answerer.gate` set to an Event, the stream stops
after its first piece until the test sets it (so a test can see the partial answer on screen)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from kctui import paths
from kctui.services import bases, jobs
from kctui.services.local_transport import LocalTransport
from kctui.services.worker import run_worker
from tests.helpers.model import serve


def compile_now(svc, ws: Path, kb_id: str) -> None:  # noqa: ANN001
    jobs.request_compile(svc, ws, kb_id)
    outcomes = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
    assert [o.result for o in outcomes] == ["succeeded"], outcomes


def make_base(svc, ws: Path, name: str, files: dict[str, str]):  # noqa: ANN001, ANN201
    _, base = bases.create_base(svc, ws, name)
    src = paths.sources_path(ws, base.id)
    for rel, text in files.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text, encoding="utf-8")
    return base


def compiled_base(svc, ws: Path, files: dict[str, str], name: str = "Notes") -> str:  # noqa: ANN001
    base = make_base(svc, ws, name, files)
    compile_now(svc, ws, base.id)
    return base.id


class Answerer:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.reply: Callable[[str], str] = lambda prompt: json.dumps(
            {"answer": "", "citations": [], "confidence": 0.0, "unanswerable": True})
        self.pieces = 4
        self.gate: threading.Event | None = None
        self.stream = True

    def prompt(self) -> str:
        return self.requests[-1]["messages"][-1]["content"]


def answer_json(answer: str, citations: list[tuple[str, list[int]]], confidence: float = 0.9,
                unanswerable: bool = False) -> str:
    return json.dumps({"answer": answer, "citations": [{"item": i, "lines": ln} for i, ln in citations],
                       "confidence": confidence, "unanswerable": unanswerable})


@pytest.fixture
def answerer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    model = Answerer()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            model.requests.append(body)
            content = model.reply(body["messages"][-1]["content"])
            if not (model.stream and body.get("stream")):
                data = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                                "finish_reason": "stop"}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            size = max(1, -(-len(content) // model.pieces))
            for n, at in enumerate(range(0, len(content), size)):
                piece = {"choices": [{"index": 0, "delta": {"content": content[at:at + size]}}]}
                self.wfile.write(f"data: {json.dumps(piece)}\n\n".encode())
                self.wfile.flush()
                if n == 0 and model.gate is not None:
                    model.gate.wait(20)
            usage = {"choices": [], "usage": {"prompt_tokens": 900, "completion_tokens": 60}}
            self.wfile.write(f"data: {json.dumps(usage)}\n\ndata: [DONE]\n\n".encode())
            self.wfile.flush()
            self.close_connection = True

        def log_message(self, *args: Any) -> None:
            pass

    server = serve(Handler, tmp_path, monkeypatch)
    yield model
    if model.gate is not None:
        model.gate.set()
    server.shutdown()
    server.server_close()
