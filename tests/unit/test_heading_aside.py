"""A section's thing named in its heading's brackets (kctui.compiler.steps.heading_aside, through
kctui.compiler.steps.statement_pages `_headed_by`)."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.heading_aside import aside_page, split_aside
from kctui.compiler.steps.name_finder import NameFinder
from kctui.compiler.steps.statement_pages import _headed_by

NAMES = {"tidewater": ["Tidewater", "Project Tidewater"], "wasabi": ["Wasabi"], "kelpie": ["Kelpie"],
         "tarn": ["Tarn"], "ravi-menon": ["Ravi Menon"], "adr-007": ["ADR-007"],
         "railhead-analytics": ["Railhead Analytics"], "dhananjay-joshi": ["Dhananjay Joshi"]}
# (the one-word names and initials that stand for a page: a given name says a person, initials alone do not)
FINDER = NameFinder(NAMES, {"ravi-menon": ["Ravi", "RM"], "seun": ["Seun"], "railhead-analytics": ["RA"],
                            "dhananjay-joshi": ["DJ"]})


@pytest.mark.parametrize(("heading", "bare", "asides"), [
    ("Cloud backup (Project Tidewater)", "Cloud backup", ["Project Tidewater"]),
    ("The cluster (Kelpie), 1-minute version", "The cluster , 1-minute version", ["Kelpie"]),
    ("Plain heading", "Plain heading", []),
    ("", "", []),
])
def test_split_aside(heading: str, bare: str, asides: list[str]) -> None:
    assert split_aside(heading) == (bare, asides)


@pytest.mark.parametrize(("asides", "page"), [
    (["Project Tidewater"], "tidewater"),  # a name alone
    (["Kelpie, Tarn"], "kelpie"),  # names joined: the first
    (["Tom off"], ""),  # a name and what is said of it: a remark
    (["see ADR-007"], ""),
    (["Seun"], ""),  # a person: who does the section's work
    (["Ravi Menon"], ""),
    (["Railhead Analytics"], ""),  # by default every page a one-word name or initials stand for is left out
    (["Thu 3/23", "Wasabi"], "wasabi"),  # the first aside that is a name alone
    ([], ""),
])
def test_aside_page(asides: list[str], page: str) -> None:
    assert aside_page(asides, FINDER) == page


@pytest.mark.parametrize(("asides", "page"), [
    (["Railhead Analytics"], "railhead-analytics"),  # initials alone: no person (a section weighs the vendor)
    (["Ravi Menon"], ""),  # a given name stands for him: a person
    (["Seun"], ""),
])
def test_a_sections_aside_leaves_out_only_the_pages_a_given_name_stands_for(asides: list[str], page: str) -> None:
    assert aside_page(asides, FINDER, "", FINDER.persons) == page


@pytest.mark.parametrize(("scope", "pages"), [
    ("Cloud backup (Project Tidewater)", {"tidewater"}),  # the rest names nothing: the aside's thing
    ("Wasabi exit (Project Tidewater)", {"wasabi"}),  # the rest names a thing: that one
    ("Onboarding — Ravi Menon (starts Mon 16 Nov)", {"ravi-menon"}),
    ("Week 1 (Seun)", {"subject"}),  # a person in brackets: the source's subject
    ("C. Third-party (Railhead Analytics)", {"railhead-analytics"}),  # a vendor's name, initials or not
    ("Budget (see ADR-007)", {"subject"}),
])
def test_headed_by(scope: str, pages: set[str]) -> None:
    assert _headed_by(scope, FINDER, "subject")[0] == pages


@pytest.mark.parametrize(("title", "body", "subject"), [
    ("Runbook: cloud backup (Project Tidewater)", "Tidewater seeds to B2 nightly.", "tidewater"),  # named again
    ("Runbook: cloud backup (Project Tidewater)", "Seeds to B2 nightly.", ""),  # said once: a qualifier
    ("Runbook: cloud backup (Kelpie + Tarn)", "Kelpie and Tarn seed to B2.", ""),  # names joined: neither
    ("Wasabi exit plan (Project Tidewater)", "", "wasabi"),  # named outside them: that one
    ("Onboarding — week 1 (Seun)", "Seun sets up the laptop.", ""),  # a person in brackets: no subject
])
def test_a_title_naming_nothing_outside_brackets_is_about_what_they_name_alone(title: str, body: str,
                                                                             subject: str) -> None:
    from kctui.compiler.extraction import Statement
    from kctui.compiler.steps.statement_pages import title_subjects

    statements = [Statement(title, title, 1, 1), Statement(body, "", 3, 3)]
    assert title_subjects(title, FINDER, statements)[0] == subject


@pytest.mark.parametrize(("people", "persons"), [
    ({"ravi-menon": ["Ravi", "RM"]}, {"ravi-menon"}),  # a given name stands for the page: a person's
    ({"railhead-analytics": ["RA"], "pagerduty": ["PD"]}, set()),  # initials alone: any two capitalised words
    ({"seun": ["Seun"], "wordpress": ["WP"]}, {"seun"}),
    ({}, set()),
])
def test_persons_are_the_pages_a_given_name_stands_for(people: dict, persons: set[str]) -> None:
    from kctui.compiler.steps.name_finder import persons as persons_of

    assert persons_of(people) == persons
