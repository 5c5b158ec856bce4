"""Issue 13, review that stays true: each numbered problem reproduced through the real host path (a
base compiled by the built-in compiler under the default `guarded` policy, resolved through the review
service), and the behaviour that replaces it.

1. a source change that touches two pages is one decision (a change set); rejecting it keeps the old
   value pinned to its source revision and flagged on every page, never `stable` and silently false;
2. resolving a conflict publishes only that decision, never a change held for the same page;
3. the second conflict on a page resolves with the revision the person saw (use-new and dismiss);
4. the banner lists only the open disputes;
5. recompiling with nothing changed keeps every item's id; a changed held update is refreshed in place.
"""

from __future__ import annotations

import pytest

from kctui.services import review, revisions
from kctui.services import search as svc_search
from tests.helpers.review import NOTE, WIDGET, WS_ENTITY, Base, said

VENDORS = "# Vendors\n\n## Acme Hosting\n\nAcme Hosting is a hosting vendor.\n\nPrice: {price} / month\n\nContract term: 12 months\n"
ENTITY, SOURCE, ACME = "entities/vendors.md", "sources/vendors-md.md", "entities/acme-hosting.md"


def price_lines(body: str) -> list[str]:
    return [ln for ln in body.split("\n") if ln.startswith("* **Vendors** — Price:")]


@pytest.fixture
def vendors(svc, workspace) -> Base:
    b = Base(svc, workspace, {"vendors.md": VENDORS.format(price="$2,400")})
    b.compile()
    b.write("vendors.md", VENDORS.format(price="$2,750"))
    b.compile()
    return b


def test_problem1_one_source_change_is_one_change_set(vendors) -> None:
    [item] = vendors.items()  # before: two items (entity page, source page) decided apart
    # (the Acme Hosting section's price line is on Acme Hosting's page too: one change, three pages)
    assert item.kind == "held" and {p.page_path for p in item.page_list} == {ENTITY, SOURCE, ACME}
    data = item.json()
    assert [p["page"] for p in data["pages"]] == [p.page_path for p in item.page_list]
    assert all(p["kind"] == "revise" and p["expectedRevision"] == 2 for p in data["pages"])
    assert data["sources"] == ["vendors.md"]
    shown = review.show_item(vendors.svc, item.id)
    assert all("+* **Vendors** — Price: $2,750 / month" in p["diff"] for p in shown["pages"] if p["page"] != ACME)
    assert "+* **Acme Hosting** — note: Price: $2,750 / month" in next(p["diff"] for p in shown["pages"] if p["page"] == ACME)
    review.resolve(vendors.svc, item.id, "approve", actor="human:ada")
    for rel in (ENTITY, SOURCE):  # one promotion: both pages, one revision each, same decision
        fm, body = vendors.page(rel)
        assert fm["compile_status"] == "confirmed" and price_lines(body) == [
            "* **Vendors** — Price: $2,750 / month ^[vendors.md:L7-L7]"]
        hist = revisions.page_history(vendors.svc, vendors.ws, vendors.kb.id, rel.split("/")[1][:-3])
        assert hist[-1].author.startswith(f"review:{item.id}:approve") and len(hist) == 3


def test_problem1_reject_keeps_the_old_value_pinned_and_flagged(vendors) -> None:
    [item] = vendors.items()
    old_digest = vendors.page(SOURCE)[0]["sources"][0]["digest"]
    review.resolve(vendors.svc, item.id, "reject", actor="human:ada")
    for rel in (ENTITY, SOURCE):
        fm, body = vendors.page(rel)
        [line] = price_lines(body)
        # the page still says $2,400 while L7 says $2,750: visibly flagged on the line and in frontmatter
        assert line.startswith("* **Vendors** — Price: $2,400 / month (⚑ kept by a person on ")
        assert "the source now says $2,750 / month" in line and line.endswith("^[vendors.md:L7-L7]")
        [kept] = fm["kept_claims"]
        assert (kept["value"], kept["now"], kept["pinned"], kept["by"]) == (
            "$2,400 / month", "$2,750 / month", old_digest, "human:ada")
    # search and context show the flag with the claim
    hit = next(h for h in svc_search.search(vendors.svc, vendors.ws, vendors.kb.id, "price")["items"]
               if h["page"] == ENTITY)
    assert any("⚑ kept by a person" in c["text"] for c in hit["claims"])
    packet = svc_search.context(vendors.svc, vendors.ws, vendors.kb.id, "vendors price", fmt="text")
    assert "⚑ kept by a person" in packet and "the source now says $2,750 / month" in packet
    # the next compile does not ask again (the person decided) and keeps the flag
    vendors.compile()
    assert vendors.items() == []
    assert "⚑ kept" in price_lines(vendors.page(ENTITY)[1])[0]
    # the source changes again: a new decision is asked for
    vendors.write("vendors.md", VENDORS.format(price="$3,000"))
    vendors.compile()
    [again] = vendors.items()
    assert again.id != item.id and "$3,000" in (again.page_list[0].proposed_body or "")
    review.resolve(vendors.svc, again.id, "reject", actor="human:ada")
    # the source says the kept value again: the flag goes away, nothing is asked
    vendors.write("vendors.md", VENDORS.format(price="$2,400"))
    vendors.compile()
    assert vendors.items() == []
    for rel in (ENTITY, SOURCE):
        fm, body = vendors.page(rel)
        assert "kept_claims" not in fm and price_lines(body) == ["* **Vendors** — Price: $2,400 / month ^[vendors.md:L7-L7]"]


