"""A 2 KB context packet's bytes go to statements (kctui.search.context, packet_items, quoting): a passage's
line is not indented under its header, a turn by the speaker of the turn above it in its section is said
without the name, a quote's gap marks at its ends take no space, and the tersest envelope says only the
knowledge base, the count and the budget that holds the next statement, in text and JSON alike."""

from __future__ import annotations

import json

import pytest

from kctui.search import context as packets
from kctui.search import quoting
from kctui.search.packet_items import read_passage
from kctui.search.ranking import Statement

S1, S2 = ("source", "chat.md", "Session 1"), ("source", "chat.md", "Session 2")
META = {S1: {"source": "chat.md", "title": "Chat", "heading": "Session 1"},
        S2: {"source": "chat.md", "title": "Chat", "heading": "Session 2"}}


def envelope(**kb) -> packets.Envelope:
    return packets.Envelope(query="Where did Nadia and Sam decide to go on their honeymoon, in the end? " * 3, terms=["honeymoon"],
                            knowledge_base={"workspace": "/w", "id": "b1", "compiled": True, "pendingChanges": False, **kb},
                            uncovered=[], next_actions_empty=["broaden the query"], hint_more="narrow the query")


def turns(*spoken: tuple[tuple[str, ...], int, str]) -> list[Statement]:
    return [Statement(g, "passage", text, 1.0 / (n + 1), "chat.md", (line, line)) for n, (g, line, text) in enumerate(spoken)]


def test_a_turn_by_the_speaker_of_the_turn_above_is_said_without_the_name_in_text_and_json():
    found = turns((S1, 3, "Nadia: We booked Porto."), (S1, 5, "Nadia: For the honeymoon."), (S1, 7, "Sam: Lovely."),
                  (S1, 9, "Nadia: Yes!"), (S2, 2, "Nadia: Flights are done."))
    text = packets.pack_statements(envelope(), found, META, 2048, "text")
    assert ("## EVIDENCE chat.md — Session 1\nL3: Nadia: We booked Porto.\nL5: For the honeymoon.\nL7: Sam: Lovely.\n"
            "L9: Nadia: Yes!\n§ Session 2\nL2: Nadia: Flights are done.\n") in text  # (a further section names it again)
    source, *passages = json.loads(packets.pack_statements(envelope(), found, META, 2048, "json"))["items"][0]
    assert source == "chat.md" and passages == ["§ Session 1"] + [line for line in text.splitlines() if line.startswith(("L", "§"))]  # the JSON
    # mirrors it (the tersest item's first section a `§` line too)
    assert read_passage(passages[2]) == ((5, 5), "For the honeymoon.")


def test_a_source_with_a_passage_that_is_no_turn_names_every_speaker():
    """Only where every passage of the source's item is a turn does a line with no name mean the speaker above."""
    found = turns((S1, 3, "Nadia: We booked Porto."), (S1, 5, "Nadia: For the honeymoon."), (S1, 6, "(photo of the hotel)"))
    text = packets.pack_statements(envelope(), found, META, 2048, "text")
    assert "L3: Nadia: We booked Porto.\nL5: Nadia: For the honeymoon.\nL6: (photo of the hotel)\n" in text


@pytest.mark.parametrize(("quote", "tight"), [
    ("Lena: … Picked him up on Thursday …", "Lena: …Picked him up on Thursday…"),
    ("Lena: MARC! That's amazing. …", "Lena: MARC! That's amazing. …"),  # a sentence's end keeps its space
    ("… the rest of it", "…the rest of it"),
    ("Lena: A. … B.", "Lena: A. … B."),  # a gap between two sentences stays spaced
    ("Lena: as it is", "Lena: as it is"),
])
def test_a_quote_s_gap_marks_at_its_ends_take_no_space(quote, tight):
    assert quoting.tight_gaps(quote) == tight


