"""One ranking over both layers (kctui.search.ranking.fuse): compiled claims and raw passages fused by
reciprocal rank, a claim and the passage it was lifted from never both kept, the compiled form
preferred where it says what the passage says, the passage after a question ranked as its answer."""

from __future__ import annotations

import pytest

from kctui.search.passage_index import RankedPassage
from kctui.search.passage_scores import ANSWER, GOES_ON, REPLY, SECTION_VALUE, UNDER_HEADING, VALUE_NEAR, VALUE_REACH
from kctui.search.passage_weight import OWN_WORDS
from kctui.search.ranking import WHEN, claim_text, fuse


def passage(rowid: int, path: str, line: int, text: str, heading: str = "Notes") -> RankedPassage:
    return RankedPassage(rowid, path, line, line, text, heading, "Title", 0.0)


def page(path: str, title: str, claims: list[tuple[str, str]], description: str = "") -> dict:
    return {"page": path, "title": title, "description": description,
            "claims": [{"text": t, "citation": c} for t, c in claims]}


def kinds(statements) -> list[tuple[str, str, tuple[int, int]]]:
    return [(s.kind, s.group[1], s.lines) for s in statements]


def test_a_named_page_leads_and_the_passage_its_claim_cites_is_dropped():
    pages = [page("entities/sentry.md", "Sentry", [("Sentry — renews: 2026-09-30", "^[team.md:L3-L3]")],
                  "Sentry is the error tracker.")]
    passages = [passage(1, "team.md", 3, "Sentry handles error tracking; the contract renews on 2026-09-30."),
                passage(2, "team.md", 5, "Maya owns the Sentry budget.")]
    got = fuse(pages, passages, {"sentry", "renew"})
    assert kinds(got)[:2] == [("description", "entities/sentry.md", (0, 0)), ("claim", "entities/sentry.md", (3, 3))]
    assert got[1].text == "renews: 2026-09-30"  # the page title is the group's header, not repeated
    assert ("passage", "team.md", (3, 3)) not in kinds(got)  # never both the claim and its passage
    assert ("passage", "team.md", (5, 5)) in kinds(got)


def test_a_claim_that_says_what_its_passage_says_stands_in_for_it_and_a_fragment_does_not():
    whole = "Redis 7.2 runs the session cache for the billing service."
    pages = [page("entities/redis.md", "Redis", [(f"Redis — note: {whole}", "^[ops.md:L4-L4]"),
                                                 ("Redis — version: 7.2", "^[ops.md:L9-L9]")])]
    passages = [passage(1, "ops.md", 4, whole),
                passage(2, "ops.md", 9, "We pin Redis 7.2 because the cluster module changed in 7.4 and broke failover.")]
    got = fuse(pages, passages, {"redis", "session", "cache", "cluster"})  # the page is named
    assert [k for k in kinds(got) if k[2] in ((4, 4), (9, 9))] == [("claim", "entities/redis.md", (4, 4)),
                                                                  ("passage", "ops.md", (9, 9))]
    assert next(s for s in got if s.lines == (4, 4)).text == whole
    assert next(s for s in got if s.lines == (9, 9)).compiled == ("entities/redis.md",)  # says more: it stands, marked
    # a page the query does not name: the passage reached first stays (one line under its source's header, not
    # the page's header and a citation for the same words), naming the page that compiles it
    got = fuse(pages, passages, {"session", "cache", "cluster"})
    assert kinds(got) == [("passage", "ops.md", (4, 4)), ("passage", "ops.md", (9, 9))]
    assert got[0].compiled == ("entities/redis.md",)


def test_a_claim_of_a_flagged_page_does_not_stand_in_for_its_passage():
    whole = "Redis 7.2 runs the session cache for the billing service."
    flagged = dict(page("entities/redis.md", "Redis", [(f"Redis — note: {whole}", "^[ops.md:L4-L4]")]),
                   flag={"status": "contradicted", "why": "the sources disagree on 1 fact", "derived": False})
    got = fuse([flagged], [passage(1, "ops.md", 4, whole)], {"session", "cache"})
    # the raw line says the same without the page's flag (a dispute about another fact) in front of it
    assert kinds(got) == [("passage", "ops.md", (4, 4))] and got[0].compiled == ("entities/redis.md",)


