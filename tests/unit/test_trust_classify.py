"""classify_update as a table: every rule of trust.md §3 and the combinations that matter."""

from __future__ import annotations

import itertools

import pytest

from kctui.core.trust import NeverAutoGuard, PageState, ProposedUpdate, TrustPolicy, classify_update

KINDS = ["create", "append", "revise", "supersede"]
EXPECTED_CEILING = {
    "suggest": {"create": "autonomy_ceiling", "append": "autonomy_ceiling", "revise": "autonomy_ceiling"},
    "guarded": {"create": None, "append": None, "revise": "autonomy_ceiling"},
    "auto": {"create": None, "append": None, "revise": None},
}


def page(exists=True, cls="concept", title="Event sourcing", tags=(), confirmed=False):
    return PageState(exists=exists, page_class=cls, title=title, tags=tuple(tags), human_confirmed=confirmed)


def outcome(d):
    return None if d.action == "apply" else d.reason


@pytest.mark.parametrize("autonomy, kind", list(itertools.product(["suggest", "guarded", "auto"], KINDS)))
def test_autonomy_by_kind(autonomy, kind):
    d = classify_update(ProposedUpdate(kind=kind), page(exists=kind != "create"), TrustPolicy(autonomy=autonomy))
    if kind == "supersede":
        assert (d.action, d.reason) == ("hold", "supersede"), "supersede always needs a person"
    else:
        assert outcome(d) == EXPECTED_CEILING[autonomy][kind]


@pytest.mark.parametrize("autonomy", ["suggest", "guarded", "auto"])
@pytest.mark.parametrize("kind", KINDS)
def test_contradiction_is_a_conflict_at_every_level(autonomy, kind):
    d = classify_update(ProposedUpdate(kind=kind, contradicts=True), page(), TrustPolicy(autonomy=autonomy))
    assert (d.action, d.reason) == ("conflict", "contradiction")


@pytest.mark.parametrize(
    "guard, pg, held",
    [
        (NeverAutoGuard(page_class="entity"), page(cls="entity"), True),
        (NeverAutoGuard(page_class="entity"), page(cls="concept"), False),
        (NeverAutoGuard(tag="finance"), page(tags=["Finance"]), True),
        (NeverAutoGuard(tag="finance"), page(tags=["ops"]), False),
        (NeverAutoGuard(title_pattern=r"^pricing"), page(title="Pricing for 2027"), True),
        (NeverAutoGuard(title_pattern=r"^pricing"), page(title="Our pricing"), False),
        (NeverAutoGuard(title_pattern=r"[invalid"), page(title="x"), False),
    ],
)
@pytest.mark.parametrize("autonomy", ["guarded", "auto"])
def test_never_auto_guards(guard, pg, held, autonomy):
    d = classify_update(ProposedUpdate(kind="append"), pg, TrustPolicy(autonomy=autonomy, never_auto=(guard,)))
    assert outcome(d) == ("never_auto" if held else None)


def test_never_auto_matches_the_new_title_of_a_created_page():
    pol = TrustPolicy(autonomy="auto", never_auto=(NeverAutoGuard(title_pattern="client"),))
    d = classify_update(ProposedUpdate(kind="create", title="Client contract"), page(exists=False, title=""), pol)
    assert d.reason == "never_auto"


@pytest.mark.parametrize(
    "kind, expected", [("append", None), ("revise", "human_confirmed"), ("supersede", "human_confirmed")]
)
@pytest.mark.parametrize("autonomy", ["guarded", "auto"])
def test_human_confirmed_pages_take_only_appends(kind, expected, autonomy):
    d = classify_update(ProposedUpdate(kind=kind), page(confirmed=True), TrustPolicy(autonomy=autonomy))
    if autonomy == "guarded" and expected is None and kind == "revise":
        expected = "autonomy_ceiling"
    assert outcome(d) == expected


@pytest.mark.parametrize(
    "confidence, minimum, held",
    [(0.59, 0.6, True), (0.5999999, 0.6, True), (0.6, 0.6, False), (0.61, 0.6, False), (0.0, 0.0, False),
     (0.89, 0.9, True), (1.0, 1.0, False)],
)
def test_min_confidence_threshold(confidence, minimum, held):
    d = classify_update(ProposedUpdate(kind="append", confidence=confidence), page(),
                        TrustPolicy(autonomy="auto", min_confidence=minimum))
    assert outcome(d) == ("low_confidence" if held else None)


