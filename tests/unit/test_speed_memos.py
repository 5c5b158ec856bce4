"""Session 29 (S), speed with the same answers: the words of many groups looked for in one scan (decided's
markers), the forms of the pages' names and a page's claim lines remembered for a long-lived worker's next pass."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import decided
from kctui.compiler.builtin.needles import Needles
from kctui.compiler.steps import first_words, name_forms, names_memo
from kctui.core import claims
from kctui.core.claims import Claim, Evidence, claim_line, parse_claim_line, read_claim_line

GROUPS = [("not", "not "), ("no",), ("~~",), ("(was",), ("\nno", " no"), ("doing it", "do"), ("é",), ("",)]


@pytest.mark.parametrize("text", [
    "", "not now", "no", "know", "cannot do it", "~~old~~ new", "now 60 days (was 90)", "x\nno", "done",
    "doing it now", "café", "n", "dono", "nonot", "it is a no", "(wa", "(was",
])
def test_the_groups_held_are_those_any_word_of_which_the_text_holds(text: str) -> None:
    want = sum(1 << i for i, g in enumerate(GROUPS) if any(w in text for w in g))
    assert Needles(GROUPS).held(text) == want


def test_no_words_hold_nothing() -> None:
    assert Needles([(), ()]).held("anything") == 0


def test_the_markers_found_as_each_marker_asked_its_words() -> None:
    texts = ["Vendor B — not chosen, too slow.", "no for now", "Greg ok'd it", "we do 3 things", "plain words here",
             "~~Thu 29 Oct~~ **Thu 12 Nov** full dry run", "Deep Archive transition now 60 days (was 90)"]
    for text in texts:
        folded = text.casefold()
        want = [i for i, (_, p, needs) in enumerate(decided._MARKERS_NEEDS)
                if any(w in folded for w in needs) or (p is decided._REJECTED and folded.startswith("no"))]
        held = decided._HELD.held(folded) | (decided._REJECTED_BIT if folded.startswith("no") else 0)
        assert [i for i in range(len(decided._MARKERS_NEEDS)) if held >> i & 1] == want


NAMES = {"hannah-cole": ["Hannah Cole"], "grafana-cloud": ["Grafana Cloud"], "prtg": ["PRTG 500"],
         "pagerduty": ["PagerDuty"], "polar": ["Polar Process Ltd"]}


@pytest.mark.parametrize("fn", [first_words.first_word_forms, first_words.initials_forms, name_forms.brand_forms,
                                name_forms.forms_of])
def test_the_forms_remembered_are_the_forms_and_a_copy(fn) -> None:  # noqa: ANN001
    want = fn.__wrapped__(NAMES)
    first = fn(NAMES)
    assert first == want and fn({slug: iter(ns) for slug, ns in NAMES.items()}) == want  # (any iterable of names)
    for forms in first.values():
        forms.append("changed by a caller")
    assert fn(dict(NAMES)) == want  # (the memory is not the caller's copy)
    assert fn({**NAMES, "hannah-cole": ["Hannah Cole", "Hannah"]}) == fn.__wrapped__({**NAMES, "hannah-cole": ["Hannah Cole", "Hannah"]})


def test_the_memory_keeps_the_latest_answers() -> None:
    calls = []

    @names_memo.remembered
    def count(names):  # noqa: ANN001, ANN202
        calls.append(1)
        return {slug: list(ns) for slug, ns in names.items()}

    for n in range(names_memo.KEPT + 1):
        count({"a": [str(n)]})
    count({"a": [str(names_memo.KEPT)]})
    assert len(calls) == names_memo.KEPT + 1
    count({"a": ["0"]})  # (the oldest, forgotten)
    assert len(calls) == names_memo.KEPT + 2


def test_a_claim_line_read_again_is_the_claim_its_digest_says() -> None:
    claims._READ.clear()
    line = claim_line(Claim("Acme", "owner", "Ada", "", "fact", "fact", Evidence("notes/a.md", 3, 4, "")))
    first = read_claim_line(line, {"notes/a.md": "sha256:1"})
    assert first == parse_claim_line(line, {"notes/a.md": "sha256:1"}) and first.evidence.digest == "sha256:1"
    assert read_claim_line(line, {"notes/a.md": "sha256:1"}) is first
    again = read_claim_line(line, {"notes/a.md": "sha256:2"})  # (its source changed: read again)
    assert again == parse_claim_line(line, {"notes/a.md": "sha256:2"}) and again.evidence.digest == "sha256:2"
    assert read_claim_line(line, {}) == parse_claim_line(line, {})
    assert read_claim_line("not a claim line", {}) is None


def test_any_word_of_any_group() -> None:
    assert Needles([("chose", "go with")]).any("we go with b") and not Needles([("chose",)]).any("we went")
    assert Needles([("",)]).any("anything") and not Needles([()]).any("anything")


def test_a_frontmatter_read_twice_is_the_same_and_its_own() -> None:
    from kctui.core.yaml_block import read_block
    text = "a: 1\nb: x\nc: true\nd: []\ne: {}\nf: 1.5\ng:\n- 2\n- y\n"
    first, second = read_block(text, 10), read_block(text, 10)
    assert first == second == {"a": 1, "b": "x", "c": True, "d": [], "e": {}, "f": 1.5, "g": [2, "y"]}
    assert first["d"] is not second["d"] and first["e"] is not second["e"] and first["g"] is not second["g"]
