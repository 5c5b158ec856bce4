"""Issue 31: a person named by a given name alone gets a page where the sentence's place sets the name apart as a
person's: a role in brackets after it, alone in brackets after a role, someone of an organisation mid-sentence
(kctui.compiler.builtin.given_names). Names and phrasings are our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.given_names import given_spans
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "5" * 64


@pytest.mark.parametrize("plain, wanted", [
    ("09:40 — Odalie (front desk manager) rings the on-call phone", ["Odalie"]),  # a role in brackets after it
    ("| Quorvel | licences | Brisa (CSM) | renews 1 May |", ["Brisa"]),  # an acronym in brackets
    ("a session with their integration engineer (Tavin) next week", ["Tavin"]),  # alone in brackets after a role
    ("I went back to Idony at Pellworth and asked again", ["Idony"]),  # someone of an organisation, mid-sentence
    ("chase Corwin @ Halvex for the report", ["Corwin"]),
    ("Ferrant Oswy (head of IT) signed", []),  # a full name's surname: people_signals reads the whole name
    ("Backup (nightly) to the NAS", []),  # a remark in brackets, no role
    ("Admin (read-only) for the service desk", []),
    ("Shout at Pellworth if it fails", []),  # opening its sentence: an imperative's place
    ("told Finance (Idony) already", []),  # (a capitalised word before the bracket: a department's gloss)
    ("Patching (monthly engineer) is due", []),  # a word with an English ending
    ("reminder: standup (Thursday)", []),  # a calendar word
])
def test_given_spans(plain: str, wanted: list[str]) -> None:
    assert [s.text for s in given_spans(plain, ug.lower_words([plain]))] == wanted


def test_a_word_the_document_writes_in_lower_case_is_no_given_name() -> None:
    lower = ug.lower_words(["the tavin is a tool we run"])
    assert given_spans("our release engineer (Tavin) again", lower) == []


def test_a_given_name_with_its_role_gets_a_page_citing_the_line() -> None:
    text = ("# Ticketing outage\n\n- 10:52 — Odalie (front desk manager) rings Brenner: \"tickets not working\"\n"
            "- 11:30 — fixed by a restart\n")
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    assert "Odalie" in {e.name for e in ex.entities}
    assert any(c.subject == "Odalie" and c.evidence.start == 3 for c in ex.claims)


def test_a_surname_after_a_title_and_its_period_is_a_person_named_by_form() -> None:
    """"Ms. Quellen" is shaped as a person's name as "Ms Quellen" is (recognise.named_by_form): named once with
    what the sentence says of her, she gets a page."""
    text = "# Outage\n\nThe first call came from the ward's charge nurse, Ms. Quellen, who rang at 07:05.\n"
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    assert "Ms. Quellen" in {e.name for e in ex.entities}


def test_a_given_name_alone_in_brackets_after_a_role_is_stated_of() -> None:
    """The role is who they are to the writer, a fact of the person: a page on one mention, with no other value in
    the sentence (kctui.compiler.builtin.given_names; session 18's bracketed word without a value had been a passing
    mention)."""
    text = "# Intro\n\nHappy to set up a call with our support engineer (Marcus) if useful.\n"
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    assert "Marcus" in {e.name for e in ex.entities}
