"""A context packet's envelope and items (kctui.search.context): a small budget gets a terser envelope, so
its bytes go to statements; a large one echoes the query and what no page covers. The JSON packet holds
the text packet's items, one per header, with nothing the text packet leaves out."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from kctui.search import context as packets
from kctui.search import quoting
from kctui.search.ranking import Statement


def envelope() -> packets.Envelope:
    return packets.Envelope(
        query="What is Marcus's job now at the Northgate office?", terms=["Marcus's", "job", "now", "Northgate", "office"],
        knowledge_base={"workspace": "/home/someone/notes", "id": "b12345678", "compiled": True, "pendingChanges": False},
        uncovered=["office"], next_actions_empty=["broaden the query"],
        hint_more="narrow the query (more specific terms) for fewer, better items")


def statements(n: int) -> tuple[list[Statement], dict]:
    group = ("source", "chat.md", "Session 1")
    out = [Statement(group, "passage", f"Marcus: line {i} about the job at Northgate, said plainly.", 1.0 / (i + 1),
                     "chat.md", (i + 1, i + 1), f"^[chat.md:L{i + 1}-L{i + 1}]") for i in range(n)]
    return out, {group: {"source": "chat.md", "title": "Chat", "heading": "Session 1"}}


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_small_packet_spends_its_bytes_on_statements_and_a_large_one_echoes_the_query(fmt):
    found, meta = statements(60)
    small = packets.pack_statements(envelope(), found, meta, 2048, fmt)
    large = packets.pack_statements(envelope(), found, meta, 16384, fmt)
    assert len(small.encode()) <= 2048 and len(large.encode()) <= 16384
    if fmt == "json":
        small_fields, large_fields = json.loads(small), json.loads(large)
        # the tersest envelope: no echo of what the caller sent (query, workspace), nor the uncovered terms
        assert not {"query", "uncoveredTerms"} & small_fields.keys() and "knowledgeBase" not in small_fields
        assert large_fields["query"] == envelope().query and large_fields["uncoveredTerms"] == ["office"]
        assert large_fields["knowledgeBase"] == envelope().knowledge_base
        # the first next step only (what the text packet's last line says): the budget that holds more
        assert len(small_fields["nextActions"]) == 1 and small_fields["nextActions"][0].startswith("raise the budget")
        held = small_fields["statementsIncluded"]
    else:
        assert "no compiled page covers: office" in large and "no compiled page covers" not in small
        held = small.count("\nL")
    # the tersest envelope that fits: more statements than the widest one leaves room for
    widest = packets._TIGHT
    try:
        packets._TIGHT = widest[:1]
        wide = packets.pack_statements(envelope(), found, meta, 2048, fmt)
    finally:
        packets._TIGHT = widest
    held_wide = json.loads(wide)["statementsIncluded"] if fmt == "json" else wide.count("\nL")
    assert held > held_wide


def test_the_tersest_packet_names_no_compiling_pages_and_echoes_no_query():
    """At 2 KB an evidence item is what the text packet shows (its passages' lines, no `sourcePage` or
    `compiledIn`) and the text packet's head does not repeat the caller's query; a large packet keeps both."""
    found, meta = statements(40)
    found = [Statement(s.group, s.kind, s.text, s.score, s.source, s.lines, s.citation,
                       ("sources/chat-md.md", "entities/marcus.md")) for s in found]
    small = json.loads(packets.pack_statements(envelope(), found, meta, 2048, "json"))
    large = json.loads(packets.pack_statements(envelope(), found, meta, 16384, "json"))
    assert not {"sourcePage", "compiledIn"} & packets.full_item(small["items"][0]).keys()
    assert large["items"][0]["sourcePage"] == "sources/chat-md.md"
    passages = large["items"][0]["passages"]  # the other compiling pages, by each passage's lines
    assert large["items"][0]["compiledIn"] == {p.split(":")[0]: ["entities/marcus.md"] for p in passages}
    assert small["statementsIncluded"] > 0
    text = packets.pack_statements(envelope(), found, meta, 2048, "text")
    assert text.startswith("# Context — knowledge base b12345678\n") and "Marcus's job" not in text.splitlines()[0]
    assert "Marcus's job" in packets.pack_statements(envelope(), found, meta, 16384, "text").splitlines()[0]


def test_the_sections_of_one_source_share_its_header_in_text_and_its_item_in_json():
    """A source's second section in a packet is a `§ section` line under the source's header, not a header of
    its own; in JSON it is in the source's one item, the same `§ section` line before its passages."""
    a, b, other = ("source", "chat.md", "Session 1"), ("source", "chat.md", "Session 2"), ("source", "notes.md", "")
    found = [Statement(a, "passage", "Marcus: the job at Northgate starts in May.", 1.0, "chat.md", (3, 3)),
             Statement(other, "passage", "Northgate office opens at eight.", 0.9, "notes.md", (1, 1)),
             Statement(b, "passage", "Marcus: Northgate moved my start to June.", 0.8, "chat.md", (40, 40))]
    meta = {a: {"source": "chat.md", "title": "Chat", "heading": "Session 1"},
            b: {"source": "chat.md", "title": "Chat", "heading": "Session 2"},
            other: {"source": "notes.md", "title": "Notes", "heading": ""}}
    text = packets.pack_statements(envelope(), found, meta, 2048, "text")
    assert text.count("## EVIDENCE chat.md") == 1
    assert "## EVIDENCE chat.md — Session 1\nL3: Marcus: the job" in text
    assert "\n§ Session 2\nL40: Marcus: Northgate moved" in text
    assert text.index("§ Session 2") < text.index("## EVIDENCE notes.md")
    data = json.loads(packets.pack_statements(envelope(), found, meta, 16384, "json"))
    assert [(i["source"], i["section"]) for i in data["items"]] == [("chat.md", "Session 1"), ("notes.md", "Notes")]
    assert data["items"][0]["passages"] == ["L3: Marcus: the job at Northgate starts in May.", "§ Session 2",
                                            "L40: Marcus: Northgate moved my start to June."]
    terse = json.loads(packets.pack_statements(envelope(), found, meta, 2048, "json"))["items"]  # (its first
    # section a `§` line too)
    assert terse[0] == ["chat.md", "§ Session 1", *data["items"][0]["passages"]]  # an array: its source, its passages
    assert packets.items_text(terse) == packets.items_text(data["items"]) and packets.items_text(terse) in text


