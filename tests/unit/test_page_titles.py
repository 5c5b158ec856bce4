"""Issue 31, precision: an entity page is a thing the text names, titled as the text names it. Not a
word English makes by its grammar ("dial-up", "on-prem", "vendor-ish"), an English word written short
("recvd", "Bldg"), a period of the year ("FY27"), nor a word the note's own title writes in lower case
that only a sentence start capitalises. Names and phrasings are our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.name_checks import clean_title
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def entity_names(text: str, path: str = "notes/n.md") -> set[str]:
    return {e.name for e in extract_document(read_source(path, text.encode("utf-8"), DIGEST)).entities}


@pytest.mark.parametrize("token, compound", [
    ("dial-up", True), ("on-prem", True), ("vendor-ish", True), ("re-auth", True), ("opt-out", True),
    ("check-in", True),
    # names made of ordinary words, or with a number part, are no English compounds
    ("order-router", False), ("tracking-ingest", False), ("quota-service", False), ("etl-01", False),
    ("long-running", False), ("security-logging", False), ("ops-it", False),
    ("Dial-Up", False), ("dialup", False),
])
def test_an_english_compound_is_told_by_its_closed_class_parts(token, compound):
    assert wd.english_compound(token) is compound


@pytest.mark.parametrize("word, short", [
    ("recvd", True), ("Bldg", True), ("acct", True), ("reqd", True),
    # coined names, acronyms, plurals and English words are no shorthand
    ("pgbouncer", False), ("slurm", False), ("nginx", False), ("Jamf", False), ("PRTG", False), ("Perl", False),
    ("Clang", False), ("const", False),
    ("Bacs", False), ("build", False), ("Xid", False),
])
def test_an_english_word_written_short_is_told_by_its_letters(word, short):
    assert wd.shorthand(word) is short


@pytest.mark.parametrize("title, ok", [
    ("dial-up", False), ("on-prem", False), ("recvd", False), ("Bldg", False), ("FY27", False),
    ("FY2026", False), ("Q3", False), ("wk47", False), ("Wk3", False),  # a week of the year
    ("Wi-Fi", False), ("E-mail", False),  # a word English writes closed up ("wifi", "email")
    ("Snipe-IT", True), ("Hyper-V", True), ("J-Link", True), ("W47", True),
    ("FY27 budget", True), ("quota-service", True), ("order-router", True), ("Quokkabase", True),
])
def test_such_words_title_no_page(title, ok):
    assert clean_title(title) is ok


def test_a_fact_stated_of_such_a_word_makes_no_page_but_its_names_keep_theirs():
    text = ("# Weekly notes\n\n"
            "- the dial-up modem at Fernbrook costs £40/mo until the line is ceased\n"
            "- keep the dial-up modem for now, the line is ceased in Apr 2027\n"
            "- invoice from Tessaly recvd 8 oct, Quokkabase support renews 1 Apr 2027\n"
            "- FY27 ask went to finance, $42k for Quokkabase\n\n"
            "We run Quokkabase on-prem on two VMs, £1,180/yr. Quokkabase 4.2 goes live 3 Mar.\n\n"
            "1. Stay on-prem, rebuild on new VMs, ~5 days of work, £1,180/yr\n")
    found = entity_names(text)
    assert {"Quokkabase", "Fernbrook"} <= found  # (each of the four made a page before: builtin-extract/26)
    assert not found & {"dial-up", "recvd", "FY27", "on-prem"}


def test_a_word_the_notes_title_writes_in_lower_case_is_no_name_at_a_sentence_start():
    text = ("# Duty handover: Ana -> Bo\n\n"
            "Handover done Mon 3 Mar 2026, 16:00, in the lab. Bo is on duty until Mon 10 Mar 09:00.\n\n"
            "Quokkabase restarted twice; Quokkabase 4.2 is due on 12 Mar.\n")
    found = entity_names(text)
    assert "Handover" not in found
    assert "Quokkabase" in found


def test_a_rare_word_opening_a_sentence_is_still_a_name_when_the_title_does_not_write_it_lower():
    text = ("# Duty notes: Ana -> Bo\n\n"
            "Quokkabase done Mon 3 Mar 2026, 16:00, in the lab. Bo is on duty until Mon 10 Mar 09:00.\n")
    assert "Quokkabase" in entity_names(text)
