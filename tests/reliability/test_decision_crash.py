"""Kill -9 inside the promotion of a decision that touches other items (issue 13): a bulk approval of
several change sets, and a conflict resolved on a page with a held change. Either every decision of
the promotion is applied (recovery records them, the held proposal carries the conflict's decision and
follows the page's revision) or none is, and `wiki/` is exactly the previous generation."""

from __future__ import annotations

import pytest

from kctui.services import review, revisions
from kctui.services.recovery import recover_at_startup
from tests.helpers.crash import ROLLED_BACK, STEPS, SWAP, in_child_killed_at
from tests.helpers.review import NOTE, WIDGET, WS_ENTITY, Base, said
from tests.helpers.wiki import tree as snapshot


@pytest.mark.parametrize("step", STEPS)
def test_kill_during_a_bulk_approval_applies_all_or_none(svc, workspace, step) -> None:
    b = Base(svc, workspace, {"widget.md": WIDGET.format(latest="2.1.4"), "gizmo.md": "# Gizmo\n\nGears: 3\n"})
    b.compile()
    b.write("widget.md", WIDGET.format(latest="2.1.5"))
    b.write("gizmo.md", "# Gizmo\n\nGears: 4\n")
    b.compile()
    items = b.items()
    assert len(items) == 2 and all(i.kind == "held" for i in items)
    before = snapshot(b.wiki)
    in_child_killed_at(step, lambda ctx: review.resolve_many(ctx, [i.id for i in items], "approve", actor="human:ada"))
    report = recover_at_startup(svc)
    states = {review.get_item(svc, i.id).state for i in items}
    if step in ROLLED_BACK:
        assert states == {"open"} and snapshot(b.wiki) == before
        done, skipped = review.resolve_many(svc, [i.id for i in items], "approve", actor="human:ada")
        assert sorted(done) == sorted(i.id for i in items) and skipped == []
    else:
        assert states == {"approved"}, report
        assert sorted(report.reviews_resolved) == sorted(i.id for i in items)
    assert "(2.1) — latest: 2.1.5 ^[widget.md:L6-L6]" in b.page(WS_ENTITY)[1]
    assert "Gears: 4" in b.page("sources/gizmo-md.md")[1]
    hist = revisions.page_history(svc, workspace, b.kb.id, "widget-server")
    # the revision names the decision: the item that wrote it, or (recorded at restart) the bulk action
    assert hist[-1].author.startswith("review:") and hist[-1].author.endswith(":human:ada")


def test_kill_after_the_swap_of_a_conflict_decision_still_rebases_the_held_change(svc, workspace) -> None:
    b = Base(svc, workspace, {"widget.md": WIDGET.format(latest="2.1.4")})
    b.compile()
    b.write("notes.md", NOTE)
    b.compile()
    b.write("widget.md", WIDGET.format(latest="2.1.5"))
    b.compile()
    latest = next(i for i in b.items() if i.kind == "conflict" and "latest" in i.summary)
    [held] = [i for i in b.items() if i.kind == "held"]
    in_child_killed_at(SWAP, lambda ctx: review.resolve(ctx, latest.id, "use_new", actor="human:ada"))
    recover_at_startup(svc)
    assert review.get_item(svc, latest.id).state == "resolved_new"
    held = review.get_item(svc, held.id)
    entity = next(p for p in held.page_list if p.page_path == WS_ENTITY)
    assert "latest: 1.10.3 ^[notes.md:L7-L7]" in said(entity.proposed_body or "")  # carries the decision
    with svc.store.write() as conn:
        assert entity.expected_revision == revisions.current_revision_number(conn, b.kb.workspace, b.kb.id, WS_ENTITY)
    review.resolve(svc, held.id, "approve", expected_revision=held.expected_revision)
    body = said(b.page(WS_ENTITY)[1])
    assert "latest: 1.10.3 ^[notes.md:L7-L7]" in body and "(2.1) — latest: 2.1.5" in body
