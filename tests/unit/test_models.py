"""A model's designation after the name of its maker or line (kctui.compiler.builtin.models), as the
sentence's name spans read it (kctui.compiler.builtin.names, kctui.compiler.builtin.coined)."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import coined, models
from kctui.compiler.builtin.names import plain_spans
from kctui.compiler.steps.name_forms import head_forms


def _names(plain: str) -> list[str]:
    return [coined.with_edition(plain, span)[0].text for span in plain_spans(plain)]


@pytest.mark.parametrize(("token", "is_one"), [
    ("T160", True), ("X4", True), ("M70q", True), ("H740P", True), ("ST50", True), ("H100", True),
    ("Q3", False), ("P1", False), ("H2", False), ("W4", False), ("P2PE", False),  # business shorthand
    ("T", False), ("160", False), ("ADR-004", False),
])
def test_a_designation_is_capitals_and_a_number_not_business_shorthand(token: str, is_one: bool) -> None:
    assert models.designation(token) is is_one


@pytest.mark.parametrize(("plain", "name"), [
    ("Makito X4 decoder x1 extra (bought)", "Makito X4"),  # a designation after a capitalised word
    ("6 new workstations FO already (ThinkCentre M70q), 2 printers", "ThinkCentre M70q"),
    ("Bayview server replacement quote: Dell PowerEdge T160 via Dicker Data", "Dell PowerEdge T160"),  # the maker kept
    ("Zebra TC21 handhelds x8 (#1–#8).", "Zebra TC21"),
    ("Dell Latitude 7450", "Dell Latitude 7450"),  # a table's cell: a model's number names the run
    ("Laptop ordered — Dell Latitude 7450, Ubuntu 24.04, arrived 4 Feb", "Dell Latitude 7450"),
    ("FortiGate 200F at BOS on 7.2.8, Fortinet says 7.2.10 fixes it.", "FortiGate 200F"),  # one word of inner capitals
    ("we have 36 spare Lenovo 100e Gen 3 in the warehouse", "Lenovo 100e Gen 3"),  # and its generation
])
def test_a_model_s_designation_or_number_is_part_of_the_name_it_follows(plain: str, name: str) -> None:
    assert name in _names(plain)


@pytest.mark.parametrize(("plain", "left_out"), [
    ("We'll run a game day in Q3 with the whole team.", "Q3"),  # a quarter
    ("Route Statuscake P1 checks to PagerDuty now.", "Statuscake P1"),  # a priority
    ("The stack serves 1400 modules to the Kelpie users.", "Kelpie 1400"),
    ("PowerSchool 2500 students were moved over.", "PowerSchool 2500"),  # the count of a plural noun
    ("Replace Dell T140 before Christmas.", "Replace Dell T140"),  # a common word opening it is a verb
])
def test_no_model_where_the_number_or_the_word_says_otherwise(plain: str, left_out: str) -> None:
    assert left_out not in _names(plain)


@pytest.mark.parametrize(("name", "form"), [
    ("Unifi U6 Mesh", "U6 Mesh"), ("Dell PowerEdge T160", "PowerEdge T160"), ("Dell Latitude 7450", "Latitude 7450"),
    ("APC Smart-UPS 1500", "Smart-UPS 1500"),
    ("Windows Server 2022", ""),  # a year names an edition of the line, not a model of the maker
    ("Rocky Linux 8", ""), ("Lenovo 100e Gen 3", ""), ("Dell T160", ""),  # a generation; no line; two words
])
def test_a_model_s_name_is_also_written_without_its_maker_s_word(name: str, form: str) -> None:
    assert models.line_and_model(name) == form


def test_the_line_and_model_is_a_form_of_the_page_where_no_other_page_shares_it() -> None:
    assert head_forms({"u6": ["Unifi U6 Mesh"]}) == {"u6": ["U6 Mesh"]}
    assert head_forms({"u6": ["Unifi U6 Mesh"], "other": ["U6 Mesh"]}) == {}
