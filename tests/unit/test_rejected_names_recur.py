"""Issue 31, session 14: a name one document does not vouch for enough is a passing mention, so that
another source naming it makes it a page (kctui.compiler.steps.recurrence): named in two sentences
without the evidence for a page, loosely after a colon, a bracket or a dash; a record's identifier
ends a name; a bold line among bold names heads a person's part; a line of one or two capitalised
words right over its list leads it; a title part with a trailing clause names its person. Names and
phrasings are our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin.candidates import Candidate
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.records import person_subject
from kctui.compiler.builtin.roster import roster_names
from kctui.compiler.builtin.statements import section_leads
from kctui.compiler.readers import read_source
from kctui.compiler.steps.recurrence import recurring

DIGEST = "sha256:" + "5" * 64


def doc(text: str, path: str = "notes/n.md"):  # noqa: ANN201
    return read_source(path, text.encode("utf-8"), DIGEST)


def extract(text: str, path: str = "notes/n.md"):  # noqa: ANN201
    return extract_document(doc(text, path))


def test_a_name_two_sentences_do_not_make_a_page_of_is_a_passing_mention() -> None:
    # a word English knows, marked once and opening a sentence once: not enough for a page here (it
    # needs two marked sentences), a passing mention (it was dropped when named in two sentences)
    c = Candidate("Pelican", "pelican", marked=1, loose=1, vouched=True, kinds={"caps"})
    assert not c.accepted() and c.passing()
    ordinary = Candidate("Weekly Review", "weekly review", marked=1, loose=1, vouched=True, kinds={"caps"})
    assert not ordinary.passing()  # ordinary words need more than this


def test_a_passing_mention_named_by_another_source_recurs() -> None:
    a = extract("# Sync\n\nThe alerts go to Quillmark.\n", "a.md")
    b = extract("# Vendors\n\nWe pay Quillmark monthly.\n", "b.md")
    assert recurring({"a.md": a, "b.md": b}, {}) == {"quillmark"}


@pytest.mark.parametrize("text", [
    "# ADR 3\n\nOwner: Odile Marchetti (stores)\n",
    "# Call\n\nWe spoke to the vendor (Odile Marchetti, their PM) today.\n",
    "# Sync\n\n- induction on Tuesdays — Odile Marchetti runs it\n",
])
def test_a_full_name_after_a_colon_a_bracket_or_a_dash_is_a_passing_mention(text: str) -> None:
    ex = extract(text)
    assert "Odile Marchetti" in {e.name for e in ex.passing} | {e.name for e in ex.entities}


def test_ordinary_words_after_a_colon_are_no_passing_mention() -> None:
    ex = extract("# Postmortem\n\nRoot cause: Expired Certificate on the proxy.\n")
    assert not ex.passing and not ex.entities


def test_a_record_identifier_ends_a_name() -> None:
    spans = [s.text for s in nm.plain_spans("CAB approved FIX-0042 Quillmark cutover on Sunday.")]
    assert "FIX-0042" in spans and "Quillmark" in spans and "FIX-0042 Quillmark" not in spans
    # a record's long number is a name of its own, also after a name
    spans = [s.text for s in nm.plain_spans("Raise it in Tallydesk REQ0041187 before Friday.")]
    assert "Tallydesk" in spans and "REQ0041187" in spans and "Tallydesk REQ0041187" not in spans
    # a model number after a maker's name is still part of it
    assert "Palmetto RX-600" in [s.text for s in nm.plain_spans("We bought a Palmetto RX-600 for the lab.")]


def test_a_lone_word_beginning_a_name_with_a_number_recurs_on_its_own() -> None:
    a = extract("# Kit\n\nThe cells are Vostrel VT4400 now.\n", "a.md")
    b = extract("# Vendors\n\nWe buy cells from Vostrel.\n", "b.md")
    c = extract("# Sync\n\nThe order went to Vostrel today.\n", "c.md")
    assert "vostrel" in recurring({"a.md": a, "b.md": b, "c.md": c}, {})
    # a given name beginning a person's name still stands for the person
    d = extract("# Sync\n\nWe met Odile Marchetti and Odile Marchetti agreed.\n", "d.md")
    e = extract("# Sync\n\nThanks to Odile today.\n", "e.md")
    f = extract("# Sync\n\nOdile sent it to Brannagh.\n", "f.md")
    assert "odile" not in recurring({"d.md": d, "e.md": e, "f.md": f}, {})


def test_each_bold_line_among_bold_names_heads_a_persons_part() -> None:
    text = ("## Standup\n\n**Quen**\n- rebased the exporter\n\n**Ilse**\n- on leave\n\n"
            "**Brannagh**\n- read the runbook\n\n**Me**\n- lunch\n")
    assert {n.name for n in roster_names(doc(text))} == {"Quen", "Ilse", "Brannagh"}
    # bold lines that are mostly ordinary words head no one's part
    assert not roster_names(doc("## Plan\n\n**Blockers**\n- none\n\n**Risks**\n- rain\n"))


def test_a_line_of_one_or_two_capitalised_words_over_its_list_leads_it() -> None:
    text = "## Standup\n\nQuen (wk2)\n- rebased the exporter\n- paired with Ilse\n\nSome sentence here.\n"
    leads = section_leads(doc(text))
    assert leads[4] == "Quen" and leads[5] == "Quen"
    prose = section_leads(doc("# Notes\n\nWe did this today.\n- rebased the exporter\n"))
    assert not prose  # a sentence of prose right over a list leads nothing


def test_a_title_part_with_a_trailing_clause_names_its_person() -> None:
    d = doc("# Onboarding - Odile Marchetti (junior sysadmin), starts Mon 2 Nov 2026\n\nWelcome!\n")
    assert person_subject(d) == ("Odile Marchetti", "junior sysadmin")


def test_a_hosts_number_named_without_a_fact_is_a_passing_mention_that_recurs() -> None:
    # (a host's number zero-padded after a hyphen gets a page on one mention: host_names, session 25)
    a = extract("# Onboarding\n\n- Ledger: the app lives on tallyx-app-01 and tallyx-db-2\n", "a.md")
    b = extract("# Runbook\n\nThe database runs on tallyx-db-2, check its disk.\n", "b.md")
    assert "tallyx-db-2" in {e.name for e in a.passing}
    assert "tallyx-db-2" in recurring({"a.md": a, "b.md": b}, {})
    assert "tallyx-app-01" in {e.name for e in a.entities}
    # a compound of English words is no host ("follow-up", "long-term")
    c = Candidate("follow-up", "follow-up", marked=1, vouched=True, kinds={"ident"})
    assert not c.passing()
