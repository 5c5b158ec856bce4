"""A name of two words called by its first, and a person's initials (kctui.compiler.steps.first_words): a
function of the pages' names alone."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.first_words import first_word_forms, initials_forms
from kctui.compiler.steps.name_finder import NameFinder


@pytest.mark.parametrize(("names", "forms"), [
    ({"kh": ["Karen Holt"]}, {"kh": ["Karen"]}),  # a given name: a word English has
    ({"hc": ["Hannah Cole"], "rota": ["On-call rota"]}, {"hc": ["Hannah"]}),
    ({"lt": ["Lumen Translations"]}, {"lt": ["Lumen"]}),  # a firm's own word
    ({"kb": ["Keeper Business"]}, {}),  # a frequent second word: a kind ("Storage Protect", "Waste Services")
    ({"ac": ["Acer C736"]}, {"ac": ["Acer"]}),  # a maker's word before its model
    ({"sh": ["Station Hotel"]}, {}),  # a first word this frequent stands for no one thing
    ({"vn": ["Veset Nimbus"]}, {}),  # a word English does not have: name_forms.brand_forms's
    ({"cit": ["Corporate IT"]}, {}),  # an acronym
    ({"sa": ["Sam Achebe", "Sam"]}, {}),  # the page has it already
    ({"kh": ["Karen Holt"], "kw": ["Karen Whitfield"]}, {}),  # two Karens
    ({"kh": ["Karen Holt"], "k": ["Karen"]}, {}),  # a page of its own
    ({"tf": ["Tom Fairley"], "tw": ["Tomasz Wójcik"]}, {}),  # "Tom" opens another's given name
    ({"mm": ["May Morris"]}, {}),  # a word of the calendar
    ({"three": ["Mark Three Gen"]}, {}),  # not two words
])
def test_a_name_of_two_words_is_called_by_its_first_where_no_other_page_shares_it(
        names: dict[str, list[str]], forms: dict[str, list[str]]) -> None:
    assert first_word_forms(names) == forms


@pytest.mark.parametrize(("names", "forms"), [
    ({"dj": ["Dhananjay Joshi"]}, {"dj": ["DJ"]}),  # a first word English does not have too
    ({"tb": ["Tom Brandt"], "hc": ["Hannah Cole"]}, {"tb": ["TB"], "hc": ["HC"]}),
    ({"pd": ["PagerDuty"]}, {"pd": ["PD"]}),  # a word of two capitalised parts
    ({"tb": ["Tom Brandt"], "tb2": ["Tara Byrne"]}, {}),  # two share them
    ({"tb": ["Tom Brandt"], "unit": ["TB"]}, {}),  # a page is named by them
    ({"kb": ["Keeper Business"]}, {}),  # a kind's word: no person's initials
    ({"ios": ["iPadOS"]}, {}),  # not a capitalised word
])
def test_a_name_of_two_words_is_called_by_its_initials_where_no_other_page_shares_them(
        names: dict[str, list[str]], forms: dict[str, list[str]]) -> None:
    assert initials_forms(names) == forms


@pytest.mark.parametrize(("text", "found"), [
    ("- 1 and 5: DJ", {"dj"}),  # a label's value
    ("DJ did it, went fine", {"dj"}),  # the subject before an auxiliary
    ("TB thinks printhead", {"tb"}),  # before a verb in -s
    ("- [ ] wms-db-01 replication lag OPS-1410 — TB. maybe bump wal_keep_size", {"tb"}),  # a slot
    ("ask the DJ booth about it", set()),  # a word, not where a name goes
    ("4 TB free on the array", set()),  # a unit
])
def test_initials_are_found_only_where_a_name_goes(text: str, found: set[str]) -> None:
    finder = NameFinder({"dj": ["Dhananjay Joshi"], "tb": ["Tom Brandt"]}, {"dj": ["DJ"], "tb": ["TB"]})
    assert finder.find(text) == found


@pytest.mark.parametrize("name", ["Additional Artifacts", "Usage Pings", "Self-serve Cody"])
def test_a_first_word_english_derives_stands_for_no_one_thing(name: str) -> None:
    assert first_word_forms({"page": [name]}) == {}


def test_a_word_of_two_parts_opening_with_a_function_word_has_no_initials() -> None:
    assert initials_forms({"io": ["IntoOwned"]}) == {}
