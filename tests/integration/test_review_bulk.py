"""Bulk review actions and the page-level publish (issue 13): approve/reject a selection in ONE
promotion that writes only the pages it changes; conflicts and stale items are left out; paged listing
with counts that add up; the CLI's count, confirmation and `--yes`."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from kctui import paths
from kctui.publish import pages as pages_module
from kctui.services import review, revisions
from kctui.services.review_bulk import bulk_resolve, item_sources, select_items
from kctui.services.review_queue import list_page, open_counts
from tests.helpers.review import N, make_held


@pytest.fixture
def held(svc, workspace):
    return make_held(svc, workspace), None


def wiki(workspace, b):
    return paths.wiki_path(workspace, b.id)


def test_bulk_approve_all_is_one_promotion_of_only_the_changed_pages(svc, workspace, held, monkeypatch) -> None:
    b, _ = held
    live = wiki(workspace, b)
    untouched = live / f"concepts/lang{N + 1}.md"
    inode_before = (os.lstat(live).st_ino, os.lstat(untouched).st_ino)
    calls = []
    real = pages_module.promote_pages
    monkeypatch.setattr(pages_module, "promote_pages", lambda *a, **k: calls.append(a[1]) or real(*a, **k))
    import kctui.services.review_publish as rp
    monkeypatch.setattr(rp, "promote_pages", pages_module.promote_pages)

    sel = select_items(svc, everything=True)
    assert sel.count == N and len(sel.conflicts) == 1
    assert "1 matching conflict left out" in sel.describe("approve")
    seen = []
    out = bulk_resolve(svc, sel.items, "approve", actor="human:ada", progress=lambda *p: seen.append(p))
    assert sorted(out.applied) == sorted(i.id for i in sel.items) and not out.skipped
    assert out.promotions == 1 and len(calls) == 1 and len(calls[0]) == N and out.pages == N
    assert seen[-1] == ("done", N, N) and any(p[0] == "publishing" for p in seen)
    # the wiki folder itself and every page the action did not change are the very same files
    assert (os.lstat(live).st_ino, os.lstat(untouched).st_ino) == inode_before
    for n in range(N):
        text = (live / f"concepts/lang{n}.md").read_text()
        assert "eol: 2029" in text and "compile_status: confirmed" in text
        hist = revisions.page_history(svc, workspace, b.id, f"lang{n}")
        assert hist[-1].body == text and hist[-1].author.startswith("review:") and "bulk" in hist[-1].reason
    assert {i.state for i in review.list_items(svc, state=None) if i.kind == "held"} == {"approved"}
    assert [i.kind for i in review.list_items(svc)] == ["conflict"]  # still open: it needs its own choice
    assert not os.path.lexists(pages_module.page_staging_path(paths.kb_path(workspace, b.id)))
    assert not list(paths.output_root(workspace, b.id).glob("review-*"))


def test_bulk_reject_keeps_pages_and_clears_flags(svc, workspace, held) -> None:
    b, _ = held
    sel = select_items(svc, everything=True, filter_text="lang 1")  # the row words, as the pane's filter
    assert [i.page_path for i in sel.items] == ["concepts/lang1.md"]
    out = bulk_resolve(svc, sel.items, "reject", actor="human:ada")
    assert out.applied == [sel.items[0].id]
    text = (wiki(workspace, b) / "concepts/lang1.md").read_text()
    assert "eol: 2028" in text and "needs-review" not in text
    assert review.get_item(svc, sel.items[0].id).state == "rejected"


def test_a_stale_item_is_skipped_and_refreshed_never_applied(svc, workspace, held) -> None:
    b, _ = held
    sel = select_items(svc, everything=True)
    first, second = sel.items[0], sel.items[1]
    out = bulk_resolve(svc, [first, second], "approve", seen={first.id: first.expected_revision - 1},
                       actor="human:ada")
    assert out.applied == [second.id] and [i for i, _ in out.skipped] == [first.id]
    assert "changed since revision" in out.skipped[0][1]
    assert review.get_item(svc, first.id).state == "open"
    assert "eol: 2028" in (wiki(workspace, b) / first.page_path).read_text()


def test_selection_by_job_and_by_source(svc, workspace, held) -> None:
    b, _ = held
    items = review.list_items(svc)
    job_id = items[0].job_id
    assert select_items(svc, job_id=job_id).count == N
    assert select_items(svc, job_id="job-nope").count == 0
    assert item_sources(items[2]) >= {"lang2.md"}
    by_source = select_items(svc, source="lang2.md")
    assert [i.page_path for i in by_source.items] == ["concepts/lang2.md"]
    assert select_items(svc, source="sources/lang2.md").items == by_source.items
    with pytest.raises(Exception, match="choose the items"):
        select_items(svc)


def test_paged_list_and_counts_add_up(svc, workspace, held) -> None:
    counts = open_counts(svc)
    assert (counts.open, counts.held, counts.conflicts) == (N + 1, N, 1)
    assert counts.words(shown=3) == f"{N + 1} open: {N} held, 1 conflict · showing 3"
    first = list_page(svc, limit=4)
    assert len(first.items) == 4 and first.total == N + 1 and first.next == 4
    rest = list_page(svc, limit=4, offset=first.next)
    assert len(rest.items) == N + 1 - 4 and rest.next is None
    assert {i.id for i in first.items}.isdisjoint({i.id for i in rest.items})
    with pytest.raises(Exception, match="--limit"):
        list_page(svc, limit=0)


def test_cli_bulk_asks_first_and_yes_skips_the_question(svc, workspace, held) -> None:
    from kctui.cli import main

    b, _ = held
    runner = CliRunner()
    res = runner.invoke(main, ["review", "approve", "--all"], input="n\n")
    assert res.exit_code != 0 and f"Approve {N} held updates in 1 knowledge base" in res.output
    assert len(review.list_items(svc)) == N + 1  # declined: nothing changed
    res = runner.invoke(main, ["review", "approve", "--all", "--filter", "lang 3", "--yes", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["selected"] == 1 and data["appliedCount"] == 1 and data["promotions"] == 1
    res = runner.invoke(main, ["review", "list", "--limit", "2", "--json"])
    page_data = json.loads(res.output)
    assert page_data["total"] == N and page_data["limit"] == 2 and page_data["offset"] == 0
    assert page_data["next"] == 2 and len(page_data["items"]) == 2
    assert page_data["counts"] == {"open": N, "held": N - 1, "conflicts": 1}
    res = runner.invoke(main, ["review", "list"])
    assert f"{N} open: {N - 1} held, 1 conflict · showing 1–{N} of {N}" in res.output
    res = runner.invoke(main, ["review", "reject", "1", "--all"])
    assert res.exit_code != 0 and "give one of ID" in res.output


def test_search_sees_a_page_promotion_at_once(svc, workspace, held) -> None:
    from kctui.services import search

    b, _ = held
    before = search.search(svc, workspace, b.id, "2029")
    assert not before["items"]
    bulk_resolve(svc, select_items(svc, everything=True, filter_text="lang 2").items, "approve", actor="human:ada")
    hits = search.search(svc, workspace, b.id, "2029")
    assert [h["page"] for h in hits["items"]] == ["concepts/lang2.md"]


def test_a_bulk_action_over_two_bases_is_one_promotion_per_base(svc, workspace, held) -> None:
    other = make_held(svc, workspace, "Other langs")
    sel = select_items(svc, everything=True)
    assert sel.count == 2 * N and len(sel.bases()) == 2
    assert "in 2 knowledge bases" in sel.describe("approve")
    out = bulk_resolve(svc, sel.items, "approve", actor="human:ada")
    assert len(out.applied) == 2 * N and out.promotions == 2 and not out.failed
    assert "eol: 2029" in (wiki(workspace, other) / "concepts/lang0.md").read_text()
    assert select_items(svc, everything=True, kb_id=other.id).count == 0
