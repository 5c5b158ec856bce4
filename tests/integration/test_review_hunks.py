"""Issue 35: a held change decided hunk by hunk, and undone — through the service, the CLI and MCP.

A partial approval publishes exactly the accepted claims; each rejected claim stays as the page had it,
kept and flagged against the source revision it came from; every claim on the page says what its cited
lines say (the trust code's own check, `kctui.compiler.trust.kept.says`, against the source now or, for a
kept claim, against the pinned revision). Undo restores the page byte for byte and reopens the item."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kctui import paths
from kctui.compiler.trust.kept import says
from kctui.core.pages import KEPT_MARK, kept_entries, kept_match, parse_page
from kctui.mcp_server.tools import ToolFailure, Tools
from kctui.services import review, revisions
from kctui.services.errors import Conflict, InvalidInput, NotFound
from kctui.services.review_undo import undo_decision
from tests.helpers.cli import assert_one_line_error, run
from tests.helpers.hunks import FACTS, NEW, OLD, PAGE, digest, make_three_hunks, source_text


def honest(wiki: Path, src: Path, rel: str, revisions_by_digest: dict[str, str], tmp: Path) -> list[tuple[str, str]]:
    """(attribute, value) of every claim on the page, after asserting each says what its cited lines say:
    in the source now, or (kept, and flagged on its line) in the revision it is pinned to."""
    text = (wiki / rel).read_text(encoding="utf-8")
    page = parse_page(text, Path(rel).stem)
    kept = kept_entries(page.extra)
    out = []
    for c in page.claims:
        entry = next((e for e in kept if kept_match(e, c)), None)
        if entry is None:
            assert says(src, c), f"{c.attribute}: {c.value} is not what {c.evidence.path} says at its lines"
        else:
            pinned = tmp / "pinned"
            pinned.mkdir(exist_ok=True)
            (pinned / c.evidence.path).write_text(revisions_by_digest[str(entry["pinned"])], encoding="utf-8")
            assert says(pinned, c), f"kept {c.attribute}: {c.value} is not in the revision it is pinned to"
            assert any(KEPT_MARK in ln and c.value in ln for ln in text.split("\n")), "kept but not flagged"
        out.append((c.attribute, c.value))
    return out


@pytest.fixture
def three(svc, workspace):
    b = make_three_hunks(svc, workspace)
    [item] = review.list_items(svc, kb_id=b.id)
    return b, item


def _wiki_src(workspace, b):
    return paths.wiki_path(workspace, b.id), paths.sources_path(workspace, b.id)


SEEN = {digest(source_text(OLD)): source_text(OLD), digest(source_text(NEW)): source_text(NEW)}


def test_show_lists_three_hunks_with_citations_and_cited_lines(svc, three) -> None:
    _, item = three
    data = review.show_item(svc, item.id)
    assert [(h["hunk"], h["kind"], h["what"]) for h in data["hunks"]] == [
        (1, "revised", "claim revised"), (2, "revised", "claim revised"), (3, "revised", "claim revised")]
    assert data["hunks"][0]["citations"] == ["lang.md:L2-L2"]
    assert data["hunks"][0]["citedLines"]["lang.md:L2-L2"].strip() == "2  eol: 2029"


@pytest.mark.parametrize("action, chosen, taken", [
    ("approve", [1, 3], {"eol", "owner"}), ("approve", [2], {"latest"}), ("reject", [2], {"eol", "owner"}),
    ("approve", [1, 2, 3], {"eol", "latest", "owner"}), ("reject", [1, 2, 3], set())])
def test_partial_decision_publishes_exactly_the_accepted_claims(svc, workspace, tmp_path, three, action, chosen,
                                                                taken) -> None:
    b, item = three
    wiki, src = _wiki_src(workspace, b)
    done = review.resolve(svc, item.id, action, hunks=chosen, actor="human:ada")
    assert done.state == {"approve": "approved", "reject": "rejected"}[action]
    claims = dict(honest(wiki, src, PAGE, SEEN, tmp_path))
    assert claims == {k: (n if k in taken else o) for k, o, n in zip(FACTS, OLD, NEW)}
    page = parse_page((wiki / PAGE).read_text(encoding="utf-8"), "lang")
    assert {e["attribute"] for e in kept_entries(page.extra)} == set(FACTS) - taken
    hist = revisions.page_history(svc, workspace, b.id, "lang")
    assert hist[-1].author.startswith(f"review:{item.id}:") and len(hist) == 3


def test_bad_hunk_numbers_change_nothing(svc, workspace, three) -> None:
    b, item = three
    wiki, _ = _wiki_src(workspace, b)
    before = (wiki / PAGE).read_bytes()
    with pytest.raises(InvalidInput, match="has 3 hunks; no hunk 4"):
        review.resolve(svc, item.id, "approve", hunks=[1, 4])
    assert (wiki / PAGE).read_bytes() == before and review.get_item(svc, item.id).state == "open"


@pytest.mark.parametrize("action, hunks", [("approve", None), ("reject", None), ("approve", [2])])
def test_undo_restores_the_page_byte_for_byte_and_reopens(svc, workspace, three, action, hunks) -> None:
    b, item = three
    wiki, _ = _wiki_src(workspace, b)
    before = (wiki / PAGE).read_bytes()
    review.resolve(svc, item.id, action, hunks=hunks, actor="human:ada")
    assert (wiki / PAGE).read_bytes() != before
    undone = undo_decision(svc, actor="human:ada")
    assert undone.items == [(item.id, "approved" if action == "approve" else "rejected")] and undone.undone_at
    assert (wiki / PAGE).read_bytes() == before
    again = review.get_item(svc, item.id)
    hist = revisions.page_history(svc, workspace, b.id, "lang")
    assert again.state == "open" and again.expected_revision == hist[-1].number == 4
    assert hist[-1].body.encode() == before and "undo of review decision" in hist[-1].reason
    review.resolve(svc, item.id, "approve", actor="human:ada")  # decided again, against what it shows
    with pytest.raises(NotFound):  # nothing left of the first: only the second decision can be undone now
        undo_decision(svc, decision_id=99)


def test_undo_refused_when_the_page_moved_on(svc, workspace, three) -> None:
    b, item = three
    review.resolve(svc, item.id, "approve", actor="human:ada")
    from tests.helpers.hunks import hold

    hold(svc, workspace, b, NEW, ("2030", "3.0", "Cy"))  # a later pass wrote the page
    with pytest.raises(Conflict, match="changed since review decision"):
        undo_decision(svc, item_id=item.id)


def test_cli_approve_hunks_and_undo(svc, workspace, tmp_path, three) -> None:
    b, item = three
    wiki, src = _wiki_src(workspace, b)
    before = (wiki / PAGE).read_bytes()
    shown = run("review", "show", str(item.id), check=True).stdout
    assert "hunk 1: claim revised in entities/lang.md" in shown and "hunk 3:" in shown
    assert_one_line_error(run("review", "approve", str(item.id), "--hunks", "1,x"), "'x' is not a hunk number")
    assert_one_line_error(run("review", "approve", str(item.id), "--hunks", "7"), "no hunk 7")
    out = json.loads(run("review", "approve", str(item.id), "--hunks", "1,3", "--json", check=True).stdout)
    assert out["state"] == "approved"
    assert dict(honest(wiki, src, PAGE, SEEN, tmp_path)) == {"eol": "2029", "latest": "1.0", "owner": "Bob"}
    undone = json.loads(run("review", "undo", "--json", check=True).stdout)
    assert undone["hunks"] == {str(item.id): [1, 3]} and undone["items"] == [{"id": item.id, "state": "approved"}]
    assert (wiki / PAGE).read_bytes() == before
    # the text says what a partial decision did (QA s29 item 2), not "approved" alone
    said = run("review", "reject", str(item.id), "--hunks", "2", check=True).stdout.strip()
    assert said == f"#{item.id} rejected 1 of 3 hunks (left as the current page); 2 approved: {PAGE}"
    run("review", "undo", check=True)
    said = run("review", "approve", str(item.id), "--hunks", "1,3", check=True).stdout.strip()
    assert said == f"#{item.id} approved 2 of 3 hunks; 1 left as the current page: {PAGE}"
    run("review", "undo", check=True)
    assert_one_line_error(run("review", "undo"), "no review decision to undo")


def test_mcp_resolve_with_hunks_and_undo(svc, workspace, clock, three) -> None:
    from kctui.config import Settings
    from kctui.services.context import ServiceContext

    b, item = three
    wiki, _ = _wiki_src(workspace, b)
    before = (wiki / PAGE).read_bytes()
    tools = Tools([str(workspace)], agent="agent:test", ctx_factory=lambda: ServiceContext.open(clock=clock,
                                                                                               settings=Settings()))
    out, text = tools.resolve_conflict(item.id, "approve", item.expected_revision, "human:ada", hunks=[2])
    assert out.state == "approved" and f"#{item.id} approved 1 of 3 hunks; 2 left as the current page: " in text
    assert "latest: 2.0" in (wiki / PAGE).read_text() and "eol: 2028" in (wiki / PAGE).read_text()
    undone, _ = tools.undo_review_decision(item.id, "human:ada")
    assert undone.items == [{"id": item.id, "state": "approved"}] and (wiki / PAGE).read_bytes() == before
    with pytest.raises(ToolFailure):
        tools.undo_review_decision(item.id)


def test_the_brief_records_a_decision_and_its_undo(svc, workspace) -> None:
    from kctui.services.briefs import find_brief
    from tests.helpers.review import Base

    text = "# Vendors\n\n## Acme Hosting\n\nPrice: {p} / month\n\nContract term: {t} months\n"
    b = Base(svc, workspace, {"vendors.md": text.format(p="$2,400", t="12")})
    b.compile()
    b.write("vendors.md", text.format(p="$2,750", t="24"))
    b.compile()
    [item] = b.items()
    assert len(review.show_item(svc, item.id)["hunks"]) >= 4  # two claims on each of two pages, and more
    review.resolve(svc, item.id, "approve", hunks=[1], actor="human:ada")
    undo_decision(svc, actor="human:bo")
    md = find_brief(svc, b.ws, b.kb.id)["markdown"]
    section = md.split("## Review decisions since this pass\n\n", 1)[1].splitlines()
    assert section[0].endswith(f"human:ada: approved item #{item.id} (item #{item.id}: hunks 1) — "
                               "entities/vendors.md r2 → r3, sources/vendors-md.md r2 → r3")
    assert "human:bo: undid decision" in section[1] and "entities/vendors.md back at r2" in section[1]
