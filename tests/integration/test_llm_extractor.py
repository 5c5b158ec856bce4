"""Model-backed extraction against a real chat-completions server on loopback (http.server in a thread)
that replays canned replies or derives them from the numbered lines of each prompt. No test reaches
the internet: the only URL used is 127.0.0.1 on a port the OS picked."""

from __future__ import annotations

import json
import time
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest

from kctui.compiler.runner import CompileFailure
from kctui.compiler.steps.pipeline import compile_pass
from tests.helpers.model import (
    KEY,
    MODEL,
    PROMPT_LINE,
    WIDGET,
    FakeModel,
    claim_lines,
    completion,
    derive,
    llm_request,
    make_kb,
)
from tests.helpers.wiki import check_wiki, pages, tree

# -- replies --------------------------------------------------------------------------------------


def test_good_reply_compiles_a_valid_cited_wiki_and_counts_tokens(tmp_path: Path, fake: FakeModel) -> None:
    src = make_kb(tmp_path)
    req = llm_request(src, "job-1")
    result = compile_pass(req)
    check_wiki(req.output_path, src)
    assert len(fake.requests) == 1 and fake.auth == [f"Bearer {KEY}"]
    sent = fake.requests[0]
    assert sent["model"] == MODEL and sent["temperature"] == 0.2 and sent["stream"] is True
    # the output cap comes from the chunk's size (18 short lines), not the flat 4,096 ceiling
    assert 256 <= sent["max_tokens"] < 1500
    assert sent["response_format"]["type"] == "json_schema"
    assert "L7|     eol: false" in sent["messages"][1]["content"]  # real line numbers
    lines = claim_lines(req.output_path)
    assert "* **Widget Server** (1.10) — eol: 2024-11-06 ^[products/widget.md:L11-L11]" in lines
    assert "* **Widget Server** — Owner: Acme Ltd. ^[products/widget.md:L17-L17]" in lines
    entity = pages(req.output_path)["entities/widget-server.md"][0]
    assert entity["entity_type"] == "product"
    brief = result.report.brief_markdown
    assert "1,000 tokens in, 200 out; estimated cost $0.0014; 1 requests (0 retries, 0 re-asks) for 1 chunks" in brief
    assert KEY not in brief


def test_fenced_json_is_read_like_plain_json(tmp_path: Path, fake: FakeModel) -> None:
    src = make_kb(tmp_path)
    plain = llm_request(src, "job-1", out="plain")
    compile_pass(plain, cache_dir=None)
    fake.answer = lambda p, n: (200, {}, completion("```json\n" + json.dumps(derive(p), indent=1) + "\n```"))
    fenced = llm_request(src, "job-1", out="fenced")
    compile_pass(fenced, cache_dir=None)
    assert tree(plain.output_path) == tree(fenced.output_path)


def test_truncated_array_keeps_the_complete_objects_and_says_so(tmp_path: Path, fake: FakeModel) -> None:
    src = make_kb(tmp_path)
    full = json.dumps(derive_for(src))
    cut = full[: full.index('"attribute": "latest", "value": "1.10.2"') + 10]  # mid-object, before the end
    fake.answer = lambda p, n: (200, {}, completion(cut, finish="length"))
    req = llm_request(src, "job-1")
    result = compile_pass(req)
    check_wiki(req.output_path, src)
    complete = json.loads(cut[: cut.rindex("}") + 1] + "]}")["claims"]
    assert len(claim_lines(req.output_path)) == len(complete) == len(derive_for(src)["claims"]) - 2
    assert "was cut off at the token limit; its 6 complete items were kept" in result.report.brief_markdown
    assert "1 replies cut off at the token limit" in result.report.brief_markdown


def derive_for(src: Path) -> dict[str, Any]:
    lines = (src / "products" / "widget.md").read_text(encoding="utf-8").split("\n")
    numbered = "\n".join(f"L{i}| {t}" for i, t in enumerate(lines, 1))
    return derive(f"Title: Widget Server\nSource text, every line numbered:\n{numbered}")


def test_prose_compiles_nothing_and_the_last_wiki_stays(tmp_path: Path, fake: FakeModel) -> None:
    src = make_kb(tmp_path)
    first = llm_request(src, "job-1")
    compile_pass(first)
    before = tree(first.output_path)
    (src / "products" / "widget.md").write_text(WIDGET.replace("2.1.4", "2.1.5"), encoding="utf-8")
    fake.answer = lambda p, n: (200, {}, completion("Sure! This document describes the Widget Server releases."))
    second = llm_request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z")
    with pytest.raises(CompileFailure) as info:
        compile_pass(second)
    assert info.value.code == "model_output_invalid" and not info.value.transient
    assert "could not be used after 3 tries: the reply is not a JSON object" in info.value.message
    assert len(fake.requests) == 1 + 3  # the first pass, then one ask and two re-asks
    assert not second.output_path.exists() and tree(first.output_path) == before
    # a model that recovers after one re-ask: the pass goes through
    fake.answer = lambda p, n: ((200, {}, completion("I think the answer is yes.")) if "could not be used" not in p
                                else (200, {}, completion(json.dumps(derive(fake.prompts()[-1])))))
    result = compile_pass(second)
    assert "(0 retries, 1 re-asks)" in result.report.brief_markdown
    assert "* **Widget Server** (2.1) — latest: 2.1.5 ^[products/widget.md:L8-L8]" in claim_lines(second.output_path)