def test_a_section_header_leaves_out_what_its_path_says():
    """`chat/session-07.md` under "Session 7 — Sunday 7 April 2024" is headed by its date: the path names the
    session already (numbers compared without leading zeros); a heading the path says whole stays."""
    assert quoting.section("chat/session-07.md", "Session 7 — Sunday 7 April 2024") == "Sunday 7 April 2024"
    assert quoting.section("chat.md", "Session 7 — Sunday 7 April 2024") == "Session 7 — Sunday 7 April 2024"
    assert quoting.section("notes/notes.md", "Notes") == "Notes"
    group = ("source", "chat/session-07.md", "Session 7 — Sunday 7 April 2024")
    found = [Statement(group, "passage", "Marcus: the job at Northgate starts in May.", 1.0, "chat/session-07.md", (3, 3))]
    meta = {group: {"source": "chat/session-07.md", "title": "Chat", "heading": group[2]}}
    text = packets.pack_statements(envelope(), found, meta, 2048, "text")
    assert "## EVIDENCE chat/session-07.md — Sunday 7 April 2024\nL3: Marcus: the job" in text
    data = json.loads(packets.pack_statements(envelope(), found, meta, 16384, "json"))
    assert data["items"][0]["section"] == "Sunday 7 April 2024"
    data = json.loads(packets.pack_statements(envelope(), found, meta, 2048, "json"))
    assert data["items"][0][:2] == ["chat/session-07.md", "§ Sunday 7 April 2024"]


def test_a_long_passage_keeps_the_sentences_that_name_the_query():
    """A passage over GIST_BYTES keeps its sentences naming a query word (its speaker in front, what is left
    out marked …); a short one, or one where no sentence or every sentence names one, stays whole."""
    filler = "The weather was grey and the trains were late again all week, as they always seem to be. "
    long = "Marcus: " + filler * 3 + "The Northgate job starts in May. " + filler
    assert len(long.encode()) > quoting.GIST_BYTES
    words = frozenset(["northgate", "job", "what"])
    assert quoting.gist(long, words) == "Marcus: … The Northgate job starts in May. …"
    assert quoting.gist("Marcus: " + filler * 5, words) == "Marcus: " + filler * 5
    assert quoting.gist("Marcus: the Northgate job. It starts in May.", words) == "Marcus: the Northgate job. It starts in May."
    group = ("source", "chat.md", "Session 1")
    found = [Statement(group, "passage", long, 1.0, "chat.md", (3, 3))]
    text = packets.pack_statements(envelope(), found, {group: {"source": "chat.md", "title": "Chat", "heading": "Session 1"}},
                                   2048, "text")
    assert "\nL3: Marcus: …The Northgate job starts in May. …\n" in text  # (quoting.tight_gaps)


