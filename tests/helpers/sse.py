"""A model server on loopback that streams server-sent events the way llama.cpp, Ollama, vLLM and hosted
APIs do (the `sse` fixture, scripted per request), the frames it sends, and the client's retry waits
recorded instead of slept (the `waits` fixture)."""

from __future__ import annotations

import json
import re
import socket
import threading
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from kctui.compiler.llm import client as client_mod
from tests.helpers.model import MODEL, derive, reply, serve

STALL = object()  # in a scripted stream: stop sending (keep the connection open) until the test ends
_PORT = re.compile(r"^L(\d+)\| .*\bport (\d+)", re.M)


def good_json(prompt: str) -> dict[str, Any]:
    """What a good model answers: derive()'s `key: value` facts plus "… port N" sentences."""
    data = derive(prompt) if "Title: " in prompt else {"claims": [], "concepts": [], "entities": []}
    for m in _PORT.finditer(prompt.split("Source text, every", 1)[-1]):
        data["claims"].append({"subject": "Widget Server", "attribute": "port", "value": m.group(2), "unit": "",
                               "scope": "", "confidence": 0.9, "start": int(m.group(1)), "end": int(m.group(1))})
    return data


def frame(obj: Any) -> bytes:
    return b"data: " + json.dumps(obj).encode() + b"\n\n"


def delta(text: str, finish: str | None = None) -> bytes:
    return frame({"id": "c1", "object": "chat.completion.chunk", "model": MODEL,
                  "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": finish}]})


def pieces(text: str, size: int = 5) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def sse_reply(content: str, usage: bool = True) -> list[bytes]:
    out = [frame({"id": "c1", "object": "chat.completion.chunk",
                  "choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]})]
    out += [delta(p) for p in pieces(content)]
    out.append(frame({"id": "c1", "object": "chat.completion.chunk",
                      "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}))
    if usage:
        out.append(frame({"id": "c1", "object": "chat.completion.chunk", "choices": [],
                          "usage": {"prompt_tokens": 900, "completion_tokens": len(pieces(content))}}))
    return out + [b"data: [DONE]\n\n"]


def error(status: int, message: str) -> tuple[int, dict, bytes]:
    return status, {}, json.dumps({"error": {"message": message, "type": "invalid_request_error"}}).encode()


class SseModel:
    """`answer(body, n)` returns (status, headers, bytes) for a plain answer, or (status, headers, an
    iterable of bytes / STALL / callables) for a stream written piece by piece (each flushed)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.release = threading.Event()
        self.broken = 0  # streams the client closed before the server finished writing
        self.written: list[int] = []  # frames written per streamed request
        self.models: list[str] | None = [MODEL, "other-model"]
        self.answer: Callable[[dict[str, Any], int], Any] = self.schema_answer

    def modes(self) -> list[str | None]:
        return [(r.get("response_format") or {}).get("type") for r in self.requests]

    @staticmethod
    def prompt(body: dict[str, Any]) -> str:
        return body["messages"][1]["content"]

    def good(self, body: dict[str, Any]) -> tuple[int, dict, list[bytes]]:
        return 200, {"Content-Type": "text/event-stream"}, sse_reply(json.dumps(good_json(self.prompt(body))))

    def schema_answer(self, body: dict[str, Any], n: int) -> Any:
        return self.good(body)


@pytest.fixture
def sse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    model = SseModel()

    class Handler(BaseHTTPRequestHandler):
        def setup(self) -> None:
            super().setup()
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def do_GET(self) -> None:  # noqa: N802
            if self.path.rstrip("/") != "/v1/models" or model.models is None:
                reply(self, 404, {}, b'{"error": "not found"}')
                return
            reply(self, 200, {}, json.dumps({"object": "list", "data": [{"id": m, "object": "model"}
                                                                         for m in model.models]}).encode())

        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            with model.lock:
                model.requests.append(body)
                n = len(model.requests)
            status, headers, payload = model.answer(body, n)
            if isinstance(payload, bytes):
                reply(self, status, headers, payload)
            else:
                self._stream(status, headers, payload)

        def _stream(self, status: int, headers: dict, payload: Iterable[Any]) -> None:
            written = 0
            try:
                self.send_response(status)
                for k, v in {"Content-Type": "text/event-stream", "Cache-Control": "no-cache", **headers}.items():
                    self.send_header(k, v)
                self.end_headers()  # HTTP/1.0: the body ends when the connection closes
                self.wfile.flush()
                for item in payload:
                    if item is STALL:
                        model.release.wait(10)
                        return
                    if callable(item):
                        item()
                        continue
                    self.wfile.write(item)
                    self.wfile.flush()
                    written += 1
            except OSError:
                with model.lock:
                    model.broken += 1
            finally:
                with model.lock:
                    model.written.append(written)

        def log_message(self, *args: Any) -> None:
            pass

    server = serve(Handler, tmp_path, monkeypatch)
    yield model
    model.release.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The client's retry waits, recorded instead of slept."""
    seen: list[float] = []
    monkeypatch.setattr(client_mod, "pause", seen.append)
    return seen
