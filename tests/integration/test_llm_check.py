"""`kctui llm check` against the loopback fake servers of test_llm_stream: each prints the verdict a
person needs and exits non-zero exactly when compiling would fail."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.helpers.model import KEY
from tests.helpers.sse import STALL, SseModel, delta, error, frame, good_json, pieces, sse_reply


def check(*args: str) -> Result:
    from kctui.cli import main

    return CliRunner().invoke(main, ["llm", "check", *args])


def test_a_server_that_takes_the_schema_passes(sse: SseModel) -> None:
    sse.answer = lambda body, n: (sse.good(body) if (body.get("response_format") or {}).get("type") == "json_schema"
                                  else (200, {}, sse_reply("I would be glad to help you with that document.")))
    result = check()
    assert result.exit_code == 0, result.output
    out = result.output
    assert "models on the server: fake-extractor-1, other-model — fake-extractor-1 is listed" in out
    assert "output mode: json_schema\n" in out and "tokens/s" in out and "first token after" in out
    assert "verdict: ok — compiling with this server works; replies follow the reply's JSON schema" in out
    assert KEY not in out
    assert sse.requests[0]["response_format"]["type"] == "json_schema" and sse.requests[0]["stream"] is True


def test_a_server_refusing_json_schema_passes_in_json_object_mode(sse: SseModel) -> None:
    sse.answer = lambda body, n: (error(400, "response_format: json_schema is not supported")
                                  if (body.get("response_format") or {}).get("type") == "json_schema" else sse.good(body))
    result = check("--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["ok"] is True and data["mode"] == "json_object" and data["refused_modes"] == ["json_schema"]
    assert data["verdict"].startswith("compiling works in json_object mode (the server refused json_schema)")
    assert data["tokens_out"] > 0 and data["latency_s"] is not None


def test_prompt_only_passes_when_the_reply_is_json_and_fails_when_it_is_prose(sse: SseModel) -> None:
    refuse = lambda body: error(422, "Unrecognized request argument supplied: response_format")  # noqa: E731
    sse.answer = lambda body, n: refuse(body) if "response_format" in body else sse.good(body)
    ok = check()
    assert ok.exit_code == 0 and "output mode: prompt (refused: json_schema, json_object)" in ok.output
    assert "verdict: ok — compiling works with the prompt alone" in ok.output
    sse.answer = lambda body, n: (refuse(body) if "response_format" in body
                                  else (200, {}, sse_reply("Sure! The document says the port is 7411.")))
    bad = check()
    assert bad.exit_code == 1
    assert ("verdict: FAILS — the server refused json_schema and json_object, and the model's prompt-only reply is "
            "unusable (the reply is not a JSON object)") in bad.output
    assert "use a server that takes response_format json_schema" in bad.output


def test_a_stalling_stream_fails_with_the_idle_timeout_to_change(sse: SseModel, monkeypatch: pytest.MonkeyPatch,
                                                                 waits: list[float]) -> None:
    monkeypatch.setenv("KCTUI_LLM_IDLE_TIMEOUT", "0.2")
    sse.answer = lambda body, n: (200, {}, [delta('{"claims": ['), STALL])
    result = check()
    assert result.exit_code == 1
    assert "verdict: FAILS — the model at http://127.0.0.1:" in result.output
    assert "no token for 0.2 s after 3 tokens" in result.output and "raise KCTUI_LLM_IDLE_TIMEOUT (now 0.2 s)" in result.output


def test_an_endless_stream_is_cut_and_reported_but_compiling_works(sse: SseModel) -> None:
    def answer(body: dict[str, Any], n: int) -> Any:
        claims = good_json(sse.prompt(body))["claims"]
        start = '{"claims": [' + ", ".join(json.dumps(c) for c in claims) + ", "

        def forever() -> Iterable[bytes]:
            yield from (delta(p) for p in pieces(start))
            for _ in range(200_000):
                yield delta(" ")
        return 200, {}, forever()

    sse.answer = answer
    result = check("--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["ok"] is True and data["cut"] is True and data["tokens_out"] == sse.requests[0]["max_tokens"]
    assert "the reply ran past its cap of " in data["verdict"] and "was cut" in data["verdict"]


def test_split_frames_and_a_mid_stream_429_still_pass(sse: SseModel, waits: list[float]) -> None:
    def answer(body: dict[str, Any], n: int) -> Any:
        if n == 1:
            return 200, {"Retry-After": "2"}, [delta('{"cla'), frame({"error": {"code": 429, "message": "busy"}})]
        raw = b"".join(sse_reply(json.dumps(good_json(sse.prompt(body)))))
        return 200, {}, [raw[i : i + 3] for i in range(0, len(raw), 3)]

    sse.answer = answer
    result = check()
    assert result.exit_code == 0, result.output
    assert waits == [2.0] and "asked to slow down or failed 1 time(s)" in result.output
    assert "verdict: ok" in result.output


def test_a_model_the_server_does_not_have_fails_naming_the_ones_it_has(sse: SseModel, monkeypatch) -> None:
    monkeypatch.setenv("KCTUI_LLM_MODEL", "qwen2.5-7b-instruct")
    sse.answer = lambda body, n: error(404, f"model '{body['model']}' not found")
    result = check()
    assert result.exit_code == 1
    assert "qwen2.5-7b-instruct is NOT listed" in result.output
    assert "set KCTUI_LLM_MODEL to a model the server serves; the server has: fake-extractor-1, other-model" in result.output


def test_a_server_serving_one_model_under_any_name_passes_with_a_note(sse: SseModel, monkeypatch) -> None:
    sse.models = ["/models/smollm2-135m-instruct-q4_1.gguf"]
    result = check()
    assert result.exit_code == 0, result.output
    assert "does not list 'fake-extractor-1' but answered anyway" in result.output


def test_nothing_listening_and_nothing_configured_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = check()
    assert result.exit_code == 1 and "verdict: FAILS — no model is configured: set KCTUI_LLM_URL" in result.output
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("KCTUI_LLM_URL", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setenv("KCTUI_LLM_MODEL", "m")
    monkeypatch.setenv("KCTUI_LLM_CONCURRENCY", "1")
    (tmp_path / "config").mkdir(parents=True, exist_ok=True)  # the conftest's KCTUI_CONFIG_DIR
    (tmp_path / "config" / "config.toml").write_text("[llm]\nmax_retries = 0\n", encoding="utf-8")
    result = check()
    assert result.exit_code == 1
    assert "could not reach" in result.output and "is the server running at http://127.0.0.1:" in result.output
