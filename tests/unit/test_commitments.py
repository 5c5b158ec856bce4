"""Issue 31 point 3: action items and decisions said in so many words, read from the sentence's structure
(kctui.compiler.builtin.commitments): a pledge, a request, an owner's label or closing owner on a list
item, a group's commitment; and the agenda fixes of session 23 (a checkbox item's owner before a dash, a
paragraph among an action section's items, a decision heading qualified by when). Names and phrasings are
our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import agenda, commitments
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "6" * 64
NAMES = {"quen": "Quen", "ilse": "Ilse", "bo": "bo", "relaybus": "Relaybus"}
PEOPLE = {"quen", "ilse", "bo"}


@pytest.mark.parametrize("sentence, said", [
    # a pledge: the first person, a modal of the future and a verb
    ("I'll email their lab lead this afternoon.", [("action", None)]),
    ("👍 I'll put it in the tracker, was already drafting", [("action", None)]),
    ("ok ill draft something for the leads", [("action", None)]),
    ("I will reorder the spares on Monday", [("action", None)]),
    ("Our bookkeeper was ill for 3 weeks.", []),  # "ill", no pledge
    ("I'll be on the call.", []),  # "be": no task
    ("I'll hold it so we launch both together?", []),  # asked, not pledged
    # a request: please / can you / could you and a verb, of the person named where one is
    ("Please send the order form to the leads, they countersign this week.", [("action", None)]),
    ("Quen, can you check the switch has two free ports?", [("action", "Quen")]),  # a request asked is still one
    ("ok. Ilse add it to the handover pls", [("action", "Ilse")]),
    ("Please find attached the renewal quote.", []),  # a form of words, no task
    ("please don't touch the spare kits till tomorrow", []),  # a standing rule, no task
    # a group's commitment: a decision
    ("We'll bill it as a flat line at $45 a month.", [("decision", None)]),
    ("Let's stay.", [("decision", None)]),
    ("let's go with the east room then, I'll tell the landlord today", [("action", None), ("decision", None)]),
    ("Honestly we're not doing the 3 year term.", [("decision", None)]),
    ("no. not launching a new store into the sale week.", [("decision", None)]),
    ("the exporter is not working since Tuesday", []),  # a state, no choice
    ("should we go with the east room?", []),  # a question under discussion decides nothing
    ("It lets you pick a room.", []),
])
def test_said_commitment(sentence: str, said: list[tuple[str, str | None]]) -> None:
    assert commitments.said_commitment(sentence, NAMES, PEOPLE) == said


@pytest.mark.parametrize("item, said", [
    ("quen: order the rack by Friday", [("action", "Quen")]),  # a person's name as the item's label
    ("upgrade the scheduler w/c 30 Nov — Ilse", [("action", "Ilse")]),  # a closing owner
    ("upgrade the scheduler when we get to it (Quen)", [("action", "Quen")]),
    ("Relaybus — cancelled in March, moved everything off it", []),  # a thing, not a person
    ("y: finished the refactor of the loads table", []),  # a label that is no one's name
    ("retire the old box — Relaybus", []),  # a thing closing the item
])
def test_owned_list_items(item: str, said: list[tuple[str, str | None]]) -> None:
    assert commitments.said_commitment(item, NAMES, PEOPLE, first=True) == said


def typed(text: str) -> set[tuple[int, str, str]]:
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    kinds = {"decision", "alternative", "reason", "action item", "to do", "done", "owner", "due"}
    return {(c.evidence.start, c.attribute, c.subject) for c in ex.claims if c.attribute in kinds}


def test_a_pledge_in_a_chat_is_cited_at_its_line_not_the_turn_header() -> None:
    """Turns written without a blank line between them read as one paragraph: the pledge is cited at
    the line it was said on, not at the speaker's header above it."""
    text = ("# #ops — pasted\n\n**Quen Osei** 10:10\nthe rack is late again\n**Ilse Marr** 10:12\n"
            "I'll chase the courier today.\n")
    got = typed(text)
    assert any(line == 6 and attribute == "action item" for line, attribute, _ in got)
    assert not any(line == 5 for line, _, _ in got)


def test_a_checkbox_owner_before_a_dash_owns_a_capitalised_task() -> None:
    text = "# Prep\n\nAttendees: Bruno Kell, Ilse Marr\n\n- [ ] Bruno — Relaybus 2.6 upgrade plan\n- [ ] Docs — Relaybus runbook\n"
    got = typed(text)
    assert (5, "to do", "Bruno Kell") in got  # (the owner a name of the note: a topic before a dash is none)
    assert not any(subject == "Relaybus" for line, _, subject in got if line == 5)
    assert not any(subject == "Docs" for _, _, subject in got)  # a topic before a dash is no owner


def test_a_remark_among_action_items_is_no_action() -> None:
    text = ("# Review\n\n## Actions\n\n- Quen Osei to rotate the key by 2 Nov\n- add expiry checks to the monitor\n\n"
            "Next meeting: Tuesday 19 May.\n\n(Ilse keeps this list, last touched 16 Feb)\n")
    got = typed(text)
    assert any(line == 5 for line, a, _ in got if a == "action item")
    assert (6, "action item", "Review") in got
    assert not any(line in (8, 10) for line, _, _ in got)


@pytest.mark.parametrize("label, kind", [
    ("Decisions this week", agenda.DECISION),
    ("Decision from review", agenda.DECISION),
    ("Decisions so far", agenda.DECISION),
    ("Decision drivers", ""),
    ("Decision makers", ""),
])
def test_decision_heading_qualified_by_when(label: str, kind: str) -> None:
    assert agenda.label_kind(label) == kind


def test_a_bare_label_line_leads_its_list() -> None:
    """'actions' alone on its line before a list leads it as 'Actions:' would; 'AIs' names action items."""
    text = "# Call\n\nsome text here.\n\nactions\n- jess: wholesale quote to olly by fri 20 nov\n\nweather\n- it rained all day\n"
    got = typed(text)
    assert (6, "action item", "Call") in got
    assert not any(line == 9 for line, _, _ in got)
    assert agenda.label_kind("AIs") == agenda.ACTION


@pytest.mark.parametrize("table, tasks", [
    ("| Vendor | What for | Owner | Renewal |\n|---|---|---|---|\n| Relaybus | event queue hosting | Quen | 1 Mar 2027 |\n", False),
    ("| What | Who | When |\n|---|---|---|\n| order the spare rack | Quen | Fri 12 Mar |\n", True),
    ("| # | Task | Who |\n|---|---|---|\n| 1 | write the restore runbook | Ilse |\n", True),
])
def test_a_register_of_things_is_no_table_of_tasks(table: str, tasks: bool) -> None:
    """'What' beside an owner heads a register of things unless a column says when."""
    got = typed(f"# Lists\n\nWith Quen Osei and Ilse Marr.\n\n{table}")
    assert any(a == "action item" for _, a, _ in got) == tasks
