"""Who speaks in a turn (kctui.search.passages.speaker_of), who a question names
(kctui.search.query.people_in), and a question about a person preferring what that person said
(kctui.search.ranking.fuse `speakers`)."""

from __future__ import annotations

import pytest

from kctui.search.passage_index import RankedPassage
from kctui.search.passage_weight import SPEAKER
from kctui.search.passages import speaker_of
from kctui.search.query import people_in
from kctui.search.ranking import fuse


@pytest.mark.parametrize("text, speaker", [
    ("Lena: I got the job!", "lena"),
    ("[18:02] Lena Park: on my way", "lena"),
    ("**Dev Patel** 10:07\n£96k year one incl. badges", "dev"),
    ("**Moira Kettleby** [10:14]\nok, let's renew", "moira"),
    ("**Tomasz**\n- PACS migration prep", "tomasz"),
    ("- Marcus: owns the migration", ""),  # a list item, not a turn
    ("We moved on Saturday.", ""),
    ("lena: lower case is no name", ""),
])
def test_who_speaks_in_a_turn(text, speaker):
    assert speaker_of(text) == speaker


@pytest.mark.parametrize("question, people", [
    ("What is Marcus's job now?", {"marcus"}),
    ("When did Dee and Jess buy the van?", {"dee", "jess"}),
    ("Marcus moved where?", set()),  # the first word is capitalised anyway
    ("Where does Maren work now? Has I said?", {"maren"}),
    ("what is the plan", set()),
])
def test_the_people_a_question_names(question, people):
    assert people_in(question) == people


def passage(rowid: int, line: int, text: str) -> RankedPassage:
    # ranked passages not next to each other in the file: none is given a share of another's score as its reply
    return RankedPassage(rowid * 10, "chat.md", line, line, text, "Session 3", "Chat", 0.0)


def test_a_question_about_a_person_prefers_what_they_said():
    asked = passage(1, 3, "Lena: How is the new job going, Marc?")
    other = passage(2, 5, "Lena: My job is fine, the rabbits are not.")
    said = passage(3, 7, "Marcus: Northgate! GIS analyst, full-time, from September.")
    assert [s.lines[0] for s in fuse([], [asked, other, said], {"marcus", "job"})] == [3, 5, 7]
    got = fuse([], [asked, other, said], {"marcus", "job"}, speakers=frozenset({"marcus"}))
    assert [s.lines[0] for s in got] == [3, 7, 5]
    assert got[1].score == SPEAKER / 3  # the third passage's 1/(K + 2), counted SPEAKER times
