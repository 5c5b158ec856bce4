"""Raw source passages by the text's form (kctui.search.passages): paragraphs, list items, table rows and
conversation turns, each with its lines and the heading above it; a document's title."""

from __future__ import annotations

import pytest

from kctui.search.passages import MAX_PASSAGE_CHARS, Passage, document_title, speaker_of, split_passages

CHAT = """# Session 3 — 7:10 pm on 14 March, 2024

Audrey: I adopted a puppy last week!
Bo: No way. What's its name?
Audrey: Biscuit. He is
a terrier.

## Session 4 — 2 April, 2024

[18:02] Bo: How's Biscuit?

[18:03] Audrey: Chewing everything.
"""


def test_each_turn_of_a_conversation_is_a_passage_with_its_session_heading():
    got = split_passages(CHAT)
    assert [(p.start, p.end, p.heading) for p in got] == [
        (1, 1, "Session 3 — 7:10 pm on 14 March, 2024"),  # a heading is a passage of its own
        (3, 3, "Session 3 — 7:10 pm on 14 March, 2024"), (4, 4, "Session 3 — 7:10 pm on 14 March, 2024"),
        (5, 6, "Session 3 — 7:10 pm on 14 March, 2024"),  # a turn keeps the line that continues it
        (8, 8, "Session 4 — 2 April, 2024"),
        (10, 10, "Session 4 — 2 April, 2024"), (12, 12, "Session 4 — 2 April, 2024")]
    assert got[0].text == "# Session 3 — 7:10 pm on 14 March, 2024"
    assert got[3].text == "Audrey: Biscuit. He is\na terrier."


@pytest.mark.parametrize("text, expected", [
    ("One paragraph\nof two lines.\n\nAnother.\n", [(1, 2), (4, 4)]),
    ("- first item\n  continued\n- second item\n", [(1, 2), (3, 3)]),
    ("Intro line:\n1. one\n2. two\n", [(1, 1), (2, 2), (3, 3)]),
    ("| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n", [(1, 1), (3, 3), (4, 4)]),  # the rule row is no passage
    ("Note: one line that opens like a turn.\nAnd goes on.\n", [(1, 2)]),  # one "Name:" line is no conversation
    ("---\ntitle: Widget\nreleases:\n  - cycle: 1\n---\n# Widget\n\nBody.\n", [(2, 2), (3, 4), (6, 6), (8, 8)]),
    ("", []),
    ("\n\n   \n", []),
])
def test_passages_follow_the_form_of_the_text(text, expected):
    assert [(p.start, p.end) for p in split_passages(text)] == expected


def test_a_long_paragraph_is_cut_between_lines_and_a_long_line_at_its_sentences():
    lines = [f"Line {n} " + "word " * 30 for n in range(10)]  # ~160 characters each
    got = split_passages("\n".join(lines) + "\n\n" + ("A sentence of some words here. " * 60) + "\n")
    assert all(len(p.text) <= MAX_PASSAGE_CHARS for p in got)
    assert got[0].start == 1 and all(a.end < b.start for a, b in zip(got, got[1:]) if b.start <= 10)
    tail = [p for p in got if p.start == 12]
    assert len(tail) >= 2 and all(p.end == 12 for p in tail)  # the pieces of one long line cite that line


def test_every_passage_quotes_its_own_lines():
    text = CHAT + "\n| x | y |\n|---|---|\n| 1 | 2 |\n\n- item one\n- item two\n"
    lines = text.split("\n")
    for p in split_passages(text):
        assert isinstance(p, Passage) and 1 <= p.start <= p.end <= len(lines)
        assert p.text.split("\n")[0] in lines[p.start - 1]


@pytest.mark.parametrize("text, title", [
    ("---\ntitle: 'Widget Server'\n---\n# Other\n", "Widget Server"),
    ("Intro\n\n## Section\n", "Section"),
    ("no heading at all\n", ""),
])
def test_a_document_title_is_its_front_matter_title_else_its_first_heading(text, title):
    assert document_title(text) == title


