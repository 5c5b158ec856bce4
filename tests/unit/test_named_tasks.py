"""Issue 31 point 3 (session 30, D): tasks handed in more of the ways notes write it (kctui.compiler.builtin.
named_tasks, commitments' pledges, agenda's tables) and a freeze or a group's refusal as a decision
(decided). Names and phrasings are our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import commitments, decided, named_tasks
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.named_owner import written_words
from kctui.compiler.readers import read_source

NAMES = {"quen": "Quen Osei", "ilse": "Ilse Marr", "relaybus": "Relaybus"}
PEOPLE = {"quen osei", "ilse marr"}
WRITTEN = written_words(["- vesna — ops lead, rotas", "ping brannoc about the van", "**odile**", "w/ Harriet on Tue",
                         "helm charts in the repo", "plan to move it",
                         "pair w/ Tom on Tue", "Dave's laptop"])


@pytest.mark.parametrize("sentence, owner", [
    ("probe reads 2°C high again — vesna to call the vendor", "vesna"),  # a lower-case person, a line's label
    ("upgrade moved to Sat. brannoc to tell the supplier.", "brannoc"),  # written after "ping"
    ("odile will set it up", "odile"),  # alone on a line in bold
    ("ilse to book the van", "Ilse Marr"),  # one of the document's people
    ("helm to deploy the chart", None),  # a lower-case word written nowhere where a person goes
    ("plan to move it to Sat", None),  # an ordinary word
    ("vesna to the rescue", None),  # no verb
    ("blocked: need Zuzanna to sign the form", "Zuzanna"),  # someone needed for a task
    ("need vesna to open 443 from the lab", "vesna"),
    ("need someone to review the change", None),
    ("the service needs to restart", None),
    ("who owns the cert renewal going forward? -> Zuzanna", "Zuzanna"),  # an ask answered after an arrow
    ("need someone at the loading bay Weds → Harriet", "Harriet"),
    ("UI → Services → Restart", None),  # a menu's path asks nothing
    ("Office hours: Zuzanna → Harriet", None),  # an escalation list
    ("Zuzanna sending the signed form this week.", "Zuzanna"),  # a task under way with its time
    ("renews 31 Mar. Kasimir signing this week", "Kasimir"),
    ("Relaybus coming tomorrow to survey", None),  # no task's verb; a thing of the document
    ("Zuzanna leaning yes, the rest before Fri", None),
])
def test_handed_owner(sentence: str, owner: str | None) -> None:
    assert named_tasks.handed_owner(sentence, NAMES, PEOPLE, WRITTEN) == owner


@pytest.mark.parametrize("sentence, said", [
    ("proxy02 still on 7.2.1 - will do it weds eve", [("action", None)]),  # "will" after a spaced hyphen
    ("printer again. driver? will test 3.9 on one queue", [("action", None)]),  # after a question
    ("API key: will sort today.", [("action", None)]),  # "sort" a task
    ("so will vesna still be around? she said so", []),  # "will" asking
    ("I'll sort of look at it", []),
])
def test_pledges(sentence: str, said: list) -> None:
    assert commitments.said_commitment(sentence, NAMES, PEOPLE, written=WRITTEN) == said


@pytest.mark.parametrize("sentence, decides", [
    ("Christmas change freeze: **14 Dec → 4 Jan**. Nothing non-urgent.", True),
    ("Soft freeze (no new features, fixes ok) from Nov 9.", True),
    ("freeze on new pipelines starting 11/16, anything new goes in the new tool", True),
    ("Nothing new goes in before the freeze.", False),
    ("Last year freeze ran 11/20 → 1/4.", False),
    ("we said no. staying with the antenna", True),
])
def test_freeze_and_refusal(sentence: str, decides: bool) -> None:
    assert (decided.marker(sentence) is not None) == decides


@pytest.mark.parametrize("sentence, owner", [
    ("sudo on the box (Tom to request via the portal, needs approval)", "Tom"),  # a common given name
    ("SSO: Tom K to send the metadata after his leave", "Tom"),
    ("Failure to follow this policy may result in action", None),  # a noun: its plural is common
    ("Requests to retired models will fail.", None),
    ("Glad to help with the migration", None),
    ("Heavy to run for a team of our size.", None),
    ("Applies to alarm CRS_FAIL.", None),
    ("Steps to create an export of the database:", None),  # a plural
    ("Ability to break down a problem and decide on an approach", None),
    ("Easier to make multiple customizations", None),
    ("Sam to grant it this week", None),  # a common given name the document writes nowhere else
    ("Relaybus to replace the old bus", None),  # a thing of the document
    ("min raised to 17.4 (Zuzanna, Thu). 9 devices went non-compliant", None),  # done, no time to come
    ("test the restore w/ a throwaway repo (Zuzanna, by 16 Feb)", "Zuzanna"),
])
def test_more_owners(sentence: str, owner: str | None) -> None:
    assert named_tasks.handed_owner(sentence, NAMES, PEOPLE, WRITTEN) == owner


def _typed(text: str) -> set[tuple[int, str]]:
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), "sha256:" + "6" * 64))
    return {(c.evidence.start, c.attribute) for c in ex.claims if c.attribute in ("action item", "due", "owner")}


def test_a_table_of_owners_under_an_actions_heading_holds_tasks() -> None:
    note = "# Go/no-go\n\n## Actions\n\n| Who | What |\n|---|---|\n| Zuzanna | Re-send the branch comms with the new date |\n"
    assert (7, "action item") in _typed(note)
    elsewhere = "# Go/no-go\n\n## Updates\n\n| Who | What |\n|---|---|\n| Zuzanna | Kestrel site surveys Fri still on |\n"
    assert (7, "action item") not in _typed(elsewhere)  # a register of who said what


def test_a_column_headed_by_beside_the_owner_says_when() -> None:
    note = "# Sync\n\n| Who | What | By |\n|---|---|---|\n| Zuzanna | Book the rollout with the vendor | Thu 12 Mar |\n"
    assert {(5, "action item"), (5, "due")} <= _typed(note)


@pytest.mark.parametrize("sentence, owner", [
    ("quen to book the van, by wed 11 mar", "Quen Osei"),  # the given name, in lower case, of one of its people
    ("quen adds her as staff on the dev stores", "Quen Osei"),
    ("osei to book the van", None),  # (a family name is no given name)
])
def test_a_lower_case_given_name_of_the_documents_people(sentence: str, owner: str | None) -> None:
    names = {"quen osei": "Quen Osei"}  # (no alias for the given name alone)
    assert named_tasks.handed_owner(sentence, names, {"quen osei"}, written_words([]), item=True) == owner