def widget_with_conflicts(svc, workspace) -> Base:
    b = Base(svc, workspace, {"widget.md": WIDGET.format(latest="2.1.4")})
    b.compile()
    b.write("notes.md", NOTE)  # disagrees on two facts of cycle 1.10: two conflicts on one page
    b.compile()
    return b


def test_problem2_resolving_a_conflict_publishes_only_its_own_decision(svc, workspace) -> None:
    b = widget_with_conflicts(svc, workspace)
    b.write("widget.md", WIDGET.format(latest="2.1.5"))  # an unrelated change, held for the same page
    b.compile()
    conflicts = [i for i in b.items() if i.kind == "conflict"]
    [held] = [i for i in b.items() if i.kind == "held"]
    assert {p.page_path for p in held.page_list} == {WS_ENTITY, "sources/widget-md.md"}
    latest = next(c for c in conflicts if "latest" in c.summary)
    review.resolve(svc, latest.id, "use_new", expected_revision=latest.expected_revision, actor="human:ada")
    fm, body = b.page(WS_ENTITY)
    body = said(body)  # (the decided value is marked ✓ decided: QA s32)
    assert "* **Widget Server** (1.10) — latest: 1.10.3 ^[notes.md:L7-L7]" in body  # the decision
    assert "2.1.5" not in body and "(2.1) — latest: 2.1.4 ^[widget.md:L6-L6]" in body  # not the held change
    assert fm["compile_status"] == "contradicted"  # the other dispute is still open
    # the held change carries the person's decision: approving it later does not undo it
    held = review.get_item(svc, held.id)
    assert held.state == "open"
    rest = next(c for c in conflicts if c.id != latest.id)
    review.resolve(svc, rest.id, "keep", expected_revision=review.get_item(svc, rest.id).expected_revision)
    held = review.get_item(svc, held.id)
    review.resolve(svc, held.id, "approve", expected_revision=held.expected_revision)
    fm, body = b.page(WS_ENTITY)
    body = said(body)
    assert "(2.1) — latest: 2.1.5 ^[widget.md:L6-L6]" in body and "latest: 1.10.3 ^[notes.md:L7-L7]" in body
    assert fm["compile_status"] == "confirmed" and "> **Status:" not in body
    b.compile()  # converged: nothing is raised again
    assert b.items() == []


@pytest.mark.parametrize("second_action", ["use_new", "dismiss"])
def test_problem3_and_4_the_second_conflict_uses_the_revision_shown(svc, workspace, second_action) -> None:
    b = widget_with_conflicts(svc, workspace)
    first, second = sorted((i for i in b.items() if i.kind == "conflict"), key=lambda i: i.id)
    assert b.page(WS_ENTITY)[1].count("> * ") == 4
    review.resolve(svc, first.id, "keep", expected_revision=first.expected_revision)
    # (4) the banner lists only the open dispute
    fm, body = b.page(WS_ENTITY)
    banner = [ln for ln in body.split("\n") if ln.startswith(">")]
    assert banner[0] == "> **Status: contradicted** — the sources disagree on 1 fact; a person decides."
    assert [ln for ln in banner if ln.startswith("> * ")] == [
        "> * **Widget Server** (1.10) — latest: 1.10.2 ^[widget.md:L5-L5]",
        "> * **Widget Server** (1.10) — latest: 1.10.3 ^[notes.md:L7-L7]"]
    # (3) the item shows the page's current revision, and that revision is the one the check uses
    shown = review.show_item(svc, second.id)
    assert shown["expectedRevision"] == shown["currentRevision"] == first.expected_revision + 1
    done = review.resolve(svc, second.id, second_action, expected_revision=shown["expectedRevision"])
    assert done.state == {"use_new": "resolved_new", "dismiss": "dismissed"}[second_action]
    fm, body = b.page(WS_ENTITY)
    assert "> **Status:" not in body and fm["compile_status"] in ("confirmed", "compiled")
    assert ("latest: 1.10.3 ^[notes.md:L7-L7]" in said(body)) == (second_action == "use_new")


def test_problem5_recompiling_keeps_item_ids_and_refreshes_in_place(svc, workspace) -> None:
    b = widget_with_conflicts(svc, workspace)
    b.write("widget.md", WIDGET.format(latest="2.1.5"))
    b.compile()
    before = {i.id: i for i in b.items()}
    assert len(before) == 3
    b.compile()  # nothing changed
    b.compile()
    assert {i.id for i in b.items()} == set(before)
    assert {i.state for i in review.list_items(svc, state=None)} == {"open"}, "nothing superseded or re-filed"
    [held] = [i for i in b.items() if i.kind == "held"]
    b.write("widget.md", WIDGET.format(latest="2.1.6"))  # the held update changes: same id, new content
    b.compile()
    [again] = [i for i in b.items() if i.kind == "held"]
    assert again.id == held.id
    assert all("2.1.6" in (p.proposed_body or "") for p in again.page_list)
    with svc.store.write() as conn:
        for p in again.page_list:  # the revision the reviewer sees now
            assert p.expected_revision == revisions.current_revision_number(conn, b.kb.workspace, b.kb.id, p.page_path)
    review.resolve(svc, again.id, "approve", expected_revision=again.expected_revision)
    assert "(2.1) — latest: 2.1.6 ^[widget.md:L6-L6]" in b.page(WS_ENTITY)[1]


