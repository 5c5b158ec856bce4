"""Issue 31: the shapes of names that ordinary notes write, read by their form (never by a list of a
corpus's words): identifiers with a number part ("etl-01"), a lower-case compound headed by a kind of
thing ("quota-service"), a person's title ("Prof. Ada Quist"), an acronym with a number and more capitals
("ISO 9 Part IV"), a name followed by the role it holds ("… Head of Finance"), a given name that is a
month's short form ("Jun Okabe"). Names and phrasings are our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.name_checks import clean_title
from kctui.compiler.builtin.name_tokens import junk_token
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "6" * 64


def extract(text: str, path: str = "notes/n.md"):  # noqa: ANN201
    return extract_document(read_source(path, text.encode("utf-8"), DIGEST))


def spans(plain: str) -> list[str]:
    return [s.text for s in nm.plain_spans(plain)]


@pytest.mark.parametrize("token, junk", [
    # a part of digits is no capital: an identifier, not an adjective compound
    ("etl-01", False), ("quill-pg-2", False), ("prod-west-3", False),
    # adjective compounds stay junk
    ("external-to-EPD", True), ("DevOps-specific", True), ("ops-IPv6", True),
    # an English prefix on a number is a word, not an identifier
    ("post-1.0", True), ("pre-2024", True),
])
def test_an_identifier_with_a_number_part_is_no_adjective_compound(token, junk):
    assert junk_token(token) is junk


def test_an_identifier_with_a_number_part_is_a_name_a_fact_is_stated_of():
    # (a page once another source names it too: kctui.compiler.steps.recurrence)
    ex = extract("# Handover\n\n- quill-pg-2 replica lag peaked at 40s on 2026-03-02, then recovered\n")
    assert "quill-pg-2" in {e.name for e in ex.entities} | {e.name for e in ex.passing}


@pytest.mark.parametrize("token, named", [
    # a compound of ordinary words headed by a kind of thing names one thing of that kind
    ("order-service", True), ("case-service", True), ("word-server", True),
    # English compounds, and a compound headed by a person or a team noun, do not
    ("long-term", False), ("follow-up", False), ("on-call", False), ("sales-team", False), ("re-service", False),
])
def test_a_lower_case_compound_headed_by_a_kind_of_thing_is_a_title(token, named):
    assert clean_title(token) is named


@pytest.mark.parametrize("title, named", [
    # a telephone's extension, an identifier with a part held open, an offset from UTC: no thing's number
    ("x2210", False), ("x4400", False), ("TX-xx", False), ("DOL-xx-B", False), ("UTC+5", False),
    ("GMT-8", False),
    # a model's number, a host's, a record's identifier stay titles
    ("X4400", True), ("TX-01", True), ("DOL-01-B", True), ("RC-1187", True),
])
def test_an_extension_an_open_part_or_an_offset_is_no_title(title, named):
    assert clean_title(title) is named


@pytest.mark.parametrize("plain, name", [
    ("Attendees: Prof. Ada Quist (chair), Dr Lin Vatter", "Prof. Ada Quist"),
    ("We asked Mrs. Ilsa Brandvold about the lease.", "Mrs. Ilsa Brandvold"),
])
def test_a_title_opens_a_persons_name(plain, name):
    assert name in spans(plain)


def test_a_sentence_does_not_end_after_a_title():
    ex = extract("# Minutes\n\nProf. Quist to write to the dean. The rest waits.\n")
    assert "Prof. Quist to write to the dean." in {c.value for c in ex.claims}


@pytest.mark.parametrize("plain, found, not_found", [
    ("The firm passed its ISO 9 Part IV audit in March.", "ISO 9 Part IV", "Part IV"),
    # a number before a lower-case word ends the name
    ("The firm shared its ISO 9 report with Quist.", "Quist", "ISO 9 report"),
])
def test_an_acronym_a_number_and_capitals_are_one_name(plain, found, not_found):
    got = spans(plain)
    assert found in got and not_found not in got


@pytest.mark.parametrize("plain, name, whole", [
    ("Please ask Ilsa Brandvold Head of Finance about it.", "Ilsa Brandvold", "Ilsa Brandvold Head of Finance"),
    ("Please ask Ilsa Brandvold Director of Estates about it.", "Ilsa Brandvold", "Ilsa Brandvold Director of Estates"),
])
def test_a_name_ends_before_the_role_it_holds(plain, name, whole):
    got = spans(plain)
    assert name in got and whole not in got


def test_a_name_of_the_bank_of_kind_stays_whole():
    assert "Bank of Quistland" in spans("We moved the account to Bank of Quistland last week.")


@pytest.mark.parametrize("name, ok", [
    ("Jun Okabe", True), ("May Quistrom", True),
    ("May Day", False), ("Jan Feb", False), ("Okabe Jun", False),
])
def test_a_given_name_may_be_a_months_short_form(name, ok):
    assert nt.person_like(name) is ok


def test_a_note_whose_title_names_a_person_is_about_them():
    ex = extract("# Onboarding — Ilse Quistrom (data engineer)\n\nStart date: 2 June 2026. Buddy: Bo Vance.\n\n"
                 "## Week one\n\n- read the runbooks\n")
    assert "Ilse Quistrom" in {e.name for e in ex.entities}
    mine = [(c.attribute, c.value) for c in ex.claims if c.subject == "Ilse Quistrom"]
    assert ("role", "data engineer") in mine
    assert any("2 June 2026" in v for _, v in mine)


@pytest.mark.parametrize("title", ["# Runbook — restarting the daemon", "# Postmortem: Quokkabase outage",
                                   "# Engineering — Code Reviews", "# Standup — Mon 2 June"])
def test_a_title_without_a_persons_name_names_nobody(title):
    from kctui.compiler.builtin import records

    assert records.person_subject(extract_doc(title + "\n\nStart date: 2 June 2026.\n")) is None


def extract_doc(text: str):  # noqa: ANN201
    return read_source("notes/n.md", text.encode("utf-8"), DIGEST)


def test_a_whole_title_in_title_case_names_a_topic_not_a_person():
    from kctui.compiler.builtin import records

    assert records.person_subject(extract_doc("# Quokka Gateway\n\nStart date: 2 June 2026.\n")) is None


@pytest.mark.parametrize("token, junk", [
    ("Co-op", False), ("Wi-fi", False),  # a word's own hyphen
    ("Cloud-like", True), ("Quokka-specific", True),  # a compound modifier
])
def test_a_capitalised_word_with_a_short_lower_case_tail_is_one_word(token, junk):
    assert junk_token(token) is junk


@pytest.mark.parametrize("text, word", [
    # the document writes the word's singular in lower case: its plural at a sentence start is a noun
    ("# Notes\n\nQuokkaslots reach us via the broker at 2026-01-02.\n\nEach quokkaslot is small.\n", "Quokkaslots"),
    # ... and its plural: the singular is a noun too
    ("# Notes\n\nQuokkaslot 2.1 was rolled out on 2026-01-02.\n\nAll quokkaslots are small.\n", "Quokkaslot"),
])
def test_a_word_the_document_writes_in_lower_case_in_another_number_is_no_name(text, word):
    assert word not in {e.name for e in extract(text).entities}


@pytest.mark.parametrize("text, name", [
    ("# Renewal\n\nThe quote came back from Ilsa Brandvold at 4 pm, with the discount we asked for.\n",
     "Ilsa Brandvold"),
    ("# Minutes\n\nApologies were sent by Dr Lin Vatter, who is away until 12 May.\n", "Lin Vatter"),  # (its title an alias)
])
def test_a_persons_name_with_a_fact_gets_a_page_on_one_mention(text, name):
    assert name in {e.name for e in extract(text).entities}


@pytest.mark.parametrize("text, name", [
    # a title-case product of an ordinary word in a sentence with no value: its form does not say it is
    # a person (with a value in the sentence it is a name of its form there: tests/unit/test_named_once.py)
    ("# Notes\n\nWe moved the queue to Quokka Cloud last week, and then added all of the workers.\n", "Quokka Cloud"),
    # written only where a sentence starts: its capitals say nothing
    ("# Notes\n\nRevisit Quistbrand for the next run, around 40 units.\n", "Revisit Quistbrand"),
])
def test_other_names_met_once_need_more(text, name):
    assert name not in {e.name for e in extract(text).entities}


@pytest.mark.parametrize("plain, paths", [
    ("lustre /quokkafs at 81% full, purge runs thurs", ["/quokkafs"]),
    ("Problem: /vault (the NAS, 38 TB used) has snapshots only.", ["/vault"]),
    # not a root path of one segment in prose: a closing tag, a rate, a deeper path, a URL's path
    ("</li> and 3%/week and /api/v1 and https://x.org/docs", []),
])
def test_a_root_path_in_prose_is_a_name(plain, paths):
    assert [s.text for s in nm.plain_spans(plain) if s.kind == "path"] == paths


def test_a_root_path_with_facts_gets_a_page():
    text = ("# Standup\n\n- lustre /quokkafs at 81% full, purge runs thurs\n"
            "- /quokkafs purge freed only 40 TB on 2026-01-20\n")
    assert "/quokkafs" in {e.name for e in extract(text).entities}


@pytest.mark.parametrize("token, shaped", [
    ("q147", True), ("db01", True),  # a host's number
    ("p95", False), ("x86", False), ("v12", False), ("Q3", False),  # a letter and a short number
])
def test_a_hosts_number_is_shaped_like_a_name(token, shaped):
    from kctui.compiler.builtin import words as wd

    assert wd.shaped(token) is shaped


@pytest.mark.parametrize("name, person", [
    ("Priya Raman", True), ("Tomás Ortega", True),
    ("Skyfold CDN", False), ("CKF SOW", False), ("OT VLAN", False),  # an acronym is no part of a person's name
])
def test_a_persons_name_is_capitalised_words_not_acronyms(name: str, person: bool) -> None:
    assert nt.person_shape(name) is person
