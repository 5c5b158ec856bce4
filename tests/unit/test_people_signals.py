"""Issue 31: people named in passing get a page by the place the text gives them
(kctui.compiler.builtin.people_signals, and roster's lower-case places). Names and phrasings are our
own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import people_signals as ps
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.roster import roster_names
from kctui.compiler.readers import Block, read_source

DIGEST = "sha256:" + "7" * 64


def doc(text: str):  # noqa: ANN201
    return read_source("notes/n.md", text.encode("utf-8"), DIGEST)


def entity_names(text: str) -> set[str]:
    return {e.name for e in extract_document(doc(text)).entities}


def concept_names(text: str) -> set[str]:
    return {c.name for c in extract_document(doc(text)).concepts}


@pytest.mark.parametrize("plain, name, wanted", [
    ("Zorvex: Halvard Quill (AE)", "Halvard Quill", True),  # a role in brackets after it
    ("support: Tamsin Orvell (support eng), help@zorvex.io", "Tamsin Orvell", True),
    ("IG (Brannoc Idris) have signed off", "Brannoc Idris", True),  # alone in brackets
    ("signed off by security (Brannoc Idris) today", "Brannoc Idris", True),
    ("CET (Central European Time) group", "Central European Time", False),  # the acronym spelled out
    ("_Maintenance_ (Critical Support).", "Critical Support", False),  # a capitalised term glossed
    ("Dell (Sam Whitfield) have come back", "Sam Whitfield", True),  # a person after a capitalised word
    ("is an (Apache Licensed) open-source store", "Apache Licensed", False),  # after a function word
    ("- Eclipse Public License (ok for internal use)", "Eclipse Public License", False),  # a remark
    ("after the call (Ottoline Vask, their PM):", "Ottoline Vask", True),  # first in brackets
    ("account mgr: Wendel Marsh", "Wendel Marsh", True),  # a label's value
    ("call with Zorvex (our AE there is Rachel Kim).", "Rachel Kim", True),  # what a role is said to be
    ("we moved to Grafana Cloud last year", "Grafana Cloud", False),  # a name in passing
    ("Halvard Quill (2024) wrote it", "Halvard Quill", False),  # a year in brackets: no role
    ("Zorvex Cloud (Business) is the plan", "Zorvex Cloud", False),  # a capitalised aside: a plan or tier
])
def test_a_full_name_set_apart_by_its_place(plain, name, wanted):
    start = plain.index(name)
    assert ps.apposed(plain, start, start + len(name)) is wanted


@pytest.mark.parametrize("text, name", [
    ("# Vendors\n\n- Zorvex: Halvard Quill (AE), support via their portal\n", "Halvard Quill"),
    ("# Renewal\n\nQuick summary after the call with Zorvex (our AE there is Rachel Kim).\n", "Rachel Kim"),
    ("# ADR\n\nThe board and IG (Brannoc Idris) have signed off — ref DP-2024-017.\n", "Brannoc Idris"),
])
def test_a_person_set_apart_by_their_place_gets_a_page_on_one_mention(text, name):
    assert name in entity_names(text)


@pytest.mark.parametrize("lines, wanted", [
    ("**tomek:** 70 on mobile? sure\n**jess:** you said it on the call", True),
    ("**Ilse:** done\n**Quen:** thanks", True),
    ("**Term:** what it means", False),  # one line: as often a quoted definition
    ("**Term:** what it means\nand more words on it", False),  # not every line a turn
])
def test_a_quote_whose_lines_open_with_a_bold_name_is_a_chat(lines, wanted):
    assert ps.chat_quote(Block("quote", 1, 2, lines, (1, 2))) is wanted
    assert not ps.chat_quote(Block("paragraph", 1, 2, lines, (1, 2)))


def test_a_quoted_chats_speakers_are_no_glossary_terms():
    text = "# Call\n\nslack after:\n> **quenby:** 70 on mobile? sure jan\n> **ilse:** 70. you said it\n"
    assert "quenby" not in concept_names(text)


@pytest.mark.parametrize("text, wanted", [
    # a list in lower case whose sentence ends before a lower-case word
    ("# standup\n\nppl: ilse, quenby, tavi, me (bo). orla not started yet\n\n**quenby**\n- x\n", ["quenby"]),
    # lower-case bold heads, three or more: each heads a person's part
    ("# standup\n\n**quenby**\n- fixed it\n\n**tavi**\n- shipped\n\n**orla**\n- up and running\n\n**me**\n- rota\n",
     ["quenby", "tavi", "orla"]),
    # two lower-case bold lines are a runbook's sections
    ("# runbook\n\n**symptoms**\n- it stalls\n\n**escalate**\n- call the vendor\n", []),
])
def test_lower_case_places_for_people(text, wanted):
    assert [n.name for n in roster_names(doc(text))] == wanted


def test_a_chat_turn_header_names_a_person_of_ordinary_words():
    text = ("# thread\n\n**Marcus Bell** 8:02 AM\nok update\n\n**Tomasz Wróbel** 8:05 AM\nnice\n\n"
            "**Marcus Bell** 8:06 AM\nno rma\n")
    assert "Marcus Bell" in [n.name for n in roster_names(doc(text))]


@pytest.mark.parametrize("plain, name", [
    ("Remote Procedure Call (RPC) is how they talk", "Remote Procedure Call"),
    ("the Extended Long Term Support (ELTS) phase", "Extended Long Term Support"),
])
def test_a_names_acronym_in_brackets_is_no_role(plain, name):
    start = plain.index(name)
    assert not ps.apposed(plain, start, start + len(name))


def test_a_list_of_acronyms_in_brackets_is_no_role():
    plain = "shared with all members of Technical Success (CE, IE, TA, SE) so we"
    start = plain.index("Technical Success")
    assert not ps.apposed(plain, start, start + len("Technical Success"))


@pytest.mark.parametrize("text, person", [
    ("# adr\n\ndeciders: orla, quenby, tavish fenwright (clerk)\n", "Tavish Fenwright"),
    ("# mtg\n\npresent: orla quillan (chair), bram tesk (finance), Hal Brennick, tavi\n", "Orla Quillan"),
])
def test_a_full_name_in_lower_case_in_a_list_of_names_is_a_person(text, person):
    found = {n.name: n for n in roster_names(doc(text))}
    assert person in found and found[person].entity_type == "person" and not found[person].cased


def test_a_list_of_lower_case_phrases_names_nobody():
    assert roster_names(doc("# plan\n\nsteps: check the logs, restart it, call the vendor\n")) == ()


@pytest.mark.parametrize("text, wanted", [
    # a month's short form among names, never written next to a number: a given name
    ("# standup\n\npresent: orla, tom, jun (late), quenby\n\n**jun**\n- looked at the crash\n\n**orla**\n- x\n",
     True),
    # the same word next to a number elsewhere in the note is a month
    ("# standup\n\npresent: orla, tom, jun (late), quenby\n\n**jun**\n- x\n\n**orla**\n- due 30 jun\n", False),
])
def test_a_calendar_word_among_names_is_a_name_where_the_note_never_dates_it(text, wanted):
    assert ("jun" in [n.name for n in roster_names(doc(text))]) is wanted


def test_a_list_in_lower_case_with_a_capitalised_name_among_them():
    text = "# sync\n\nattendees: quenby, orla, tavi, Dana (producer)\n\n- Dana: launch moves to 3 dec\n"
    assert "Dana" in [n.name for n in roster_names(doc(text))]


def test_an_email_header_kept_in_a_code_block_names_its_people():
    text = ("# Email thread: renewal\n\n```\nFrom:    Halvard Quill <hq@zorvex.io>\n"
            "Cc:      Orla Vance <ov@x.org>; Rachel Kim <rk@x.org>\nDate:    Tue, 10 Nov 2026\n```\n\n"
            "Dear Halvard,\n\nRachel Kim in Procurement will raise the PO.\n")
    assert {"Halvard Quill", "Orla Vance", "Rachel Kim"} <= {n.name for n in roster_names(doc(text))}


@pytest.mark.parametrize("text, word, wanted", [
    ("X runs it", "X", True), ("X joined for the last 15 min", "X", True), ("X says so", "X", True),
    ("X is here", "X", False), ("X class", "X", False), ("X 2024", "X", False),
])
def test_a_verb_in_the_third_person_or_the_past_after_a_name(text, word, wanted):
    assert ps.agent(text, len(word)) is wanted


@pytest.mark.parametrize("text, name, wanted", [
    ("# Onboarding\n\n- IT induction, usually Tuesday mornings — Tamsin Orvell runs it\n", "Tamsin Orvell", True),
    ("# Runbook\n\n- after that, Hardening Zorvex takes over\n", "Hardening Zorvex", False),  # a gerund
    ("# Todo\n\n- Check Cloudflare rules after the cutover\n", "Check Cloudflare", False),  # opens its sentence
])
def test_a_full_name_that_is_the_agent_of_a_verb_gets_a_page(text, name, wanted):
    assert (name in entity_names(text)) is wanted


@pytest.mark.parametrize("text, name, wanted", [
    # a cell or a label's value: the candidates' rules see a sentence start there
    ("# Vendors\n\n| product | vendor | contact |\n|---|---|---|\n| Zorvex WMS | Zorvex Ltd | account mgr: Wendel Foster |\n",
     "Wendel Foster", True),
    ("# Vendors\n\n| product | contact |\n|---|---|\n| Quillo | Marcus Dole (support eng), help@quillo.io |\n",
     "Marcus Dole", True),
    ("# Runbook\n\n- Call Nadia (head brewer) whatever the time.\n", "Call Nadia", False),  # an imperative
    ("# Runbook\n\n- set it to Automatic (Delayed Start) again\n", "Delayed Start", False),  # a setting
])
def test_a_full_name_its_place_sets_apart_where_a_sentence_starts(text, name, wanted):
    assert (name in entity_names(text)) is wanted


@pytest.mark.parametrize("text, name, wanted", [
    ("# ADR\n\n2. Zorvex Pro. Quote $8,400/yr (Tamsin from Zorvex, email 14 Nov).\n", "Tamsin", True),
    ("# Handover\n\n- sup acct enabled for the 7.4.2 follow-up (Pieterjan @ Quillo). disable after wed\n",
     "Pieterjan", True),
    ("# Plan\n\n- (Support from Zorvex ends 3 May)\n", "Support", False),  # a frequent word
    ("# Plan\n\n- (Pricing from Zorvex: $3/seat)\n", "Pricing", False),  # an English ending
])
def test_someone_of_an_organisation_gets_a_page(text, name, wanted):
    assert (name in entity_names(text)) is wanted


@pytest.mark.parametrize("text, name", [
    ("# Releases\n\n- major **Vault Zorvex** releases are supported\n", "Vault Zorvex"),  # a plural, no verb
    ("# Hiring\n\n- Graduates from bootcamps with 2 years of work\n", "Graduates"),  # a sentence's word
    ("# Backups\n\nApart from automated daily backups, we keep 3 copies.\n", "Apart"),
])
def test_no_person_from_a_plural_or_a_sentences_opening_word(text, name):
    assert name not in entity_names(text)
