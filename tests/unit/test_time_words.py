"""Time in a question and in a passage (kctui.search.time_words): a question about time prefers the
passages that state one."""

from __future__ import annotations

import pytest

from kctui.search.passage_index import RankedPassage
from kctui.search.ranking import WHEN, fuse
from kctui.search.time_words import asks_when, mentions_time


def passage(rowid: int, path: str, line: int, text: str) -> RankedPassage:
    return RankedPassage(rowid, path, line, line, text, "Notes", "Title", 0.0)


@pytest.mark.parametrize("question, expected", [
    ("When did Ana move to Leeds?", True),
    ("And when is the gig?", True),
    ("On what date was the boiler fixed?", True),
    ("Which day does the choir meet now?", True),
    ("What year did they buy the van?", True),
    ("How long ago did she start?", True),
    ("What is the name of Ana's cat?", False),
    ("Which venue did they book?", False),
    ("What did Bo say about the date night?", False),  # "date" not asked for: "what did"
])
def test_a_question_asks_for_a_time(question, expected):
    assert asks_when(question) is expected


@pytest.mark.parametrize("text, expected", [
    ("We move on Saturday the 27th.", True),
    ("Picked it up yesterday from a guy in town.", True),
    ("Last night! At the top of the hill.", True),
    ("Friday. I'm terrified.", True),
    ("The race is in September.", True),
    ("Posted 2024-03-05, RSVP by 5/4.", True),
    ("Doors at 7, we play at 9 pm.", True),
    ("Three weeks ago, give or take.", True),
    ("I may go, I may not.", False),  # "may" the verb is no month
    ("It was perfect, the cake stayed upright.", False),
])
def test_a_passage_states_a_time(text, expected):
    assert mentions_time(text) is expected


def test_a_question_about_time_moves_the_passages_that_state_one_up():
    best = passage(1, "chat.md", 3, "Ana: The move went fine, the van was huge.")
    plain = passage(2, "chat.md", 9, "Bo: Moving is the worst.")
    timed = passage(3, "chat.md", 15, "Ana: We moved last Saturday.")
    assert [s.lines[0] for s in fuse([], [best, plain, timed], {"move"})] == [3, 9, 15]
    got = fuse([], [best, plain, timed], {"move"}, wants="time")
    assert [s.lines[0] for s in got] == [3, 15, 9]
    assert got[1].score == WHEN / 3  # the third passage's 1/(K + 2), counted WHEN times


@pytest.mark.parametrize("question, owners", [
    ("How old was Marcus's cat?", {"marcus"}),
    ("What is the siblings' holiday house called?", {"siblings"}),
    ("Where did Ana’s sister move?", {"ana"}),  # a typographic apostrophe
    ("Don't they sell it any more?", set()),
    ("What is Cody?", set()),
])
def test_an_owner_in_a_question(question, owners):
    from kctui.search.query import owners_of

    assert owners_of(question) == owners
