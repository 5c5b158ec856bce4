"""Conversations and chat logs as a document shape (kctui.compiler.builtin.conversation): recognised by
structure, each turn its speaker's dated statement, each speaker a person with what they say of
themselves, no page made of a reply's words."""

from __future__ import annotations

import datetime as dt

import pytest

from kctui.compiler.builtin import conversation as cv
from kctui.compiler.builtin.document import Extraction, cited_lines, extract_document
from kctui.compiler.readers import read_source
from kctui.core.claims import claim_line, parse_claim_line
from kctui.core.values import cited_lines_contain

DIGEST = "sha256:" + "2" * 64

CHAT = """# Ana and Ben

## Session 1 — 2:05 pm on 5 March, 2024

Ana: Hey Ben! How was the weekend?

Ben: Good thanks. I adopted a puppy last week, a tiny terrier called Pixel.

Ana: No way! Sounds like Pixel really runs the house already.

Ben: He does. My sister lives in Lisbon and she wants photos every hour.

Ana: Ha. I'll be in Lisbon next month for a conference, actually.

Ben: Then you have to meet her. We're going to visit in June too.

## 12 March 2024 (Tuesday)

Ana: Benny, did Pixel sleep at all?

Ben: Barely. I took him to the vet yesterday for his jabs.

Ana: Poor thing. I'm so sorry, that sounds exhausting.

Ben: It's fine. Honestly, I think we'll survive.
"""


def extract(text: str, path: str = "chats/ana-ben.md") -> tuple[Extraction, object]:
    doc = read_source(path, text.encode("utf-8"), DIGEST)
    return extract_document(doc), doc


@pytest.mark.parametrize(("line", "speaker", "rest"), [
    ("Gina: Hey Jon!", "Gina", "Hey Jon!"),
    ("[19:04] Ana Souza: ok then", "Ana Souza", "ok then"),
    ("05/03/2024, 19:04 - Ben: on my way", "Ben", "on my way"),
    ("**Priya:** sounds good", "Priya", "sounds good"),
    ("**Priya**: sounds good", "Priya", "sounds good"),
    ("Tom (10:02): yes please", "Tom", "yes please"),
    ("Gareth Price (Wessex Growers): Morning.", "Gareth Price", "Morning."),
])
def test_a_line_that_opens_a_turn(line: str, speaker: str, rest: str) -> None:
    got = cv.label(line)
    assert got is not None and got[0] == speaker and line[got[1]:] == rest


@pytest.mark.parametrize("line", [
    "https://example.org/a",  # no space after the colon
    "Q: what is it?",  # one letter is no name
    "note: lower case",
    "The plan for the rest of the week: rest",  # a sentence, not a name
    "Plain sentence without a label.",
])
def test_a_line_that_opens_no_turn(line: str) -> None:
    assert cv.label(line) is None


def test_a_name_in_parentheses_is_the_group_a_speaker_speaks_for() -> None:
    assert cv.label("Gareth Price (Wessex Growers): Morning.")[3] == "Wessex Growers"
    assert cv.label("Tom (10:02): yes please")[3] == ""  # a time is no group
    text = CHAT.replace("Ben:", "Ben (Kestrel Labs):")
    ex, _doc = extract(text)
    assert "Kestrel Labs" in {e.name for e in ex.entities}
    said = {(c.subject, c.attribute, c.value) for c in ex.claims}
    assert ("Ben", "affiliation", "Kestrel Labs") in said
    assert ("Kestrel Labs", "plan", "We're going to visit in June too.") in said  # "we" is the group too
    assert ("Kestrel Labs", "said", "My sister lives in Lisbon and she wants photos every hour.") not in said


def test_a_stamp_with_a_date_dates_its_turn() -> None:
    assert cv.label("[05/03/2024 19:04] Ben: hi there")[2] == dt.date(2024, 3, 5)


def test_a_chat_is_recognised_with_its_sessions_dates() -> None:
    doc = read_source("c.md", CHAT.encode(), DIGEST)
    convo = cv.read(doc)
    assert convo is not None
    assert convo.speakers == ("Ana", "Ben")
    assert {t.date for t in convo.turns} == {dt.date(2024, 3, 5), dt.date(2024, 3, 12)}
    assert convo.turns[0].text == "Hey Ben! How was the weekend?" and convo.turns[0].first == 5
    assert convo.aliases == {}  # "Benny" is longer than "Ben": no short form


