"""Issue 31: people by the place a note gives them (kctui.compiler.builtin.roster): a roster of lines
that open with a name ("ilse - …", "Quen: …"), a `Label: A, B, C` list of names, a bold line with a name.
Names and phrasings are our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.roster import roster_names
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def doc(text: str):  # noqa: ANN201
    return read_source("notes/n.md", text.encode("utf-8"), DIGEST)


def names(text: str) -> list[str]:
    return [n.name for n in roster_names(doc(text))]


@pytest.mark.parametrize("text, wanted", [
    # a roster in lower case: half its words are no English words
    ("standup 3/4\n\nilse - rebasing the invoice exporter\nbo - on leave\nquen - pairing with ilse\n",
     ["ilse", "bo", "quen"]),
    # action items that open with a name, one of them twice
    ("# Sync\n\nActions:\n- Quen — order the rack by Friday\n- Ilse — write it up\n- Quen — book the van\n",
     ["Quen", "Ilse"]),
    # a list of names after a label and the same name opening an action item
    ("# Weekly\n\nPresent: Ilse, Dev, Quen, Bo\n\nActions\n- Dev: book the patch slot by Wed\n", ["Dev"]),
    # a bold line that is a name and the same name in the list of attendees
    ("# Weekly\n\nPresent: Ilse, Dev, Quen, Bo\n\n**Quen**\n- wrote the parser\n", ["Quen"]),
])
def test_the_places_a_note_keeps_for_people_name_them(text, wanted):
    assert names(text) == wanted


@pytest.mark.parametrize("text", [
    # steps of a runbook open with ordinary words
    "# Runbook\n\n- check - the disk is mounted\n- restart - the daemon\n- verify - the logs are clean\n",
    # fields of a record: after a colon, a value in capitals
    "# DR-1\n\nStatus: Accepted\nDate: 2026-01-02\nOwner: Quen\n",
    # levels of a policy: ordinary words, one rare one
    "# Policy\n\n- Critical: data is lost\n- High: data may leak\n- Medium: an outage\n- Informational: nothing\n",
    # a glossary's terms in bold
    "# Hiring\n\n- **Grit** - do they finish\n- **Learnability** - do they learn\n",
    # a frequent word in a bold line and opening lines
    "# Playbook\n\n**Yes**\n\nYes: apply the fix.\n",
])
def test_steps_fields_levels_and_glossaries_name_nobody(text):
    assert names(text) == []


def test_a_roster_name_gets_a_page_with_its_line_however_common_its_word():
    text = "standup 3/4\n\nben - canning the pale ale tues, 40hl\nilse - on leave\nquen - pairing with ben\n"
    ex = extract_document(doc(text))
    assert "ben" in {e.name for e in ex.entities}
    assert any(c.subject == "ben" and c.value.startswith("ben - canning") for c in ex.claims)


def test_a_line_that_opens_with_a_word_and_a_dash_is_a_sentence_of_its_own():
    from kctui.compiler.builtin import sentences

    text = "standup 3/4\n\nben - canning the pale ale tues\nilse - on leave\n"
    assert [u.plain for u in sentences.units(doc(text))][-2:] == ["ben - canning the pale ale tues", "ilse - on leave"]
