"""Issue 31 point 3 (session 31): lines the action rules typed that are no action item by the structure of
their text — a roster line, a status report, a rule's definition, a ticked box naming no one
(kctui.compiler.builtin.not_tasks). Names and phrasings are our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import not_tasks as nt
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "6" * 64
ACTIONS = {"action item", "to do", "done", "owner", "due"}


@pytest.mark.parametrize("line, attribute, kind", [
    ("- Oluwaseun Bakare: tech lead, Ibadan", "action item", nt.ROLE),
    ("- **Rhiannon Pryce** — support engineer, printers, phones", "action item", nt.ROLE),
    ("- Gethin - warehouse mgr, our main customer", "action item", nt.ROLE),
    ("- Rhiannon — read-only admin first, Gethin to create", "action item", ""),  # a task handed on the line
    ("- Gethin — book the courier for Friday", "action item", ""),  # a task: a verb first
    ("- Teodor: finished the importer rewrite, now on the exports", "action item", nt.STATUS),
    ("- Skyward — cancelled in May, nobody used it", "action item", nt.STATUS),
    ("- Teodor: updated the plan, will send by Fri", "action item", ""),  # what comes next: still a task
    ("- Teodor: set up the staging box", "action item", ""),  # "set": the present as much as the past
    ("- QueueDepth: backlog > 5000 for 10m → page the on-call", "action item", nt.RULE),
    ("- bump the pool 20 -> 30 on the gateway", "action item", ""),  # an arrow with no threshold: a change to make
    ("- Wren: vans over 6.0m are priced as cars => lanes undercounted", "action item", ""),  # prose, no sign
    ("| 2 | disk alert >80% on the gateways -> pager | Teodor | 7 Nov |", "action item", ""),  # a row of tasks
    ("- [x] VPN client installed", "done", nt.CHECKED),
    ("- [x] VPN client installed (Gethin)", "done", ""),  # its owner
    ("- [x] VPN client installed — Gethin, done 4 Mar", "done", ""),
    ("- [x] VPN client installed, done 4 Mar", "done", ""),  # its date
    ("- [ ] VPN client installed", "to do", ""),  # an open box stays a to-do
])
def test_no_task(line: str, attribute: str, kind: str) -> None:
    assert nt.no_task(line, attribute, {}) == kind


def _claims(text: str) -> list[tuple[int, str, str, str]]:
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    return sorted((c.evidence.start, c.attribute, c.subject, c.value) for c in ex.claims)


def test_a_roster_is_no_one_s_tasks() -> None:
    text = ("# Team\n\n"
            "- Oluwaseun Bakare — tech lead, Ibadan\n"
            "- Rhiannon Pryce — support engineer, printers\n"
            "- Teodor Vasquez: order the new badges by Friday\n")
    claims = _claims(text)
    typed = {(line, attribute) for line, attribute, _, _ in claims if attribute in ACTIONS}
    assert {(5, "action item"), (5, "due")} <= typed  # the task stays one, with its due
    assert not {line for line, _ in typed} & {3, 4}
    roles = {(line, subject) for line, attribute, subject, _ in claims if attribute == nt.ROLE}
    assert roles == {(3, "Oluwaseun Bakare"), (4, "Rhiannon Pryce")}  # on the person's page, under what it is


def test_a_ticked_step_of_a_checklist_is_checked_off_not_done() -> None:
    text = ("# New laptop\n\n"
            "- [x] disk encrypted\n"
            "- [x] printer driver — Gethin Morgan, done 3 Mar\n"
            "- [ ] VPN profile\n")
    claims = _claims(text)
    assert (3, nt.CHECKED) in {(line, attribute) for line, attribute, _, _ in claims}
    assert (4, "done") in {(line, attribute) for line, attribute, _, _ in claims}
    assert (5, "to do") in {(line, attribute) for line, attribute, _, _ in claims}


def test_a_ticked_box_of_a_todo_list_stays_done() -> None:
    """Under a heading of actions ("TODO", "Action items"), a ticked box is a task done, owner or not."""
    claims = _claims("# Platform TODO\n\n- [ ] rotate the signing key\n- [x] move the paging schedules\n")
    assert (4, "done") in {(line, attribute) for line, attribute, _, _ in claims}
