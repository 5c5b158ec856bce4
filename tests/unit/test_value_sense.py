"""Two values of one fact that state the same thing are no dispute (QA session 29, item 6)."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.page_update import conflicts_of
from kctui.core.claims import Claim, Evidence
from kctui.core.value_sense import all_same, same_value

SAME = [
    ("$18,400", "$18,400 per year"),
    ("$18,400", "$18,400/yr"),
    ("$18,400 a year", "$18,400 annually"),
    ("$18,400 per year", "$18,400 per annum"),
    ("16", "v16"),
    ("2026-09-30", "30 Sep 2026"),
    ("2026-09-30", "September 30, 2026"),
    ("1,200", "1200"),
    ("$18,400", "18,400"),
    ("$18,400 per year", "18,400"),
    ("18,400 USD", "$18,400"),
    ("$18.4k", "$18,400"),
    ("£4,200/yr", "4,200"),
]
DIFFERENT = [
    ("$18,400 per month", "$18,400 per year"),
    ("$18,400", "$19,000 per year"),
    ("16", "v17"),
    ("2026-09-30", "1 Oct 2026"),
    ("Ines Duarte", "Raj Patel"),
    ("per year", "a year"),
    ("$18,400", "£18,400"),
    ("$18,400", "18,500"),
    ("$18,400 per month", "18,400 per year"),
    ("18.4", "$18,400"),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_the_same_value_written_two_ways(a: str, b: str) -> None:
    assert same_value(a, b) and same_value(b, a)


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_different_values(a: str, b: str) -> None:
    assert not same_value(a, b) and not same_value(b, a)


def test_a_group_is_the_same_only_when_every_pair_is() -> None:
    assert all_same(["$18,400", "$18,400 per year", "$18,400/yr"])
    assert not all_same(["$18,400", "$18,400 per year", "$18,400 per month"])


def _price(value: str, path: str) -> Claim:
    return Claim("Datadog", "price", value, "", "fact", "sentence", Evidence(path, 8, 8, "sha256:aa"))


def test_no_conflict_between_an_amount_and_the_same_amount_per_year() -> None:
    assert conflicts_of([_price("$18,400", "chat.md"), _price("$18,400 per year", "email.md")]) == {}
    assert len(conflicts_of([_price("$18,400", "chat.md"), _price("$19,000 per year", "email.md")])) == 1
