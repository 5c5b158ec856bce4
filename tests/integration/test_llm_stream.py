"""Streamed replies and output modes against a real HTTP server on loopback that speaks server-sent
events the way llama.cpp, Ollama, vLLM and hosted APIs do: a server that requires `response_format`
json_schema, ones that refuse it (fallback to json_object, then prompt only), a stream that stalls,
one that never ends, frames split across reads, a 429 in the middle of a stream, and the live
tokens/s a pass shows. No test sleeps: stalls end on short idle timeouts set through
KCTUI_LLM_IDLE_TIMEOUT, retry waits are recorded instead of slept, and a server that must wait for the
pass waits on an event the pass sets."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from kctui.compiler.runner import CompileFailure
from kctui.compiler.steps.pipeline import compile_pass
from tests.helpers.model import claim_lines, llm_request, make_kb
from tests.helpers.sse import STALL, SseModel, delta, error, frame, good_json, pieces, sse_reply
from tests.helpers.wiki import check_wiki, tree

THREE = {"notes/a.md": "Port: 8080\n", "notes/b.md": "Region: eu-west\n", "notes/c.md": "Owner: Lena Vogel\n"}


def _serial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KCTUI_LLM_CONCURRENCY", "1")


# -- output modes ---------------------------------------------------------------------------------


def test_a_server_that_requires_json_schema_gets_the_parsers_schema(tmp_path: Path, sse: SseModel) -> None:
    def answer(body: dict[str, Any], n: int) -> Any:
        fmt = body.get("response_format") or {}
        if fmt.get("type") != "json_schema":  # as in the report: without a schema the model rambles on
            return 200, {}, sse_reply("Sure! Let me look at the document. The document describes a widget...")
        return sse.good(body)

    sse.answer = answer
    src = make_kb(tmp_path)
    req = llm_request(src, "job-1")
    result = compile_pass(req)
    check_wiki(req.output_path, src)
    assert len(sse.requests) == 1 and sse.modes() == ["json_schema"]
    sent = sse.requests[0]
    assert sent["stream"] is True and sent["stream_options"] == {"include_usage": True}
    spec = sent["response_format"]["json_schema"]
    schema = spec["schema"]
    assert spec["name"] == "kctui_extraction" and "$ref" not in json.dumps(schema) and "$defs" not in schema
    assert list(schema["properties"]) == ["claims", "concepts", "entities"]
    claim = schema["properties"]["claims"]["items"]
    assert list(claim["properties"])[:3] == ["subject", "attribute", "value"] and claim["additionalProperties"] is False
    assert claim["properties"]["value"]["maxLength"] == 300 and claim["properties"]["start"]["type"] == "integer"
    assert "* **Widget Server** (1.10) — eol: 2024-11-06 ^[products/widget.md:L11-L11]" in claim_lines(req.output_path)
    brief = result.report.brief_markdown
    assert "output mode: response_format json_schema;" in brief and "streamed at " in brief and " tokens/s" in brief


# as llama-cpp-python's server answers it (a validation error as HTTP 500), and as others do (400)
LLAMA_CPP_PYTHON_500 = ("1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
                        "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}")


@pytest.mark.parametrize(("status", "message"), [(400, "'response_format.type' must be one of 'json_object', 'text'"),
                                                 (500, LLAMA_CPP_PYTHON_500)])
def test_a_refused_json_schema_falls_back_to_json_object_for_the_rest_of_the_pass(
        tmp_path: Path, sse: SseModel, monkeypatch: pytest.MonkeyPatch, status: int, message: str) -> None:
    _serial(monkeypatch)

    def answer(body: dict[str, Any], n: int) -> Any:
        if (body.get("response_format") or {}).get("type") == "json_schema":
            return error(status, message)
        return sse.good(body)

    sse.answer = answer
    src = make_kb(tmp_path, THREE)
    req = llm_request(src, "job-1")
    result = compile_pass(req)
    check_wiki(req.output_path, src)
    assert sse.modes() == ["json_schema", "json_object", "json_object", "json_object"]
    assert sse.requests[1]["response_format"]["schema"] == sse.requests[0]["response_format"]["json_schema"]["schema"]
    brief = result.report.brief_markdown
    assert "output mode: response_format json_object (the server refused json_schema)" in brief
    assert "4 requests (0 retries, 0 re-asks) for 3 chunks" in brief


def test_a_server_refusing_both_modes_is_asked_with_the_prompt_alone(
        tmp_path: Path, sse: SseModel, monkeypatch: pytest.MonkeyPatch) -> None:
    _serial(monkeypatch)

    def answer(body: dict[str, Any], n: int) -> Any:
        if "response_format" in body:
            return error(422, "Unrecognized request argument supplied: response_format")
        return sse.good(body)

    sse.answer = answer
    src = make_kb(tmp_path, THREE)
    first = llm_request(src, "job-1")
    result = compile_pass(first)
    check_wiki(first.output_path, src)
    assert sse.modes() == ["json_schema", "json_object", None, None, None]
    assert ("output mode: prompt only (no response_format) (the server refused json_schema and json_object)"
            in result.report.brief_markdown)
    # the memory is the pass's: the next pass asks for the schema again (the server may have changed)
    (src / "notes" / "a.md").write_text("Port: 9090\n", encoding="utf-8")
    compile_pass(llm_request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z"))
    assert sse.modes()[5:] == ["json_schema", "json_object", None]


def test_a_400_that_names_no_output_field_fails_closed_without_fallback(tmp_path: Path, sse: SseModel) -> None:
    sse.answer = lambda body, n: error(400, "the prompt is longer than the context window of 2048 tokens")
    src = make_kb(tmp_path)
    req = llm_request(src, "job-1")
    with pytest.raises(CompileFailure) as info:
        compile_pass(req)
    assert info.value.code == "model_unavailable" and not info.value.transient
    assert "refused the request (HTTP 400): " in info.value.message and "context window" in info.value.message
    assert sse.modes() == ["json_schema"] and not req.output_path.exists()


def test_a_fixed_output_mode_never_falls_back(tmp_path: Path, sse: SseModel, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KCTUI_LLM_OUTPUT_MODE", "json_schema")
    sse.answer = lambda body, n: error(400, "response_format json_schema is not supported")
    src = make_kb(tmp_path)
    with pytest.raises(CompileFailure) as info:
        compile_pass(llm_request(src, "job-1"))
    assert "does not take output mode json_schema (set KCTUI_LLM_OUTPUT_MODE=auto" in info.value.message
    assert sse.modes() == ["json_schema"]


# -- streaming ------------------------------------------------------------------------------------


def test_a_stream_that_stalls_mid_reply_is_a_transient_failure_with_the_reason(
        tmp_path: Path, sse: SseModel, monkeypatch: pytest.MonkeyPatch, waits: list[float]) -> None:
    monkeypatch.setenv("KCTUI_LLM_IDLE_TIMEOUT", "0.2")
    sse.answer = lambda body, n: (200, {}, [delta('{"claims": ['), delta('{"subject": "Wid'), STALL])
    src = make_kb(tmp_path)
    req = llm_request(src, "job-1")
    with pytest.raises(CompileFailure) as info:
        compile_pass(req)
    assert info.value.code == "model_unavailable" and info.value.transient
    assert "no token for 0.2 s after 7 tokens; gave up after 3 attempts" in info.value.message
    assert len(sse.requests) == 3 and len(waits) == 2  # each stall retried within the bounds
    assert not req.output_path.exists()


def test_a_stream_that_never_ends_is_cut_at_the_cap_and_keeps_the_complete_items(
        tmp_path: Path, sse: SseModel) -> None:
    def answer(body: dict[str, Any], n: int) -> Any:
        claims = good_json(sse.prompt(body))["claims"]
        start = '{"claims": [' + ", ".join(json.dumps(c) for c in claims) + ", "

        def forever() -> Iterable[bytes]:
            yield from (delta(p) for p in pieces(start))
            for _ in range(200_000):  # whitespace without end, as a model stuck in its grammar writes
                yield delta("\n")
        return 200, {}, forever()

    sse.answer = answer
    src = make_kb(tmp_path)
    req = llm_request(src, "job-1")
    result = compile_pass(req)
    check_wiki(req.output_path, src)
    cap = sse.requests[0]["max_tokens"]
    assert 256 <= cap < 1500 and len(sse.requests) == 1
    assert sse.broken == 1 and sse.written[0] < 100_000  # the client hung up; the server never finished
    lines = claim_lines(req.output_path)
    assert "* **Widget Server** (2.1) — latest: 2.1.4 ^[products/widget.md:L8-L8]" in lines
    assert "* **Widget Server** — Owner: Acme Ltd. ^[products/widget.md:L17-L17]" in lines
    brief = result.report.brief_markdown
    n = len(good_json(sse.prompt(sse.requests[0]))["claims"])
    assert f"was cut off at the token limit; its {n} complete items were kept" in brief
    assert "1 replies cut off at the token limit" in brief
    assert f"{cap:,} out (partly estimated" in brief  # counted live: exactly the cap


def test_a_reply_cut_before_its_first_item_fails_closed_saying_so(tmp_path: Path, sse: SseModel) -> None:
    def answer(body: dict[str, Any], n: int) -> Any:
        def forever() -> Iterable[bytes]:
            yield delta('{"claims": [{"subject": "Widget Server", "attribute": "aliases", "value": "')
            for _ in range(200_000):  # a string without end
                yield delta("x")
        return 200, {}, forever()

    sse.answer = answer
    src = make_kb(tmp_path)
    req = llm_request(src, "job-1")
    with pytest.raises(CompileFailure) as info:
        compile_pass(req)
    assert info.value.code == "model_output_invalid" and not info.value.transient
    assert ("could not be used after 3 tries: the reply was cut off before one item was complete (cut at its cap of "
            in info.value.message) and len(sse.requests) == 3
    assert not req.output_path.exists()
    # a server that stops at max_tokens itself (finish_reason "length") mid-object: the same reason
    sse.answer = lambda body, n: (200, {}, [delta('{"claims": [{"subject": "Wid'), delta("", "length"),
                                            b"data: [DONE]\n\n"])
    with pytest.raises(CompileFailure) as info:
        compile_pass(llm_request(src, "job-2", out="second"))
    assert "the reply was cut off before one item was complete (cut at its cap of " in info.value.message


def test_the_failure_names_every_reason_the_tries_gave(tmp_path: Path, sse: SseModel) -> None:
    replies = iter(['{"claims": "none"}', "I cannot do that.", '{"claims": "none"}'])
    sse.answer = lambda body, n: (200, {}, sse_reply(next(replies)))
    with pytest.raises(CompileFailure) as info:
        compile_pass(llm_request(make_kb(tmp_path), "job-1"))
    assert info.value.message.endswith("could not be used after 3 tries: claims is not a list "
                                       "(before that: the reply is not a JSON object)")


def test_frames_split_across_reads_give_the_same_wiki(tmp_path: Path, sse: SseModel) -> None:
    files = {"notes/office.md": "Office: Zürich — Bahnhofstraße 3\n\nThe gateway listens on port 8443.\n"}
    src = make_kb(tmp_path, files)
    whole = llm_request(src, "job-1", out="whole")
    compile_pass(whole, cache_dir=None)

    def answer(body: dict[str, Any], n: int) -> Any:
        raw = b"".join(sse_reply(json.dumps(good_json(sse.prompt(body)), ensure_ascii=False))).replace(b"\n", b"\r\n")
        raw = b": keep-alive\r\n\r\n" + raw
        sizes = (1, 2, 3, 7)
        out, i, k = [], 0, 0
        while i < len(raw):  # every boundary lands somewhere new: inside "data:", a \r\n, a UTF-8 sequence
            out.append(raw[i : i + sizes[k % 4]])
            i += sizes[k % 4]
            k += 1
        return 200, {}, out

    sse.answer = answer
    split = llm_request(src, "job-1", out="split")
    compile_pass(split, cache_dir=None)
    assert tree(whole.output_path) == tree(split.output_path)
    assert "* **office** — Office: Zürich — Bahnhofstraße 3 ^[notes/office.md:L1-L1]" in claim_lines(
        split.output_path, "sources/notes-office-md.md")


def test_a_429_in_the_middle_of_a_stream_waits_as_told_and_asks_again(
        tmp_path: Path, sse: SseModel, waits: list[float]) -> None:
    def answer(body: dict[str, Any], n: int) -> Any:
        if n == 1:
            cut = json.dumps(good_json(sse.prompt(body)))[:40]
            return 200, {"Retry-After": "2"}, [delta(cut[:20]), delta(cut[20:]),
                                               frame({"error": {"code": 429, "message": "Rate limit reached"}})]
        return sse.good(body)

    sse.answer = answer
    src = make_kb(tmp_path)
    req = llm_request(src, "job-1")
    result = compile_pass(req)
    check_wiki(req.output_path, src)
    assert waits == [2.0] and len(sse.requests) == 2
    assert "2 requests (1 retries, 0 re-asks) for 1 chunks" in result.report.brief_markdown
    assert len(claim_lines(req.output_path)) == len(good_json(sse.prompt(sse.requests[1]))["claims"])


def test_a_429_before_the_stream_honours_retry_after(tmp_path: Path, sse: SseModel, waits: list[float]) -> None:
    sse.answer = lambda body, n: ((429, {"Retry-After": "3"}, b'{"error": "slow down"}') if n == 1 else sse.good(body))
    src = make_kb(tmp_path)
    compile_pass(llm_request(src, "job-1"))
    assert waits == [3.0] and len(sse.requests) == 2


def test_live_tokens_per_second_reach_the_extract_steps_progress(tmp_path: Path, sse: SseModel) -> None:
    seen = threading.Event()
    lines: list[str] = []

    def progress(event) -> None:  # noqa: ANN001
        if event.step == "extract" and "tokens/s" in event.current:
            lines.append(event.current)
            seen.set()

    def answer(body: dict[str, Any], n: int) -> Any:
        frames = sse_reply(json.dumps(good_json(sse.prompt(body))))
        return 200, {}, frames[:3] + [lambda: seen.wait(5)] + frames[3:]  # the rest once the pass showed it

    sse.answer = answer
    src = make_kb(tmp_path)
    req = llm_request(src, "job-1")
    compile_pass(req, progress=progress)
    check_wiki(req.output_path, src)
    assert seen.is_set() and re.fullmatch(r"products/widget\.md lines 1-17: \d+ tokens, \d+\.\d tokens/s", lines[0])


def test_compile_wait_prints_the_live_tokens_per_second(svc, workspace: Path, sse: SseModel,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import click
    from click.testing import CliRunner

    from kctui.cli import main
    from tests.helpers import make_base
    from tests.helpers.model import WIDGET

    base = make_base(svc, workspace, "Products", files={"products/widget.md": WIDGET})
    printed = threading.Event()
    echo = click.echo

    def spy(message: Any = None, *args: Any, **kwargs: Any) -> None:
        if "tokens/s" in str(message):
            printed.set()
        echo(message, *args, **kwargs)

    monkeypatch.setattr(click, "echo", spy)

    stored: list[str] = []

    def shown() -> None:  # the stream goes on once the line was printed; the store has it too by then
        printed.wait(5)
        stored.extend(r["current"] for r in svc.store.query("SELECT current FROM job_steps WHERE step = 'extract'"))

    def answer(body: dict[str, Any], n: int) -> Any:
        frames = sse_reply(json.dumps(good_json(sse.prompt(body))))
        return 200, {}, frames[:3] + [shown] + frames[3:]

    sse.answer = answer
    runner = CliRunner()
    assert runner.invoke(main, ["kb", "policy", str(workspace), base.id, "--extractor", "llm"]).exit_code == 0
    result = runner.invoke(main, ["compile", str(workspace), base.id, "--wait"])
    assert result.exit_code == 0, result.output
    assert printed.is_set()
    assert re.search(r"extract 1/1 products/widget\.md lines 1-17: \d+ tokens, \d+\.\d tokens/s", result.stderr)
    # what the running pane reads (kctui.ui.poll: the store's step rows), written by the same callback
    assert len(stored) == 1 and re.fullmatch(r"products/widget\.md lines 1-17: \d+ tokens, \d+\.\d tokens/s", stored[0])


def test_streaming_can_be_turned_off(tmp_path: Path, sse: SseModel, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.helpers.model import completion

    monkeypatch.setenv("KCTUI_LLM_STREAM", "false")
    sse.answer = lambda body, n: (200, {}, completion(json.dumps(good_json(sse.prompt(body)))))
    src = make_kb(tmp_path)
    req = llm_request(src, "job-1")
    result = compile_pass(req)
    check_wiki(req.output_path, src)
    assert sse.requests[0]["stream"] is False and "stream_options" not in sse.requests[0]
    assert "output mode: response_format json_schema" in result.report.brief_markdown
    assert "streamed at" not in result.report.brief_markdown
