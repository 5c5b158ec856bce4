"""What a question asks for (kctui.search.asked_for) and whether a statement states it: a question that
asks for a time, a duration, a count or an amount prefers the statements that hold one
(kctui.search.ranking.fuse `wants`)."""

from __future__ import annotations

import pytest

from kctui.search.asked_for import asked_for, states
from kctui.search.passage_index import RankedPassage
from kctui.search.passage_scores import relevance
from kctui.search.ranking import WHEN, fuse


def passage(rowid: int, line: int, text: str, score: float = 0.0) -> RankedPassage:
    # ranked passages not next to each other in the file: none is given a share of another's score as its reply
    return RankedPassage(rowid * 10, "notes.md", line, line, text, "Notes", "Title", score)


@pytest.mark.parametrize("question, expected", [
    ("When is the Datadog renewal?", "time"),
    ("What date did Pickle come home?", "time"),
    ("How long were we down on the 27th?", "duration"),
    ("How many days did the migration take?", "duration"),
    ("How long ago did she start?", "time"),  # a point in time, not a length
    ("How many nodes got stuck?", "count"),
    ("How much did Vocera want for the first year?", "amount"),
    ("What are we paying Datadog per year?", "amount"),
    ("What did the roof repair cost in the end?", "amount"),
    ("How heavy was Nell when she was born?", "weight"),
    ("What does the parcel weigh?", "weight"),
    ("How far is the ride from Wigan to Lancaster?", "distance"),
    ("How many miles did they cover on stage four?", "distance"),
    ("How old was Biscuit at Christmas?", "age"),
    ("What finish time was she aiming for?", "time"),
    ("What does Jess do for a living?", "job"),
    ("What is Maddie's job?", "job"),
    ("What did Mags do before she retired?", "job"),
    ("When did Lena start her new job?", "time"),  # when first
    ("Which company does Kit work for?", None),  # a company's name, not a job
    ("Who owns the Okta contract?", None),
    ("Which city does Jonah live in?", None),
    ("Why did we pick Timescale?", None),
])
def test_what_a_question_asks_for(question, expected):
    assert asked_for(question) == expected


@pytest.mark.parametrize("kind, text, expected", [
    ("duration", "The outage lasted 3h 37m.", True),
    ("duration", "You won't be on the rota for your first 3 months.", True),
    ("duration", "It took five weeks, give or take.", True),
    ("duration", "Node c147 is drained.", False),
    ("count", "212 of 230 ward PCs are patched.", True),
    ("count", "Three nodes are still stuck.", True),
    ("count", "Nothing left to patch.", False),
    ("amount", "£96k year one incl. badges + £40k/yr after.", True),
    ("amount", "A two-instance cluster comes out at about $6,200 a month.", True),
    ("amount", "They quoted 1,200 euros for the lot.", True),
    ("amount", "We run 3 replicas in eu-west-1.", False),  # a number, but no money
    ("time", "The renewal is on 2026-03-15.", True),
    ("time", "Sunil reckons 3:55 is more realistic now.", True),  # a clock's or a race's time
    ("weight", "She was 7lb 2oz, and both of them are fine.", True),
    ("weight", "Weighed again today. 32kg now", True),
    ("weight", "He was skinny off the track.", False),
    ("distance", "336 miles on stage four. So 978 in total.", True),
    ("distance", "Signed up for a 10k in May.", True),
    ("distance", "They offered £10k more.", False),  # money, not a distance
    ("age", "He's eleven, not twelve!", True),
    ("age", "She is 3 months old today.", True),
    ("age", "He turned 70 on Sunday.", True),
    ("age", "She is 5 minutes away.", False),
    ("age", "Nothing to report.", False),
    ("job", "Jess: I'm a paramedic, nights mostly.", True),
    ("job", "Rafa: She's a marine biologist at the uni.", True),
    ("job", "Tom: He's a retired plumber so he knows what it costs.", True),
    ("job", "Tom: it's a disaster.", False),
    ("job", "Bo: I'm a bit tired.", False),
    (None, "£96k year one.", False),
])
def test_a_statement_states_what_is_asked_for(kind, text, expected):
    assert states(kind, text) is expected


def test_a_question_about_money_moves_the_statements_that_state_an_amount_up():
    first = passage(1, 3, "Vocera came up again in the thread.")
    plain = passage(2, 6, "What did Vocera quote?")
    priced = passage(3, 9, "£96k year one incl. badges + £40k/yr after.")
    assert [s.lines[0] for s in fuse([], [first, plain, priced], {"vocera"})] == [3, 6, 9]
    got = fuse([], [first, plain, priced], {"vocera"}, wants="amount")
    assert [s.lines[0] for s in got] == [3, 9, 6]
    assert got[1].score == WHEN / 3  # the third passage's 1/(K + 2), counted WHEN times


def test_a_passage_scores_by_its_bm25_against_the_best_ones_and_its_rank():
    ranked = [passage(1, 3, "a", -8.0), passage(2, 6, "b", -4.0), passage(3, 9, "c", -6.0)]
    assert [round(relevance(ranked, j), 3) for j in range(3)] == [1.0, 0.5, 0.5]  # sqrt(0.5 * 1/2), sqrt(0.75 * 1/3)
    got = fuse([], ranked, {"x"})
    assert [round(s.score, 3) for s in got] == [1.0, 0.5, 0.5]
    # a second passage nearly as relevant as the first keeps more than its rank alone gives it (1/2)
    close = [passage(1, 3, "a", -8.0), passage(2, 6, "b", -7.6)]
    assert relevance(close, 1) == pytest.approx((0.95 * 0.5) ** 0.5)
    assert relevance(close, 1) > 0.5
    unscored = [passage(1, 3, "a"), passage(2, 6, "b")]
    assert [relevance(unscored, j) for j in range(2)] == [1.0, 0.5]
