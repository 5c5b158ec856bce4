"""Issue 31, session 30: a person's full name alone in a later cell of a table row (a register's contact or
owner, kctui.compiler.builtin.cell_people) and a rare capitalised word alone in brackets after a word, or first
in them before a comma (kctui.compiler.builtin.bracketed_given), get a page on one mention, value or not. Names
and phrasings are our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import bracketed_given, cell_people
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def entity_names(text: str) -> set[str]:
    return {e.name for e in extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST)).entities}


@pytest.mark.parametrize("plain, wanted", [
    ("Quorvel Comms | satellite reseller | Rhona Amos | monthly rolling", ["Rhona Amos"]),  # a later cell alone
    ("Pellworth | VSAT | Piet de Vaart | ends 31 Mar", ["Piet de Vaart"]),  # a particle between
    ("Lab | LIMS | Dr Hester Wain (Head of Lab Ops) | 1 May", ["Dr Hester Wain"]),  # a title, a role after
    ("Rhona Amos | satellite reseller | monthly", []),  # the first cell: what the row is about
    ("Quorvel | CCTV | Quorvel Care Plus | 1 Jan", []),  # three words: a product's plan
    ("Quorvel | supplies | Amazon Business | n/a", []),  # ordinary words only
    ("Quorvel | LIMS | Account Manager | n/a", []),  # a role
    ("Quorvel | LIMS | Frameworks Digital | n/a", []),  # an English ending
    ("Quorvel | LIMS | Rhona Amos and Tavin | n/a", []),  # not the whole cell
])
def test_cell_people_spans(plain: str, wanted: list[str]) -> None:
    assert [s.text for s in cell_people.spans(plain, "row", ug.lower_words([plain]))] == wanted


def test_a_cell_outside_a_table_row_is_no_place() -> None:
    plain = "Quorvel Comms | satellite reseller | Rhona Amos | monthly rolling"
    assert cell_people.spans(plain, "item", ug.lower_words([plain])) == []


def test_a_given_name_the_document_writes_in_lower_case_is_no_cell_person() -> None:
    plain = "Quorvel Comms | satellite reseller | Rhona Amos | monthly rolling"
    assert cell_people.spans(plain, "row", ug.lower_words(["the rhona gauge is full"])) == []


@pytest.mark.parametrize("plain, wanted", [
    ("Marta told Finance (Idony) already", ["Idony"]),  # no value: the bracket after a department
    ("laptop from IT (Hesper), enroll in Jamf", ["Hesper"]),
    ("03:50 the DBA (Sorvin, via the vendor's support) confirms", ["Sorvin"]),  # first before a comma
    ("Cc: Ferrant Oswy (Procurement)", []),  # after a person's full name: their team
    ("tomek (Tomasz) — lead dev", []),  # the word before written short
    ("the build (Beta) is out", []),  # an ordinary word: a state
    ("Basic plan $6,500/month (Enterprise)", []),  # after an amount: a plan
    ("(Idony) opens it", []),  # no word before the bracket
])
def test_bracketed_given_spans(plain: str, wanted: list[str]) -> None:
    assert [s.text for s in bracketed_given.spans(plain, ug.lower_words([plain]))] == wanted


def test_the_row_and_the_bracket_give_their_names_a_page() -> None:
    text = ("# Vendors\n\n| vendor | what | contact | renewal |\n|---|---|---|---|\n"
            "| Quorvel Comms | satellite reseller | Rhona Amos | 30 Jun 2027 |\n\n"
            "- Marta told Finance (Idony) already\n")
    names = entity_names(text)
    assert {"Rhona Amos", "Idony"} <= names


@pytest.mark.parametrize("plain", ["WCAG compliance (Accessibility)", "security group per role (Hygienist, Assistant)"])
def test_a_noun_english_derives_in_brackets_glosses_the_words_before_it(plain: str) -> None:
    assert bracketed_given.spans(plain, ug.lower_words([plain])) == []


def test_a_bracket_closing_a_list_item_is_its_owner_not_a_name_of_this_rule() -> None:
    plain = "need a doc page + mention at the spring training sessions (Idony)"
    assert bracketed_given.spans(plain, ug.lower_words([plain]), "item") == []
    assert [s.text for s in bracketed_given.spans(plain, ug.lower_words([plain]), "paragraph")] == ["Idony"]
