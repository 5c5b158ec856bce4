"""A conversation turn's head in the forms chats are pasted in (kctui.search.turn_head): a stamp, a name and a
separator in any order the apps write them, the day the stamp names, and a turn as a packet writes it."""

from __future__ import annotations

import pytest

from kctui.search.passages import speaker_of, speaker_prefix, split_passages
from kctui.search.turn_head import dated_turn, day_label, is_turn_line, turn_head


@pytest.mark.parametrize("line, name, day", [
    ("Lena: I got the job!", "Lena", ""),
    ("[18:02] Lena Park: on my way", "Lena Park", ""),
    ("[06/01/2024, 20:40:00] Marcus: Happy new year", "Marcus", "06/01/2024"),  # iOS
    ("[1/6/24, 8:40:00 PM] Marcus: Happy new year", "Marcus", "1/6/24"),  # iOS, month first, two-digit year
    ("01/10/2024, 09:10 - Rosa: the van is sold", "Rosa", "01/10/2024"),  # Android
    ("10:14 AM Rosa: the van is sold", "Rosa", ""),
    ("**Marta Kowalski** 09:20: the vendor said no", "Marta Kowalski", ""),  # a pasted thread
    ("Marcus, [06.01.2024 20:40]", "Marcus", "06.01.2024"),  # a head above its message (Telegram, Slack)
    ("Marta Kowalski, [10 Jan 2024 at 09:10]", "Marta Kowalski", "10 Jan 2024"),
    ("**Dev Patel** 10:07", "Dev Patel", ""),
])
def test_a_turn_head_in_the_forms_chats_are_pasted_in(line, name, day):
    head = turn_head(line)
    assert head is not None and (head.name, head.day) == (name, day)


@pytest.mark.parametrize("line", [
    "Meeting 10:00",  # a document's line: a bare time after a word is no head of its own
    "- Marcus: owns the migration",
    "We moved on Saturday.",
    "lena: lower case is no name",
    "Standup",
])
def test_no_turn_head(line):
    assert not is_turn_line(line)


def test_a_head_above_its_message_names_the_speaker_and_prefixes_the_turn():
    text = "Marcus, [06.01.2024 20:40]\nHappy new year, Len!"
    assert speaker_of(text) == "marcus"
    assert speaker_prefix(text) == "Marcus, [06.01.2024 20:40]\n"
    assert speaker_of("**Marta Kowalski** 09:20: the vendor said no") == "marta"


def test_an_export_is_a_passage_a_turn():
    text = ("[06/01/2024, 20:40:00] Marcus: Happy new year\n[06/01/2024, 20:41:00] Lena: And you\n"
            "Marcus, [06.01.2024 20:42]\nA head above\nand a second line\nLena, [06.01.2024 20:43]\nok\n")
    assert [(p.start, p.end) for p in split_passages(text)] == [(1, 1), (2, 2), (3, 5), (6, 7)]


@pytest.mark.parametrize("text, expected", [
    ("[06/01/2024, 20:40:00] Marcus: Happy new year", ("06/01/2024", "Marcus: Happy new year")),
    ("Marcus, [06.01.2024 20:40]\nHappy new year", ("06.01.2024", "Marcus: Happy new year")),
    ("[18:02] Lena: on my way", ("", "[18:02] Lena: on my way")),  # no date: as written
    ("Lena: on my way", ("", "Lena: on my way")),
])
def test_a_dated_turn_as_a_packet_writes_it_under_its_day(text, expected):
    assert dated_turn(text) == expected


@pytest.mark.parametrize("day, label", [
    ("20/01/2024", "Saturday 20 January 2024"),  # a field over 12 is the day
    ("1/13/24", "Saturday 13 January 2024"),  # month first, two-digit year
    ("2024-01-06", "Saturday 6 January 2024"),
    ("10 Jan 2024", "Wednesday 10 January 2024"),
    ("06/01/2024", "06/01/2024"),  # 6 January or June 1: as written
    ("31/02/2024", "31/02/2024"),  # no such day: as written
    ("Jan 10", "Jan 10"),  # no year
])
def test_a_day_label_says_the_date_only_where_the_stamp_says_which(day, label):
    assert day_label(day) == label


def test_a_head_above_its_message_joined_onto_its_line_is_a_head():
    text = "Lena, [21.01.2024 11:17] And I fell in love on the first visit."
    assert speaker_prefix(text) == "Lena, [21.01.2024 11:17] "
    assert dated_turn(text) == ("21.01.2024", "Lena: And I fell in love on the first visit.")
    assert not is_turn_line("Meeting 10:00 in the big room")
    assert not is_turn_line("Carol (2024-06-24) plan: I'll hold you to that.")  # a note's line


@pytest.mark.parametrize("line", ["**Owner**: Sam", "09:30 Standup: ten minutes", "2024-01-10 Decision: go"])
def test_a_notes_label_is_no_turn_head(line):
    assert not is_turn_line(line)
