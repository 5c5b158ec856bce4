"""kctui.search.answer: the packet's statements by item, the extractive ranking, a model's citations
verified, its reply parsed (failing closed), and a streaming answer decoded — as tables."""

from __future__ import annotations

import json

import pytest

from kctui.search import answer as a

PAGE = {"kind": "page", "page": "entities/python.md", "title": "Python", "status": "contradicted",
        "flag": {"status": "contradicted", "why": "the sources disagree on 1 fact",
                 "conflicts": ["Python (3.12) — end of life: 2028-10-02 ^[notes.md:L8-L8]"]},
        "description": "Python, a language.",
        "claims": ["Python (3.11) — end of life: 2027-10-31 ^[cycle.md:L12-L12]",
                   "Python (3.12) — end of life: 2028-10-31 ^[cycle.md:L13-L13]"]}
EVIDENCE = {"kind": "evidence", "source": "notes.md", "section": "Python",
            "passages": ["L3-L4: The upgrade meeting was long. We agreed to move in May.",
                         "§ Actions",  # a further section's line, not a statement
                         "L10: Action: check the date against the release page."]}
ITEMS = [PAGE, EVIDENCE]


def test_statements_number_items_and_keep_where_they_are() -> None:
    got = [(s.item, s.kind, s.path, s.source, s.lines) for s in a.statements(ITEMS)]
    assert got == [
        ("1", "description", "wiki/entities/python.md", "", None),
        ("1", "claim", "wiki/entities/python.md", "notes.md", (8, 8)),  # a disputed claim of the flag
        ("1", "claim", "wiki/entities/python.md", "cycle.md", (12, 12)),
        ("1", "claim", "wiki/entities/python.md", "cycle.md", (13, 13)),
        ("2", "passage", "sources/notes.md", "notes.md", (3, 4)),
        ("2", "passage", "sources/notes.md", "notes.md", (10, 10)),
    ]


@pytest.mark.parametrize("citation, expected", [
    ("^[a.md:L3-L4]", ("a.md", (3, 4))),
    ("^[a.md:L7]", ("a.md", (7, 7))),
    ("^[doc.pdf:p2]", ("doc.pdf", (2, 2))),
    (r"^[we\]ird.md:L1-L2]", ("we]ird.md", (1, 2))),
    ("no citation", ("", None)),
])
def test_cited_lines(citation, expected) -> None:
    assert a.cited_lines(citation) == expected


@pytest.mark.parametrize("answer, expected", [
    ("It ends on 2028-10-31.", ["2028-10-31"]),
    ("It ends on October 31, 2028.", ["2028-10-31"]),
    ("It ends on 31 Oct 2028.", ["2028-10-31"]),
    ("Python 3.12 ends 2028-10-31", ["2028-10-31", "3.12"]),
    ('The page says "annual cadence" plainly.', ["annual cadence"]),
    ("No values here.", []),
    ("It ends on 2028-10-31 [1], see also [2, 3].", ["2028-10-31"]),  # item ids are no values
])
def test_values_an_answer_states(answer, expected) -> None:
    assert a.values(answer) == expected


@pytest.mark.parametrize("text, value, held", [
    ("Python (3.12) — end of life: 2028-10-31", "2028-10-31", True),
    ("Python (3.12) — end of life: 2028-10-31", "3.12", True),
    ("Python (3.121) — 2028", "3.12", False),  # a number is never part of another
    ("released 12 times", "3.12", False),
    ("an Annual  Cadence", "annual cadence", True),
    ("", "x", False),
])
def test_holds(text, value, held) -> None:
    assert a.holds(text, value) is held


@pytest.mark.parametrize("answer, citations, verified, whole", [
    ("It ends on 2028-10-31.", [("1", (13, 13))], [True], True),
    ("It ends on 2028-10-31.", [("1", (12, 12))], [False], False),           # lines without the value
    ("It ends on 2028-10-31.", [("9", (13, 13))], [False], False),           # not in the packet
    ("It ends on 2028-10-31.", [("1", (40, 41))], [False], False),           # nothing at those lines
    ("It ends on 2028-10-31.", [("1", None)], [True], True),                 # the whole item
    ("2028-10-31, or 2028-10-02.", [("1", (13, 13))], [True], False),        # a value no citation holds
    ("2028-10-31, or 2028-10-02.", [("1", (13, 13)), ("1", (8, 8))], [True, True], True),
    ("Check the date against the release page.", [("2", (10, 10))], [True], True),  # words, no value
    ("Check the date against the release page.", [("2", (3, 4))], [False], False),
    ("It ends on 2028-10-31.", [], [], False),                               # no citation: not settled
])
def test_verify(answer, citations, verified, whole) -> None:
    got, all_ok = a.verify(answer, citations, ITEMS)
    assert [c["verified"] for c in got] == verified
    assert all_ok is whole


