"""A table row is a statement its line contains (kctui.compiler.builtin.statements `row_text`): every row of a
source is cited on its source page and reaches the pages it names, however its cells are spaced."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import statements
from kctui.compiler.readers import read_source
from kctui.core.values import cited_lines_contain


@pytest.mark.parametrize(("line", "cells", "text"), [
    ("| Vaultline | $4,900 | 1 feb |", ["Vaultline", "$4,900", "1 feb"], "Vaultline | $4,900 | 1 feb"),
    ("| GST | | | $429.00 |", ["GST", "", "", "$429.00"], "GST | | | $429.00"),  # empty cells: as written
    ("| Bayview Dental| BVD-NAS01  | 2.1 TB |", ["Bayview Dental", "BVD-NAS01", "2.1 TB"],
     "Bayview Dental| BVD-NAS01 | 2.1 TB"),  # no space before a pipe: as written
    ("| | |", ["", ""], ""),
])
def test_a_rows_text_is_what_its_line_writes(line: str, cells: list[str], text: str) -> None:
    assert statements.row_text(line, cells) == text
    assert not text or cited_lines_contain([line], text)


def test_a_row_with_an_empty_cell_is_a_statement_of_the_source() -> None:
    text = "# Quote\n\n| Item | Qty | Note | Price |\n|---|---|---|---|\n| AP install | 4 | | $1,200 |\n" \
           "| **Total ex GST** | | | **$4,290.00** |\n"
    doc = read_source("quote.md", text.encode(), "x")
    rows = {s.start: s.value for s in statements.all_statements(doc, []) if "|" in s.value}
    assert rows == {5: "AP install | 4 | | $1,200", 6: "**Total ex GST** | | | **$4,290.00**"}