def test_order_contradiction_before_guard_before_confirmed_before_confidence_before_supersede():
    pol = TrustPolicy(autonomy="auto", never_auto=(NeverAutoGuard(tag="x"),))
    pg = page(tags=["x"], confirmed=True)
    assert classify_update(ProposedUpdate("supersede", 0.1, contradicts=True), pg, pol).reason == "contradiction"
    assert classify_update(ProposedUpdate("supersede", 0.1), pg, pol).reason == "never_auto"
    pol2 = TrustPolicy(autonomy="auto")
    assert classify_update(ProposedUpdate("supersede", 0.1), pg, pol2).reason == "human_confirmed"
    assert classify_update(ProposedUpdate("supersede", 0.1), page(), pol2).reason == "low_confidence"
    assert classify_update(ProposedUpdate("supersede", 0.9), page(), pol2).reason == "supersede"


def test_disabled_policy_and_unmaintained_kind_write_nothing():
    assert classify_update(ProposedUpdate("create"), page(exists=False), TrustPolicy(enabled=False)).reason == "autonomy_ceiling"
    pol = TrustPolicy(autonomy="auto", maintain_kinds=("source",))
    assert classify_update(ProposedUpdate("append"), page(cls="entity"), pol).reason == "autonomy_ceiling"
    assert classify_update(ProposedUpdate("append"), page(cls="source"), pol).action == "apply"


@pytest.mark.parametrize("text, ok", [("class:concept", True), ("tag:finance", True), ("title:^Pri", True),
                                      ("class:thing", False), ("title:[x", False), ("nothing", False),
                                      ("tag:", False), ("colour:red", False)])
def test_guard_parsing(text, ok):
    if ok:
        assert NeverAutoGuard.parse(text).text() == text
    else:
        with pytest.raises(ValueError):
            NeverAutoGuard.parse(text)


def test_every_hold_has_words():
    d = classify_update(ProposedUpdate("revise"), page(), TrustPolicy())
    assert d.action == "hold" and d.reason == "autonomy_ceiling" and d.words


# -- the compile-loss guard (issue 8): a model's extraction that left facts of its source behind -------


@pytest.mark.parametrize("autonomy", ["suggest", "guarded", "auto"])
@pytest.mark.parametrize("kind", KINDS)
def test_compile_loss_is_held_at_every_level_and_kind(autonomy, kind):
    d = classify_update(ProposedUpdate(kind=kind, compile_loss=True), page(exists=kind != "create"),
                        TrustPolicy(autonomy=autonomy))
    assert (d.action, d.reason) == ("hold", "compile_loss")
    assert "numbers, dates or versions" in d.words


def test_compile_loss_flag_defaults_off():
    assert ProposedUpdate("append").compile_loss is False
    assert classify_update(ProposedUpdate("append"), page(), TrustPolicy(autonomy="auto")).applies


@pytest.mark.parametrize(
    "update, pg, policy, expected",
    [
        # a contradiction is still a conflict (the machine never resolves it)
        (ProposedUpdate("revise", contradicts=True, compile_loss=True), page(), TrustPolicy(autonomy="auto"),
         ("conflict", "contradiction")),
        # never_auto and human_confirmed (about the target page) come first, as in trust.md
        (ProposedUpdate("append", compile_loss=True), page(tags=["x"]),
         TrustPolicy(autonomy="auto", never_auto=(NeverAutoGuard(tag="x"),)), ("hold", "never_auto")),
        (ProposedUpdate("revise", compile_loss=True), page(confirmed=True), TrustPolicy(autonomy="auto"),
         ("hold", "human_confirmed")),
        # an append to a human-confirmed page is otherwise allowed: the loss holds it
        (ProposedUpdate("append", compile_loss=True), page(confirmed=True), TrustPolicy(autonomy="auto"),
         ("hold", "compile_loss")),
        # low confidence, the other evidence rule, first; then compile_loss ahead of supersede and ceiling
        (ProposedUpdate("append", 0.3, compile_loss=True), page(), TrustPolicy(autonomy="auto"),
         ("hold", "low_confidence")),
        (ProposedUpdate("supersede", 0.9, compile_loss=True), page(), TrustPolicy(autonomy="auto"),
         ("hold", "compile_loss")),
        (ProposedUpdate("revise", compile_loss=True), page(), TrustPolicy(autonomy="guarded"),
         ("hold", "compile_loss")),
        (ProposedUpdate("create", compile_loss=True), page(exists=False), TrustPolicy(enabled=False),
         ("hold", "compile_loss")),
    ],
)
def test_compile_loss_order(update, pg, policy, expected):
    d = classify_update(update, pg, policy)
    assert (d.action, d.reason) == expected


def test_compile_loss_is_a_reason_the_review_manifest_accepts():
    from kctui.core.trust import REASON_WORDS, HoldReason

    assert HoldReason.COMPILE_LOSS.value == "compile_loss" and REASON_WORDS[HoldReason.COMPILE_LOSS]