def test_verify_names_the_path_and_why() -> None:
    got, _ = a.verify("It ends on 2028-10-31.", [("1", (12, 12)), ("7", (1, 1))], ITEMS)
    assert got[0]["path"] == "wiki/entities/python.md" and got[0]["source"] == "sources/cycle.md"
    assert got[0]["why"] == "the cited lines do not hold 2028-10-31"
    assert got[1]["why"] == "item 7 is not in the packet" and got[1]["path"] == ""


def test_flags_only_of_cited_pages() -> None:
    assert a.flags(ITEMS, {"1"}) == [{"item": "1", "page": "wiki/entities/python.md", "status": "contradicted",
                                      "why": "the sources disagree on 1 fact"}]
    assert a.flags(ITEMS, {"2"}) == []


@pytest.mark.parametrize("question, first", [
    ("when does Python 3.12 reach end of life", "Python (3.12) — end of life: 2028-10-02"),  # dated, disputed, first in order
    ("when does Python 3.11 reach end of life", "Python (3.11) — end of life: 2027-10-31"),
    ("when did they agree to move", "We agreed to move in May."),  # agree: a prefix of agreed
])
def test_extract_ranks_the_answer_first(question, first) -> None:
    got = a.extract(question, ITEMS)
    assert got and got[0].text == first


def test_extract_drops_weak_sentences_and_answers_nothing_for_no_match() -> None:
    got = a.extract("when does Python 3.11 reach end of life", ITEMS)
    assert [s.text for s in got] == ["Python (3.11) — end of life: 2027-10-31"]
    assert a.extract("xylophone zeppelin", ITEMS) == []
    assert a.extract("", ITEMS) == []


CHAT = {"kind": "evidence", "source": "session-03.md", "section": "Session 3",
        "passages": ["L3: Noor: Did Elliot get the Yaris in the end?",
                     "L5: Elliot: No, Elliot went for a Honda Jazz instead, 2019, 41k miles.",
                     "L7: Noor: Elliot, Milo is enrolled in agility now.",
                     "L9: Elliot: He'll love that, says Elliot."]}


def test_extract_weighs_a_term_by_how_few_sentences_hold_it() -> None:
    # the name every turn says counts for little; the rare word naming the topic for much
    got = a.extract("what did Noor hear of Elliot and the Honda", [CHAT])  # (two common terms, one rare)
    assert got[0].lines == (5, 5)


def test_extract_prefers_the_packets_head_among_equals() -> None:
    items = [{"kind": "evidence", "source": "n.md", "section": "",
              "passages": [f"L{k}: The boiler service costs £{90 + k}." for k in (1, 2, 3, 4, 5, 6)]}]
    assert [s.lines for s in a.extract("boiler service cost", items)] == [(1, 1), (2, 2), (3, 3)]


def test_extract_prefers_a_sentence_stating_the_kind_of_value_asked_for() -> None:
    # "what does … cost": the sentence with an amount before the one that only names the thing, though it
    # stands lower in the packet
    items = [{"kind": "evidence", "source": "mail.md", "section": "",
              "passages": ["L1: From: Backblaze", "L2: To: ops", "L3: Subject: Backblaze news",
                           "L6: Backblaze storage moves to the EU region.",
                           "L8: Backblaze storage goes from $6 to $6.95 per TB-month."]}]
    assert a.extract("what does Backblaze storage cost", items)[0].lines == (8, 8)


def test_a_pages_claim_is_of_its_title() -> None:
    # a claim on Backblaze's page that does not repeat the name answers a question naming it, before a
    # passage that names it and nothing the question asks
    items = [{"kind": "evidence", "source": "mail.md", "section": "", "passages": ["L3: Subject: Backblaze news"]},
             {"kind": "page", "page": "entities/backblaze.md", "title": "Backblaze", "status": "compiled",
              "claims": ["We hold about 4.2 TB, so roughly $29/month instead of $25. ^[mail.md:L8-L9]"]},
             {"kind": "evidence", "source": "standup.md", "section": "",
              "passages": ["L2: Grafana upgraded.", "L3: Nginx next week.", "L4: Keycloak blocked."]}]
    assert a.extract("what does Backblaze cost us", items)[0].lines == (8, 9)


