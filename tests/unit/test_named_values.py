"""A turn stating a value of the kind asked for, in talk that names what the question names
(kctui.search.named_values), counts NAMED_VALUE times its score in the one ranking (kctui.search.ranking.fuse)."""

from __future__ import annotations

import pytest

from kctui.search.named_values import NAMED_BEFORE, NAMED_VALUE, in_named_stretch, names_in_words
from kctui.search.passage_index import RankedPassage
from kctui.search.ranking import fuse


def turn(rowid: int, text: str, score: float = 0.0, heading: str = "Session 3", path: str = "chat.md") -> RankedPassage:
    return RankedPassage(rowid, path, rowid * 2 + 1, rowid * 2 + 1, text, heading, "Chat", score)


def test_a_name_counts_in_a_turns_own_words_not_as_its_speaker():
    assert names_in_words("Tom: Nell's awake.", frozenset({"nell"}))
    assert not names_in_words("Nell: I'm awake.", frozenset({"nell"}))
    assert not names_in_words("Tom: she's awake.", frozenset())


def test_a_turn_is_in_a_named_stretch_when_it_or_a_turn_just_before_it_names_the_name():
    names = frozenset({"nell"})
    rows = {1: turn(1, "Tom: SHE'S HERE. Nell arrived last Tuesday."), 2: turn(2, "Priya: congratulations!!! how are you?"),
            3: turn(3, "Tom: we're all ok. She was 7lb 2oz."),
            9: turn(9, "Tom: the boiler is 40kg.", heading="Session 4"), 10: turn(10, "Tom: and 12kg of tiles.", heading="Session 4")}
    assert in_named_stretch(rows[3], rows, names)
    assert in_named_stretch(rows[1], rows, names)
    assert not in_named_stretch(rows[10], rows, names)  # no turn before it names her
    far = {i: turn(i, "Priya: ok.") for i in range(2, 3 + NAMED_BEFORE)}
    far[1] = rows[1]
    far[3 + NAMED_BEFORE] = turn(3 + NAMED_BEFORE, "Tom: She was 7lb 2oz.")
    assert not in_named_stretch(far[3 + NAMED_BEFORE], far, names)  # named too far back
    other = {1: turn(1, "Tom: Nell arrived.", heading="Session 2"), 2: turn(2, "Tom: She was 7lb 2oz.")}
    assert not in_named_stretch(other[2], other, names)  # another section's turn


def test_a_value_turn_after_the_name_moves_up_for_a_question_asking_for_that_kind():
    named = turn(1, "Tom: SHE'S HERE. Nell arrived last Tuesday.", -9.0)
    weight = turn(3, "Tom: we're all ok. She was 7lb 2oz.", -3.0)
    elsewhere = turn(20, "Tom: the new boiler weighs 40kg.", -3.0, heading="Session 9")
    ranked = [named, elsewhere, weight]
    plain = fuse([], ranked, {"heavy", "nell", "born"}, {}, wants="weight")
    got = fuse([], ranked, {"heavy", "nell", "born"}, {}, wants="weight", speakers=frozenset({"nell"}))
    by = {s.lines[0]: s.score for s in got}
    before = {s.lines[0]: s.score for s in plain}
    assert by[weight.start] > by[elsewhere.start]
    assert by[weight.start] == pytest.approx(before[weight.start] * NAMED_VALUE)  # the weight turn: ×1.5 more
    assert by[elsewhere.start] == before[elsewhere.start]


def test_a_value_in_a_best_hits_section_scores_a_share_of_the_hits():
    from kctui.search.passage_scores import SECTION_REACH, SECTION_VALUE, with_neighbours
    hit = turn(10, "Callum: I handed my notice in last Monday.", -5.0)
    rows = {6: turn(6, "Callum: They came back at £32,500. I said yes."), 7: turn(7, "Nadia: WHAT"),
            8: turn(8, "Callum: lunch was nice"),
            10 + SECTION_REACH + 1: turn(10 + SECTION_REACH + 1, "Callum: the rent is £900."),
            12: turn(12, "Callum: £40 for the lot.", heading="Session 9")}
    got = {p.rowid: score for score, p in with_neighbours([hit], rows, "amount")}
    assert got[6] == pytest.approx(1.0 * SECTION_VALUE)
    assert 8 not in got and 10 + SECTION_REACH + 1 not in got and 12 not in got  # no value; too far; another section
    assert 6 not in {p.rowid for _s, p in with_neighbours([hit], rows, None)}


def test_a_hit_naming_the_questions_name_reaches_the_value_after_it_beyond_the_best_hits():
    from kctui.search.passage_scores import VALUE_HITS, VALUE_NEAR, with_neighbours
    filler = [turn(100 + 10 * i, f"Tom: Nell thing {i}", -9.0) for i in range(VALUE_HITS)]
    late = turn(3, "Tom: Nell arrived last Tuesday.", -8.0)
    rows = {4: turn(4, "Priya: congrats!"), 5: turn(5, "Priya: how are you all?"), 6: turn(6, "Tom: She was 7lb 2oz.")}
    plain = {p.rowid: s for s, p in with_neighbours([*filler, late], rows, "weight")}
    named = {p.rowid: s for s, p in with_neighbours([*filler, late], rows, "weight", frozenset({"nell"}))}
    assert 6 not in plain
    assert named[6] == pytest.approx(plain[3] * VALUE_NEAR)
