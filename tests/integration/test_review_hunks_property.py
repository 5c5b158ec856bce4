"""Issue 35's property: random sequences of source edits, compiles, hunk-level decisions and undos over a
small base (the built-in compiler under the default `guarded` policy, through the host path) keep issue
13's invariants after every step — every claim honest (it says what its cited lines say in the source
now, or is visibly kept / under review against a revision that existed), every value approved (in a
revision of its source that existed), every open item decidable with what it shows — and an undo
restores each page it touched byte for byte."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.helpers.review_world as base
from kctui.services import review
from kctui.services.errors import Conflict
from kctui.services.review_undo import list_decisions, undo_decision

hunk_decision = st.tuples(st.just("hunks"), st.integers(0, 4), st.sampled_from(["approve", "reject"]),
                          st.lists(st.integers(1, 9), min_size=1, max_size=4))
undo = st.tuples(st.just("undo"), st.booleans())
round_ = st.tuples(st.lists(base.edit, max_size=2), st.sampled_from([True, True, False]),
                   st.lists(st.one_of(hunk_decision, undo, base.decide), max_size=3)).map(
    lambda r: r[0] + ([("compile",)] if r[1] else []) + r[2])
rounds = st.lists(round_, min_size=1, max_size=5).map(lambda rs: [s for r in rs for s in r])


class World(base.World):
    def __init__(self, svc, root) -> None:  # noqa: ANN001
        super().__init__(svc, root)
        self.before: dict[int, dict[str, bytes]] = {}  # decision -> the wiki's pages before it

    def snapshot(self) -> dict[str, bytes]:
        if not self.wiki.is_dir():
            return {}
        return {p.relative_to(self.wiki).as_posix(): p.read_bytes() for p in self.wiki.glob("*/*.md")}

    def apply(self, s: tuple) -> None:
        if s[0] in ("hunks", "decide"):
            before, last = self.snapshot(), self.last_decision()
            self.decide(s)
            if self.last_decision() != last:  # a decision published (an item of another kind is no decision)
                self.before[self.last_decision()] = before
        elif s[0] == "undo":
            if not self.before:  # as `z` does: the last decision of this session, then the one before
                return
            last = max(self.before)
            try:
                done = undo_decision(self.svc, decision_id=last, actor="human:p")
            except Conflict as exc:
                assert "changed since review decision" in str(exc), exc
                self.before.pop(last)  # older than the page's last change: undone from its revisions instead
                return
            before = self.before.pop(last)
            after = self.snapshot()
            for rel, _, _ in done.pages:  # every page it wrote is as it was before the decision, byte for byte
                assert after.get(rel) == before.get(rel), f"undo {done.id}: {rel} not restored"
            assert all(review.get_item(self.svc, i).state == "open" for i, _ in done.items)
        else:
            super().apply(s)

    def last_decision(self) -> int:
        found = list_decisions(self.svc, 1)
        return found[0].id if found else 0

    def decide(self, s: tuple) -> None:
        if s[0] == "decide":
            super().apply(s)
            return
        held = [i for i in review.list_items(self.svc, self.ws, kb_id=self.kb.id) if i.kind == "held"]
        if not held:
            return
        item = held[s[1] % len(held)]
        count = len(review.show_item(self.svc, item.id)["hunks"])
        if not count:
            return
        chosen = sorted({(n - 1) % count + 1 for n in s[3]})
        try:
            review.resolve(self.svc, item.id, s[2], hunks=chosen, expected_revision=item.expected_revision,
                           actor="human:p")
        except Conflict as exc:
            assert "changed since it was proposed" in str(exc), f"hunks {chosen} of {item.id} refused: {exc}"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(steps=rounds)
def test_hunk_decisions_and_undos_keep_review_true(svc, tmp_path, steps) -> None:
    base.run_steps(World(svc, tmp_path), steps)


def test_a_kept_claim_of_a_deleted_source_leaves_the_page_at_the_next_compile(svc, tmp_path) -> None:
    """Found by the property test: vendors.md deleted, one hunk of the archive taken (its other claims
    kept on the page), then another source changed: the next pass must not crash on the gone source."""
    world = World(svc, tmp_path)
    for s in [("compile",), ("gone", True), ("compile",), ("hunks", 0, "approve", [5]), ("notes", "$1,100"),
              ("compile",)]:
        world.apply(s)
        world.check()
