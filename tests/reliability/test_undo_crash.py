"""Kill -9 inside the promotion of an undo (issue 35): either the undo happened — the page is its
revision from before the decision, byte for byte, the item is open and the decision is marked undone
(settled at start-up from `decision.json`) — or it did not, and the decision, its page and its item
stand as they were (and the undo can be made again)."""

from __future__ import annotations

import pytest

from kctui import paths
from kctui.services import review
from kctui.services.recovery import recover_at_startup
from kctui.services.review_undo import find_decision, undo_decision
from tests.helpers.crash import ROLLED_BACK, STEPS, in_child_killed_at
from tests.helpers.hunks import PAGE, make_three_hunks


@pytest.mark.parametrize("step", STEPS)
def test_kill_during_an_undo_undoes_all_or_nothing(svc, workspace, step) -> None:
    b = make_three_hunks(svc, workspace)
    [item] = review.list_items(svc, kb_id=b.id)
    live = paths.wiki_path(workspace, b.id) / PAGE
    before = live.read_bytes()
    review.resolve(svc, item.id, "approve", hunks=[1, 3], actor="human:ada")
    decided = live.read_bytes()
    in_child_killed_at(step, lambda ctx: undo_decision(ctx, actor="human:ada"))
    recover_at_startup(svc)
    decision = find_decision(svc, decision_id=1)
    if step in ROLLED_BACK:
        assert live.read_bytes() == decided and review.get_item(svc, item.id).state == "approved"
        assert decision.undone_at is None
        undo_decision(svc, actor="human:ada")  # made again, whole
    else:
        assert find_decision(svc, decision_id=1).undone_at is not None
    assert live.read_bytes() == before and review.get_item(svc, item.id).state == "open"
    assert review.get_item(svc, item.id).expected_revision == 4
