"""A line of fields names what each field's value names: "From: Jonas → To: Mireille" gives Jonas and
Mireille pages as "From: Jonas" and "To: Mireille" on lines of their own do (kctui.compiler.builtin.facts
`fields`, name_mentions `_field_name`). Names are our own."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.facts import fields
from kctui.compiler.readers import read_source


@pytest.mark.parametrize(("line", "found"), [
    ("From: Jonas → To: Mireille", [("From", "Jonas"), ("To", "Mireille")]),  # an arrow before the next label
    ("From: Jonas -> To: Mireille", [("From", "Jonas"), ("To", "Mireille")]),
    ("Status: draft → final", [("Status", "draft → final")]),  # an arrow inside a value: one field
    ("Owner: Tomas | Reviewer: Ilse", [("Owner", "Tomas"), ("Reviewer", "Ilse")]),
    ("Jonas → Mireille", []),  # no labels: no fields
])
def test_an_arrow_before_a_label_sets_fields_apart(line: str, found: list[tuple[str, str]]) -> None:
    assert fields(line) == found


@pytest.mark.parametrize("text", [
    "# Handover\n\nFrom: Jonas → To: Mireille\n\nJonas covers 18:00–23:00. Mireille has the pager from Mon.\n",
    "# Review\n\nOwner: Jonas | Reviewer: Mireille\n\nMireille signs off by Fri. Jonas wrote v2.\n",
    "# Handover\n\nFrom: Jonas\nTo: Mireille\n\nJonas covers 18:00–23:00. Mireille has the pager from Mon.\n",
])
def test_each_field_of_a_line_names_its_person(text: str) -> None:
    ex = extract_document(read_source("h.md", text.encode(), "sha256:" + "1" * 64))
    assert {"Jonas", "Mireille"} <= {e.name for e in ex.entities}
