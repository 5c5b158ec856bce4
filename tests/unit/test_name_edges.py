"""Words a note glues to a name's edges that are no part of it (kctui.compiler.builtin.name_edges): dates,
a verb's past opening the sentence, a possessive, a nickname before the full name."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import name_edges as ne
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.name_checks import clean_title
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "5" * 64


def spans(sentence: str) -> list[str]:
    return [s.text for s in nm.plain_spans(sentence)]


def entity_names(text: str) -> set[str]:
    return {e.name for e in extract_document(read_source("n.md", text.encode("utf-8"), DIGEST)).entities}


@pytest.mark.parametrize("sentence,names", [
    ("3 Sep Wrekin main transmitter — 37 min on reserve", ["Wrekin"]),  # a number before the month
    ("Torquay Tue 8 Dec, Waterfront Wed 9 Dec, Geelong West Thu 10 Dec.", ["Torquay", "Waterfront", "Geelong West"]),
    ("Dana back Mon Mar 9, 9am", ["Dana"]),  # a whole date glued after a name
    ("1:1 w/ Dana Thursdays 3pm", ["Dana"]),  # a day in the plural recurs
    ("the Brightloop Oct invoice came in", ["Brightloop"]),  # a month's short form ends no name
    ("ask Oct Brightloop Cloud for a quote", ["Brightloop Cloud"]),
    # kept: a short form that may be a given name, a day's full name ending a name
    ("met Jun Takahashi at the depot", ["Jun Takahashi"]),
    ("we patch on Patch Tuesday now", ["Patch Tuesday"]),
])
def test_dates_glued_to_a_name_are_cut_off(sentence: str, names: list[str]) -> None:
    assert spans(sentence) == names


@pytest.mark.parametrize("word,verb", [
    ("Reinstalled", True), ("Reflashed", True), ("Rebooted", True), ("Unplugged", True), ("Rebased", True),
    ("Patched", True), ("Swapped", True),
    ("Ahmed", False), ("Mohammed", False), ("Lightspeed", False), ("Aisling", False), ("Reinstalling", False),
    ("Fixed", False),  # five letters: too short to tell
])
def test_a_verb_s_past_by_its_stem(word: str, verb: bool) -> None:
    assert ne.verb_form(word) is verb


@pytest.mark.parametrize("sentence,names", [
    ("Reinstalled FTDI driver on the bench PC.", ["FTDI", "PC"]),
    ("Rebooted Keycloak twice before lunch.", ["Keycloak"]),
    ("Aisling Byrne owns the rota.", ["Aisling Byrne"]),  # a name, not a verb
])
def test_a_verb_opening_the_sentence_is_no_part_of_the_name(sentence: str, names: list[str]) -> None:
    assert spans(sentence) == names


def test_a_possessive_is_no_part_of_the_owner_s_name() -> None:
    assert ne.possessor("Hannah Cole's") == "Hannah Cole" and ne.possessor("Hannah Cole") == "Hannah Cole"
    names = entity_names("# Control room\n\nThe control room in the Perth office is run by Hannah Cole's team.\n")
    assert "Hannah Cole" in names and "Hannah Cole's" not in names


@pytest.mark.parametrize("text,full", [
    ("Dev (Devendra Malhotra)", "Devendra Malhotra"),
    ("Kat (Katarzyna Nowak)", "Katarzyna Nowak"),
    ("Kestrel (the HPC cluster)", ""),  # no person's name in the brackets
    ("Tom (Melb office)", ""),
    ("Claroty SRA (Secure Remote Access)", ""),  # more than one word outside
])
def test_a_nickname_before_the_full_name(text: str, full: str) -> None:
    assert ne.nickname_of(text) == full


def test_a_nickname_defined_in_a_list_titles_the_person_by_the_full_name() -> None:
    names = entity_names("# Who's who\n\n- **Dev (Devendra Malhotra)** - dev, permits beta lead dev, payments\n"
                         "- **Sophie Lam** - frontend dev, accessibility champion\n")
    assert "Devendra Malhotra" in names and "Dev (Devendra Malhotra)" not in names


def test_a_surname_after_a_particle_stands_for_its_person() -> None:
    assert ne.person_with_particles("Pieter de Vries") and ne.person_with_particles("Anouk van der Wiel")
    assert not ne.person_with_particles("Bank of England")
    assert spans("ask Jan van der Wiel today") == ["Jan van der Wiel"]
    names = entity_names("# Kestrel RMA\n\nFrom: Pieter de Vries <p.devries@kestrel-ems.nl>\n\n"
                         "- Pieter de Vries confirmed the RMA-0042 failure analysis on 3 Mar.\n"
                         "- de Vries says lot K-2025-118 boards need an x-ray.\n"
                         "- Ask de Vries for the report by Friday.\n")
    assert "Pieter de Vries" in names and "Vries" not in names


@pytest.mark.parametrize("sentence,names", [
    ("02:14 pager: FrostLine CRITICAL FRZ-04 -58 °C, Ana went in.", ["FrostLine", "FRZ-04", "Ana"]),
    ("Pager said WARNING DB-01 disk at 91%", ["DB-01"]),
    # capitals before no identifier stay a name ("OPERA Cloud", "VAST Data")
    ("the OPERA Cloud migration starts soon", ["OPERA Cloud"]),
])
def test_an_alert_s_severity_splits_its_source_from_the_record(sentence: str, names: list[str]) -> None:
    found = spans(sentence)  # (the severity and the unit are spans name_like then refuses)
    assert set(names) <= set(found) and not any(" " in n and n not in names for n in found)


@pytest.mark.parametrize("title,reading", [
    ("FrostLine CRITICAL FRZ-04 -58 °C", True), ("Freezer 3 at 92%", True), ("delta +3", True),
    ("FRZ-04", False), ("Windows 11", False), ("SOC 2 Type II", False), ("Library 204", False), ("BRY-97", False),
    # a count in brackets closing it: a status table's row label, the name glued to how many
    ("ActivPanels Franklin MS (28)", True), ("Wi-Fi CVHS (92 APs)", True), ("Printers (1,204)", True),
    ("Claroty SRA (Secure Remote Access)", False), ("XT cabinets (46) + OmniCenter", False), ("VPN (FortiClient)", False),
])
def test_a_reading_is_never_part_of_a_title(title: str, reading: bool) -> None:
    assert ne.holds_reading(title) is reading
    assert not clean_title(title) if reading else True


def test_a_row_named_by_an_alert_s_text_gets_no_page() -> None:
    names = entity_names("# Freezer alarms\n\nFrostLine paged Ana twice.\n\n| alarm | time | who |\n|---|---|---|\n"
                         "| FrostLine CRITICAL FRZ-04 -58 °C | 02:14 | Ana |\n| FrostLine WARNING FRZ-02 -71 °C | 03:40 | Ana |\n")
    assert not any("°C" in n for n in names)