def test_a_claim_citing_wrong_lines_is_dropped_and_counted(tmp_path: Path, fake: FakeModel) -> None:
    def answer(p: str, n: int):  # noqa: ANN202
        data = derive(p)
        data["claims"][0] = {**data["claims"][0], "start": 17, "end": 17}  # category cited on the Owner line
        data["claims"].append({**data["claims"][1], "start": 1, "end": 900})  # beyond the chunk
        return 200, {}, completion(json.dumps(data))

    fake.answer = answer
    src = make_kb(tmp_path)
    req = llm_request(src, "job-1")
    result = compile_pass(req)
    check_wiki(req.output_path, src)
    assert not any("category" in ln for ln in claim_lines(req.output_path))
    assert "(2 candidate claims dropped because their cited lines did not contain the value)" in result.report.brief_markdown


def test_paths_and_slugs_escaping_the_wiki_are_refused(tmp_path: Path, fake: FakeModel) -> None:
    evil = [{"name": "../../../etc/passwd", "type": "tool", "start": 2, "end": 2},
            {"name": "Widget Server", "page": "../../outside", "start": 2, "end": 2},
            {"name": "Widget Server", "page": "/etc/passwd", "start": 2, "end": 2},
            {"name": "Widget Server", "path": "..\\..\\win.md", "start": 2, "end": 2},
            {"name": "Widget\x00Server", "start": 2, "end": 2}]

    def answer(p: str, n: int):  # noqa: ANN202
        data = derive(p)
        data["entities"] += evil
        data["claims"].append({"subject": "C:\\Windows", "attribute": "eol", "value": "false", "start": 7, "end": 7})
        return 200, {}, completion(json.dumps(data))

    fake.answer = answer
    src = make_kb(tmp_path)
    req = llm_request(src, "job-1")
    result = compile_pass(req)
    check_wiki(req.output_path, src)
    brief = result.report.brief_markdown
    assert "refused 6 items whose path, slug or name would escape the wiki: " in brief and "'../../outside'" in brief
    names = {p.relative_to(req.output_path.parent.parent).as_posix() for p in req.output_path.parent.parent.rglob("*")}
    assert all(".." not in n and "passwd" not in n and "outside" not in n for n in names)
    assert not (tmp_path / "outside.md").exists() and not (tmp_path / "kb" / "outside.md").exists()
    assert set(pages(req.output_path)) == {"sources/products-widget-md.md", "entities/widget-server.md"}


# -- transport ------------------------------------------------------------------------------------


def test_429_with_retry_after_then_success(tmp_path: Path, fake: FakeModel) -> None:
    good = fake.answer
    fake.answer = lambda p, n: (429, {"Retry-After": "1"}, b'{"error": "slow down"}') if n == 1 else good(p, n)
    src = make_kb(tmp_path)
    req = llm_request(src, "job-1")
    t0 = time.monotonic()
    result = compile_pass(req)
    assert time.monotonic() - t0 >= 0.95  # Retry-After honoured (backoff_base alone is 0.01 s)
    assert len(fake.requests) == 2 and "2 requests (1 retries, 0 re-asks)" in result.report.brief_markdown
    check_wiki(req.output_path, src)


def test_a_hang_past_the_timeout_is_a_transient_failure(tmp_path: Path, fake: FakeModel, monkeypatch) -> None:
    monkeypatch.setenv("KCTUI_LLM_TIMEOUT", "0.3")
    fake.answer = lambda p, n: 2.0
    src = make_kb(tmp_path)
    req = llm_request(src, "job-1")
    with pytest.raises(CompileFailure) as info:
        compile_pass(req)
    assert info.value.code == "model_unavailable" and info.value.transient
    assert "no answer within 0.3 s; gave up after 3 attempts" in info.value.message
    assert not req.output_path.exists()


