"""Decisions marked by the words of their line (kctui.compiler.builtin.decided, issue 31 point 3, session
24): a value changed, a choice given as an order, a rejection, a rule said as final, an approval, a thing
kept for a while, not before a time; and what none of them is. Names and phrasings are our own."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import decided
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "6" * 64


@pytest.mark.parametrize("sentence, kind", [
    ("Launch: ~~Mon 3 May~~ -> **Mon 17 May** (moved 20 Apr, vendor late)", "changed"),
    ("~~Thu 4 Jun~~ **Thu 18 Jun** full rehearsal with the night crew", "changed"),
    ("Mentor: ~~Ines Okoro~~ → Paulo", "changed"),
    ("**Target: Tue 9 Jun** (moved 2 Jun - the cabling is not done)", "changed"),
    ("The pilot is now **Sat 6 Jun**, not the 30th.", "changed"),
    ("then no. not worth it for the price. go Lindqvist.", "order"),
    ("fine, do the 40. one-off.", "order"),
    ("nah leave it. the move makes it moot", "order"),
    ("Bramble Cloud — evaluated in March, not chosen", "rejected"),
    ("- Hoverly Pro — cancelled Jan 2026, we use Corvex now.", "rejected"),
    ("Phone recording is a no for now, revisit in spring.", "rejected"),
    ("Anything in 8K — no.", "rejected"),
    ("No deploys without a second reviewer, full stop", "final"),
    ("from now on: imports run on the small queue, never the large one", "final"),
    ("The spare router wasn't in the budget — Oskar ok'd it from the same line.", "approved"),
    ("the old archive box stays up read-only til end of June for safety", "kept"),
    ("Old tape library kept read-only for 12 months then wiped.", "kept"),
    ("Firmware 9.2 NOT before 20 Oct, book the change board for the week after", "not before"),
    # session 26: an assent, a plan moved with its thing named, a value set, a new value marked, a plan called off
    ("Wiebke ok with that, as long as the lab is told", "approved"),
    ("fine w/ it.", "approved"),
    ("fine by me. the old client can wait", "approved"),
    ("the dean said yes on Tuesday, signing next week", "approved"),
    ("Agree, accept the two-year term at 4%.", "approved"),
    ("we can accept €1,900/month if the mapping is fixed first", "approved"),
    ("Read the review together, accepted as-is.", "approved"),
    ("Happy to go ahead, the 9th is fine.", "approved"),
    ("no objections, 14 May it is. Ola can you book it", "approved"),
    ("yep that's the plan. dry run on the spare first", "approved"),
    ("Moving the go-live to **Tue 9 Jun**, same window.", "changed"),
    ("ok moving the Hollis cutover to w/c 3 Aug. will update the plan", "changed"),
    ("Pia moved the nightly sync to 02:15 (it clashed with the backup)", "changed"),
    ("Alert delay was raised to 15 min because of the defrost cycle", "changed"),
    ("OOM twice. bumped the heap to 3g for now", "changed"),
    ("Order goes out **9/14** not 9/21, the supplier was quick", "changed"),
    ("we are NOT upgrading to 8.x (the licence changed)", "rejected"),
    ("The depot migration is NOT happening this month.", "rejected"),
    ("Not now, maybe after the audit", "rejected"),
    ("Nice to have, not budgeted. Park till next year.", "rejected"),
    ("so launch is **Thu 3 Sep**. final.", "final"),
    ("whatever, go Brightline 40. it's on the capex line", "order"),
    ("👍 go for it.", "order"),
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
def test_a_marker_says_the_line_decides(sentence: str, kind: str) -> None:
    found = decided.marker(sentence)
    assert found is not None and found[0] == kind


@pytest.mark.parametrize("sentence", [
    "Should we go Lindqvist?",  # a question decides nothing
    "Here's what I'd like to do – Oskar already ok'd this:",  # a lead-in says what follows
    "~~review the footnote~~ done 3/2",  # a crossed-out task, no changed value
    "We are legally required to keep adult records for 8 years, and others until 25.",  # an obligation
    "the stairwell wifi is the new refresh, that's not till 2025",  # a fact of when
    "Files in /scratch that have not been accessed will be deleted.",  # a path, no "scratch that"
    "Marina shows the device as offline — leave it, don't pull it.",  # an instruction, not a choice
    "Keep an eye on the queue until Friday.",  # no thing kept as it is
    "The cutover went fine, logs attached.",
    "At runtime the cast is a no-op.",  # "a no-op" is no "a no"
    "Reasons this was not pursued: the change is small.",  # a lead-in to reasons
    "Go Live Support",  # a label, no order
    "Jonas is not happy with it, wants another quote",  # an assent denied
    "Status: Accepted",  # a record's status field
    "Tracked changes get accepted silently on import",  # a program's doing
    "Lotte says yes, SSO is supported",  # an answer, not an assent
    "Jo is going to move it to 03:30 or raise the limit",  # a plan still open
    "Crash-free sessions dropped from 99.6% to 94.1%.",  # a measure that fell, no value set
    "The sync is still not pushing prices for two rooms.",  # a state, no plan called off
    "My recommendation is we look at moving certs to 1-year validity",
    "Accept the PR if only small changes remain.",  # a handbook's instruction
    "Go ahead and click it, then type the name to confirm.",
    "If we accept this proposal, the old syntax stays valid.",
    "This period is increased to 6 months for major releases.",  # a vendor's policy, no value set here
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
def test_no_marker(sentence: str) -> None:
    assert decided.marker(sentence) is None


def _decisions(text: str) -> set[tuple[int, str, str]]:
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    return {(c.evidence.start, c.attribute, c.value) for c in ex.claims if c.attribute in ("decision", "alternative")}


def test_a_conditional_decide_to_decides_nothing() -> None:
    got = _decisions("# Hiring\n\nIf we decide to move forward, the recruiter schedules a call about your code.\n")
    assert not got


def test_a_changed_value_is_a_decision_with_its_old_value_the_alternative() -> None:
    got = _decisions("# Rollout plan\n\nGo-live: ~~Mon 3 May~~ -> **Mon 17 May** (moved 20 Apr, vendor late)\n")
    assert (3, "decision", "Go-live: ~~Mon 3 May~~ -> **Mon 17 May** (moved 20 Apr, vendor late)") in got
    assert (3, "alternative", "Mon 3 May") in got


def test_fields_on_lines_of_their_own_are_read_line_by_line() -> None:
    got = _decisions("# Sync integration\n\nepic: ABC-100 sync\nowner: ~~Ines~~ → **Paulo** from 7 Dec\nbackend: Sam\n")
    assert {(line, attribute) for line, attribute, _ in got} == {(4, "decision"), (4, "alternative")}


def test_a_done_item_struck_through_is_no_decision() -> None:
    assert not _decisions("# Todo\n\n- [x] ~~order the Mon 3 May cables~~ Tue 4 May done\n")


def test_a_table_cell_that_decides() -> None:
    text = ("# Incident review\n\n| Time | What |\n|---|---|\n| 17:10 | decided to fail over to the spare node |\n"
            "| 17:30 | node back |\n")
    assert _decisions(text) == {(5, "decision", "decided to fail over to the spare node")}


def test_a_not_doing_heading_holds_decisions() -> None:
    got = _decisions("# Laptop refresh\n\n## Not doing\n\n- touchscreen models, nobody asked for them\n")
    assert (5, "decision", "touchscreen models, nobody asked for them") in got


@pytest.mark.parametrize("line, value", [
    ("- **Decision (Mara, w/ Tom's advice):** notify the regulator and the clients", "notify the regulator and the clients"),
    ("Decision at the retro: we keep the nightly job, not a second one", "we keep the nightly job, not a second one"),
    ("**Resolved:** that the board proceeds to a tender for two nodes", "that the board proceeds to a tender for two nodes"),
    ("- going w/ **Harrowgate** via Linden instead, $4,520 incl. onsite", "going w/ **Harrowgate** via Linden instead, $4,520 incl. onsite"),
])
def test_decision_leads_and_choices(line: str, value: str) -> None:
    assert (3, "decision", value) in _decisions(f"# Notes\n\n{line}\n")


def test_a_decision_field_is_typed_a_decision() -> None:
    got = _decisions("# Ops sync\n\n- **Decision:** alarm mails go to the shared box only, NOT the phone\n")
    assert (3, "decision", "alarm mails go to the shared box only, NOT the phone") in got


def test_the_rows_of_a_decision_table_are_decisions() -> None:
    text = ("# ADR-3: backups\n\n## Decision\n\n| What | Choice |\n|---|---|\n| Tool | borg 1.4 on a timer |\n"
            "| Cutover | after the term (tapes kept until June) |\n\n## Context\n\n| What | Now |\n|---|---|\n| Tool | tar |\n")
    got = {(line, attribute) for line, attribute, _ in _decisions(text)}
    assert {(7, "decision"), (8, "decision")} <= got and not any(line == 14 for line, _ in got)


def test_an_owned_item_under_a_decisions_heading_is_a_decision_too() -> None:
    ex = extract_document(read_source("notes/n.md", b"# Vendor review\n\n## Decisions\n\n- [ ] Marta Lindqvist to be the named vendor contact\n", DIGEST))
    attributes = {c.attribute for c in ex.claims if c.evidence.start == 5}
    assert "decision" in attributes and attributes & {"action item", "to do"}
