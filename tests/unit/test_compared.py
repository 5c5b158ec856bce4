"""Issue 31, a table that compares things side by side: the header's first cell empty, the things in its
other cells; each cell is a fact of its column's thing, with its row's label as the attribute
(kctui.compiler.builtin.compared). Positive and negative tables, with phrasings of our own (not the notes
corpus's)."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import compared
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "6" * 64


def extracted(text: str):  # noqa: ANN201
    return extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))


@pytest.mark.parametrize("cell, name", [
    ("Vexlar (via Northbridge)", "Vexlar"),  # a remark in brackets leaves the name
    ("Quorra (QX) – QR-220", "Quorra QR-220"),  # a brand and its model, a dash between them
    ("**Marrowby Cloud**", "Marrowby Cloud"),  # emphasis is no part of it
    ("Current ZT4410", "ZT4410"),  # an ordinary word before a model's designation says which one
    ("Users", "Users"),  # (cleaned only: whether it names a thing is `header_names`'s question)
])
def test_column_name(cell, name):
    assert compared.column_name(cell) == name


@pytest.mark.parametrize("header, names", [
    (["", "Vexlar (via Northbridge)", "Quorra – QR-220"], ["Vexlar", "Quorra QR-220"]),
    (["", "Stellwick 40e Gen 2", "Brantor Book 7710"], ["Stellwick 40e Gen 2", "Brantor Book 7710"]),
    # capitalised ordinary words beside a column that names a thing by itself
    (["", "Quorra QR-220", "Silver Orchards"], ["Quorra QR-220", "Silver Orchards"]),
    # a name the document gives elsewhere, though an English word by its frequency
    (["", "Harbor", "Quorra QR-220"], ["Harbor", "Quorra QR-220"]),
    # a header of attributes, of periods, of sides, or with a first cell: no comparison of things
    (["", "Users", "Term", "Per year"], []),
    (["", "Current (2026)", "From Jan 1, 2027"], []),
    (["", "Pros", "Cons"], []),
    (["", "Inherited privacy", "Private-by-default"], []),
    (["Option", "Vexlar", "Quorra QR-220"], []),
    (["", "Vexlar"], []),  # one column: a list of values
    # capitals alone do not make a comparison
    (["", "Current Plan", "New Plan"], []),
])
def test_header_names(header, names):
    assert compared.header_names(header, {"harbor"}) == names


TABLE = """# Scanner shortlist

Two quotes came in this week.

| | Brantor (reseller) | Quorra – QR-220 |
|---|---|---|
| Price per unit | £412 | £388 |
| Lead time | 6 weeks | **2 weeks** |
| Warranty | | 3 years |
"""


def test_each_cell_is_a_fact_of_its_columns_thing():
    ex = extracted(TABLE)
    facts = {(c.subject, c.attribute, c.value) for c in ex.claims if c.origin == "table"}
    assert ("Brantor", "Price per unit", "£412") in facts
    assert ("Quorra QR-220", "Price per unit", "£388") in facts
    assert ("Quorra QR-220", "Lead time", "**2 weeks**") in facts
    assert ("Quorra QR-220", "Warranty", "3 years") in facts
    assert not any(s == "Brantor" and a == "Warranty" for s, a, _ in facts)  # an empty cell says nothing
    assert not any(s == "Brantor" and v == "£388" for s, _, v in facts)  # never the other column's value
    assert {"Brantor", "Quorra QR-220"} <= {e.name for e in ex.entities}


def test_a_table_of_attributes_with_an_empty_corner_makes_no_things():
    ex = extracted("# Renewal\n\n| | Users | Term |\n|---|---|---|\n| Last year | 250 | 1yr |\n| This year | 260 | 3yr |\n")
    assert not {"Users", "Term"} & {e.name for e in ex.entities}