def test_the_passage_after_a_question_is_ranked_as_its_answer():
    hit = passage(10, "chat.md", 27, "Lena: Anyway, how's Pickle?", "Session 5")
    around = {9: passage(9, "chat.md", 25, "Marcus: Long week.", "Session 5"),
              11: passage(11, "chat.md", 29, "Marcus: They took three of his teeth out, Pickle is fine now.", "Session 5"),
              12: passage(12, "chat.md", 31, "Lena: Good.", "Session 6")}
    got = fuse([], [hit, passage(20, "chat.md", 80, "Lena: Pickle again?", "Session 9")], {"pickle"}, around)
    scores = {s.lines[0]: s.score for s in got}
    assert scores[29] == scores[27] * ANSWER and scores[25] < scores[29]
    assert 31 not in scores  # another session's passage is not a neighbour
    reply = fuse([], [passage(10, "chat.md", 27, "Lena: Pickle is fine.", "Session 5")], {"pickle"}, around)
    assert {s.lines[0]: s.score for s in reply}[29] == 1.0 * REPLY


def test_an_unnamed_page_shows_its_description_only_when_it_holds_most_of_the_query():
    pages = [page("concepts/backport.md", "Sourcegraph backporting tool", [],
                  "The backporting tool helps backport merged pull requests to release branches.")]
    assert [s.kind for s in fuse(pages, [], {"backport", "tool"})] == ["description"]
    assert fuse(pages, [], {"release", "calendar", "freeze"}) == []


def test_claim_text_drops_what_the_group_header_says():
    assert claim_text("Widget — eol: 2026-01-01", "Widget") == "eol: 2026-01-01"
    assert claim_text("Cody FAQ — note: Cody is an assistant.", "Cody") == "Cody is an assistant."
    assert claim_text("Other — owner: Lena", "Widget") == "Other — owner: Lena"


def test_a_description_that_a_kept_statement_says_already_is_left_out():
    line = "The Postgres 16 upgrade went fine yesterday."
    pages = [page("sources/ops.md", "Ops log — 3 March 2026", [], line),
             page("entities/postgres.md", "Postgres", [(f"Postgres — note: {line}", "^[ops.md:L3-L3]")])]
    got = fuse(pages, [passage(1, "ops.md", 3, line)], {"postgres", "upgrade"})
    assert [(s.kind, s.text) for s in got] == [("claim", line)]  # said once, cited
    turn = f"Maya: {line}"  # a turn stays a turn (see below), and the description it says is left out just as well
    got = fuse([page("sources/chat.md", "Team chat — 3 March 2026", [], turn)], [passage(1, "chat.md", 3, turn)],
               {"postgres", "upgrade"})
    assert [(s.kind, s.text) for s in got] == [("passage", turn)]


def test_a_source_page_claim_that_restates_its_own_passage_leaves_the_passage_in_place():
    turn = "Lena: Lemon drizzle, three layers. Dex ate a corner off the cooling rack."
    pages = [page("sources/chat-md.md", "Session 12", [(turn, "^[chat.md:L41-L41]")]),
             page("entities/dex.md", "Dex", [(turn, "^[chat.md:L41-L41]")])]
    got = fuse(pages, [passage(1, "chat.md", 41, turn)], {"cake", "lemon", "dex"})
    assert kinds(got) == [("claim", "entities/dex.md", (41, 41))]  # another page's claim (named), reached first, stays
    got = fuse(pages[:1], [passage(1, "chat.md", 41, turn)], {"cake", "lemon"})
    assert kinds(got) == [("passage", "chat.md", (41, 41))]  # its own source page's: the passage stays
    assert got[0].compiled == ("sources/chat-md.md",)