def test_a_passage_is_surrounded_by_its_neighbours_in_its_own_section_only():
    from kctui.search.passages import surroundings

    got = split_passages(CHAT)
    assert surroundings(got) == [
        "",  # a heading: the text under it is not what it says
        "# Session 3 — 7:10 pm on 14 March, 2024\nBo: No way. What's its name?",
        "Audrey: I adopted a puppy last week!\nAudrey: Biscuit. He is\na terrier.",
        "Bo: No way. What's its name?",  # the last of its session: the next session is not its context
        "",
        "## Session 4 — 2 April, 2024\n[18:03] Audrey: Chewing everything.",
        "[18:02] Bo: How's Biscuit?",
    ]
    assert surroundings([]) == []


def test_a_turn_is_also_read_with_the_turns_two_places_away_in_its_section():
    from kctui.search.passages import further_turns

    got = split_passages(CHAT)
    assert further_turns(got) == [
        "",  # a heading: no turn
        "Audrey: Biscuit. He is\na terrier.",  # two places after; the heading two places before is no turn
        "",  # its section holds nothing two places away (the next section is not its context)
        "Audrey: I adopted a puppy last week!",
        "",  # a heading
        "",  # a turn alone with its next one in its section
        "",
    ]
    assert further_turns(split_passages("Intro line.\n\nAnother paragraph.\n\nA third.\n")) == ["", "", ""]


@pytest.mark.parametrize("at, expected", [
    (0, "T3\nT4"),  # the first turn: only the turns two and three places after it
    (2, "T1\nT5\nT6"),
    (6, "T2\nT3\nT4\nT5\nT9\nT10"),  # two to five places before, two and three after (T1 is six before)
    (10, "T6\nT7\nT8\nT9"),  # the last turn
])
def test_a_turn_is_read_with_more_turns_before_it_than_after(at, expected):
    """A chat comes to its news turns after it names the topic: a turn is read with the turns two to
    TURN_REACH_BEFORE (5) places before it and two to TURN_REACH_AFTER (3) places after it."""
    from kctui.search.passages import further_turns

    chat = "# Session 1\n\n" + "\n\n".join(f"{'Ann' if n % 2 else 'Bo'}: T{n}" for n in range(1, 12)) + "\n"
    got = further_turns(split_passages(chat))[1:]  # the turns, after the heading
    assert "\n".join(t.split(": ")[1] for t in got[at].split("\n")) == expected


def test_a_table_row_is_read_with_its_header_row():
    from kctui.search.passages import surroundings

    text = "Vendors we pay:\n\n| Vendor | Owner |\n|---|---|\n| AWS | Priya |\n| Cloudflare | Kenji |\n\n| A | B |\n| 1 | 2 |\n"
    got = split_passages(text)
    assert [p.text for p in got][1:4] == ["| Vendor | Owner |", "| AWS | Priya |", "| Cloudflare | Kenji |"]
    near = surroundings(got)
    assert near[3] == "| Vendor | Owner |\n| AWS | Priya |\n| A | B |"  # the header, then its neighbours
    assert near[2] == "| Vendor | Owner |\n| Cloudflare | Kenji |"  # right under the header: once
    assert near[5] == "| A | B |"  # another table's row: its own header only


def test_a_pasted_thread_and_a_phone_export_are_split_a_message_a_passage():
    text = ("# Slack thread\n\n"
            "**Marta Kowalski** 09:14: INC-2291 again, 14 customers got two refund SMS\n"
            "**Tomasz Nowak** 09:16: was it the Twilio webhook retry?\n\n"
            "01/10/2024, 09:10 - Rosa: Gethin, how's Mabel?\n"
            "01/10/2024, 09:11 - Gethin: Better, thanks.\n")
    got = [(p.start, p.end) for p in split_passages(text)]
    assert got == [(1, 1), (3, 3), (4, 4), (6, 6), (7, 7)]  # no passage across two speakers
    assert speaker_of("01/10/2024, 09:11 - Gethin: Better, thanks.") == "gethin"
