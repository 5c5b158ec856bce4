"""The review queue on the host side: filing a compiler's manifest, showing, resolving through
promotion with expected_revision."""

from __future__ import annotations

import pytest

from kctui import paths
from kctui.core.page_status import set_page_status, split_page
from kctui.services import jobs, review, revisions
from kctui.services.errors import Conflict, InvalidInput
from tests.helpers import make_base
from tests.helpers.review import compile_pass

PAGE = "---\ntype: Concept\ntitle: Python\ncompile_status: compiled\nstatus: stable\n---\n\n# Python\n\n- eol (3.12): {v} ^[python.md:L2-L2]\n"


@pytest.fixture
def base(svc, workspace):
    b = make_base(svc, workspace, "Langs", files={"python.md": "# Python\neol: 2028-10-31\n",
                                                   "notes.md": "# Notes\nPython 3.12 eol: 2028-10-01\n"})
    compile_pass(svc, workspace, b.id, {"concepts/python.md": PAGE.format(v="2028-10-31")})
    return b


def touch_sources(workspace, b, n):
    (paths.sources_path(workspace, b.id) / f"extra{n}.md").write_text(f"# extra {n}\n")


def held_pass(svc, workspace, b, n=1):
    touch_sources(workspace, b, n)
    proposed = PAGE.format(v="2028-11-30")
    shown = set_page_status(PAGE.format(v="2028-10-31"), "needs-review")
    return compile_pass(svc, workspace, b.id, {"concepts/python.md": shown}, [
        {"kind": "held", "page": "concepts/python.md", "title": "Python", "updateKind": "revise",
         "reason": "autonomy_ceiling", "summary": "eol 3.12 revised", "proposedBody": proposed}])


def test_held_item_filed_with_body_and_approved_through_promotion(svc, workspace, base):
    held_pass(svc, workspace, base)
    [item] = review.list_items(svc)
    assert item.kind == "held" and item.reason == "autonomy_ceiling" and item.expected_revision == 2
    live = paths.wiki_path(workspace, base.id) / "concepts/python.md"
    assert "needs-review" in live.read_text()
    shown = review.show_item(svc, item.id)
    assert "-- eol (3.12): 2028-10-31" in shown["diff"] and "+- eol (3.12): 2028-11-30" in shown["diff"]
    done = review.resolve(svc, item.id, "approve", actor="human:ada")
    assert done.state == "approved"
    fm, body = split_page(live.read_text())
    assert "2028-11-30" in body and fm["compile_status"] == "confirmed" and fm["verified"][0]["by"] == "human:ada"
    hist = revisions.page_history(svc, workspace, base.id, "python")
    assert hist[-1].author.startswith(f"review:{item.id}:approve") and len(hist) == 3
    with pytest.raises(Conflict):
        review.resolve(svc, item.id, "approve")


def test_reject_clears_flag(svc, workspace, base):
    held_pass(svc, workspace, base)
    [item] = review.list_items(svc)
    review.resolve(svc, item.id, "reject", actor="human:ada")
    text = (paths.wiki_path(workspace, base.id) / "concepts/python.md").read_text()
    assert "needs-review" not in text and "2028-10-31" in text and "2028-11-30" not in text


def test_expected_revision_conflict_refreshes_item(svc, workspace, base):
    held_pass(svc, workspace, base)
    [item] = review.list_items(svc)
    with pytest.raises(Conflict, match="changed since revision 1"):
        review.resolve(svc, item.id, "approve", expected_revision=1)
    assert review.get_item(svc, item.id).state == "open"
    assert "2028-11-30" not in (paths.wiki_path(workspace, base.id) / "concepts/python.md").read_text()


def test_stale_item_refreshed_when_page_changed_under_it(svc, workspace, base):
    held_pass(svc, workspace, base)
    [item] = review.list_items(svc)
    touch_sources(workspace, base, 9)
    compile_pass(svc, workspace, base.id, {"concepts/python.md": PAGE.format(v="2029-01-01")}, [])
    with pytest.raises(Conflict, match="review it again"):
        review.resolve(svc, item.id, "approve")
    assert review.get_item(svc, item.id).expected_revision == 3
    assert "2029-01-01" in (paths.wiki_path(workspace, base.id) / "concepts/python.md").read_text()


def test_conflict_item_shows_both_values_with_cited_lines_and_resolves(svc, workspace, base):
    touch_sources(workspace, base, 2)
    shown = set_page_status(PAGE.format(v="2028-10-31"), "contradicted")
    compile_pass(svc, workspace, base.id, {"concepts/python.md": shown}, [
        {"kind": "conflict", "page": "concepts/python.md", "title": "Python", "reason": "contradiction",
         "summary": "3.12 eol", "proposedBody": PAGE.format(v="2028-10-01"),
         "existing": {"value": "2028-10-31", "citation": "python.md:L2-L2", "source": "python.md"},
         "incoming": {"value": "2028-10-01", "citation": "notes.md:L2-L2", "source": "notes.md"}}])
    [item] = review.list_items(svc)
    data = review.show_item(svc, item.id)
    assert "2028-10-31" in data["existing"]["citedLines"] and "2028-10-01" in data["incoming"]["citedLines"]
    with pytest.raises(InvalidInput):
        review.resolve(svc, item.id, "approve")
    review.resolve(svc, item.id, "keep", actor="human:ada")
    fm, body = split_page((paths.wiki_path(workspace, base.id) / "concepts/python.md").read_text())
    assert fm["compile_status"] == "confirmed" and "2028-10-31" in body and "Status:" not in body


def test_resolution_refused_while_compile_runs(svc, workspace, base):
    held_pass(svc, workspace, base)
    [item] = review.list_items(svc)
    touch_sources(workspace, base, 5)
    jobs.request_compile(svc, workspace, base.id)
    jobs.claim(svc)
    with pytest.raises(Conflict, match="running"):
        review.resolve(svc, item.id, "approve")


@pytest.mark.parametrize("bad", [
    {"kind": "held", "page": "../escape.md", "reason": "supersede"},
    {"kind": "held", "page": "/abs.md", "reason": "supersede"},
    {"kind": "held", "page": "concepts/python.md", "reason": "because"},
    {"kind": "held", "page": "concepts/missing.md", "reason": "supersede"},
])
def test_invalid_manifest_fails_the_job_closed(svc, workspace, base, bad):
    touch_sources(workspace, base, 3)
    _, b, job = compile_pass(svc, workspace, base.id, {"concepts/python.md": PAGE.format(v="2099-01-01")}, [bad])
    assert job.phase == "failed" and job.error_code == "invalid_output"
    assert "2099" not in (paths.wiki_path(workspace, base.id) / "concepts/python.md").read_text()
    assert review.list_items(svc) == []