@pytest.mark.parametrize(("label", "day"), [
    ("Sunday 21 January 2024, 11:05 am", "Sunday 21 January 2024"), ("Sun 16 Feb 2025, 18:00", "Sun 16 Feb 2025"),
    ("Tue 3 Sep 2024 at 7.40pm", "Tue 3 Sep 2024"),
    ("12:30 pm on 7 September, 2024", "7 September, 2024"), ("7:45 pm, 8 January 2024", "8 January 2024"),  # (or opens it)
    ("9.30am 4 May 2024", "4 May 2024"), ("10.15 Release notes v2", "10.15 Release notes v2"),  # (a number, no time)
    ("18:00", "18:00"), ("Session 3", "Session 3"), ("Notes", "Notes"),  # no date left: as it is
])
def test_the_tersest_packet_dates_a_section_by_its_day(label, day):
    assert quoting.untimed(label) == day
    group = ("source", "chat.md", label)
    found = turns((group, 3, "Nadia: We booked Porto."))
    meta = {group: {"source": "chat.md", "title": "Chat", "heading": label}}
    assert f"## EVIDENCE chat.md — {day}\n" in packets.pack_statements(envelope(), found, meta, 2048, "text")
    assert f"## EVIDENCE chat.md — {label}\n" in packets.pack_statements(envelope(), found, meta, 16384, "text")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_tersest_envelope_says_the_count_and_the_next_budget_only(fmt):
    found = turns(*[(S1, 2 * i + 1, f"Sam{i}: the honeymoon is in Porto, said plainly, turn {i}.") for i in range(80)])
    out = packets.pack_statements(envelope(), found, META, 2048, fmt)
    assert len(out.encode()) <= 2048
    if fmt == "text":
        lines = out.splitlines()
        assert lines[0] == "# Context — knowledge base b1"  # (the text's title; its JSON says no id)
        held = sum(line.startswith("L") for line in lines)
        assert lines[-1].startswith(f"— {held}/80 statements; next: raise the budget to ")
        return
    data = json.loads(out)
    assert not {"knowledgeBase", "budget", "bytes", "query"} & data.keys()
    assert data["truncated"] and data["statementsIncluded"] < 80
    large = json.loads(packets.pack_statements(envelope(), found, META, 16384, fmt))
    assert large["bytes"] == len(packets.pack_statements(envelope(), found, META, 16384, fmt).encode())
    assert large["budget"] == 16384 and large["knowledgeBase"]["compiled"] is True and large["truncated"] is False


def test_the_tersest_envelope_still_says_a_base_not_compiled_or_with_changes_pending():
    found = turns((S1, 3, "Nadia: We booked Porto."))
    data = json.loads(packets.pack_statements(envelope(compiled=False, pendingChanges=True), found, META, 2048, "json"))
    assert data["knowledgeBase"] == {"compiled": False, "pendingChanges": True}


@pytest.mark.parametrize(("query", "workspace"), [("Porto?", "/w"), ("Where did they go?", "/home/someone/notes/chats")])
def test_the_text_packet_is_at_its_json_packets_level(query, workspace):
    """A short query's text envelope is small enough for the echoing level at 2 KB where its JSON envelope is
    not: the text packet takes its JSON packet's level, so neither echoes the query back at 2 KB."""
    env = packets.Envelope(query=query, terms=["porto"], knowledge_base={"workspace": workspace, "id": "b1", "compiled": True,
                                                                          "pendingChanges": False},
                           uncovered=[], next_actions_empty=["broaden the query"], hint_more="narrow the query")
    found = turns(*[(S1, 2 * i + 1, f"Sam{i}: the honeymoon is in Porto, turn {i}.") for i in range(80)])
    text = packets.pack_statements(env, found, META, 2048, "text")
    data = json.loads(packets.pack_statements(env, found, META, 2048, "json"))
    assert text.startswith("# Context — knowledge base b1\n") and query not in text and "query" not in data
    assert packets.pack_statements(env, found, META, 16384, "text").startswith(f"# Context for “{query}”")
