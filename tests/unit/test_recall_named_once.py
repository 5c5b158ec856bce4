"""Issue 31, recall of things named once with a stated fact (EXTRACTOR_VERSION 27): a person's full name
a fact is stated of, a host's or an asset's number, a model's designation after its name, the vendor
column of a list of products. Each rule has a positive and a negative table, with phrasings of our own
(not the notes corpus's)."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def entity_names(text: str) -> set[str]:
    return {e.name for e in extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST)).entities}


@pytest.mark.parametrize("text, name", [
    # a label line's value, after a comma: a frequent given name is one there
    ("# Stage AV\n\nowner: the events desk (bookings), Tom Wasilewski (sound, weekends only)\n", "Tom Wasilewski"),
    # a label line's value at its start: no word of it an ordinary word
    ("# Cutover\n\n- Contractor on site for the night: Ingmar Voskuijlen\n", "Ingmar Voskuijlen"),
])
def test_a_full_name_a_fact_is_stated_of_gets_a_page_on_one_mention(text, name):
    assert name in entity_names(text)


@pytest.mark.parametrize("text, not_a_name", [
    # a greeting opening the sentence, before a name
    ("# Mail\n\nSent: 2 May 2026 08:15 Hi Oksana, can you confirm the 14th?\n", "Hi Oksana"),
    # a word with an English ending opens no person's name
    ("# Setup\n\nPreconfigured Zorvana dashboards ship with 12 panels each.\n", "Preconfigured Zorvana"),
    # a number right after it: a model
    ("# Kit\n\n- New laptop: Vexlar Latitude 7730, arrived 2 Feb\n", "Vexlar Latitude"),
])
def test_no_person_from_a_phrase_that_only_looks_like_a_name(text, not_a_name):
    assert not_a_name not in entity_names(text)


def test_an_ordinary_word_after_the_first_makes_a_product_or_a_company_not_a_person():
    # (a page by its form and the value in its sentence, kctui.compiler.builtin.named_once; not a person's)
    text = "# Budget\n\nThe plan moves us to Quillmark Backup, about 40 seats.\n"
    found = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST)).entities
    assert all(e.entity_type != "person" for e in found if e.name == "Quillmark Backup")


@pytest.mark.parametrize("text, name", [
    ("# Handover\n\n* Disk on the metrics box (tsdb-2) is at 81%, growing weekly.\n", "tsdb-2"),
    ("# Standup\n\n- KIOSK-04 lost its network at 09:10, replaced the cable\n", "KIOSK-04"),
    # in capitals, zero-padded, in a sentence with a value though not its subject: a digit in its first
    # part, or letters before the number of its last part
    ("# Standup\n\n- 1 new fault: sensor dropout after ~25min on QR3-0112, logged\n", "QR3-0112"),
    ("# Patching\n\n- Kit: CU9 on test (HQ-2F-APP01) by 3/14, prod the week after\n", "HQ-2F-APP01"),
])
def test_a_hosts_or_an_assets_number_with_a_fact_gets_a_page_on_one_mention(text, name):
    assert name in entity_names(text)


@pytest.mark.parametrize("text, not_a_name", [
    # a level's number is no asset's (not zero-padded; a ticket's, "OPS-4471", is a record's identifier
    # with a page of its own: kctui.compiler.builtin.named_once)
    ("# Incident\n\n- SEV-2 declared at 14:05 by the on-call\n", "SEV-2"),
    # a host's number named in a sentence that states nothing of it (one zero-padded at its end is a host's
    # name, a page on one mention: tests/unit/test_host_names.py, session 25)
    ("# Handover\n\n* Ask the desk about tsdb-2 when you start.\n", "tsdb-2"),
])
def test_no_page_for_a_ticket_a_level_or_a_host_named_once_without_a_fact(text, not_a_name):
    assert not_a_name not in entity_names(text)


@pytest.mark.parametrize("text, name", [
    ("# Kit\n\n- order a second Zorvana K12 for the loading bay, about £400\n", "Zorvana K12"),
    ("# Kit\n\n- order a Quillmark T7 Mesh for the loading bay, about £170\n", "Quillmark T7 Mesh"),
])
def test_a_models_designation_after_its_name_is_part_of_it(text, name):
    assert name in entity_names(text)


@pytest.mark.parametrize("text, name", [
    # a quarter, a priority, a half or a week is no model
    ("# Plan\n\n- ship the Zorvana Q3 roadmap to finance by 4 May\n", "Zorvana Q3"),
    ("# Incident\n\n- Quillmark P1 raised at 09:00, closed at 11:00\n", "Quillmark P1"),
])
def test_business_shorthand_after_a_name_is_no_model(text, name):
    assert name not in entity_names(text)


VENDORS = """# Licences