def test_unchanged_sources_cost_zero_requests_the_next_pass(tmp_path: Path, fake: FakeModel) -> None:
    src = make_kb(tmp_path, {"products/widget.md": WIDGET, "notes/a.md": "Port: 8080\n", "notes/b.md": "Region: eu\n"})
    first = llm_request(src, "job-1")
    compile_pass(first)
    assert len(fake.requests) == 3
    second = llm_request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z")
    result = compile_pass(second)
    assert len(fake.requests) == 3 and result.files_extracted == 0
    assert tree(second.output_path)["sources/products-widget-md.md"] == tree(first.output_path)["sources/products-widget-md.md"]
    # re-reading every source (a full pass) is answered by the reply cache: still zero requests
    third = llm_request(src, "job-3", prev=second.output_path, at="2026-09-02T00:00:00Z")
    full = compile_pass(third, full=True)
    assert len(fake.requests) == 3 and "0 requests (0 retries, 0 re-asks) for 3 chunks, 3 answered from the reply cache" in full.report.brief_markdown
    # one changed source: one request
    (src / "notes" / "b.md").write_text("Region: us\n", encoding="utf-8")
    compile_pass(llm_request(src, "job-4", prev=third.output_path, at="2026-09-03T00:00:00Z"))
    assert len(fake.requests) == 4 and "notes/b.md" in fake.prompts()[-1]


def test_the_token_budget_stops_the_pass_before_anything_is_written(tmp_path: Path, fake: FakeModel, monkeypatch) -> None:
    from kctui.compiler.llm.settings import load_llm_settings
    from kctui.compiler.steps.estimate import estimate_pass

    src = make_kb(tmp_path, {f"notes/n{i}.md": f"Port: {8000 + i}\n" for i in range(6)})
    monkeypatch.setenv("KCTUI_LLM_BUDGET_TOKENS", "2500")
    monkeypatch.setenv("KCTUI_LLM_CONCURRENCY", "1")
    est = estimate_pass(src, None, load_llm_settings())
    assert est["documents_to_send"] == 6 and est["requests"] == 6 and est["within_budget"] is False
    req = llm_request(src, "job-1")
    with pytest.raises(CompileFailure) as info:
        compile_pass(req)
    assert info.value.code == "budget_exhausted" and info.value.transient
    assert "token budget of 2,500 is spent" in info.value.message and not req.output_path.exists()
    assert 1 <= len(fake.requests) <= 3  # each reply reports 1,200 tokens
    assert estimate_pass(src, None, load_llm_settings())["cached_chunks"] == len(fake.requests)


# -- chunking, Retry-After, scrubbing -------------------------------------------------------------


def test_small_chunks_keep_real_line_numbers_and_give_the_same_wiki(tmp_path: Path, fake: FakeModel, monkeypatch) -> None:
    from kctui.compiler.llm.prompt import chunk_document
    from kctui.compiler.readers import read_source

    text = "\n\n".join(f"Para {i} line one.\nPara {i} line two is longer." for i in range(40))
    doc = read_source("notes/long.md", text.encode(), "sha256:x")
    chunks = chunk_document(doc, 300)
    assert len(chunks) > 5 and chunks[0].first == 1 and chunks[-1].last == len(doc.lines)
    for c in chunks:
        assert sum(len(doc.lines[n - 1]) + 1 for n in range(c.first, c.last + 1)) <= 300
        assert c.first == 1 or doc.lines[c.first - 2] == ""  # starts at a paragraph
        for line in c.body.split("\n"):
            number, shown = PROMPT_LINE.match(line).groups()
            assert doc.lines[int(number) - 1] == shown
    src = make_kb(tmp_path)
    whole = llm_request(src, "job-1", out="whole")
    compile_pass(whole, cache_dir=None)
    monkeypatch.setenv("KCTUI_LLM_CHUNK_CHARS", "200")  # the frontmatter is cut inside the releases list
    parts = llm_request(src, "job-1", out="parts")
    result = compile_pass(parts, cache_dir=None)
    assert len(fake.requests) == 3 and "for 2 chunks" in result.report.brief_markdown
    assert tree(whole.output_path) == tree(parts.output_path)


def test_retry_after_dates_and_key_scrubbing() -> None:
    from datetime import datetime

    from kctui.compiler.llm.client import retry_after_seconds, scrub
    from kctui.compiler.llm.settings import LlmSettings

    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert retry_after_seconds("Thu, 01 Jan 2026 00:00:30 GMT", now) == 30.0
    assert retry_after_seconds("7", now) == 7.0 and retry_after_seconds("soon", now) is None
    assert retry_after_seconds("Wed, 31 Dec 2025 00:00:00 GMT", now) == 0.0
    assert scrub(f"a {KEY} b ...{KEY[-12:]} c", KEY) == "a [redacted] b ...[redacted] c"
    settings = LlmSettings(url="http://127.0.0.1:1/v1", model=MODEL, key=KEY)
    assert KEY not in repr(settings) and KEY not in str(settings.model_dump())