def test_a_conversation_turn_stays_a_turn_where_a_claim_would_stand_in_for_another_passage():
    """Table: (passage text, whether the named page's claim holding all its words stands in for it when the
    passage is reached first: the claim names the query's words only in its value, so it ranks below)."""
    claim = "Carol (2024-06-24) — plan: I'll hold you to that. x"
    for text, stands_in in [("Carol: I'll hold you to that. x", False),  # a turn: its line under its session
                            ("[19:34] Carol: I'll hold you to that. x", False),  # a time-stamped turn
                            ("**Carol** 7:05 pm\nI'll hold you to that. x", False),  # a speaker's head on its own line
                            ("Carol (2024-06-24) plan: I'll hold you to that. x", True),  # a note's line: no speaker
                            ("I'll hold you to that, Carol. x", True)]:
        pages = [page("entities/carol.md", "Carol", [])]
        pages[0]["claims"] = [{"text": claim, "citation": "^[chat.md:L601-L601]", "matches": 0.75}]
        got = fuse(pages, [passage(1, "chat.md", 601, text, "24 June 2024")], {"carol", "hold"})
        assert [s.kind for s in got] == (["claim"] if stands_in else ["passage"]), text
        assert stands_in or got[0].compiled == ("entities/carol.md",)


def test_a_heading_passage_ranks_after_the_passage_under_it_that_matches_as_well():
    heading = passage(1, "msp.md", 1, "# Managed Services Platform (MSP)", "Managed Services Platform (MSP)")
    body = passage(2, "msp.md", 7, "The Managed Services Platform (MSP) is the tooling for running managed services.",
                   "Managed Services Platform (MSP)")
    got = fuse([], [heading, body], {"managed", "services", "platform", "msp"})
    assert [s.lines[0] for s in got] == [7, 1]  # BM25 put the short heading first; what it heads comes first


def test_a_page_named_only_as_an_owner_does_not_lead():
    pages = [page("entities/marcus.md", "Marcus", [("Marcus (2024-04-07) — said: Dad is lending us his van.", "^[s7.md:L29-L29]")])]
    cat = passage(1, "s1.md", 27, "Marcus: He's eleven now and the vet says two teeth must come out.")
    got = fuse(pages, [cat], {"marcus", "cat", "teeth"})
    assert kinds(got)[0] == ("claim", "entities/marcus.md", (29, 29))  # "Marcus" typed: his page leads
    assert got[0].text == "(2024-04-07) — said: Dad is lending us his van."  # the name is the header's
    got = fuse(pages, [cat], {"marcus", "cat", "teeth"}, owners=frozenset({"marcus"}))  # "Marcus's cat"
    assert kinds(got)[0] == ("passage", "s1.md", (27, 27))


def test_a_named_page_description_that_only_names_the_page_is_left_out():
    filler = "Lena, a person mentioned in 19 sources."
    pages = [page("entities/lena.md", "Lena", [], filler)]
    assert fuse(pages, [], {"lena", "car"}) == []  # it says nothing about the car
    assert [s.kind for s in fuse(pages, [], {"lena"})] == ["description"]  # the query is her name alone
    defined = [dict(pages[0], description="Lena is the practice manager.")]
    assert [s.kind for s in fuse(defined, [], {"lena", "car"})] == ["description"]
    # a number or a function word of the question the filler happens to hold says nothing either
    doncaster = [page("entities/doncaster.md", "Doncaster", [], "Doncaster, a thing mentioned in 9 sources.")]
    assert fuse(doncaster, [], {"did", "doncaster", "go", "to", "9", "4", "0", "in"}) == []


def test_a_scope_in_brackets_stays_with_its_subject():
    assert claim_text("Python (3.12) — end of life: 2028-10-02", "Python") == "Python (3.12) — end of life: 2028-10-02"
    assert claim_text("Lena (2024-06-30; yesterday = Saturday 29 June 2024) — said: I ran.", "Lena") == \
        "(2024-06-30; yesterday = Saturday 29 June 2024) — said: I ran."


