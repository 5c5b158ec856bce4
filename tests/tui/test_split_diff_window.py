"""The split diff shows the changed part of a long line (QA 16): at 100 columns a note whose change sits
past the column's edge is shown from a little before its first change, on both sides."""

from __future__ import annotations

import pytest

from kctui.ui.screens.review_view import change_start, split

OLD = "* **ingest-gateway** — note: Primary on-call: Ines Duarte, secondary: Tomasz Wren ^[runbook.md:L4-L4]"
NEW = "* **ingest-gateway** — note: Primary on-call: Raj Patel, secondary: Tomasz Wren ^[runbook.md:L4-L4]"


@pytest.mark.parametrize(("old", "new", "col", "start"), [
    ("short a", "short b", 46, 0),  # fits: as it is
    (OLD, NEW, 200, 0),  # fits a wide column
    ("a changed word at the start " + "x" * 80, "the changed word at the start " + "x" * 80, 46, 0),  # change visible
    (OLD, NEW, 46, OLD.index("Ines") - 16),
])
def test_where_a_pair_is_shown_from(old: str, new: str, col: int, start: int) -> None:
    assert change_start(old, new, col) == start


def test_the_split_row_at_100_columns_shows_the_change() -> None:
    row = split([OLD], [NEW], {}, 96).plain.splitlines()[0]
    left, right = row.split(" │ ")
    assert "Ines Duarte" in left and "Raj Patel" in right
    assert left.startswith("− …") and right.startswith("+ …")