@pytest.mark.parametrize(("turn", "quoted"), [
    # talk around the news: the sentence naming a query word stays
    ("Nadia: Ha, you're right. Anyway, the honeymoon plans changed. Rhys is making pancakes.",
     "Nadia: … Anyway, the honeymoon plans changed. …"),
    # the answer that names no query word holds a value: a name after a word, a number
    ("Nadia: Nothing bad, honestly. The flights were silly. So we're going to Madeira instead.",
     "Nadia: … So we're going to Madeira instead."),
    ("Callum: I was waiting until it was all signed. They came back at £32,500. Phew.",
     "Callum: … They came back at £32,500. …"),
    # every sentence kept, or none: the turn as it is
    ("Lena: Still 1:55. Honeymoon on 3 May.", "Lena: Still 1:55. Honeymoon on 3 May."),
    ("Lena: Ha. Oh well, you know how it is. Anyway, talk soon, I have to go.",
     "Lena: Ha. Oh well, you know how it is. Anyway, talk soon, I have to go."),
    # a short turn stays whole
    ("Marcus: And? Go on.", "Marcus: And? Go on."),
    # not a turn: quoted as `gist` quotes a passage (whole below GIST_BYTES)
    ("We're going to Madeira instead. Anyway, talk soon, I have to go.", "We're going to Madeira instead. Anyway, talk soon, I have to go."),
])
def test_a_turn_below_the_first_statements_keeps_its_sentences_that_can_answer(turn, quoted):
    """turn_gist: a turn over TURN_GIST_BYTES keeps the sentences that name a query word or hold a value (a
    number, a capitalised word after a word), the rest marked …, the speaker in front."""
    assert quoting.turn_gist(turn, frozenset(["honeymoon", "where", "nadia", "salary"])) == quoted


@pytest.mark.parametrize("whole", [0, 2])
def test_the_turns_after_the_first_statements_are_quoted_as_their_gist(monkeypatch, whole):
    """The WHOLE_TURNS best statements keep every sentence (none since session 24: the best turn's talk cost
    the second hop's place); the turns after them keep the sentences that can answer, so more turns fit."""
    monkeypatch.setattr(packets, "WHOLE_TURNS", whole)
    monkeypatch.setattr(packets, "FULL_GISTS", 10)  # (the turns after them: the next test)
    group = ("source", "chat.md", "Session 1")
    turn = "Nadia: Ha, you're right about that one. Anyway, the honeymoon plans changed again."
    found = [Statement(group, "passage", turn, 1.0 / (i + 1), "chat.md", (i + 1, i + 1)) for i in range(4)]
    meta = {group: {"source": "chat.md", "title": "Chat", "heading": "Session 1"}}
    text = packets.pack_statements(envelope(), found, meta, 2048, "text")
    lines = [line for line in text.splitlines() if line.startswith("L")]
    # (the envelope's terms are the query's: "honeymoon" is not one; "Nadia" is no value after "Nadia: ";
    # a turn after Nadia's own is said without her name)
    assert lines == ["L1: " + turn] + [f"L{i}: {turn.removeprefix('Nadia: ')}" for i in (2, 3, 4)]
    text = packets.pack_statements(replace(envelope(), terms=["honeymoon"]), found, meta, 2048, "text")
    lines = [_named(line, "Nadia: ") for line in text.splitlines() if line.startswith("L")]
    assert lines[:whole] == [f"L{i}: {turn}" for i in range(1, whole + 1)]
    assert lines[whole:] == [f"L{i}: Nadia: …Anyway, the honeymoon plans changed again." for i in range(whole + 1, 5)]


def _named(line: str, lead: str) -> str:
    """A turn line with its speaker's name, where the packet leaves it out (said by the turn above's)."""
    label, text = line.split(": ", 1)
    return f"{label}: {text if text.startswith(lead) else lead + text}"


def test_the_turns_after_the_best_statements_are_quoted_in_turn_bytes():
    """The FULL_GISTS best statements are quoted as their gist; a turn after them as what fits of
    TURN_BYTES, the sentence naming a query word first, its line citation whole."""
    group = ("source", "chat.md", "Session 1")
    turn = "Lena: Ha, that is so kind of you to say. Anyway, we're going to Porto instead!"
    found = [Statement(group, "passage", turn, 1.0 / (i + 1), "chat.md", (i + 1, i + 1)) for i in range(5)]
    meta = {group: {"source": "chat.md", "title": "Chat", "heading": "Session 1"}}
    text = packets.pack_statements(replace(envelope(), terms=["porto"]), found, meta, 2048, "text")
    lines = [_named(line, "Lena: ") for line in text.splitlines() if line.startswith("L")]
    assert lines[:packets.FULL_GISTS] == [f"L{i}: Lena: …Anyway, we're going to Porto instead!"
                                          for i in range(1, packets.FULL_GISTS + 1)]
    assert lines[packets.FULL_GISTS:] == [f"L{i}: Lena: …Anyway, we're going to Porto…"
                                          for i in range(packets.FULL_GISTS + 1, 6)]
    assert all(len(line.split(": ", 1)[1].encode()) <= quoting.TURN_BYTES for line in lines[packets.FULL_GISTS:])


