"""A turn's worth for its form (kctui.search.turn_form): a short turn that names nothing the question asks
about and holds no number is talk, and gives its place in a packet to the turns that answer."""

from __future__ import annotations

import pytest

from kctui.search.passage_index import RankedPassage
from kctui.search.ranking import NEXT_CLAIM, WHEN_TIME, fuse
from kctui.search.turn_form import SHORT, TALK, said_text, turn_form

CONTENT = {"rehearse", "night", "band"}


@pytest.mark.parametrize("text, expected", [
    ("Marcus: Legend.", TALK),
    ("Lena: Ha. I'd have paid money to see that.", TALK),
    ("Kit: Works for me. Thursdays from next week, then.", TALK),  # names no word asked about
    ("Dee: Rehearsal on Thursday as usual, band?", 1.0),  # a question: what the talk turns to
    ("Dee: Can we rehearse on Wednesdays?", 1.0),
    ("Rosa: Still 1:55.", 1.0),  # a number
    ("Kit: Same night as always for the band.", 1.0),  # a word of the question
    ("Rosa: " + "and we talked about all sorts of things for ages " * 2, 1.0),  # not short
    ("Legend.", 1.0),  # not a turn: a line of a document
    ("- done.", 1.0),
])
def test_talk_is_a_short_turn_naming_nothing_asked_with_no_number(text, expected):
    assert turn_form(text, CONTENT) == expected


def test_short_is_counted_with_the_speakers_label():
    assert turn_form("Al: " + "x" * (SHORT - 4), set()) == 1.0
    assert turn_form("Al: " + "x" * (SHORT - 5), set()) == TALK


def passage(rowid: int, line: int, text: str, score: float) -> RankedPassage:
    return RankedPassage(rowid, "chat.md", line, line, text, "Session 1", "Chat", score)


def test_talk_ranks_below_a_turn_that_answers():
    ranked = [passage(1, 3, "Dee: Legend.", -5.0), passage(2, 9, "Kit: Still Thursdays, the band agreed.", -4.9)]
    out = fuse([], ranked, {"band", "rehearse"})
    assert [s.text for s in out] == ["Kit: Still Thursdays, the band agreed.", "Dee: Legend."]


@pytest.mark.parametrize(("text", "said"), [
    ("(2024-01-08) — said: I did 6 miles on Saturday.", "I did 6 miles on Saturday."),
    ("(2024-06-30; yesterday = Saturday 29 June 2024) — plan: I'll run.", "I'll run."),
    ("revenue: $1.2m in 2024", "revenue: $1.2m in 2024"),  # not a turn's claim: as it is
    ("(3.12) — released: 2023-10-02", "(3.12) — released: 2023-10-02"),
])
def test_said_text_leaves_out_a_turn_s_date_in_front(text, said):
    assert said_text(text) == said


def test_a_turn_s_claim_states_no_time_by_its_session_s_date():
    """A claim of a turn counts WHEN_TIME times only when its words state the value asked for, not its date."""
    pages = [{"page": "entities/maddie.md", "title": "Maddie", "description": "", "claims": [], "stating": [
        {"text": "Maddie (2024-01-08) — said: I've signed up for a marathon.", "citation": "^[s1.md:L13-L13]"},
        {"text": "Maddie (2024-08-11) — said: Chester is on 6 October.", "citation": "^[s13.md:L25-L25]"}]}]
    got = {s.text: s.score for s in fuse(pages, [], {"maddie", "time"}, wants="time")}
    plain = got["(2024-01-08) — said: I've signed up for a marathon."]
    timed = got["(2024-08-11) — said: Chester is on 6 October."]
    assert timed > plain and timed / plain == pytest.approx(WHEN_TIME * NEXT_CLAIM)
