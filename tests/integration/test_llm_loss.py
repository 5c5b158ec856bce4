"""Issue 8 with the trust boundary (issue 5): the compile-loss guard holds the pages a lossy model
extraction feeds (reason `compile_loss`, in review.json and the brief), and a model-backed pass writes
as `kctui/<v> llm:<model>`, so switching extractor or model recompiles every source once. Same
loopback fake model as test_llm_extractor; nothing reaches the internet."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from kctui.compiler.llm.extractor import pass_version
from kctui.compiler.steps.pipeline import VERSION, compile_pass
from kctui.core.trust import TrustPolicy
from kctui.services.review import read_manifest
from tests.helpers.model import (
    MODEL,
    WIDGET,
    FakeModel,
    brief_of,
    completion,
    derive,
    llm_request,
    make_kb,
)
from tests.helpers.wiki import pages, request


def _lossy(prompt: str, n: int):
    """A model that keeps the owner but drops every release fact (dates, versions) of the chunk."""
    reply = derive(prompt)
    reply["claims"] = [c for c in reply["claims"] if c["attribute"] == "Owner"]
    return 200, {}, completion(json.dumps(reply))


def _review(req) -> dict:
    return json.loads((req.output_path.parent / "review.json").read_text(encoding="utf-8"))


def test_a_reply_dropping_most_numbers_holds_the_pages_with_reason_compile_loss(tmp_path: Path, fake: FakeModel) -> None:
    src = make_kb(tmp_path)
    fake.answer = _lossy
    req = dataclasses.replace(llm_request(src, "job-1"), trust_policy=TrustPolicy())  # guarded: creates apply
    result = compile_pass(req)
    held = {u.slug: u.reason for u in result.held}
    assert held.get("products-widget-md") == "compile_loss"  # the source page
    assert held.get("widget-server") == "compile_loss"  # the entity page it feeds
    items = [{**it, **p} for it in _review(req)["items"] for p in it.get("pages") or [it]]  # change sets' pages
    by_page = {it["page"]: it for it in items}
    assert by_page["sources/products-widget-md.md"]["reason"] == "compile_loss"
    assert "compile-loss guard" in by_page["sources/products-widget-md.md"]["summary"]
    assert "Owner: Acme Ltd." in by_page["sources/products-widget-md.md"]["proposedBody"]
    assert {it["reason"] for it in items} == {"compile_loss"}
    # the staged wiki holds a stub awaiting review, not the lossy page
    source_page = pages(req.output_path)["sources/products-widget-md.md"]
    assert source_page[0]["compile_status"] == "needs-review"
    assert "Acme Ltd." not in source_page[1]
    # the manifest validates (its reason codes are HoldReason's) and the brief says it in words
    assert [p.reason for i in read_manifest(req.output_path.parent).items for p in i.page_list()].count(
        "compile_loss") == len(items)
    brief = brief_of(req)
    assert "the model's extraction missed numbers, dates or versions of its source" in brief
    assert "compile-loss guard:" in brief


def test_a_good_reply_under_the_same_policy_applies_and_an_unguarded_compile_writes(tmp_path: Path, fake: FakeModel) -> None:
    src = make_kb(tmp_path)
    req = dataclasses.replace(llm_request(src, "job-1"), trust_policy=TrustPolicy())
    result = compile_pass(req)
    assert result.held == [] and _review(req)["items"] == []
    # without a policy (a bare compile) the guard only warns: every change is written
    fake.answer = _lossy
    bare = llm_request(src, "job-2", out="bare")
    compile_pass(bare, cache_dir=None)
    assert "Acme Ltd." in (bare.output_path / "sources" / "products-widget-md.md").read_text(encoding="utf-8")
    assert "compile-loss guard:" in brief_of(bare)


def test_switching_to_the_model_recompiles_every_source_once_and_pages_say_llm(tmp_path: Path, fake: FakeModel,
                                                                               monkeypatch) -> None:
    src = make_kb(tmp_path, {"products/widget.md": WIDGET, "notes/a.md": "Port: 8080\n", "notes/b.md": "Region: eu\n"})
    first = request(src, "job-1")  # builtin
    assert compile_pass(first).report.compiler_version == VERSION
    assert fake.requests == []
    llm_v = f"{VERSION.split(' ', 1)[0]} llm:{MODEL}"
    assert pass_version() == llm_v
    second = llm_request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z")
    result = compile_pass(second)
    assert len(fake.requests) == 3  # each source once
    for path in ("products/widget.md", "notes/a.md", "notes/b.md"):
        assert sum(path in p for p in fake.prompts()) == 1, path
    assert result.files_extracted == 3
    assert result.report.compiler_version == llm_v
    for rel, (fm, _) in pages(second.output_path).items():
        assert fm["generated"]["by"] == llm_v, rel
    assert llm_v in brief_of(second)
    # the next pass over unchanged sources reads nothing and asks nothing
    third = llm_request(src, "job-3", prev=second.output_path, at="2026-09-02T00:00:00Z")
    assert compile_pass(third).files_extracted == 0 and len(fake.requests) == 3
    # another model: every source once more (its replies are not cached yet)
    monkeypatch.setenv("KCTUI_LLM_MODEL", "fake-extractor-2")
    fourth = llm_request(src, "job-4", prev=third.output_path, at="2026-09-03T00:00:00Z")
    assert compile_pass(fourth).files_extracted == 3 and len(fake.requests) == 6
    # and back to builtin: every source read once more (from the extraction cache), pages say builtin
    fifth = request(src, "job-5", prev=fourth.output_path, at="2026-09-04T00:00:00Z")
    back = compile_pass(fifth)
    assert back.files_extracted + back.cache_hits == 3 and len(fake.requests) == 6
    assert sorted(back.changes.modified) == ["notes/a.md", "notes/b.md", "products/widget.md"]
    assert {fm["generated"]["by"] for fm, _ in pages(fifth.output_path).values()} == {VERSION}
