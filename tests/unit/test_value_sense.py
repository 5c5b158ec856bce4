"""Two values of one fact that state the same thing are no dispute (QA session 29, item 6)."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.page_update import conflicts_of
from kctui.core.claims import Claim, Evidence
from kctui.core.value_sense import all_same, rate_unit, same_value

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
    ("1.8", "1.8.0"),  # a version's trailing zero parts (held out: "lblgw 1.8.0" and "lblgw 1.8")
    ("v2.4.0", "2.4"),
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
    ("1.10.0", "1.1"),  # a version is no decimal number
    ("1.8.1", "1.8"),
    ("8.6.1-hf2", "8.6.1"),
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


def test_a_rate_per_unit_and_a_lump_sum_are_two_facts() -> None:
    # held out: "Kestrel charged £420" (a collection) against "£0.28/parcel" (a surcharge) was one conflict
    assert conflicts_of([_price("£420", "postmortem.md"), _price("£0.28/parcel", "standup.md")]) == {}
    assert conflicts_of([_price("$6/user/mo", "a.md"), _price("$1,200/mo", "b.md")]) == {}
    rates = conflicts_of([_price("£420", "a.md"), _price("£0.28/parcel", "b.md"), _price("£0.31/parcel", "c.md")])
    assert [[c.value for c in group] for group in rates.values()] == [["£0.28/parcel", "£0.31/parcel"]]
    assert len(conflicts_of([_price("$6/user/mo", "a.md"), _price("$7/user/mo", "b.md")])) == 1
    # a value with a slash that is no amount still disputes as one value ("Ops/Dev" against "Finance")
    assert len(conflicts_of([_price("Ops/Dev", "a.md"), _price("Finance", "b.md")])) == 1


@pytest.mark.parametrize(("value", "unit"), [
    ("£0.28/parcel", "parcel"), ("$6/user/mo", "user"), ("$45/TB/yr", "tb"), ("$6 per seat", "seat"),
    ("$15/mo", ""), ("£420", ""), ("$3,900 / month", ""), ("$18,400 annually", ""), ("ops/dev", ""),
])
def test_what_an_amount_is_given_per(value: str, unit: str) -> None:
    assert rate_unit(value) == unit


def test_one_question_for_one_pair_of_values_however_many_sources_say_it() -> None:
    # held out: "8.6.1-hf2" in a TODO against "8.6.1" in five notes opened five conflicts of one question
    from kctui.compiler.trust.disputes import settle

    claims = [_price("$7,100", "a-todo.md")] + [_price("$7,000", f"note-{n}.md") for n in range(5)]
    groups = conflicts_of(claims)
    settled = settle(None, claims, groups)
    assert len(settled.opened) == 1
    assert len(settled.disputed) == 5  # every source still shown against the page's value
