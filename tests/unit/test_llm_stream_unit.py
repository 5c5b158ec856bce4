"""The pure parts of streamed replies and output modes, table-tested with a fake clock: the SSE decoder
at every split point, `read_stream`'s stops (cap, idle keep-alives, deadline, error events), the
reply's JSON schema against the parser's model, the per-chunk output cap, and the output-mode memory."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kctui.compiler.llm.client import OutputModes
from kctui.compiler.llm.live import LiveReplies
from kctui.compiler.llm.parse import ClaimIn, NamedIn, ReplyIn
from kctui.compiler.llm.prompt import chunk_document
from kctui.compiler.llm.schema import names_field, reply_cap, reply_schema, response_format
from kctui.compiler.llm.stream import SseDecoder, StreamError, rate, read_stream
from kctui.compiler.readers import read_source


def ev(obj: Any) -> bytes:
    return b"data: " + json.dumps(obj, ensure_ascii=False).encode() + b"\n\n"


def tok(text: str, finish: str | None = None, field: str = "content") -> bytes:
    return ev({"choices": [{"index": 0, "delta": {field: text}, "finish_reason": finish}]})


class Clock:
    def __init__(self, step: float = 0.0) -> None:
        self.t = 100.0
        self.step = step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


STREAM = (b": hello\r\n\r\n" + b"event: message\r\ndata: {\"choices\": [{\"delta\": {\"content\": \"Z\\u00fcri\"}}]}\r\n\r\n"
          + "data: {\"choices\": [{\"delta\": {\"content\": \"ch — ok\"}}]}\n\n".encode()
          + b"data: {\"a\": 1,\ndata:  \"b\": 2}\r\r" + b"data: [DONE]\n\n")


def test_the_decoder_gives_the_same_events_whatever_the_split() -> None:
    whole = SseDecoder().feed(STREAM)
    assert [d for _, d in whole][:2] == ['{"choices": [{"delta": {"content": "Z\\u00fcri"}}]}',
                                         '{"choices": [{"delta": {"content": "ch — ok"}}]}']
    assert whole[2] == ("message", '{"a": 1,\n "b": 2}') and whole[3][1] == "[DONE]"
    for i in range(len(STREAM) + 1):
        for j in range(i, len(STREAM) + 1):
            dec = SseDecoder()
            got = dec.feed(STREAM[:i]) + dec.feed(STREAM[i:j]) + dec.feed(STREAM[j:]) + dec.close()
            assert got == whole, (i, j)


def test_an_event_without_its_blank_line_still_counts_at_the_end() -> None:
    dec = SseDecoder()
    assert dec.feed(b'event: error\ndata: {"error": 1}') == []
    assert dec.close() == [("error", '{"error": 1}')]


def test_read_stream_gathers_content_counts_tokens_and_keeps_usage() -> None:
    live: list[tuple[int, float]] = []
    chunks = [tok('{"claims"'), tok(": []}"), tok("thinking...", field="reasoning_content"), tok("", "stop"),
              ev({"choices": [], "usage": {"prompt_tokens": 50, "completion_tokens": 4}}), b"data: [DONE]\n\n"]
    got = read_stream(chunks, cap=100, idle=5, deadline=1e9, clock=Clock(0.5), live=lambda n, r: live.append((n, r)))
    assert got.content == '{"claims": []}' and got.finish_reason == "stop" and not got.cut
    assert (got.prompt_tokens, got.completion_tokens) == (50, 4)
    # a delta is at least one token, ~4 characters a token; thinking tokens count but are not content
    assert got.tokens == 7 and [n for n, _ in live] == [3, 4, 7]


def test_read_stream_cuts_at_the_cap() -> None:
    chunks = [tok('{"claims": [{"a": 1}, ')] + [tok(" ")] * 1000
    got = read_stream(iter(chunks), cap=40, idle=5, deadline=1e9, clock=Clock(0.01))
    assert got.cut and got.finish_reason == "length" and got.tokens == 40
    assert got.content.startswith('{"claims": [{"a": 1}, ') and len(got.content) == 22 + 39


def test_keep_alives_without_tokens_hit_the_idle_timeout() -> None:
    chunks = [tok("{"), tok('"claims"')] + [b": ping\n\n"] * 50
    with pytest.raises(StreamError) as info:
        read_stream(chunks, cap=1000, idle=3, deadline=1e9, clock=Clock(1.0))
    assert info.value.retry and "no token for 3 s after 3 tokens (the server kept the connection open)" in info.value.message


def test_the_whole_request_deadline_is_final() -> None:
    clock = Clock(1.0)
    with pytest.raises(StreamError) as info:
        read_stream([tok("x")] * 50, cap=1000, idle=3, deadline=clock.t + 10, clock=clock)
    assert info.value.final and not info.value.retry and "whole-request time ran out" in info.value.message


@pytest.mark.parametrize(("error", "retry", "wait"), [
    ({"code": 429, "message": "Rate limit", "retry_after": 7}, True, 7.0),
    ({"code": 503, "message": "overloaded"}, True, None),
    ({"code": "429"}, True, None),
    ({"code": 400, "message": "context length exceeded"}, False, None),
    ("upstream broke", True, None),
])
def test_error_events_in_the_middle_of_a_stream(error: Any, retry: bool, wait: float | None) -> None:
    with pytest.raises(StreamError) as info:
        read_stream([tok('{"cl'), ev({"error": error})], cap=100, idle=5, deadline=1e9, clock=Clock())
    assert (info.value.retry, info.value.wait) == (retry, wait) and "in the middle of the stream" in info.value.message


def test_a_stopped_pass_ends_the_stream_at_once() -> None:
    calls = iter([False, False, True])
    with pytest.raises(StreamError) as info:
        read_stream([tok("a")] * 10, cap=100, idle=5, deadline=1e9, clock=Clock(), stopped=lambda: next(calls))
    assert info.value.final and "the pass stopped" in info.value.message


def test_a_stream_that_breaks_off_is_retryable_not_a_short_reply() -> None:
    with pytest.raises(StreamError) as info:
        read_stream([tok('{"claims": [{"a": 1}'), tok(", ")], cap=100, idle=5, deadline=1e9, clock=Clock())
    assert info.value.retry and "broke off after 6 tokens, before the reply ended" in info.value.message
    ended = read_stream([tok('{"claims": []}'), tok("", "stop")], cap=100, idle=5, deadline=1e9, clock=Clock())
    assert ended.content == '{"claims": []}'  # a finish_reason ends a reply without [DONE]


def test_a_stream_with_no_reply_is_retryable() -> None:
    with pytest.raises(StreamError) as info:
        read_stream([b": ping\n\n", b"data: [DONE]\n\n"], cap=100, idle=5, deadline=1e9, clock=Clock())
    assert info.value.retry and "ended without a reply" in info.value.message


def test_tokens_per_second_of_a_burst_count_from_the_request() -> None:
    assert rate(10, sent=0.0, first=1.9999, now=2.0) == pytest.approx(5.0)  # a burst: from the request
    assert rate(30, sent=0.0, first=2.0, now=4.0) == pytest.approx(15.0)  # over a second: generation speed
    assert rate(3, sent=5.0, first=5.0, now=5.0) == 0.0


# -- the schema and the cap -----------------------------------------------------------------------


def _walk(node: Any):
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


def test_the_schema_is_the_parsers_model_self_contained() -> None:
    schema = reply_schema()
    assert "$ref" not in json.dumps(schema) and "$defs" not in schema
    claim = schema["properties"]["claims"]["items"]
    named = schema["properties"]["entities"]["items"]
    assert set(claim["properties"]) == set(ClaimIn.model_fields) and set(named["properties"]) == set(NamedIn.model_fields)
    assert claim["required"] == list(claim["properties"]) and list(claim["properties"])[-2:] == ["start", "end"]
    for obj in _walk(schema):
        if obj.get("type") == "object":
            assert obj["additionalProperties"] is False
        assert "anyOf" not in obj and "title" not in obj
    assert "maxItems" not in schema["properties"]["claims"]  # the parser caps lists; a grammar would not cope
    # a reply that follows the schema is one the parser's model takes
    reply = {"claims": [{"subject": "W", "attribute": "port", "value": "8080", "unit": "", "scope": "",
                         "name": "x", "confidence": 0.9, "start": 3, "end": 3}], "concepts": [], "entities": []}
    assert ReplyIn.model_validate(reply).claims[0].value == "8080"
    assert response_format("json_schema")["json_schema"]["schema"] == schema
    assert response_format("json_object") == {"type": "json_object", "schema": schema}
    assert response_format("prompt") is None


def test_the_output_cap_follows_the_chunk_size() -> None:
    def cap(text: str, max_tokens: int = 4096) -> int:
        doc = read_source("a.md", text.encode(), "sha256:x")
        return reply_cap(chunk_document(doc, 100_000)[0], max_tokens)

    small, larger = cap("Port: 8080\n"), cap("\n".join(f"key{i}: value {i}" for i in range(40)))
    assert small == 256 + 48 + 4 and larger > small * 5
    assert cap("\n".join(f"k{i}: {i}" for i in range(2000))) == 4096  # never past max_tokens
    assert cap("Port: 8080\n", max_tokens=100) == 100


@pytest.mark.parametrize(("body", "mode", "names"), [
    ('{"error": "response_format type json_schema is not supported"}', "json_schema", True),
    ("Unrecognized request argument supplied: response_format", "json_object", True),
    ("Invalid schema for response_format 'kctui_extraction'", "json_schema", True),
    ("'messages' must contain the word 'json' in some form", "json_object", False),
    ("the prompt is longer than the context window", "json_schema", False),
])
def test_a_refusal_names_the_output_field(body: str, mode: str, names: bool) -> None:
    assert names_field(body, mode) is names


def test_output_modes_fall_back_once_each_and_are_remembered_per_server() -> None:
    modes = OutputModes()
    a, b = ("http://a/v1", "m"), ("http://b/v1", "m")
    assert modes.current(a) == "json_schema"
    assert modes.refuse(a, "json_schema", "no") == "json_object"
    assert modes.refuse(a, "json_schema", "no (a request sent before the fallback)") == "json_object"
    assert modes.current(a) == "json_object" and modes.current(b) == "json_schema"
    assert modes.refuse(a, "json_object", "no") == "prompt" and modes.refuse(a, "prompt", "no") is None
    modes.accept(a, "prompt")
    assert modes.describe(a) == "prompt only (no response_format) (the server refused json_schema and json_object)"
    assert modes.describe(b) == "response_format json_schema"
    fixed = OutputModes("json_object")
    assert fixed.current(a) == "json_object" and fixed.refuse(a, "json_object", "no") is None


def test_the_live_line_names_the_latest_reply_and_how_many_stream() -> None:
    shown: list[str] = []
    live = LiveReplies(shown.append)
    live.tracker("a.md lines 1-9")(12, 4.25)
    live.tracker("b.md lines 1-3")(40, 20.0)
    live.show()
    live.show()  # nothing new: not shown again (until the heartbeat)
    assert shown == ["b.md lines 1-3: 40 tokens, 20.0 tokens/s (+1 more reply streaming)"]
    live.end("b.md lines 1-3")
    live.tracker("a.md lines 1-9")(13, 4.5)
    live.show()
    assert shown[-1] == "a.md lines 1-9: 13 tokens, 4.5 tokens/s"
