"""Other forms of a page's names (kctui.compiler.steps.name_forms): a function of the pages' names alone."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.name_forms import forms_of, head_forms


@pytest.mark.parametrize(("names", "forms"), [
    ({"prtg-500": ["PRTG 500"], "paessler": ["Paessler"]}, {"prtg-500": ["PRTG"]}),  # a name and a number
    ({"bunny": ["Bunny.net"]}, {"bunny": ["Bunny", "bunny"]}),  # a domain's label, also as a domain writes it
    ({"w10": ["Windows 10"], "w11": ["Windows 11"]}, {}),  # two pages share the head
    ({"w11": ["Windows 11"], "ws": ["Windows Server"]}, {}),  # another page's name begins with it
    ({"c311": ["CityLine 311"], "cityline": ["CityLine"]}, {}),  # another page is named by it
    ({"prtg-500": ["PRTG 500", "PRTG"]}, {}),  # the page has it already
    ({"api": ["api.larkspurpay.com"]}, {}),  # a host of several labels is no one label's
    ({"q3": ["Q3 2026"]}, {}),  # (a period's head is a word of the calendar's or the books')
    ({"python": ["Python 3.12"], "mod": ["Python"]}, {}),
])
def test_a_page_titled_by_a_name_and_a_number_or_a_domain_is_named_by_its_head_where_no_other_page_is(
        names: dict[str, list[str]], forms: dict[str, list[str]]) -> None:
    assert head_forms(names) == forms


def test_the_forms_of_a_page_are_its_short_forms_and_its_head_words() -> None:
    assert forms_of({"polar": ["Polar Process Ltd"], "prtg": ["PRTG 500"]}) == {"polar": ["Polar Process"], "prtg": ["PRTG"]}


@pytest.mark.parametrize("name", ["crates.io", "incident.io", "feeder.db"])
def test_a_domain_written_in_lower_case_is_an_address_with_no_head_word(name: str) -> None:
    assert head_forms({"page": [name]}) == {}


@pytest.mark.parametrize(("names", "forms"), [
    ({"sg": ["SiteGround GrowBig"]}, {"sg": ["SiteGround"]}),  # a brand's word with an inner capital
    ({"nv": ["Northvale N700 support"]}, {"nv": ["Northvale"]}),  # before a model and a word in lower case
    ({"bw": ["Birchwood ES"]}, {"bw": ["Birchwood"]}),  # before an acronym
    ({"cs": ["Civitas Engine"]}, {"cs": ["Civitas"]}),  # before a kind of thing
    ({"dv": ["Daan Visser"]}, {}),  # a person's given name is the people step's
    ({"mv": ["Marieke de Vos"]}, {}),  # a surname's particle is no word in lower case
    ({"hv": ["Harrow Valley Go-Live"]}, {}),  # an English word opens it
    ({"nv": ["Northvale N700 support"], "nvs": ["Northvale Systems"]}, {}),  # two pages share the word
    ({"pl": ["Printrex PL6"], "printrex": ["Printrex"]}, {}),  # another page is named by it
    ({"mdb": ["MongoDB"]}, {"mdb": ["Mongo"]}),  # a one-word name ending in its kind's acronym
    ({"ai": ["OpenAI"], "gql": ["GraphQL"], "rmq": ["RabbitMQ"]}, {}),  # an English word opens it
    ({"ts": ["TimescaleDB"], "pg": ["Postgres"]}, {"ts": ["Timescale"]}),
    ({"mdb": ["MongoDB"], "mongo": ["Mongo"]}, {}),  # a page of its own keeps the word
    ({"mdb": ["MongoDB"], "atlas": ["Mongo Atlas"]}, {}),  # another page's name begins with it
    ({"gh": ["GitHub"], "js": ["JavaScript"], "ps": ["PowerSchool"]}, {}),  # a tail that is a word
    ({"ios": ["iPadOS"], "grpc": ["gRPC"], "pi": ["PyPI"]}, {}),  # lower case first; a head under four letters
])
def test_a_brands_word_opening_a_name_of_several_words_is_one_of_its_forms(
        names: dict[str, list[str]], forms: dict[str, list[str]]) -> None:
    from kctui.compiler.steps.name_forms import brand_forms

    assert brand_forms(names) == forms


@pytest.mark.parametrize(("names", "forms"), [
    ({"pl": ["Printrex PL6"], "printrex": ["Printrex"]}, {"pl": ["PL6"]}),  # a model's designation after its brand
    ({"x8": ["Aurelia X8"]}, {"x8": ["X8"]}),
    ({"pl": ["Printrex PL6"], "pl6": ["PL6 spooler"]}, {}),  # another page's name begins with it
])
def test_a_models_designation_after_its_brand_is_one_of_its_forms(
        names: dict[str, list[str]], forms: dict[str, list[str]]) -> None:
    assert head_forms(names) == forms