def test_deleting_a_folder_is_one_decision(svc, workspace) -> None:
    files = {f"team/n{i}.md": f"# Note {i}\n\nGizmo{i} is a small widget with {i} gears.\n" for i in range(4)}
    files["keep.md"] = "# Keep\n\nKeeper is a thing that stays.\n"
    b = Base(svc, workspace, files)
    b.compile()
    import shutil

    shutil.rmtree(b.src / "team")
    b.compile()
    [item] = b.items()
    assert item.update_kind == "supersede" and len(item.page_list) >= 4
    assert {p.page_path for p in item.page_list} >= {f"sources/team-n{i}-md.md" for i in range(4)}
    review.resolve(svc, item.id, "approve")
    for i in range(4):
        assert b.page(f"sources/team-n{i}-md.md")[0]["compile_status"] == "archived"


def test_rejecting_an_archive_keeps_the_page_flagged_and_is_not_asked_again(svc, workspace) -> None:
    b = Base(svc, workspace, {"vendors.md": VENDORS.format(price="$2,400"), "other.md": "# Other\n\nOther is a thing.\n"})
    b.compile()
    (b.src / "vendors.md").unlink()
    b.compile()
    [item] = b.items()
    assert {p.page_path for p in item.page_list} >= {SOURCE, ENTITY}
    review.resolve(svc, item.id, "reject", actor="human:ada")
    for rel in (SOURCE, ENTITY):
        fm, body = b.page(rel)
        [line] = price_lines(body)
        assert "(⚑ kept by a person on " in line and "the source no longer says this" in line
        assert fm["kept_claims"][0]["seen"] == "" and fm["compile_status"] != "archived"
    b.compile()
    b.compile()
    assert b.items() == [], "the person's decision is not undone by the next compile"
    assert "⚑ kept" in price_lines(b.page(ENTITY)[1])[0]
    b.write("vendors.md", VENDORS.format(price="$2,400"))  # the file comes back saying the kept value
    b.compile()
    assert b.items() == [] and "kept_claims" not in b.page(ENTITY)[0]


def test_resolve_many_is_one_promotion_and_skips_what_does_not_apply(svc, workspace) -> None:
    b = widget_with_conflicts(svc, workspace)
    b.write("widget.md", WIDGET.format(latest="2.1.5"))
    b.compile()
    ids = [i.id for i in b.items()]
    [held] = [i for i in b.items() if i.kind == "held"]
    before = len(revisions.page_history(svc, workspace, b.kb.id, "widget-server"))
    done, skipped = review.resolve_many(svc, ids, "approve", actor="human:ada")
    assert done == [held.id] and {i for i, _ in skipped} == set(ids) - {held.id}
    assert all("is a conflict item" in why for _, why in skipped)
    assert len(revisions.page_history(svc, workspace, b.kb.id, "widget-server")) == before + 1
    fm, body = b.page(WS_ENTITY)
    assert fm["compile_status"] == "contradicted" and "the sources disagree on 2 facts" in body  # still open
    done, skipped = review.resolve_many(svc, [i for i, _ in skipped], "keep")
    assert len(done) == 2 and skipped == []
    fm, body = b.page(WS_ENTITY)
    assert fm["compile_status"] == "confirmed" and "> **Status:" not in body and "2.1.5" in body


def test_approving_a_proposal_whose_source_changed_since_withdraws_it(vendors) -> None:
    from kctui.services.errors import Conflict

    [item] = vendors.items()
    vendors.write("vendors.md", VENDORS.format(price="$3,000"))  # not compiled yet
    with pytest.raises(Conflict, match=r"changed since it was proposed \(vendors.md\); it was withdrawn"):
        review.resolve(vendors.svc, item.id, "approve", actor="human:ada")
    assert review.get_item(vendors.svc, item.id).state == "superseded"
    for rel in (ENTITY, SOURCE):  # $2,750 was never published: the pages keep $2,400, flagged as kept
        line = price_lines(vendors.page(rel)[1])[0]
        assert "$2,750 / month ^[" not in line and line.startswith("* **Vendors** — Price: $2,400 / month (⚑ kept")
    vendors.compile()  # what the source says now is proposed
    [again] = vendors.items()
    assert "$3,000" in (again.page_list[0].proposed_body or "")
    review.resolve(vendors.svc, again.id, "approve")
    assert price_lines(vendors.page(ENTITY)[1]) == ["* **Vendors** — Price: $3,000 / month ^[vendors.md:L7-L7]"]
