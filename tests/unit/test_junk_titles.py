"""Issue 31, entity precision: spans the text writes as names that are none, each told by where it stands
and how English uses its words, not by a list of them. Table tests with phrasings of our own: a task's
verb glued to the name after it in a table cell or a list item, a greeting and the name it addresses,
names joined in one cell, a job's title beside its holder, a record's header of fields."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import name_mentions as mn
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def extract(text: str, path: str = "notes/n.md"):  # noqa: ANN201
    return extract_document(read_source(path, text.encode("utf-8"), DIGEST))


def entity_names(text: str) -> set[str]:
    return {e.name for e in extract(text).entities}


def topic_names(text: str) -> set[str]:
    ex = extract(text)
    return {e.name for e in ex.entities} | {c.name for c in ex.concepts}


# -- a task's verb opening a table cell or a plain list item ---------------------------------------------


@pytest.mark.parametrize("plain, dropped", [
    ("Sign Quillsmith 2yr | Ana | Fri", "Sign Quillsmith"),
    ("Chase Brindlemark on PO-4471 | Ana | Wed", "Chase Brindlemark"),
    ("4 | Add Zorbit alerts at 80% on /srv | Ana | Done", "Add Zorbit"),
    ("Export Falvane \"open\" tickets to a sheet", "Export Falvane"),
])
def test_a_verb_opening_a_cell_or_an_item_is_no_part_of_the_name(plain: str, dropped: str) -> None:
    spans = nm.plain_spans(plain)
    kept = {s.text for s in mn._task_spans(plain, spans, frozenset(), ug.lower_words([plain]))}
    assert dropped not in kept and dropped.split()[1] in kept


@pytest.mark.parametrize("plain, name", [
    ("Grace Tannery will send the quote by Fri", "Grace Tannery"),  # a subject and its verb
    ("Ben Aldworth locked out, new phone | INC-4471", "Ben Aldworth"),  # a verb in -ed after a subject
    ("Tom Okonji (acct mgr) | SaaS", "Tom Okonji"),  # an aside
    ("Mark Tiernan to book the room", "Mark Tiernan"),  # the owner
    ("Google Halberd email: ana@example.org", "Google Halberd"),  # a label's words
    ("Charles Farrow | hops | Lucy", "Charles Farrow"),  # the whole cell
])
def test_a_name_opening_a_cell_or_an_item_stays_whole(plain: str, name: str) -> None:
    spans = nm.plain_spans(plain)
    kept = {s.text for s in mn._task_spans(plain, spans, frozenset(), ug.lower_words([plain]))}
    assert name in kept


def test_a_first_word_written_as_a_name_inside_a_sentence_is_no_verb() -> None:
    plain = "Google Halberd seats for 12 users"
    spans = nm.plain_spans(plain)
    assert "Google Halberd" in {s.text for s in mn._task_spans(plain, spans, frozenset({"Google"}), ug.lower_words([plain]))}
    assert "Google Halberd" not in {s.text for s in mn._task_spans(plain, spans, frozenset(), ug.lower_words([plain]))}


def test_a_table_of_tasks_names_the_thing_after_the_verb() -> None:
    text = ("# Sync\n\n| What | Who | When |\n|---|---|---|\n| Sign Quillsmith 3yr, $19,800 | Ana Ruiz | today |\n"
            "| Chase Quillsmith on PO-4471 | Bo Li | Wed |\n")
    names = entity_names(text)
    assert "Sign Quillsmith" not in names and "Chase Quillsmith" not in names


# -- a greeting and the name it addresses --------------------------------------------------------------


@pytest.mark.parametrize("text, not_name", [
    ("# Invoice 2031\n\nHi Marisol,\n\nInvoice 2031 for €2,400 was due 17 Oct, could you check it?\n\n"
     "Hi Marisol — you're right, the quote was €600.\n", "Hi Marisol"),
    ("# Renewal\n\nDear Tomasin,\n\nThe renewal of 2027 comes to $4,200 on 1 Jan.\n", "Dear Tomasin"),
])
def test_a_greeting_is_no_part_of_the_name_it_addresses(text: str, not_name: str) -> None:
    assert not_name not in entity_names(text)


def test_a_list_item_opening_with_a_name_and_a_dash_keeps_the_name() -> None:
    assert "Ken Odumosu" in entity_names("# Team\n\n- Ken Odumosu — releases since 2024, typing.\n"
                                         "- Ken Odumosu owns the 3.4 branch.\n")


# -- names joined in one cell of a name column ---------------------------------------------------------


def test_names_joined_in_a_cell_are_each_a_name() -> None:
    text = ("# Actions\n\n| What | Who | When |\n|---|---|---|\n| Swap the SSDs | Gaz + Raj | Sat 21 Feb |\n"
            "| Split the model | Nadia / Shiv | next week |\n| Book the van | Gaz | Fri |\n")
    names = entity_names(text)
    assert "Gaz + Raj" not in names and "Nadia / Shiv" not in names


# -- a job's title beside the person who holds it ------------------------------------------------------


@pytest.mark.parametrize("text, not_name", [
    ("# ADR\n\n- Owner: Dana Whitlock, Imaging Systems Manager\n\nNo upgrades unless the Imaging Systems "
     "Manager agrees, from 3 Dec.\n", "Imaging Systems Manager"),
    ("# Runbook\n\nIf the queue is late by 30 minutes, tell the Imaging Informatics Manager (Ms. Whitlock).\n"
     "The Imaging Informatics Manager signs off fixes after 2 Dec.\n", "Imaging Informatics Manager"),
])
def test_a_title_beside_its_holder_is_no_thing(text: str, not_name: str) -> None:
    assert not_name not in entity_names(text)


# -- a record's header of fields -----------------------------------------------------------------------


def test_a_label_among_a_records_fields_is_no_term() -> None:
    text = ("# ADR-9: Two engine nodes\n\n- **Status:** Accepted\n- **Date:** 2 November 2026\n"
            "- **Deciders:** Ana Ruiz, Bo Li\n- **Supersedes:** ADR-003 (single production node with cold standby)\n\n"
            "## Context\n\nThe engine ran on one node.\n")
    assert "Supersedes" not in topic_names(text)


def test_a_glossary_of_terms_still_defines_them() -> None:
    text = ("# Terms\n\n- **Quillmark:** a queue that holds the retries of the billing jobs\n"
            "- **Brindlestore:** the store of raw exports from the ledger service\n"
            "- **Farrowgate:** the gateway that checks each partner's token\n")
    assert {"Quillmark", "Brindlestore", "Farrowgate"} <= topic_names(text)


# -- ordinary words written where a name would be ------------------------------------------------------


def test_a_frequent_word_only_written_before_one_digit_labels_a_numbered_thing() -> None:
    text = ("# Refresh\n\nThe Lenvo 100e Gen 3 units age out in 2029 and we stock Gen 3 screens.\n\n"
            "- the Gen 4 covers are the same part, $38 each\n- order 420 of the Gen 4 by 2 Mar\n")
    assert "Gen" not in entity_names(text)


def test_an_acronym_before_its_release_digit_stays_a_name() -> None:
    text = "# Builds\n\nWe build wheels for RHEL 8 and RHEL 9 on 3 Dec.\n\nThe RHEL 9 images take 12 minutes.\n"
    assert "RHEL" in entity_names(text)


@pytest.mark.parametrize("word, english", [
    ("deferral", True), ("reseller", True), ("resellers", True), ("baking", True),
    ("pgbouncer", False), ("restic", False), ("telvane", False), ("receiptd", False), ("balena", False),
])
def test_a_word_english_derives_from_one_it_has_is_no_coined_name(word: str, english: bool) -> None:
    from kctui.compiler.builtin import words as wd
    assert wd.unknown_word(word) is not english


@pytest.mark.parametrize("text, not_name", [
    ("# Jamf\n\n1. Max deferral (90 days) in Jamf + manual release.\n", "deferral"),
    ("# Tasks\n\n- Solibri: tell reseller 3 seats not 4, before 28 Feb\n", "reseller"),
    ("# Postmortem\n\nWe yanked 3.4.0 and released 3.4.1 with the header put back.\n", "yanked"),
    ("# Triage\n\n- Discussions has 3 unanswered Qs older than 2 weeks, one on 2.1\n", "Qs"),
])
def test_an_ordinary_word_stated_of_is_no_name(text: str, not_name: str) -> None:
    assert not_name not in entity_names(text)


def test_a_chat_messages_first_word_opens_a_sentence() -> None:
    spans = nm.plain_spans("**Gareth Pughley** 14:40 Retested 6 orders from the lab, all matched in Sectrix.")
    assert [s.at_start for s in spans if s.text == "Retested"] == [True]
    text = ("# Thread\n\n**Gareth Pughley** 14:40\nRetested 6 orders from the lab, all matched in Sectrix.\n\n"
            "**Ana Ruiz** 14:42\nThanks, shipping it at 15:00.\n")
    assert "Retested" not in entity_names(text)


# -- a given name's initial and a title before a surname -----------------------------------------------


@pytest.mark.parametrize("plain, names", [
    ("Present: T. Wierzbo, P. Ramana, A. Castellano (Pharmacy)", {"T. Wierzbo", "P. Ramana", "A. Castellano"}),
    ("**Present:** T. Wierzbo, A. Castellano", {"T. Wierzbo", "A. Castellano"}),
    ("crates C and D. Crate C defines two types", {"C"}),
])
def test_an_initial_in_a_list_of_people_opens_the_name(plain: str, names: set[str]) -> None:
    assert names <= {s.text for s in nm.plain_spans(plain)}


def test_a_letter_ending_a_sentence_is_no_initial() -> None:
    assert {s.text for s in nm.plain_spans("the slot overflowed on rev B. MCUbooty rejected it")} >= {"MCUbooty"}
    assert "B. MCUbooty" not in {s.text for s in nm.plain_spans("the slot overflowed on rev B. MCUbooty rejected it")}


@pytest.mark.parametrize("text, lines", [
    ("Ms. Castellano described the mapping.", 1),
    ("- Ms. Castellano to retest the 12 mappings by Wednesday.", 1),
    ("We moved 12 VMs. Then the disks.", 2),
    ("Stay on Saft for rev C. Revisit Tadirano for rev D.", 2),
    ("Present: T. Wierzbo, A. Castellano (Pharmacy).", 1),
])
def test_a_title_or_an_initial_opens_a_name_not_a_sentence(text: str, lines: int) -> None:
    from kctui.compiler.builtin.sentences import units
    from kctui.compiler.readers import read_source
    doc = read_source("notes/n.md", f"# N\n\n{text}\n".encode(), DIGEST)
    assert len(units(doc)) == lines


# -- a model's number is part of its name --------------------------------------------------------------


@pytest.mark.parametrize("plain, name", [
    ("QS gets a Latitude 7450 on Monday", "Latitude 7450"),
    ("still on the Dell Chromebook 3100 in grade 3", "Dell Chromebook 3100"),
])
def test_a_models_number_after_its_name_is_part_of_it(plain: str, name: str) -> None:
    from kctui.compiler.builtin import coined
    spans = [coined.with_edition(plain, s)[0].text for s in nm.plain_spans(plain)]
    assert name in spans


@pytest.mark.parametrize("plain, name", [
    ("the Mosaic 2024 crop came in", "Mosaic"),  # a year
    ("we bought a UPS 1500 for the rack", "UPS"),  # an acronym: a count or a kind's size
    ("call Reception 0800 for a badge", "Reception"),  # a leading zero
    ("Postgres 16 is on the new hosts", "Postgres"),  # a release
])
def test_a_year_a_release_or_an_acronym_keeps_its_name_alone(plain: str, name: str) -> None:
    from kctui.compiler.builtin import coined
    spans = [coined.with_edition(plain, s)[0].text for s in nm.plain_spans(plain)]
    assert name in spans


def test_a_plain_list_item_keeps_the_name_it_opens_with() -> None:
    names = entity_names("# Thanks\n\n- Cameron Zwarbeck on June 22, with 3 fixes\n- Dana Whitloe on June 24, 2 fixes\n")
    assert "Zwarbeck" not in names


def test_a_letter_after_and_is_no_initial() -> None:
    spans = {s.text for s in nm.plain_spans("Variants of Alternatives B and C. Instead of stressing the part")}
    assert "C. Instead" not in spans
