"""Issue 31, a one-word name named once with a stated fact (session 18): a date written in several words
is one value, so the one value of a sentence is stated of its subject ("Ubuntu ships a new release on 23
April 2026"). Table tests with phrasings of our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import stated_values
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "9" * 64


def entity_names(text: str) -> set[str]:
    return {e.name for e in extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST)).entities}


def subject_span(plain: str) -> nm.Span:
    word = plain.split()[0]
    return nm.Span(word, 0, len(word), True, "caps", (word,))


@pytest.mark.parametrize("plain, value", [
    ("Ubuntu ships a new release on 23 April 2026.", "23 April 2026"),
    ("Quillfern stays on the old plan until 31 March 2027", "31 March 2027"),
    ("Dorabel is on leave until 3 Dec.", "3 Dec"),  # (the month's dot ends the sentence)
    ("Vantrel renews on Tue 9 Mar 2027 at the list price", "Tue 9 Mar 2027"),
])
def test_a_date_in_several_words_is_the_one_value_of_its_subject(plain, value):
    assert stated_values.stated_value(plain, subject_span(plain)) == ("date", value)


def test_a_name_after_the_one_value_is_not_its_subject():
    plain = "the vault token expires on 12 Dec, needs renewing by Dorabel"
    at = plain.index("Dorabel")
    assert stated_values.stated_value(plain, nm.Span("Dorabel", at, at + 7, False, "caps", ("Dorabel",))) is None


@pytest.mark.parametrize("plain", [
    "Vantrel moved 3 hosts on 4 May",  # two values: which one is the subject's is not said by the form
    "Vantrel has had 2 outages since 9 June",
])
def test_two_values_state_nothing_of_the_subject_by_their_place(plain):
    assert stated_values.stated_value(plain, subject_span(plain)) is None


@pytest.mark.parametrize("text, name", [
    ("# Platform\n\nQuillfern stays on the old plan until 31 March 2027.\n", "Quillfern"),
    ("# Team\n\n- Dorabel is on leave until 3 Dec.\n", "Dorabel"),
])
def test_a_name_opening_a_sentence_with_a_date_in_words_gets_a_page(text, name):
    assert name in entity_names(text)


@pytest.mark.parametrize("text, not_a_name", [
    ("# Ops\n\nDeployment finished on 3 March 2026 after the freeze.\n", "Deployment"),  # an English word
    ("# Ops\n\nYesterday we moved the cluster, done by 4 May.\n", "Yesterday"),
])
def test_an_ordinary_word_opening_a_sentence_with_a_date_gets_no_page(text, not_a_name):
    assert not_a_name not in entity_names(text)


# -- one capitalised word alone in brackets after a word: what the words before it are called ----------


@pytest.mark.parametrize("text, name", [
    ("# Site\n\n- Harbeck (Ivo) on site Thu 19 for the survey.\n", "Ivo"),
    ("# Release\n\n- [x] rc1 tagged + published — Nov 18 (Oskar)\n", "Oskar"),
    ("# Shop\n\nThe webshop (Tindrel) stays up during the 4 May cutover.\n", "Tindrel"),
    # the apposition is a fact of its own, without a value where English does not have the word
    ("# Intro\n\nHappy to set up a call with our support engineer (Zdravko) if useful.\n", "Zdravko"),
])
def test_a_word_alone_in_brackets_after_a_word_gets_a_page(text, name):
    assert name in entity_names(text)


@pytest.mark.parametrize("text, not_a_name", [
    ("# Vendors\n\n| Vantrel | CDN | $6,500/month (Business) | 2026-07-15 |\n", "Business"),  # a frequent word
    ("# Timeline\n\n- 09:10 (Weds) the queue backs up, 3 jobs stuck\n", "Weds"),  # a day
    ("# Vendors\n\nThe enterprise tier costs more: $9,000/year (Enterprise) from 1 May.\n", "Enterprise"),  # written in lower case
    ("# Team\n\n- Tomasz Wierzbicki (Tom) joins on 3 March\n", "Tom"),  # the name before it, written short
    ("# Timeline\n\n- 04:10 alert fired (UTC), 2 pages sent\n", "UTC"),  # an acronym
    ("# Timeline\n\n- 04:10 alert fired for $6,500/month (Premium) customers\n", "Premium"),  # after an amount: a tier
    ("# Releases\n\nThe project ships two lines: stable and regular (Weekly).\n", "Weekly"),  # a gloss, no value
])
def test_no_page_for_a_bracketed_word_that_is_no_name(text, not_a_name):
    assert not_a_name not in entity_names(text)
