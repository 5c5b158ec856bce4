"""A turn that names what the best hits name beyond the question's words (kctui.search.echoes)."""

from __future__ import annotations

import pytest

from kctui.search.echoes import ECHO, ECHO_OF, with_echoes
from kctui.search.passage_index import RankedPassage


def _p(rowid: int, text: str) -> RankedPassage:
    return RankedPassage(rowid, "chat.md", rowid, rowid, text, "Session 1", "Chat", 0.0)


BEST = [(1.0, _p(1, "Sam: ok I'm calling it. Paper Lanterns is on the EP. Lemon Tree is out"))] + [
    (0.9 - 0.1 * i, _p(2 + i, f"Ro: filler number {i}")) for i in range(ECHO_OF - 1)]


@pytest.mark.parametrize(("text", "echoes"), [
    ("Dan: agreed. so its Tuesday's Ghost, Slow Weather, Paper Lanterns", True),  # two of its words
    ("Dan: Paper cups for the gig", False),  # one word only
    ("Dan: the songs on the EP", False),  # the question's words do not count ("songs", "ep")
    ("Sam: Paper Lanterns is on the EP", True),  # its speaker's label is not a word it names
    ("- Paper Lanterns, Lemon Tree", False),  # a document's line: not a turn
])
def test_a_turn_naming_two_of_a_best_hit_s_own_words_is_raised(text, echoes):
    ranked = [*BEST, (0.01, _p(99, text))]
    got = {p.rowid: score for score, p in with_echoes(ranked, {"which", "songs", "are", "on", "the", "ep"})}
    assert got[99] == (pytest.approx(ECHO * 1.0) if echoes else 0.01)


def test_the_best_passages_keep_their_scores_and_a_better_score_is_kept():
    ranked = [*BEST, (0.8, _p(99, "Dan: Paper Lanterns and Lemon Tree both"))]
    got = with_echoes(ranked, set())
    assert [s for s, _p in got][:ECHO_OF] == [s for s, _p in sorted(ranked, key=lambda sp: -sp[0])][:ECHO_OF]
    assert dict((p.rowid, s) for s, p in got)[99] == 0.8  # its own score beats ECHO of the hit's


def test_a_document_line_among_the_best_is_not_echoed():
    """Only a turn's words are echoed: a document's line that repeats them is most often its own section's."""
    best = [(1.0, _p(1, "- Paper Lanterns is on the EP. Lemon Tree is out")), *BEST[1:]]
    ranked = [*best, (0.01, _p(99, "Dan: agreed. so its Tuesday's Ghost, Slow Weather, Paper Lanterns"))]
    assert {p.rowid: s for s, p in with_echoes(ranked, set())}[99] == 0.01
