"""Issue 31 point 3 (session 25): action items handed to a person in the present tense
(kctui.compiler.builtin.assigned), and the pledges and owners of commitments read in session 25: the
writer's "I" left out ("will push back", "swapping it tmrw"), an owner closing any sentence of a list item
in brackets, after an arrow or after a dash before a comma. Names and phrasings are our own, not the notes
corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import assigned, commitments
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64
NAMES = {"quen": "Quen Osei", "ilse": "Ilse Marr", "bruno": "Bruno Kell", "relaybus": "Relaybus"}
PEOPLE = {"quen osei", "ilse marr", "bruno kell"}


@pytest.mark.parametrize("sentence, owner", [
    ("Thu 4 Jun: Quen rolls the new limit to prod", "Quen Osei"),  # the simple present of a plan
    ("Ilse writes it, runs nightly after the export", "Ilse Marr"),
    ("reminder the new starter begins Mon — Bruno sorting the laptop", "Bruno Kell"),  # a task under way
    ("Quen is fixing the rota", "Quen Osei"),
    ("Ilse owns the migration, target w/c 7 Dec", "Ilse Marr"),  # an owner
    ("Target is March. Mr. Varga owns the plan.", "Varga"),  # an honorific makes a name a person's
    ("Talia Brennick reviews the runbook", "Talia Brennick"),  # a full name shaped as a person's
    ("Quen says we talk Thursday", None),  # a report, no task
    ("Bruno needs the mapping spec first", None),  # a want
    ("Relaybus goes up 6% in July", None),  # a thing, not a person
    ("if Quen calls, fine", None),  # a name in a condition
    ("Quen is his buddy", None),  # "is" and no task under way
    ("the printer dropped 6 tickets. Quen is fuming", None),  # how someone is, no task
    ("owner: Ilse Marr reviewers: quen, bruno", None),  # a plural after a name
    ("Quen's comments were read into the record", None),  # a possessive
    ("can Quen fix it?", None),  # a question
    ("ilse owns the migration, quen owns the matcher", "Ilse Marr"),  # a person's name in lower case
    ("tests run nightly", None),
])
def test_present_owner(sentence: str, owner: str | None) -> None:
    assert assigned.present_owner(sentence, PEOPLE, NAMES) == owner


@pytest.mark.parametrize("sentence, said", [
    ("not happy with the quote, will push back", [("action", None)]),  # the writer's "I" left out
    ("Will update the answers and send them to Quen", [("action", None)]),
    ("the relay is sticking, swapping it tmrw", [("action", None)]),  # a task under way, and when
    ("running fine since Monday", []),  # a state, a time past
    ("Boxing Day Sunday service", []),  # a noun in -ing
    ("backups approved. seeding starts Sat 24 Oct", []),
    ("so will dani still be around? she finishes the 4th", []),
    ("it will be fine", []),  # a subject before the modal
    ("will it be there?", []),
])
def test_pledge_without_its_subject(sentence: str, said: list[tuple[str, str | None]]) -> None:
    assert commitments.said_commitment(sentence, NAMES, PEOPLE) == said


@pytest.mark.parametrize("sentence, said", [
    ("Loan objects may not zoom. Need a per-image flag in the catalogue (Quen)", [("action", "Quen Osei")]),
    ("need a DNS record for results -> ilse, by 20 oct", [("action", "Ilse Marr")]),  # any case, after an arrow
    ("retire the old build boxes — Bruno, once the new ones are stable", [("action", "Bruno Kell")]),
    ("single sign-on via the provider (Relaybus)", []),  # a thing in brackets
    ("moved the queue -> Relaybus, done", []),
])
def test_owner_of_any_sentence_of_an_item(sentence: str, said: list[tuple[str, str | None]]) -> None:
    assert commitments.said_commitment(sentence, NAMES, PEOPLE, item=True) == said


@pytest.mark.parametrize("item, said", [
    ("t: write up the ADR for the queue move", [("action", None)]),  # the writer's plan for the day
    ("today: patching the app box, reboot at 19:00", [("action", None)]),
    ("y: finished the refactor of the loads table", []),  # what was done
])
def test_a_plan_label_opens_an_action_item(item: str, said: list[tuple[str, str | None]]) -> None:
    assert commitments.said_commitment(item, NAMES, PEOPLE, first=True, item=True) == said


def test_a_present_task_is_an_action_item_of_its_owner() -> None:
    text = ("# Handover\n\nAttendees: Quen Osei, Ilse Marr\n\n## heads up\n\n"
            "- Wed 2 Dec: Quen rolls the new limit to prod (config only)\n- Ilse says the queue is quiet\n")
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    got = {(c.evidence.start, c.attribute, c.subject) for c in ex.claims if c.attribute == "action item"}
    assert (7, "action item", "Quen Osei") in got
    assert not any(line == 8 for line, _, _ in got)


@pytest.mark.parametrize("header, row, typed", [
    ("| Time | What | Who |", "| 08:15 | final smoke test on prod | Quen |", True),  # a schedule
    ("| System | What you get | Who sets it up |", "| Mail | a mailbox and the team lists | Ilse |", True),
    ("| System | What | Who knows most |", "| Mail | the mail relay and filters | Ilse |", False),  # whom to ask
    ("| Vendor | What | Contact | Lead time | Notes |", "| Relaybus | boards and stencils | web | 5 days | for protos |", False),
])
def test_a_table_of_tasks_by_its_columns(header: str, row: str, typed: bool) -> None:
    text = f"# Plan\n\n{header}\n|---|---|---|\n{row}\n"
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    assert any(c.evidence.start == 5 and c.attribute in ("action item", "done") for c in ex.claims) == typed
