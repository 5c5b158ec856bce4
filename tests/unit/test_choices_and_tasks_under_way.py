"""Decisions and action items in a few more of their words (issue 31 point 3, session 28, D): a person's
choice or refusal, a list item or sentence closed by "no.", a task labelled "TODO", a person closing a
clause with a task under way ("— Ilse chasing"). Names and phrasings
are our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import assigned, decided, named_owner
from kctui.compiler.builtin.commitments import said_commitment
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64
NAMES = {"quen": "Quen Osei", "ilse": "Ilse Marr", "relaybus": "Relaybus"}
PEOPLE = {"quen osei", "ilse marr"}


@pytest.mark.parametrize("sentence, kind", [
    ("Varga picked the badge readers for the annex", "decided"),  # a person's choice
    ("Ilse chose the 3-year term in the end", "decided"),
    ("Quen says no, close the ticket", "rejected"),  # a person's refusal
    ("Varga says leave it, not this quarter", "rejected"),
    ("Ilse says not this quarter, revisit in Q3", "rejected"),
    ("the vendor quoted £4,100 to extend a year. no.", "rejected"),  # an item closed by "no."
    ("1. **Own hosting** — cheap, but we patch it ourselves forever. No.", "rejected"),
    ("Varga picked them up on Tuesday", None),  # a pickup, no choice
    ("Quen picked up at 7am", None),
    ("Relaybus says no extra charge for the switch", None),  # "no" before a noun: a fact
    ("Ilse said no before we even asked", None),
    ("They said no, sorry", None),  # a pronoun: as often a vendor's answer
    ("no.", None),  # too short to say what
    ("is it a no?", None),
])
def test_a_persons_choice_or_refusal_and_a_closing_no(sentence: str, kind: str | None) -> None:
    found = decided.marker(sentence)
    assert (found[0] if found else None) == kind


@pytest.mark.parametrize("sentence, said", [
    ("TODO: add the courier API agreements to the list", [("action", None)]),
    ("TODO(Ilse): kit to person mapping, Quen keeps asking", [("action", "Ilse Marr")]),
    ("leavers: see offboarding.md (todo: write it properly, varga)", [("action", None)]),
    ("**TODO**: chase the renewal quote", [("action", None)]),
    ("TODO: tbd", []),  # a task names more than a word
    ("the todo list lives in the tracker", []),  # a word, no label
])
def test_a_task_labelled_todo(sentence: str, said: list) -> None:
    assert said_commitment(sentence, NAMES, PEOPLE) == said


@pytest.mark.parametrize("sentence, owner", [
    ("Relaybus renewal: new quote £900/mo — Ilse chasing", "Ilse Marr"),  # a person closing the clause
    ("we need the bigger tier, not the small one. price TBD, Quen negotiating", "Quen Osei"),
    ("the access policy is due Fri (Ilse checking)", "Ilse Marr"),
    ("first PR up, Talia Brennick reviewing", "Talia Brennick"),
    ("Relaybus upgrade — Aoibhe leading, Sept", "Aoibhe"),  # a given name the document names nothing by
    ("capacity is 30 pts (Quen 50% on incidents, Ilse ramping)", None),  # beside a task, no task
    ("a week of nights, Ilse shadowing", None),
    ("MAR = monthly active rows (Relaybus billing)", None),  # a thing's name and a noun in -ing
    ("the printer dropped 6 tickets. Quen is fuming", None),  # how someone is
])
def test_a_task_under_way_closing_its_clause(sentence: str, owner: str | None) -> None:
    assert assigned.present_owner(sentence, PEOPLE, NAMES) == owner


def test_a_common_given_name_closing_a_clause_is_read_from_the_documents_writing() -> None:
    written = named_owner.written_words(["- ask Hannah about the quote", "- rates renewal — Hannah negotiating"])
    assert assigned.present_owner("rates renewal — Hannah negotiating", set(), {}, written) == "Hannah"
    assert assigned.present_owner("rates renewal — Hannah negotiating", set(), {}) is None
    lower = named_owner.written_words(["- hannah is a word here", "- rates renewal — Hannah negotiating"])
    assert assigned.present_owner("rates renewal — Hannah negotiating", set(), {}, lower) is None


def test_the_rules_in_a_note() -> None:
    text = ("# Ops sync\n\n"
            "- Relaybus renewal: new quote £900/mo — Aoibhe chasing\n"
            "- Relaybus hosted tier: £6,100 to extend a year. no.\n"
            "- Moving the dashboards? Varga says leave it, not this quarter\n\n"
            "TODO: add the courier API agreements\n")
    ex = extract_document(read_source("notes/sync.md", text.encode(), DIGEST))
    typed = {(c.attribute, c.evidence.start) for c in ex.claims if c.attribute in ("decision", "action item")}
    assert typed == {("action item", 3), ("decision", 4), ("decision", 5), ("action item", 7)}
