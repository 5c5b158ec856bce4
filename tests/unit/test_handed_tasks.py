"""Decisions and action items in more of their words and places (issue 31 point 3, session 27, D): a date
chosen over another, a plan said, a plan moved with its thing named first, a thing kept or parked, a risk
accepted, a call made, an option marked chosen, a word of assent before an order, a thing rolled back or
switched; a chat turn's sentence read apart from the rest of its line; a decision's line that hands a task
too; a task handed to a name the document never writes in lower case. Names and phrasings are our own."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import agenda, named_owner
from kctui.compiler.builtin.commitments import said_commitment
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def _typed(text: str) -> set[tuple[int, str, str]]:
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    kinds = {"decision", "alternative", "action item"}
    return {(c.evidence.start, c.attribute, c.value) for c in ex.claims if c.attribute in kinds}


def test_a_turns_first_sentence_is_read_apart_from_the_rest_of_its_line() -> None:
    """A chat turn written under its header line: the sentence the header opens is read as said, not the
    whole line (whose closing question would make it decide nothing)."""
    text = ("# #ads — pasted\n\n**Ilse Marr** 10:25\nok and the footer?\n\n**Quen Osei** 10:31\n"
            "let's do the fixed heights, no rollback. footer: kill it for 2 weeks. Bruno can you get a number?\n")
    got = _typed(text)
    assert any(line == 7 and attribute == "decision" and value.startswith("let's do the fixed heights")
               for line, attribute, value in got)


def test_a_pledge_before_a_closing_question_is_an_action() -> None:
    assert ("action", None) in said_commitment("I'll get the vendor on it first thing. @Ilse anything on the firewall side?", {}, set())
    assert said_commitment("so will the rota still be around? she left", {}, set()) == []


def test_a_groups_decision_leaves_the_lines_request_free() -> None:
    text = "# Renewal\n\nThanks both. We'll go with the 2-year term at 4%. Please send the paperwork to procurement and cc me.\n"
    got = _typed(text)
    assert any(attribute == "decision" for _, attribute, _ in got)
    assert (3, "action item", "Please send the paperwork to procurement and cc me.") in got


def test_an_item_under_a_decisions_heading_may_hand_a_task_too() -> None:
    text = "# Sensors\n\n## Decisions\n\n- over budget. Quen Osei to ask the CFO for 5k more or push one spare to Jan.\n"
    got = _typed(text)
    assert any(line == 5 and attribute == "decision" for line, attribute, _ in got)
    assert any(line == 5 and attribute == "action item" for line, attribute, _ in got)


@pytest.mark.parametrize("item, owner", [
    ("- Hannah to chase the editors re: freeze dates", "Hannah"),  # as common a word as a name gets
    ("- 2nd monitor – Tom to nick one from the old room", "Tom"),
    ("- Need to bump the VPN priority", None),  # a verb's form
    ("- Moving to an invoice at renewal", None),
    ("- Ability to break down a problem", None),  # never written where a name goes
])
def test_a_name_never_written_in_lower_case_before_to_is_handed_the_task(item: str, owner: str | None) -> None:
    lines = ["# Standup", "- ask Hannah and w/ Tom about the rota", item, "the vpn priority and an invoice"]
    assert agenda._handed_to(item.lstrip("- "), set(), named_owner.written_words(lines)) == owner


def test_a_word_the_document_writes_in_lower_case_is_no_owner() -> None:
    lines = ["# Sync", "- Proposal to move it to 04:30", "the proposal came from Tom, see Proposal's notes"]
    assert agenda._handed_to("Proposal to move it to 04:30", set(), named_owner.written_words(lines)) is None


def test_a_handbooks_capitalised_words_hand_nothing() -> None:
    text = ("# Policy\n\nFailure to follow this policy can result in disciplinary action.\n\n"
            "Requests to retired models will fail.\n\nPrefer to contact people who are awake.\n")
    assert not any(attribute == "action item" for _, attribute, _ in _typed(text))
