"""How a name is found in a statement's words where only its place, its source's case or its way of being written
says it is that thing (kctui.compiler.steps.name_finder.NameFinder): a lower-case given name where it stands as a
name, a capitalised English name in a source written in lower case, a brand word as a name is written."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.name_finder import NameFinder


@pytest.mark.parametrize(("text", "found"), [
    ("kim owns the generator script", {"kim-ashby"}),  # a roster's lower-case name where it stands as one
    ("approve OT for kim + luis", {"kim-ashby"}),
    ("| 2 | escalation contact | kim | 9 oct |", {"kim-ashby"}),
    ("Kim's on leave", {"kim-ashby"}),
    ("the kim family", set()),  # not a name's place
    ("raise w/ tom", {"tom-okoye"}),  # a person's given name (`people`): in lower case where it stands as one
    ("Tom did the renewal", {"tom-okoye"}),
    ("tom-tom drums", set()),
    ("will check the logs", set()),  # a given name in its other sense
    ("ask Will, he knows", {"will-hart"}),
])
def test_a_lower_case_given_name_is_found_where_it_stands_as_a_name(text: str, found: set[str]) -> None:
    finder = NameFinder({"kim-ashby": ["Kim Ashby", "kim"], "tom-okoye": ["Tom Okoye"], "will-hart": ["Will Hart"]},
                        {"tom-okoye": ["Tom"], "will-hart": ["Will"]})
    assert finder.find(text) == found


@pytest.mark.parametrize(("text", "lowered", "found"), [
    ("sentry quota at 81% for the month", True, {"sentry"}),  # a source written in lower case
    ("sentry quota at 81% for the month", False, set()),  # elsewhere the capital says it
    ("uptime check in better stack by fri", True, {"better-stack"}),  # a name of several English words
    ("a sentry stood at the gate", True, set()),  # after "a": the common noun
    ("tickets in linear, prefix PP-", True, set()),  # one ordinary word says nothing in lower case
    ("Sentry quota", False, {"sentry"}),
])
def test_a_source_written_in_lower_case_names_a_capitalised_english_name_in_lower_case(
        text: str, lowered: bool, found: set[str]) -> None:
    finder = NameFinder({"sentry": ["Sentry"], "better-stack": ["Better Stack"], "linear": ["Linear"]})
    assert finder.find(text, lowered) == found


@pytest.mark.parametrize(("text", "found"), [
    ("present: kofi, sandy (dial-in)", {"sandeep-gill"}),  # a person's one-word alias in a name's place
    ("Sandy approved it", {"sandeep-gill"}),
    ("sandy beach by the depot", set()),  # the word in its other sense
])
def test_a_one_word_alias_of_a_persons_page_is_found_in_lower_case_where_it_stands_as_a_name(
        text: str, found: set[str]) -> None:
    finder = NameFinder({"sandeep-gill": ["Sandeep Gill", "Sandy"]}, {"sandeep-gill": ["Sandeep"]})
    assert finder.find(text) == found


@pytest.mark.parametrize(("text", "lowered", "found"), [
    ("ask Widget about the quote", False, {"widget-server"}),  # a brand word as a name is written
    ("a gizmo is a small widget with 3 gears", False, set()),  # not the word in lower case
    ("cancel widget after cutover", True, {"widget-server"}),  # in a source written in lower case
])
def test_a_brand_word_is_found_as_a_name_is_written(text: str, lowered: bool, found: set[str]) -> None:
    finder = NameFinder({"widget-server": ["Widget Server"]}, None, {"widget-server": ["Widget"]})
    assert finder.find(text, lowered) == found

