"""Decisions and action items in more of their words and places (issue 31 point 3, session 27, D): a date
chosen over another, a plan said, a plan moved with its thing named first, a thing kept or parked, a risk
accepted, a call made, an option marked chosen, a word of assent before an order, a thing rolled back or
switched; a chat turn's sentence read apart from the rest of its line; a decision's line that hands a task
too; a task handed to a name the document never writes in lower case. Names and phrasings are our own."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import agenda, decided, named_owner
from kctui.compiler.builtin.commitments import said_commitment
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


@pytest.mark.parametrize("sentence, kind", [
    ("next retro thu, not wed (Ilse is at the board meeting wed)", "changed"),
    ("I'll run the restore test on tue 3 mar, not the 2nd.", "changed"),
    ("press note scheduled for **Mon 9 Mar** (NOT Sat - Quen wants a quiet weekend)", "changed"),
    ("ship the patch Thu 10/22 instead of 10/20.", "changed"),
    ("yep. plan: #4 on Sat 14th, the rest Tue 17th if it holds", "plan"),
    ("Plan is still **Sat 7 Mar** - the cutover weekend.", "plan"),
    ("ok so plan: all rigs on 5.2 by Thu, the farm tonight", "plan"),
    ("**relay cutover moved** from sat 7 mar to sat 21 mar, freeze starts the 23rd", "changed"),
    ("label printer swap: officially pushing to Jan. not enough time", "changed"),
    ("tape rotation at the annex continues till end of May, then stop.", "kept"),
    ("ok. leave the switch on port 12 for now and order the new one", "kept"),
    ("holding the kiosks on 3.1.4 until the vendor fixes it", "kept"),
    ("leaving it till Fri then delete", "kept"),
    ("Cold storage tier parked. Revisit if restores grow", "rejected"),
    ("- relay cutover STAYS 3/28. Ilse asked about the 21st", "kept"),
    ("May stays on the 5th so nobody is surprised", "kept"),
    ("Quen's note (pasted 3/3): accepting. Bruno pls update the page", "approved"),
    ("yes hold. we said same-day launch", "order"),
    ("no replay beyond what's unacked. Accepting that.", "approved"),
    ("support is English only, staff use chat. Accepted risk", "approved"),
    ("Ilse made the call at 14:10 to switch the overflow to the second depot", "decided"),
    ("09:12 decision to roll back to 2.4.1", "decided"),
    ("Bruno wants to drop the old imaging. nobody objected → doing it", "decided"),
    ("3. **Relaybus for the EU sites** — chosen", "decided"),
    ("new go-live date: **Sat 14 Mar**, same window", "decided"),
    ("ok w/ option B. I'll move the budget line", "approved"),
    ("21 Mar it is for the north site.", "approved"),
    ("fine, sign the month-to-month for May then Quen. one month only", "order"),
    ("np. pull them out of the big pool, put them back in general", "order"),
    ("Ilse: yes, do it, but the partners get a week to object", "order"),
    ("the printer stage rolled back to 3.1 on 2 Mar as a workaround", "changed"),
    ("Vendor confirmed the model is dead. Switching standard to the 7460, same price", "changed"),
])
def test_more_markers(sentence: str, kind: str) -> None:
    found = decided.marker(sentence)
    assert found is not None and found[0] == kind


@pytest.mark.parametrize("sentence", [
    "I'm around sat but not sun",  # a date beside another, no choice between them
    "market's up 6-8%, not 17",  # numbers, no dates
    "Plan:",  # a lead-in
    "the Growth plan is moving from per-seat pricing to tiers",  # a noun's plan
    "the validation plan is IQ/OQ on the test box",
    "Ines on leave till Weds",  # "leave" a noun
    "hold the feed button until one flash, let go.",  # a step's hold
    "OPC UA stays on 4840, the certificate is new",  # a port, no date kept
    "Status: Accepted",
    "Shelf units parked at the loading bay since Monday",  # a place, not a parked plan
    "delivery slipping from 28 Sep to 9 Oct",  # the vendor's news, no plan moved
    "if we decide to move forward, the recruiter calls",
    "ok resubmitting with 2 gpus and 72h.",  # a task under way
    "ok so the kitchen printer dropped 6 tickets last night",  # news after the assent
    "fine since the fix. disk at 31%",
    "yep it's there, shelf 2",
    "Clinical staff switched to paper forms at 02:40",  # others' switch, reported
    "could roll the client back to 8.4?",  # a question
    "Skipping minor versions or rolling back to an earlier version is not supported.",  # a policy
    "The model continues to be available for existing users until retirement.",
    "**Plan:** define a plan for how to deliver the project",  # a duty's bold label
])
def test_no_more_marker(sentence: str) -> None:
    assert decided.marker(sentence) is None


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