| Product | Vendor | Seats | Renewal |
|---|---|---|---|
| Plotwise | Harrowgate Software | 5 | 1 Mar 2027 |
| Ledgerly | Quintessa Systems | 12 | 30 Jun 2027 |
| Rotaboard | in-house | - | - |
"""


def test_a_vendor_column_after_the_name_column_names_companies():
    names = entity_names(VENDORS)
    assert {"Harrowgate Software", "Quintessa Systems"} <= names
    assert "in-house" not in names


@pytest.mark.parametrize("text, name", [
    ("# Handover\n\n* mdb01 filled its disk to 97% on Sunday night\n", "mdb01"),
    ("# Notes\n\nThe nightly export on the old box (qrv-fs01) took 3 hours again.\n", "qrv-fs01"),
])
def test_a_zero_padded_hosts_number_with_a_fact_gets_a_page_on_one_mention(text, name):
    assert name in entity_names(text)


@pytest.mark.parametrize("text, word", [
    ("# Metrics\n\n- p95 latency went from 120 ms to 180 ms on Monday\n", "p95"),
    ("# Builds\n\n- the x86 runners cost about $300 a month\n", "x86"),
])
def test_a_short_letter_and_number_is_no_host(text, word):
    assert word not in entity_names(text)


def test_a_title_that_holds_a_value_is_a_statement_of_its_source_page():
    text = "# Kit review — wed 14/10/26\n\nWe met and agreed nothing much today.\n"
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    own = [(c.value, c.evidence.start) for c in ex.claims if c.attribute == "note"]
    assert ("Kit review — wed 14/10/26", 1) in own
    plain = extract_document(read_source("notes/n.md", b"# Kit review\n\nWe met and agreed nothing.\n", DIGEST))
    assert not [c for c in plain.claims if c.evidence.start == 1]  # a title without a value says nothing


@pytest.mark.parametrize("text, name", [
    ("# Quote\n\n- 2 × QuillMark ZX7700, each with 8 × Vexlar H200 cards, 2 TB RAM\n", "QuillMark ZX7700"),
    ("# Kit\n\n- the tape library is a QuillMark TS4400 in rack 3, bought 2023\n", "QuillMark TS4400"),
])
def test_a_product_with_its_model_a_fact_is_stated_of_gets_a_page_on_one_mention(text, name):
    assert name in entity_names(text)


def test_a_model_named_in_passing_gets_no_page():
    assert "Vexlar QX9200" not in entity_names("# Notes\n\nSomeone asked about the Vexlar QX9200 at lunch.\n")


@pytest.mark.parametrize("text, title", [
    ("# Incident\n\n- 13:02 Quillmark webhooks fail with 502s, 40 of them by 13:10\n", "Quillmark 502s"),
    ("# Sync\n\n- **Vexlar 429s** — we hit the 150 req/s limit at 23:45 every night\n", "Vexlar 429s"),
])
def test_an_http_error_status_in_the_plural_is_no_models_designation(text, title):
    assert title not in entity_names(text)