def test_a_kept_claim_gives_its_place_to_its_passage_when_the_rest_of_the_passage_holds_the_query():
    first = "risk-scorer is called synchronously from payout-gateway on every payout."
    para = f"{first} Priya proposed gRPC. → Decision: gRPC, kept synchronous. Farah owns the change."
    pages = [page("entities/grpc.md", "gRPC", [(f"gRPC — note: {first}", "^[review.md:L8-L9]")])]
    paragraph = RankedPassage(1, "review.md", 8, 10, para, "Notes", "Title", 0.0)
    got = fuse(pages, [paragraph], {"grpc", "owns", "change"})  # "gRPC" typed: its page's claim leads
    assert kinds(got) == [("passage", "review.md", (8, 10))]  # the owner is in line 10, which the claim leaves out
    assert got[0].compiled == ("entities/grpc.md",)  # never both: the claim's page is named on the passage
    got = fuse(pages, [paragraph], {"grpc", "synchronously"})  # the claim holds every word asked for
    assert kinds(got) == [("claim", "entities/grpc.md", (8, 9))]


def test_a_named_page_states_what_the_query_asks_for_after_the_claims_naming_its_words():
    pages = [page("entities/zentrix.md", "Zentrix", [("Zentrix — note: Zentrix renewal, where we landed", "^[mail.md:L5-L5]")])]
    pages[0]["stating"] = [{"text": "Zentrix — note: $198,000 committed, overage at the committed rate", "citation": "^[mail.md:L15-L15]"}]
    other = passage(1, "vendors.md", 12, "| Onfido | KYC checks | paying per year, owner Jonas |")
    got = fuse(pages, [other], {"zentrix", "paying", "year"}, wants="amount")
    assert kinds(got)[0] == ("claim", "entities/zentrix.md", (15, 15))  # the amount asked for, on the page named
    assert got[0].text == "$198,000 committed, overage at the committed rate"
    got = fuse(pages, [other], {"paying", "year"}, wants="amount")  # the page not named: nothing more of it
    assert ("claim", "entities/zentrix.md", (15, 15)) not in kinds(got)


def test_a_weak_hit_right_after_a_strong_one_counts_as_its_reply():
    """A ranked passage next to a better one keeps the better of its own score and the share its neighbour
    gives it (the reply to a hit is no less likely to answer because it matched a word itself)."""
    strong = RankedPassage(10, "chat.md", 27, 27, "Lena: the cake for Mum's party is sorted.", "Session 5", "T", -9.0)
    weak = RankedPassage(11, "chat.md", 29, 29, "Marcus: which cake?", "Session 5", "T", -0.1)
    got = {s.lines[0]: s.score for s in fuse([], [strong, weak], {"cake", "party"}, {})}
    assert got[29] == got[27] * REPLY


def test_the_passage_under_a_heading_hit_is_what_the_heading_opens():
    heading = passage(1, "ops-review.md", 6, "## 1. StockPilot 9.4.0 at Doncaster", "1. StockPilot 9.4.0 at Doncaster")
    around = {2: passage(2, "ops-review.md", 7, "- went live Sun 22 Nov as planned, with hf2",
                         "1. StockPilot 9.4.0 at Doncaster")}
    got = fuse([], [heading], {"doncaster", "stockpilot"}, around)
    scores = {s.lines[0]: s.score for s in got}
    # the share is of the heading's score before its own weight (HEADING); the line holds a date
    assert scores[7] == 1.0 * UNDER_HEADING and UNDER_HEADING > REPLY
    around[2] = passage(2, "ops-review.md", 7, "- went live on Sunday as planned", "1. StockPilot 9.4.0 at Doncaster")
    scores = {s.lines[0]: s.score for s in fuse([], [heading], {"doncaster", "stockpilot"}, around)}
    assert scores[7] == 1.0 * UNDER_HEADING * OWN_WORDS  # no number, no query word: found by its heading alone
    around[2] = passage(2, "ops-review.md", 7, "- Doncaster went live on Sunday", "1. StockPilot 9.4.0 at Doncaster")
    scores = {s.lines[0]: s.score for s in fuse([], [heading], {"doncaster", "stockpilot"}, around)}
    assert scores[7] == UNDER_HEADING and scores[7] > scores[6]  # what the section says, before its heading