@pytest.mark.parametrize(("text", "limit", "quoted"), [
    # the sentence naming a query word first, then one holding a value, each whole while it fits
    ("Lena: Ha, that is so kind. Anyway, we're going to Porto instead! Same dates, 12 to 16 September.", 60,
     "Lena: … Anyway, we're going to Porto instead! …"),
    ("Lena: Ha, that is so kind. We booked it. Same dates, 12 to 16 September.", 50,
     "Lena: … Same dates, 12 to 16 September."),
    # none fits whole: the first of them cut short
    ("Lena: We are definitely going to Porto in the second week of September.", 40, "Lena: We are definitely going to …"),
    # it fits: as it is
    ("Marcus: And? Go on.", 45, "Marcus: And? Go on."),
    # not a turn
    ("We're going to Porto instead of Lisbon, which is a shame.", 30, "We're going to Porto …"),
])
def test_a_turn_is_fitted_to_its_bytes_by_the_sentences_that_can_answer(text, limit, quoted):
    out = quoting.fitted(text, frozenset(["porto"]), limit)
    assert out == quoted
    assert len(out.encode()) <= limit


def test_a_turn_line_quotes_a_turn_and_leaves_any_other_passage():
    assert quoting.turn_line("Marcus: And? Go on. Tell me about the new flat.", frozenset(["flat"])) \
        == "Marcus: … Tell me about the new flat."
    long = "The flat is above a bakery on the high street, two minutes from the station and the park."
    assert quoting.turn_line(long, frozenset(["flat"])) == long


PAGE = ("page", "entities/marcus.md")
SOURCE = ("source", "notes.md", "")


@pytest.mark.parametrize(("flag", "heading", "page_keys", "source_keys"), [
    (None, "", {"kind", "page", "title", "status", "claims"}, {"kind", "source", "passages"}),
    ({"status": "stale", "why": "not read since 2020"}, "Jobs",
     {"kind", "page", "title", "status", "flag", "claims"}, {"kind", "source", "section", "passages"}),
])
def test_a_json_item_holds_what_its_text_header_shows_and_no_empty_field(flag, heading, page_keys, source_keys):
    """A page with no flag has no `flag` key, a source with no heading no `section`: a field with nothing to
    say is left out, not written empty (null, ""); a statement is the line the text packet writes for it."""
    source = ("source", "notes.md", heading)
    found = [Statement(PAGE, "claim", "Marcus — job: lead at Northgate", 1.0, "notes.md", (2, 2), "^[notes.md:L2-L2]"),
             Statement(source, "passage", "Marcus starts at Northgate in May.", 0.9, "notes.md", (5, 5))]
    meta = {PAGE: {"page": "entities/marcus.md", "title": "Marcus", "status": "compiled", "flag": flag},
            source: {"source": "notes.md", "title": "", "heading": heading}}
    full = json.loads(packets.pack_statements(envelope(), found, meta, 16384, "json"))["items"]
    assert (set(full[0]), set(full[1])) == (page_keys, source_keys)
    assert full[1]["passages"] == ["L5: Marcus starts at Northgate in May."]
    data = json.loads(packets.pack_statements(envelope(), found, meta, 2048, "json"))
    page, evidence = data["items"]
    assert set(page) == page_keys  # the tersest evidence item: an array, its source then its passages (its
    # first section a `§` line); read as a record by `full_item`
    assert page["claims"] == ["Marcus — job: lead at Northgate ^[notes.md:L2-L2]"]
    assert evidence == ["notes.md", *[f"§ {heading}"] * bool(heading), "L5: Marcus starts at Northgate in May."]
    assert packets.full_item(evidence) == {"kind": "evidence", "source": "notes.md", "passages": evidence[1:]}
    assert packets.kind_of(evidence) == "evidence" and packets.kind_of(page) == "page"
    assert set(data) == {"truncated", "statementsIncluded", "statementsAvailable",
                         "nextActions", "items"}  # the tersest envelope: no budget, bytes, knowledge base's id
    # (see test_packet_density)
    text = packets.pack_statements(envelope(), found, meta, 2048, "text")
    assert text.count("\n## ") == len(data["items"])  # one item per header of the text packet
    assert "\n* Marcus — job: lead at Northgate ^[notes.md:L2-L2]\n" in text
    assert "\nL5: Marcus starts at Northgate in May.\n" in text