def test_a_chat_log_of_lines_is_one_turn_per_line() -> None:
    lines = [f"[09:0{i}] {'Ana' if i % 2 else 'Ben'}: {text}" for i, text in enumerate(
        ["I am here", "you are late", "my train was", "we start now", "our slides?", "your laptop", "ok", "go"])]
    doc = read_source("log.txt", ("\n".join(lines) + "\n").encode(), DIGEST)
    convo = cv.read(doc)
    assert convo is not None and len(convo.turns) == 8 and [t.first for t in convo.turns] == list(range(1, 9))


@pytest.mark.parametrize("text", [
    # fields of a record: each label once
    "# Host\n\n- URL: https://a.example\n- Owner: Priya\n- Status: live\n- Region: eu\n- Tier: gold\n- Cost: 3\n",
    # a changelog under dated headings: labels repeat and alternate, but nobody speaks
    "# Changes\n\n## 2024-03-01\n\nAdded: export to CSV.\n\nFixed: the login timeout.\n\n## 2024-03-08\n\n"
    "Added: a dark theme.\n\nFixed: a crash on start.\n\n## 2024-03-15\n\nAdded: search.\n\nFixed: typos.\n",
    # an FAQ
    "Q: What is it?\n\nA: A tool.\n\nQ: Is it free?\n\nA: Yes.\n\nQ: Where?\n\nA: Online.\n",
    # a few turns quoted in an article
    "# Notes\n\n" + "A long paragraph of prose about the project and its history.\n\n" * 8
    + "Ana: I think so.\n\nBen: You do?\n\nAna: We will see.\n",
    # one speaker only
    "".join(f"Ana: I note item {i}.\n\n" for i in range(8)),
])
def test_other_documents_are_no_conversation(text: str) -> None:
    assert cv.read(read_source("x.md", text.encode(), DIGEST)) is None


@pytest.mark.parametrize(("sentence", "expected"), [
    ("I adopted a puppy last week.", True),
    ("My sister lives in Boston.", True),
    ("Honestly, I think we should go to the coast.", True),
    ("Also I passed my driving test.", True),
    ("Rhys and I are moving to Leeds.", True),
    ("Anyway, big news — I'm going to run a marathon.", True),
    ("Sounds like Buddy really loves it.", False),
    ("Did you adopt a puppy?", False),
    ("I agree.", False),  # too short to say anything
    ("Tell my sister I said hi to everyone.", False),  # "my" is not its subject
    ("She says the weather in my town is awful.", False),
])
def test_a_sentence_about_oneself(sentence: str, expected: bool) -> None:
    assert cv.about_self(sentence) is expected


@pytest.mark.parametrize(("sentence", "expected"), [
    ("I'll start the new job in March.", True),
    ("We're going to visit in June.", True),
    ("We're moving next month.", True),  # a time after the session's date
    ("I was going to call you.", False),
    ("I moved last month.", False),
])
def test_a_plan_speaks_of_the_future(sentence: str, expected: bool) -> None:
    date = dt.date(2024, 3, 5)
    _scope, found = cv.scope_of(sentence, date)
    assert cv.plan(sentence, found, date) is expected


def test_a_relative_time_is_carried_beside_the_statement() -> None:
    assert cv.scope_of("I adopted a puppy last week", dt.date(2024, 3, 5)) == (
        "2024-03-05; last week = 26 Feb–3 Mar 2024", cv.scope_of("last week", dt.date(2024, 3, 5))[1])
    assert cv.scope_of("no date", None) == ("", [])
    assert cv.scope_of("I moved yesterday", dt.date(2024, 3, 5), titled=True)[0] == "yesterday = Monday 4 March 2024"


def test_each_turn_is_its_speakers_dated_statement() -> None:
    ex, doc = extract(CHAT)
    said = [c for c in ex.claims if c.attribute == "said" and c.origin == "line"]
    assert len(said) == 10  # every turn, once, on the source page
    first = said[0]
    assert (first.subject, first.value, first.scope, first.evidence.start) == (
        "Ana", "Hey Ben! How was the weekend?", "2024-03-05", 5)
    yesterday = next(c for c in said if "yesterday" in c.value)
    assert yesterday.scope == "2024-03-12; yesterday = Monday 11 March 2024"
    for c in ex.claims:  # trust: every claim's value is in the lines it cites; each line reads back
        assert cited_lines_contain(cited_lines(doc, c.evidence), c.value), c
        back = parse_claim_line(claim_line(c), {c.evidence.path: DIGEST})
        assert back is not None and (back.claim_id, back.evidence) == (c.claim_id, c.evidence)


