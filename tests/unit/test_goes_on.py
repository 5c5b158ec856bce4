"""The hit's speaker going on after another's word between (kctui.search.passage_scores.GOES_ON): the news a
turn announces comes in the speaker's next turn, after the other asks for it."""

from __future__ import annotations

import pytest

from kctui.search.passage_index import RankedPassage
from kctui.search.passage_scores import GOES_ON, REPLY
from kctui.search.ranking import fuse


def _session(texts: list[str], heading: str = "Session 14") -> dict[int, RankedPassage]:
    return {10 + i: RankedPassage(10 + i, "chat.md", 21 + 2 * i, 21 + 2 * i, text, heading, "Chat", 0.0)
            for i, text in enumerate(texts)}


@pytest.mark.parametrize(("texts", "goes_on"), [
    # the speaker of the hit, the other's word, the speaker again: the news
    (["Hannah: And landlord news — he finally answered!", "Margaret: And?",
      "Hannah: He's agreed to £1,550 instead of £1,600!"], True),
    # the same speaker twice in a row: the turn after next is no one going on after a word between
    (["Hannah: And landlord news — he finally answered!", "Hannah: hang on",
      "Hannah: He's agreed to £1,550 instead of £1,600!"], False),
    # a third person after the other: not the hit's speaker going on
    (["Hannah: And landlord news — he finally answered!", "Margaret: And?",
      "Sol: He's agreed to £1,550 instead of £1,600!"], False),
    # a document's lines: no speakers
    (["- landlord answered", "- rent agreed", "- £1,550 from October"], False),
])
def test_the_hit_s_speaker_going_on_after_another_s_word_is_ranked(texts, goes_on):
    around = _session(texts)
    hit = around.pop(10)
    got = {s.lines[0]: s.score for s in fuse([], [hit], {"landlord"}, around)}
    if goes_on:
        assert got[25] == pytest.approx(GOES_ON) and got[25] > got[23] == pytest.approx(REPLY)
    else:
        assert 25 not in got


def test_the_turn_going_on_stays_in_the_hit_s_section():
    around = _session(["Hannah: landlord news!", "Margaret: And?"])
    around[12] = RankedPassage(12, "chat.md", 25, 25, "Hannah: He's agreed to £1,550", "Session 15", "Chat", 0.0)
    hit = around.pop(10)
    assert 25 not in {s.lines[0] for s in fuse([], [hit], {"landlord"}, around)}
