"""Time in a question and in a passage (kctui.search.time_words): a question about time prefers the
passages that state one."""

from __future__ import annotations

import pytest

from kctui.search.passage_index import RankedPassage
from kctui.search.passage_weight import SETTLED, SUPERSEDED
from kctui.search.ranking import WHEN_TIME, fuse
from kctui.search.time_words import (
    asks_latest,
    asks_when,
    mentions_time,
    only_continues,
    tells_change,
    tells_news,
)


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
    plain = passage(5, "chat.md", 9, "Bo: A move is the worst.")  # turns apart: no reply, no speaker going on
    timed = passage(9, "chat.md", 15, "Ana: We moved last Saturday.")
    assert [s.lines[0] for s in fuse([], [best, plain, timed], {"move"})] == [3, 9, 15]
    got = fuse([], [best, plain, timed], {"move"}, wants="time")
    assert [s.lines[0] for s in got] == [3, 15, 9]
    assert got[1].score == WHEN_TIME / 3  # the third passage's 1/(K + 2), counted WHEN_TIME times


@pytest.mark.parametrize("question, expected", [
    ("What is Marcus's job now?", True),
    ("What salary did Cal end up accepting?", True),
    ("Where was the party finally held?", True),
    ("What did the repair cost in the end?", True),
    ("Which backend does the app run on these days?", True),
    ("Is the race still on for May?", True),
    ("On which dates did the band actually record?", True),
    ("What is the name of Ana's cat?", False),
    ("When did Ana move to Leeds?", False),
    ("How many knots did the sailor tie?", False),  # "now" inside a word is no "now"
])
def test_a_question_asks_how_things_stand_in_the_end(question, expected):
    assert asks_latest(question) is expected


@pytest.mark.parametrize("text, expected", [
    ("We're going to Porto instead!", True),
    ("He's officially Dex now.", True),
    ("Still 1:55. Don't let me change it again.", True),
    ("They've moved it to the 13th.", True),
    ("Gary talked us out of oak, so quartz after all.", True),
    ("It came to £35,200 in the end.", True),
    ("We don't rehearse on Mondays anymore.", True),
    ("The cassettes arrived on Friday!", False),
    ("I know the feeling.", False),  # "know" is no "now"
])
def test_a_passage_tells_of_a_change(text, expected):
    assert tells_change(text) is expected


def test_a_question_about_how_things_stand_moves_the_passages_that_tell_of_a_change_up():
    first = passage(1, "chat.md", 3, "Ana: The gig is at the Crane.")
    note = passage(20, "notes.md", 1, "The gig is now at the Mill.")  # a document's "now", no news
    other = passage(5, "chat.md", 9, "Bo: The Crane gig sold out.")  # turns apart: no reply, no speaker going on
    moved = passage(9, "chat.md", 15, "Ana: The gig moved to the Mill instead.")
    assert [s.lines[0] for s in fuse([], [first, other, moved, note], {"gig"})] == [3, 9, 15, 1]
    got = fuse([], [first, other, moved, note], {"gig"}, latest=True)
    assert [s.lines[0] for s in got] == [3, 15, 9, 1]
    assert got[1].score == pytest.approx(SETTLED / 3)  # the third passage's 1/(K + 2), counted SETTLED times


@pytest.mark.parametrize("text, news, continues", [
    ("Ana: billing migration on track, cutover still 14 Nov.", False, True),
    ("The retention period stays at 30 days.", False, True),
    ("Pricing remains unchanged.", False, True),
    ("so we moved the cutover to 21 Nov.", True, False),
    ("It's still on, but moved to the 13th.", True, False),  # a change told: not only going on
    ("We're going to Porto instead!", True, False),
    ("The cassettes arrived on Friday!", False, False),
])
def test_a_passage_tells_news_or_only_that_things_go_on(text, news, continues):
    assert tells_news(text) is news
    assert only_continues(text) is continues


@pytest.mark.parametrize("who", ["- Ana: ", "Ana: "], ids=["note-line", "chat-turn"])
def test_a_change_told_of_a_thing_outranks_an_earlier_still_of_it(who):
    """QA session 32 #5: "when is the cutover now?" — "cutover still 14 Nov" said how things stood then; the
    later line that moves it answers. A "still" nothing changes keeps its place (and, in a chat, counts settled)."""
    still = passage(1, "standup-11-02.md", 3, f"{who}billing migration on track, cutover still 14 Nov.")
    moved = passage(3, "standup-11-06.md", 3, f"{who}vendor delay, so we moved the cutover to 21 Nov.")
    got = fuse([], [still, moved], {"cutover"}, latest=True, wants="time")
    assert [s.source for s in got] == ["standup-11-06.md", "standup-11-02.md"]
    # the first passage's 1/(K + 0), counted WHEN_TIME (it states a time) and SUPERSEDED times
    assert got[1].score == pytest.approx(WHEN_TIME * SUPERSEDED)
    other = passage(2, "standup-11-02.md", 4, f"{who}the cutover checklist is in the wiki.")
    alone = fuse([], [still, other], {"cutover"}, latest=True, wants="time")  # nothing changes it: first
    assert alone[0].lines[0] == 3 and alone[0].score == pytest.approx(WHEN_TIME * (SETTLED if who == "Ana: " else 1))
    # a "still" that states no value of the kind asked for is no old value: "what was actually wrong …?"
    bug = passage(1, "thread.md", 7, f"{who}the route still maps the field into 12 characters.")
    fixed = passage(3, "thread.md", 28, f"{who}changed the route: the field is now 16 characters.")
    assert fuse([], [bug, fixed], {"route"}, latest=True)[0].lines[0] == 7


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
