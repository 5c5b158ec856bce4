"""A date a contract or a plan is said to renew, expire or end on is a claim in the sentence's own verb
(trust: a claim says what its cited line says), and a name that opens with a number ("1Password") is a name."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "5" * 64


def claims(text: str) -> set[tuple[str, str, str]]:
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    return {(c.subject, c.attribute, c.value) for c in ex.claims}


@pytest.mark.parametrize("sentence, verb", [
    ("Quenta renews on 15 January 2027 at $5/seat.", "renews on"),
    ("Quenta expires on 15 January 2027.", "expires on"),
    ("The Quenta contract ends on 15 January 2027.", "ends on"),
    ("Quenta is due on 15 January 2027.", "is due on"),
])
def test_a_term_date_is_claimed_in_the_sentences_own_verb(sentence, verb):
    found = claims(f"# Vendors\n\nSome words first.\n\n{sentence}\n")
    assert ("Quenta", verb, "15 January 2027") in found
    assert not any(a != verb and v == "15 January 2027" and a.endswith(" on") for _, a, v in found)


@pytest.mark.parametrize("name", ["1Password", "3Dconnexion"])
def test_a_name_opening_with_a_number_glued_to_a_capitalised_word_is_a_name(name):
    found = claims(f"# ADR\n\nSome words first.\n\n{name} stays for the finance team until their contract ends on 31 March 2027.\n")
    assert any(s == name for s, _, _ in found)


@pytest.mark.parametrize("text", ["We meet at 10Am sharp.", "Rooms 3B and 4C are free.", "The uplink runs at 1Gbps, the NAS at 48Mbps."])
def test_numbers_with_capitals_alone_name_nothing(text):
    found = claims(f"# Notes\n\nSome words first.\n\n{text}\n")
    assert not any(s[:1].isdigit() for s, _, _ in found)
