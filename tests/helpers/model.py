"""A fake OpenAI-compatible model server on loopback (the `fake` fixture) that answers like a good
model — the `key: value` facts of the numbered lines, each cited — and a knowledge base for the
model-backed extractor."""

from __future__ import annotations

import dataclasses
import json
import re
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.wiki import WIDGET_FRONTMATTER, request

KEY = "sk-test-0123456789abcdefSECRETSECRET"
MODEL = "fake-extractor-1"
WIDGET = WIDGET_FRONTMATTER + """
> Widget Server is an open-source server for widgets.

Owner: Acme Ltd.
"""
PROMPT_LINE = re.compile(r"^[LP](\d+)\| (.*)$")
_KV = re.compile(r"^(\s*)(- )?([A-Za-z][\w]*):\s+(\S.*?)\s*$")
_NON_FACT = {"title", "tags", "permalink", "iconSlug", "aliases"}


# -- the fake model -------------------------------------------------------------------------------


def derive(prompt: str) -> dict[str, Any]:
    """What a good model answers: the `key: value` facts of the numbered lines (release items scoped by
    their releaseCycle, using the context lines), cited on their own line, plus the titled product."""
    title = re.search(r"^Title: (.*)$", prompt, re.M).group(1)
    context, body = prompt.split("Source text, every", 1)
    claims, entities = [], []
    section, cycle = None, ""
    for part, emit in ((context, False), (body, True)):
        for raw in part.split("\n"):
            m = PROMPT_LINE.match(raw)
            if not m:
                continue
            n, text = int(m.group(1)), m.group(2)
            if text.strip() == "---" or (text and not text[0].isspace() and text.rstrip().endswith(":")):
                section, cycle = text.strip().rstrip(":"), ""
                continue
            kv = _KV.match(text.split(" #", 1)[0])
            if not kv:
                continue
            indent, item, key, value = kv.groups()
            value = value.strip().strip('"').strip("'")
            if section == "releases" and key == "releaseCycle":
                cycle = value
                continue
            if key == "title" and emit:
                entities.append({"name": value, "type": "product", "aliases": [], "page": "", "start": n, "end": n})
            if not emit or key in _NON_FACT:
                continue
            if not indent and not item:
                section = None
                claims.append({"subject": title, "attribute": key, "value": value, "unit": "", "scope": "",
                               "confidence": 0.9, "start": n, "end": n})
            elif section == "releases" and cycle:
                claims.append({"subject": title, "attribute": key, "value": value, "unit": "", "scope": cycle,
                               "confidence": 0.9, "start": n, "end": n})
    return {"claims": claims, "concepts": [], "entities": entities}


def completion(content: str, finish: str = "stop", usage: bool = True) -> bytes:
    data: dict[str, Any] = {"id": "c1", "object": "chat.completion", "model": MODEL, "choices": [
        {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}]}
    if usage:
        data["usage"] = {"prompt_tokens": 1000, "completion_tokens": 200}
    return json.dumps(data).encode()


class FakeModel:
    """`answer(prompt, n)` returns (status, headers, body) or a float: hang that many seconds."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.auth: list[str] = []
        self.lock = threading.Lock()
        self.answer: Callable[[str, int], Any] = lambda prompt, n: (200, {}, completion(json.dumps(derive(prompt))))

    def prompts(self) -> list[str]:
        return [r["messages"][1]["content"] for r in self.requests]


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    model = FakeModel()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            with model.lock:
                model.requests.append(body)
                model.auth.append(self.headers.get("Authorization", ""))
                n = len(model.requests)
            out = model.answer(body["messages"][-1]["content"], n)
            if isinstance(out, float):
                time.sleep(out)
                return
            reply(self, *out)

        def log_message(self, *args: Any) -> None:
            pass

    server = serve(Handler, tmp_path, monkeypatch, f'[llm.prices."{MODEL}"]\ninput_per_mtok = 1.0\noutput_per_mtok = 2.0\n')
    yield model
    server.shutdown()
    server.server_close()


def reply(handler: BaseHTTPRequestHandler, status: int, headers: dict, payload: bytes) -> None:
    """A whole JSON reply (a client that hung up is no error of the fake's)."""
    try:
        handler.send_response(status)
        for k, v in {"Content-Type": "application/json", **headers}.items():
            handler.send_header(k, v)
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)
    except OSError:
        pass


LLM_CONFIG = "[llm]\nmax_retries = 2\nbackoff_base = 0.01\nbackoff_max = 3\nretry_total = 10\ntimeout = 5\n"


def serve(handler: type[BaseHTTPRequestHandler], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
          extra_config: str = "") -> ThreadingHTTPServer:
    """A fake model server on loopback with `handler`, and the environment and config file pointing the
    model client at it (fast retries); the caller shuts it down."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.block_on_close = False
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    monkeypatch.setenv("KCTUI_LLM_URL", f"http://127.0.0.1:{server.server_address[1]}/v1")
    monkeypatch.setenv("KCTUI_LLM_MODEL", MODEL)
    monkeypatch.setenv("KCTUI_LLM_KEY", KEY)
    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(LLM_CONFIG + extra_config, encoding="utf-8")
    return server


def make_kb(root: Path, files: dict[str, str] | None = None) -> Path:
    src = root / "kb" / "sources"
    for rel, text in (files or {"products/widget.md": WIDGET}).items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text, encoding="utf-8")
    return src


def llm_request(src: Path, job: str, **kw: Any):
    return dataclasses.replace(request(src, job, **kw), extractor="llm")


def brief_of(req) -> str:  # noqa: ANN001
    return (req.output_path.parent / "brief.md").read_text(encoding="utf-8")


def claim_lines(wiki: Path, rel: str = "sources/products-widget-md.md") -> list[str]:
    return [ln for ln in (wiki / rel).read_text(encoding="utf-8").split("\n") if ln.startswith("* **")]