def test_extract_says_a_turn_once_when_the_packet_holds_it_as_a_claim_and_as_a_passage() -> None:
    items = [{"kind": "page", "page": "sources/s2-md.md",
              "description": "Elliot: Hartley cancelled, so the boiler service is on the 28th.",
              "claims": ["Elliot — said: Hartley cancelled, so the boiler service is on the 28th. ^[s2.md:L3-L3]"]},
             {"kind": "evidence", "source": "s2.md", "section": "",
              "passages": ["L3: Elliot: Hartley cancelled, so the boiler service is on the 28th.",
                           "L5: Noor: They kept the boiler service price at £90."]}]
    got = a.extract("when is the boiler service", items)
    assert [(s.kind, s.lines) for s in got] == [("claim", (3, 3)), ("passage", (5, 5))]


def _reply(**kw) -> str:
    data = {"answer": "It ends on 2028-10-31.", "citations": [{"item": "1", "lines": [13, 13]}], "confidence": 0.8,
            "unanswerable": False}
    data.update(kw)
    return json.dumps(data)


def test_parse_reply() -> None:
    r = a.parse_reply(_reply())
    assert r == a.Reply("It ends on 2028-10-31.", (("1", (13, 13)),), 0.8, False)
    assert a.parse_reply(_reply(citations=[{"item": 2, "lines": []}])).citations == (("2", None),)


@pytest.mark.parametrize("text, message", [
    ('{"answer": "cut', "the model's reply is not JSON"),
    ("[1, 2]", "the model's reply is not a JSON object"),
    (_reply(answer=None), "the model's reply has no answer text"),
    (_reply(citations="1"), "the model's citations are not a list of at most 24"),
    (_reply(citations=[{"lines": [1, 2]}]), "a citation of the model's reply has no item id"),
    (_reply(citations=[{"item": "1", "lines": [5, 2]}]), "a citation of the model's reply has bad lines [5, 2] (want [start, end])"),
    (_reply(citations=[{"item": "1", "lines": ["a", "b"]}]), "a citation of the model's reply has bad lines ['a', 'b'] (want [start, end])"),
    (_reply(confidence=3), "the model's confidence is not a number from 0 to 1"),
    (_reply(unanswerable="no"), "the model's unanswerable is not true or false"),
])
def test_a_malformed_reply_fails_closed(text, message) -> None:
    with pytest.raises(a.ReplyError) as exc:
        a.parse_reply(text)
    assert str(exc.value) == message


@pytest.mark.parametrize("text, shown", [
    ("", ""),
    ('{"answ', ""),
    ('{"answer": "It en', "It en"),
    ('{"answer": "a \\"b\\" c', 'a "b" c'),
    ('{"answer": "line\\nnext\\', "line\nnext"),  # an escape cut in half waits
    ('{"answer": "caf\\u00e9 ok", "citations"', "café ok"),
    ('{"answer": "caf\\u00', "caf"),
    ('{"citations": [], "answer": "late"}', "late"),
])
def test_partial_answer(text, shown) -> None:
    assert a.partial_answer(text) == shown


LOKI = {"kind": "evidence", "source": "chat.md", "section": "Session 2",
        "passages": ["L10: Raj: Loki 3.2 is running on staging.",
                     "L11: Maya: What's the storage cost?",
                     "L12: Raj: About $90 a month on S3 at that volume.",
                     "L13: Maya: Good. Keep it running through the freeze."]}


def test_a_turn_asking_the_question_is_no_answer_and_the_reply_to_it_is() -> None:
    # the asking turn holds the question's words because it asks them; the next turn, another speaker's, answers
    got = a.extract("what is the storage cost for Loki", [LOKI])
    assert got[0].lines == (12, 12)
    assert (11, 11) not in [s.lines for s in got[:1]]


def test_a_reply_is_the_next_turn_of_another_speaker_only() -> None:
    same_speaker = {**LOKI, "passages": ["L11: Maya: What's the storage cost?", "L12: Maya: Asking for finance."]}
    assert [s.lines for s in a.extract("storage cost", [same_speaker])] == [(11, 11)]  # (nothing else holds a term)
    far = {**LOKI, "passages": ["L11: Maya: What's the storage cost?", "L30: Raj: About $90 a month."]}
    assert [s.lines for s in a.extract("storage cost", [far])] == [(11, 11)]  # (not the turn after it)
