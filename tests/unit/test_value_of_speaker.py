"""A value in what a person says, asks for or approves is not that person's (QA session 29: "Priyanka
negotiating, aiming for under $1,250" gave Priyanka a price), nor of a version a rollback goes back to."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "6" * 64


def facts(text: str) -> set[tuple[str, str, str]]:
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    return {(c.subject, c.attribute, str(c.value)) for c in ex.claims if c.attribute in ("price", "version")}


@pytest.mark.parametrize("line, person", [
    ("- Quokkabase quote came in at $1,390/mo — Zelinda negotiating, aiming for under $1,250.", "Zelinda"),
    ("- Vizrt: Leah says the v3.2 template pack crash is with support.", "Leah"),
    ("- DeepL: Sanne thinks we get under the €20/M list price if we commit volume.", "Sanne"),
    ("- Fan motor: Priya OK'd the £1,940, fitting Thu.", "Priya"),
])
def test_no_value_on_the_person_who_speaks(line: str, person: str) -> None:
    text = f"# Vendor notes\n\n{line}\n"
    assert not [f for f in facts(text) if f[0] == person]


def test_the_priced_thing_keeps_its_price() -> None:
    got = facts("# Vendor notes\n\n- Quokkabase quote came in at $1,390/mo — Zelinda negotiating, aiming for under $1,250.\n")
    assert ("Quokkabase", "price", "$1,390/mo") in got
    assert ("Quokkabase", "price", "$1,250") not in got  # (the aim is Zelinda's words, not the price)


def test_a_speaker_before_the_thing_leaves_it_its_price() -> None:
    got = facts("# Costs\n\n- Kwame estimates the Quokkabase box costs ~$210/month.\n")
    assert not [f for f in got if f[0] == "Kwame"]


def test_a_price_ends_before_the_comma_after_it() -> None:
    got = facts("# Orders\n\n- Placed the order with Quokkabase this morning. £5,750, as quoted.\n")
    assert ("Quokkabase", "price", "£5,750") in got
