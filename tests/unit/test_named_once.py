"""Issue 31, a name written in a name's shape gets a page on one mention where its sentence states a value,
wherever it stands in the sentence; a record's identifier where its sentence says something of it
(kctui.compiler.builtin.named_once, EXTRACTOR_VERSION 36). Positive and negative tables, with phrasings of
our own (not the notes corpus's)."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import named_once
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "5" * 64


def entity_names(text: str) -> set[str]:
    return {e.name for e in extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST)).entities}


@pytest.mark.parametrize("text, name", [
    # an inner capital, in the middle of a sentence whose value is not next to it
    ("# Runbook\n\n- Keep it under 8 workers; beyond that the QuillPool queue (depth 40) backs up.\n", "QuillPool"),
    # a vendor's name and a product's shaped word
    ("# Kit\n\nWe reuse the old Vexlar StorNode chassis in the back room, 3 bays free.\n", "Vexlar StorNode"),
    # capitalised words away from the sentence start, not all ordinary words
    ("# Travel\n\nBooked the flights with Marrowby Tours for 14 people.\n", "Marrowby Tours"),
    # ... at the sentence start when the first word is no ordinary word
    ("# Standup\n\n- Zentrix Workspace rollout to 1120 on the kiosks.\n", "Zentrix Workspace"),
    # a record's identifier in a sentence that says something of it, with no other value
    ("# Handover\n\n- node seven is still drained (QX-4471), waiting on the vendor\n", "QX-4471"),
])
def test_a_name_in_a_names_shape_with_a_value_gets_a_page_on_one_mention(text, name):
    assert name in entity_names(text)


@pytest.mark.parametrize("text, not_a_name", [
    # no value in the sentence: a passing mention
    ("# Notes\n\nAsk the team whether the QuillPool queue backs up.\n", "QuillPool"),
    # an acronym alone: vocabulary as often as a name
    ("# Ops\n\nWe checked that the WXQ export finished, 14 files in all.\n", "WXQ"),
    # a record's identifier in a sentence of under four words
    ("# Refs\n\n- see QX-4471\n", "QX-4471"),
])
def test_no_page_for_a_name_without_a_value_or_a_lone_acronym(text, not_a_name):
    assert not_a_name not in entity_names(text)


def _span(plain: str, text: str) -> nm.Span:
    kind = "shaped" if any(wd.shaped(t) for t in text.split()) else "caps"
    start = plain.index(text)
    return nm.Span(text, start, start + len(text), start == 0, kind, tuple(text.split()))


@pytest.mark.parametrize("text, at_start, valued, expected", [
    ("PgPooler", False, True, True),
    ("Sectra IDS9", False, True, False),  # a word and one trailing digit ends it: a level's form
    ("Vexlar StorNode", False, True, True),
    ("Vexlar TX4400", False, True, True),  # capitalised words and a model's designation
    ("PgPooler", False, False, False),  # no value in the sentence
    ("iPad", False, True, False),  # a word English has
    ("GitHub", False, True, False),
    ("m7q.4xlarge", False, True, False),  # a size in lower case with a digit
    ("wk47", False, True, False),
    ("SEV3", False, True, False),  # a level, an offset, a clause: one trailing digit
    ("UTC-5", False, True, False),
    ("RMA'd", False, True, False),  # a contraction
    ("Marrowby Tours", False, True, True),
    ("Zentrix Workspace", True, True, True),  # at the start, its first word no ordinary word
    ("Export Quorvane", True, True, False),  # at the start, its first word an ordinary word (a verb)
    ("Slurm QOS", False, True, False),  # an acronym glues names together
    ("Weekly Review", False, True, False),  # ordinary words only
    ("Brellcourt", False, True, False),  # one capitalised word alone: not by its form
    ("Revisit Quistbrand", True, True, False),  # at the start, its first word an English word (a verb)
    ("Preconfigured Zorvana", True, True, False),  # ... or a word with an English ending
    ("WXQ", False, True, False),  # an acronym alone
    ("QX-4471", False, False, True),  # a record's identifier, value or not
])
def test_written_as_name(text, at_start, valued, expected):
    plain = ("" if at_start else "we use ") + text + " now"
    assert named_once.written_as_name(plain, _span(plain, text), valued) is expected


@pytest.mark.parametrize("plain, name, expected", [
    ("Sent: 2 May 08:15 Hi Oksana, can you confirm", "Hi Oksana", False),  # a greeting after a time
    ("Owner: Mark Brell, from 3 May", "Mark Brell", False),  # after a colon an ordinary word may be a verb
    ("the call with Mark Brell took 40 minutes", "Mark Brell", True),  # after a lower-case word
])
def test_an_ordinary_first_word_opening_a_part_of_the_sentence(plain, name, expected):
    assert named_once.written_as_name(plain, _span(plain, name), True) is expected


@pytest.mark.parametrize("text, expected", [
    ("RC-1187", True), ("CHG0041187", True), ("KB5046617", True),
    ("HX-2", False), ("SEV-2", False), ("ADR 7", False), ("rc-1187", False),
    # identifiers of several parts: a year or a letter code before the number
    ("PO-2026-0147", True), ("FD-Q-20417", True), ("PRN-2F-01", True), ("CVE-2024-3094", True),
    ("PO-2026-", False), ("T14-Gen-5", False), ("YYYY-01-01", False), ("XX-1234", False),
])
def test_record_identifier(text, expected):
    assert named_once.record_identifier(text) is expected


@pytest.mark.parametrize("text, names, not_names", [
    # a meridiem after a time of day ends the time: no name opens with it
    ("Sat 8:12 AM MS225 is end of sale", {"MS225"}, {"AM MS225"}),
    ("pinged at 10:43 PM QX-88 after the deploy", {"QX-88"}, {"PM QX-88"}),
])
def test_a_meridiem_after_a_time_is_no_part_of_a_name(text, names, not_names):
    spans = {s.text for s in nm.plain_spans(text)}
    assert names <= spans and not (not_names & spans)


@pytest.mark.parametrize("text, expected", [
    ("Vexlar TX4400", True),  # capitals and a number
    ("Vexlar QT-M4410", True),  # a series' capitals, a hyphen, capitals and a number
    ("Vexlar QT-M88VI", True),  # ... and a revision's letters after it
    ("Norbrook KS130-24P", True),  # a variant after a hyphen
    ("Norbrook Stormline 3300", True),  # a model's number
    ("Norbrook Stormline 3300 Gen 2", True),  # ... and a generation
    ("Norbrook Stormline 2021", False),  # a year is no model's number
    ("Norbrook Stormline 33", False),  # two digits: a version, an instance ("Postgres 14", "Room 12")
    ("Jira QX-4471", False),  # a record's number after a hyphen follows no capital
    ("Norbrook", False),
])
def test_a_models_designation_in_its_forms(text, expected):
    assert bool(named_once.MODEL.match(text)) is expected


@pytest.mark.parametrize("text, name", [
    # a series' capitals and a model's after a hyphen, the sentence's value not next to it
    ("# Site\n\n- Toner for the Vexlar QT-M4410 — ordered, arrives Tue\n", "Vexlar QT-M4410"),
    # a maker's word and a model's number, in a sentence with an amount
    ("# Kit\n\n- bought two Norbrook Stormline 3300 units, $812 each\n", "Norbrook Stormline 3300"),
    # a table's first cell, its maker's word written in lower case elsewhere in the document
    ("# Orders\n\n| Item | Qty | Cost |\n|---|---|---|\n| Quendra QZ420 label printer | 1 | $398.00 |\n\n"
     "quendra says the old one cannot be fixed.\n", "Quendra QZ420"),
])
def test_a_product_with_its_model_gets_a_page_on_one_mention(text, name):
    assert name in entity_names(text)


@pytest.mark.parametrize("text, not_a_name", [
    # a unit after its number, then a generation's letters and one digit
    ("# Spec\n\n| Part | Node A | Node B |\n|---|---|---|\n| Memory | 2 TB DDR5 | 4 TB DDR5 |\n", "TB DDR5"),
])
def test_no_product_from_a_unit_and_a_model(text, not_a_name):
    assert not_a_name not in entity_names(text)


@pytest.mark.parametrize("text, name", [
    # a ticket's number alone, after the word for its kind or opening the item, in a sentence saying
    # something of it
    ("# Standup\n\n- swapped the switch at the depot, ticket #5512 closed\n", "#5512"),
    ("# Helpdesk\n\n- **#60391** lab 4 printer — toner replaced, closed wed\n", "#60391"),
    ("# Vendors\n\n- opened a support case #0731882 with the vendor, waiting on them\n", "#0731882"),
])
def test_a_tickets_number_alone_gets_a_page_on_one_mention(text, name):
    assert name in entity_names(text)


@pytest.mark.parametrize("text, not_a_name", [
    ("# Triage\n\n- see #5512\n", "#5512"),  # a sentence of under four words says nothing of it
    ("# Kit\n\n- scanner #6 needs a new cable before Friday\n", "#6"),  # one digit: a count's place
    ("# Notes\n\n- police report #26-00311 filed for the laptop\n", "#26"),  # a number's part
])
def test_no_page_for_a_short_number_or_a_bare_reference(text, not_a_name):
    assert not_a_name not in entity_names(text)


@pytest.mark.parametrize("text, expected", [("#4471", True), ("#48291", True), ("#12", False), ("#4471-2", False)])
def test_a_tickets_number_is_a_record_identifier_and_a_title(text, expected):
    from kctui.compiler.builtin.name_checks import clean_title

    assert named_once.record_identifier(text) is expected
    assert clean_title(text) is expected


@pytest.mark.parametrize("text, name", [
    # a product with its model, the subject of a sentence with no value: what it is, a fact of it
    ("# Handover\n\n- the kitchen printer keeps dropping off. It's the Vexlar QT-M88VI, a lease issue I think.\n",
     "Vexlar QT-M88VI"),
    ("# Kit\n\n- laptop: Quendra Q14 (current model), stock in the cupboard\n", "Quendra Q14"),
])
def test_a_product_with_its_model_a_fact_is_stated_of_gets_a_page_without_a_value(text, name):
    assert name in entity_names(text)


@pytest.mark.parametrize("text, not_a_name", [
    ("# Notes\n\nAsk the team about the Vexlar QT-M4410 when you can.\n", "Vexlar QT-M4410"),  # states nothing of it
])
def test_no_page_for_a_product_named_in_passing(text, not_a_name):
    assert not_a_name not in entity_names(text)


@pytest.mark.parametrize("text, name", [
    # a capitalised word opening a list item, set off by a dash from what the item says of it
    ("# Suppliers\n\nOld ones:\n\n- Quorvane - old hosting, ended 2023\n", "Quorvane"),
    ("# Options\n\n4. Plimbly — looked at it briefly, no reference customers, dropped early\n", "Plimbly"),
    # ... or by a bracket
    ("# Team\n\n- Sandor (ward 4 maintenance) happy with the new sensors\n", "Sandor"),
    # a shaped name before a colon, no value in the line
    ("# Accounts\n\n- [ ] DevHub: `ops-tools` group, Developer role — Felix\n", "DevHub"),
])
def test_a_name_opening_its_line_set_off_from_what_it_says_gets_a_page(text, name):
    assert name in entity_names(text)


def test_no_page_for_a_lines_topic_the_line_says_nothing_of():
    # one word after the dash: nothing said of it (a passing mention still)
    assert "Quorvane" not in entity_names("# Notes\n\n- Quorvane - done\n")


@pytest.mark.parametrize("plain, text, expected", [
    ("Quorvane - old hosting, ended 2023", "Quorvane", True),
    ("Quorvane – replaced by new servers", "Quorvane", True),
    ("Sandor (ward 4 maintenance) happy", "Sandor", True),
    ("**Quorvane** - bucket, locked", "Quorvane", False),  # a label in bold
    ("moved off Quorvane - it was slow", "Quorvane", False),  # not the line's opening
    ("Quorvane: old hosting, ended", "Quorvane", False),  # a capitalised word before a colon: a label
    ("DevHub: ops group, Developer role", "DevHub", True),  # a shaped name before a colon: the line's topic
    ("Quorvane - done", "Quorvane", False),  # one word after the dash
])
def test_line_topic(plain, text, expected):
    assert named_once.line_topic(plain, _span(plain, text)) is expected