def test_a_document_passage_that_names_no_query_word_itself_ranks_below_its_score():
    """Found only by its neighbours' or heading's words, a passage of a document with no number counts
    OWN_WORDS of its score; a conversation's turn does not (a reply is found by the turn it answers)."""
    cases = [  # (text, weighted)
        ("Nothing else burning. Have a good week, Felix.", True),
        ("It's Sat 21 Nov now, not the 14th.", False),  # a number: it can be the answer
        ("- Slurm upgrade moved to Sat 21 Nov", False),
        ("- slurm's upgrades go on Saturdays", False),  # a query word's stem counts as the word
        ("Priya: Fine by me, let's move it a week, nobody needs it sooner.", False),  # a turn
        ("**Priya Raman** 11:05\nFine by me, let's move it a week.", False),  # a chat export's turn
    ]
    for text, weighted in cases:
        got = fuse([], [passage(1, "notes.md", 3, text)], {"slurm", "upgrade", "the", "is"})
        assert got[0].score == (OWN_WORDS if weighted else 1.0), text


def _session(texts: list[str], heading: str = "Session 15") -> dict[int, RankedPassage]:
    return {10 + i: passage(10 + i, "chat.md", 17 + 2 * i, text, heading) for i, text in enumerate(texts)}


@pytest.mark.parametrize(("wants", "at", "text", "near"), [
    # the talk the hit opened reaches the amount asked for a few turns on: it is ranked (×WHEN: it states one)
    ("amount", 5, "Rob: £6,400. A bit over the estimate", True),
    ("amount", 2, "Rob: £6,400 all in", True),
    # a turn that states no value of the kind asked for gets nothing beyond the hit's own neighbours
    ("amount", 5, "Rob: Terracotta floor, white tiles, brass taps", False),
    ("time", 5, "Rob: £6,400. A bit over the estimate", False),
    # past VALUE_REACH the talk has moved on: only a best hit's section's share (SECTION_VALUE)
    ("amount", VALUE_REACH + 1, "Rob: £6,400. A bit over the estimate", "section"),
    # a question that asks for no value: no passage beyond the neighbours
    (None, 5, "Rob: £6,400. A bit over the estimate", False),
])
def test_a_value_asked_for_a_few_turns_after_a_hit_is_ranked(wants, at, text, near):
    turns = ["Rob: The bathroom will take longer than that", "Hannah: ha", "Rob: Actually it's done!!",
             "Hannah: Wait that looks amazing", "Rob: Team effort", "Hannah: What did it come to in the end",
             "Rob: Thanks", "Hannah: Your dad is a legend"]
    turns[at] = text
    around = _session(turns)
    hit = around.pop(10)
    got = {s.lines[0]: s.score for s in fuse([], [hit], {"bathroom", "costing"}, around, wants=wants)}
    line = 17 + 2 * at
    if near == "section":
        assert got[line] == pytest.approx(1.0 * SECTION_VALUE * WHEN)
    elif near:  # two places on, the hit's speaker going on after another's word (GOES_ON)
        assert got[line] == pytest.approx(1.0 * (max(GOES_ON, VALUE_NEAR) if at == 2 else VALUE_NEAR) * WHEN)
    else:
        assert line not in got or at == 1


def test_a_value_after_a_hit_stays_in_the_hit_s_section():
    around = _session(["Rob: How's the bathroom?", "Hannah: fine"])
    around[12] = passage(12, "chat.md", 21, "Rob: £6,400", "Session 16")  # the next session's first turn
    hit = around.pop(10)
    got = {s.lines[0] for s in fuse([], [hit], {"bathroom"}, around, wants="amount")}
    assert 21 not in got
