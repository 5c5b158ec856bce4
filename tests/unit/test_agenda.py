"""Issue 31 point 3: decisions and action items as typed claims, by where they stand (a decisions or
actions heading or lead-in, a table with an owner or due column: kctui.compiler.builtin.agenda) and in the
phrasings people use (kctui.compiler.builtin.shapes.decisions). Names and phrasings are our own, not the
notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import agenda
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "5" * 64


def typed(text: str, path: str = "notes/n.md") -> set[tuple[int, str, str]]:
    """(line, attribute, subject) of the decision and action claims of a note."""
    ex = extract_document(read_source(path, text.encode("utf-8"), DIGEST))
    kinds = {"decision", "alternative", "reason", "action item", "to do", "done", "owner", "due"}
    return {(c.evidence.start, c.attribute, c.subject) for c in ex.claims if c.attribute in kinds}


@pytest.mark.parametrize("label, kind", [
    ("Decisions", agenda.DECISION),
    ("**Agreed**", agenda.DECISION),
    ("Outcome:", agenda.DECISION),
    ("Action items", agenda.ACTION),
    ("Next steps:", agenda.ACTION),
    ("Follow-ups", agenda.ACTION),
    ("TODO", agenda.ACTION),
    ("Decisions & actions", agenda.ACTION),  # both: the items' owners tell
    ("Why we decided to move the ledger to the new cluster", ""),  # a long heading is no list's label
    ("Background", ""),
    ("Decision drivers", ""),  # the reasons a decision weighs, not decisions
    ("Decisions made", agenda.DECISION),
    # a long heading names a list of tasks by its head, before a bracket or a dash (session 32)
    ("crunch TODO (infra) — Quen's list", agenda.ACTION),
    ("Ops team todo (keep it short!!)", agenda.ACTION),
    ("Decision: orchestrator for the nightly exports, and who runs it", ""),  # (a record's title, not a list's)
    ("Why we moved the ledger (and the TODO it left)", ""),  # (the head names no list)
])
def test_label_kind(label: str, kind: str) -> None:
    assert agenda.label_kind(label) == kind


@pytest.mark.parametrize("text, owner", [
    ("Quen — order the rack by Friday", "Quen Osei"),
    ("Osei: book the van", "Quen Osei"),
    ("order the rack (Quen Osei)", "Quen Osei"),
    ("draft the plan — **Ilse Marr**, by 12 Feb", "Ilse Marr"),
    ("AP: Ilse Marr to check the quote", "Ilse Marr"),
    ("@bo can you restart the worker", "bo"),
    ("the rack arrives on Friday", None),
    ("Friday — rack arrives", None),  # a day is no owner
])
def test_owner_of(text: str, owner: str | None) -> None:
    names = {"quen": "Quen Osei", "osei": "Quen Osei", "quen osei": "Quen Osei"}
    assert agenda.owner_of(text, names) == owner


@pytest.mark.parametrize("text, due", [
    ("Quen — order the rack by 3/6", "3/6"),
    ("renew the cert, due 8 Dec", "8 Dec"),
    ("send the dates to the leads — Fri 10/9", "Fri 10/9"),
    ("write it up before the review", None),  # no date
    ("pair with Ilse on the exporter", None),
])
def test_due_of(text: str, due: str | None) -> None:
    assert agenda.due_of(text) == due


def test_decisions_section_and_lead_in() -> None:
    text = ("# Sync 4 May\n\n## Decisions\n\n- the exporter moves to the new queue\n- keep the old report until June\n\n"
            "## Notes\n\n- the rack is late\n\n**Agreed**\n\n- one change ticket for all six hosts\n")
    got = typed(text)
    assert (5, "decision", "Sync 4 May") in got
    assert (6, "decision", "Sync 4 May") in got
    assert not any(line == 10 for line, _, _ in got)  # a note under another heading decides nothing
    assert (14, "decision", "Sync 4 May") in got


def test_action_section_owner_and_due() -> None:
    text = ("# Sync 4 May\n\nAttendees: Quen Osei, Ilse Marr\n\n## Next steps\n\n"
            "- Quen Osei — order the rack by 3/6\n- write the runbook (Ilse Marr)\n- check the spares\n")
    got = typed(text)
    assert (7, "action item", "Quen Osei") in got
    assert (7, "due", "Sync 4 May") in got  # (a date alone is the note's: it names no one)
    assert (8, "action item", "Ilse Marr") in got
    assert (9, "action item", "Sync 4 May") in got  # no owner: the note's


def test_a_to_do_lists_title_makes_its_items_tasks_and_a_struck_one_done() -> None:
    text = ("# crunch TODO (infra) — Quen's list\n\n## before the freeze\n\n"
            "- ~~route the alerts to the pager~~ (done 14 Oct)\n- retire the two old build hosts — Quen, once the new ones are stable\n")
    got = typed(text)
    assert (5, "done", "crunch TODO (infra) — Quen's list") in got
    assert not any(line == 5 and attribute in ("action item", "due") for line, attribute, _ in got)
    assert any(line == 6 and attribute == "action item" for line, attribute, _ in got)


def test_action_table_rows() -> None:
    text = ("# Postmortem\n\n| # | Action | Owner | Due | Status |\n|---|---|---|---|---|\n"
            "| 1 | Add expiry checks to the monitor | Quen | 13 Nov | open |\n"
            "| 2 | Rotate the signing key | Ilse | 2 Nov | done |\n")
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    got = {(c.evidence.start, c.attribute, c.value) for c in ex.claims if c.subject == "Postmortem"}
    # (on the note's page: the task's words do not name its owner, so it is no line of the owner's page)
    assert {(5, "action item", "Add expiry checks to the monitor"), (5, "owner", "Quen"), (5, "due", "13 Nov")} <= got
    assert (6, "done", "Rotate the signing key") in got


@pytest.mark.parametrize("table", [
    "| Time | What |\n|---|---|\n| 10:05 | restarted the array |\n",  # a timeline
    "| Vendor | Product | Owner |\n|---|---|---|\n| Relaybus | queue hosting plan | Quen |\n",  # an owner of a vendor
])
def test_tables_that_hold_no_actions(table: str) -> None:
    assert not any(a in ("action item", "owner", "due") for _, a, _ in typed(f"# Notes\n\n{table}"))


@pytest.mark.parametrize("sentence, decided", [
    ("We go with option 2, the hosted plan.", True),
    ("Going with option B instead.", True),
    ("Nine it is.", True),
    ("Decision: cutover moves to Mon 7 Dec.", True),
    ("ok, decision: the pilot goes live on 12 Jan.", True),
    ("The shutdown date moves from 31 March to 30 April.", True),
    ("Do we keep the old plan or go with the new one?", False),  # a question decides nothing
    ("The rack is in the east room.", False),
])
def test_decision_phrasings(sentence: str, decided: bool) -> None:
    got = typed(f"# Notes\n\n{sentence}\n")
    assert any(a == "decision" and line == 3 for line, a, _ in got) == decided


def test_checkbox_value_keeps_its_marks() -> None:
    """A checkbox item with code or emphasis is still a to-do (its value a span of its line)."""
    # (a ticked box naming its owner or date: a ticked one naming no one is a checklist's step, "checked
    # off": tests/unit/test_not_tasks.py)
    got = typed("# Release\n\n- [ ] delete the `release/4.0.x` branches\n- [x] **tag** the build, 3 Mar\n")
    assert (3, "to do", "Release") in got
    assert (4, "done", "Release") in got


def test_decision_record_section_is_the_records() -> None:
    text = "# ADR-9: Queue for events\n\nStatus: accepted\n\n## Decision\n\nUse the hosted queue for all events.\n"
    got = typed(text, "adr/adr-9.md")
    # the record's decision is its title's; the section's statement is the note's (on the record's page it
    # would be a line of the things it names: "We go with option 2: drop Python 3.9" is Python's fact)
    assert (1, "decision", "ADR-9") in got
    assert (7, "decision", "ADR-9: Queue for events") in got


@pytest.mark.parametrize("sentence, value", [
    ("Cutover moved to **Sat 21 Feb**.", "moved to **Sat 21 Feb"),  # marks kept: a span of the line
    ("- launch date moving **nov 19 -> dec 3**", "moving **nov 19 -> dec 3"),
    ("- **cutover moved** - was Sat 21 Nov, now **Sat 28 Nov**", "was Sat 21 Nov, now **Sat 28 Nov"),
    ("**Decision:** the pilot goes live on 12 Jan.", "the pilot goes live on 12 Jan"),
])
def test_decision_values_are_spans(sentence: str, value: str) -> None:
    ex = extract_document(read_source("notes/n.md", f"# Notes\n\n{sentence}\n".encode(), DIGEST))
    assert value in [c.value for c in ex.claims if c.attribute == "decision"]


@pytest.mark.parametrize("sentence, owner", [
    ("Jonas Bell to finish porting the marts by 27 Feb.", "Jonas Bell"),
    ("AP: Priya Raman to provision the service user.", "Priya Raman"),
    ("Ilse Marr — could you raise the PO this week?", "Ilse Marr"),  # a request is asked, still a task
    ("Quen Osei will sign off the spend by Wednesday.", "Quen Osei"),
    ("The quote went from Ilse Marr to me.", None),  # "to me": a preposition, no task
    ("The rack was moved to the east room.", None),
])
def test_a_task_handed_to_someone(sentence: str, owner: str | None) -> None:
    ex = extract_document(read_source("notes/n.md", f"# Sync\n\nWith Jonas Bell, Priya Raman, Ilse Marr, Quen Osei.\n\n{sentence}\n".encode(), DIGEST))
    got = [c.subject for c in ex.claims if c.attribute == "action item" and c.evidence.start == 5]
    assert got == ([owner] if owner else [])


def test_a_capital_mid_sentence_is_no_choice() -> None:
    """'Go' mid-sentence is a name, no verb: the backend is mostly Go with a bit of Python."""
    assert not any(a == "decision" for _, a, _ in typed("# Notes\n\nThe backend is mostly Go with a bit of Python.\n"))


def test_a_name_after_a_preposition_is_handed_nothing() -> None:
    text = "# Sync\n\nWe use Relaybus and Quen Osei.\n\nThe jobs moved from Relaybus to use the new queue.\n"
    assert not any(a == "action item" for _, a, _ in typed(text))


def test_here_it_is_is_no_choice() -> None:
    assert not any(a == "decision" for _, a, _ in typed("# Demo\n\nHere it is in action, with the new queue.\n"))