def test_each_speaker_is_a_person_with_what_they_say_of_themselves() -> None:
    ex, _doc = extract(CHAT)
    people = {e.name: e for e in ex.entities if e.entity_type == "person"}
    assert {"Ana", "Ben"} <= set(people)
    ben = [(c.attribute, c.value, c.scope) for c in ex.claims if c.subject == "Ben" and c.origin == "statement"]
    assert ("said", "I adopted a puppy last week, a tiny terrier called Pixel.",
            "2024-03-05; last week = 26 Feb–3 Mar 2024") in ben
    assert ("said", "My sister lives in Lisbon and she wants photos every hour.", "2024-03-05") in ben
    assert ("plan", "We're going to visit in June too.", "2024-03-05") in ben
    ana = [(c.attribute, c.value) for c in ex.claims if c.subject == "Ana" and c.origin == "statement"]
    assert ("plan", "I'll be in Lisbon next month for a conference, actually.") in ana
    assert not any(c.key[1] == "said" and c.is_atomic for c in ex.claims)  # statements, never one value


def test_no_page_is_made_of_a_reply() -> None:
    ex, _doc = extract(CHAT)
    names = {e.name for e in ex.entities} | {c.name for c in ex.concepts}
    assert not any(n.startswith(("Sounds", "Hey", "Ha", "Then", "Barely", "Poor")) for n in names), names
    assert not any(c.origin == "kv" for c in ex.claims)  # `Ana: …` is no field of the document


def test_a_short_form_others_use_is_the_speakers_alias() -> None:
    text = CHAT.replace("Ben:", "Benedict:").replace("Ana: Benny, did", "Ana: Ben, did")
    ex, _doc = extract(text)
    benedict = next(e for e in ex.entities if e.name == "Benedict")
    assert benedict.entity_type == "person" and benedict.aliases == ("Ben",)
    assert "Ben" not in {e.name for e in ex.entities}  # no page of its own: it is Benedict's
    # a sentence that only calls him by it says nothing about him
    assert not any(c.subject in ("Ben", "Benedict") and c.attribute == "note" for c in ex.claims)


def test_a_full_names_first_name_is_its_alias() -> None:
    text = CHAT.replace("Ana:", "Ana Souza:").replace("Hey Ben!", "Hey Ben! Ana here.").replace(
        "Then you have", "Ana, then you have")
    ex, _doc = extract(text)
    ana = next(e for e in ex.entities if e.name == "Ana Souza")
    assert ana.aliases == ("Ana",) and "Ana" not in {e.name for e in ex.entities}


def test_extraction_of_a_chat_is_deterministic() -> None:
    a, _ = extract(CHAT)
    b, _ = extract(CHAT)
    assert a.to_json() == b.to_json()


def test_a_document_that_is_no_chat_extracts_as_before() -> None:
    text = "# Billing\n\nThe billing-api service runs on Postgres 16.\n\nOwner: Priya Raman\n"
    doc = read_source("b.md", text.encode(), DIGEST)
    assert cv.read(doc) is None
    ex = extract_document(doc)
    assert any(c.origin == "kv" for c in ex.claims) and not any(c.attribute == "said" for c in ex.claims)


@pytest.mark.parametrize(("turns", "openers"), [
    # one speaker's word, only ever opening a turn and set off: an interjection
    ((("Hannah", "Blimey. How did it go?"), ("Cal", "It went fine."), ("Hannah", "Blimey, that's soon.")), {"blimey"}),
    ((("Tomás", "Felicidades, Lena! Senior!"), ("Lena", "Thanks!")), {"felicidades", "thanks"}),
    # written inside a sentence too: a name
    ((("Lena", "Firebase. Done."), ("Tomás", "Is Firebase free?")), set()),
    # another speaker echoes it: what they talk of
    ((("Jonah", "SEVERNSIDE??"), ("Maren", "Severnside! They rang on Tuesday.")), set()),
    # a speaker's name or short form opening a turn is theirs
    ((("Ana", "Ben, did Pixel sleep?"), ("Ben", "Barely.")), {"barely"}),
    # not set off: the turn's first word opens its sentence
    ((("Ana", "Lisbon was lovely"), ("Ben", "Good")), {"good"}),
])
def test_a_word_only_ever_opening_one_speakers_turns_is_no_name(turns: tuple, openers: set[str]) -> None:
    convo = cv.Conversation(tuple(cv.Turn(who, text, n, n, (n,), n, None) for n, (who, text) in enumerate(turns, 1)),
                            tuple(dict.fromkeys(who for who, _ in turns)), {})
    assert cv.openers(convo) == openers


def test_an_interjection_opening_turns_gets_no_page() -> None:
    text = CHAT.replace("Ana: Ha. I'll", "Ana: Crikey, I'll").replace("Ana: Poor thing.", "Ana: Crikey. Poor thing.")
    ex, _doc = extract(text)
    assert "Crikey" not in {e.name for e in ex.entities} | {e.name for e in ex.passing}
