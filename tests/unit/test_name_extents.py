"""The longer forms a text names a page's thing by: a page's name and its version (issue 31)."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.name_extents import add_extents, extents, source_extents, version_after, versioned
from kctui.compiler.steps.name_finder import NameFinder, word_spans
from kctui.compiler.steps.registry import Contribution

PAGES = {"rocky": ["Rocky Linux"], "revit": ["Revit"], "redis-oss": ["Redis OSS"], "oss": ["OSS"],
         "dell": ["Dell"], "db": ["billing-db-02"], "rhap-ide": ["Rhapsody IDE", "Rhapsody"],
         "rhap-health": ["Rhapsody Health", "Rhapsody"], "globus": ["Globus Connect Server"]}


@pytest.mark.parametrize(("text", "version", "dotted"), [
    (" 9.5 is out", "9.5", True),
    (" 3.4.0rc1 tagged", "3.4.0rc1", True),
    (" v3.2 templates", "v3.2", True),
    (" 3.4.x line", "3.4.x", True),
    (" 8.10.0.12 (Tue)", "8.10.0.12", True),
    (" 1.29.", "1.29", True),
    (" 9 next sprint", "9", False),
    (" 2025 on the lab PCs", "2025", False),
    (" 2025 crashes", "", False),  # (a verb in -s reads as a counted plural: left out)
    (" 16)", "16", False),
    ("  9.5", "", False),  # (two spaces: no longer one name)
    (" 0800 555 0100", "", False),  # a phone number
    (" 5 Jan", "", False),  # a date
    (" 24 month deal", "", False),  # a duration
    (" 3 brokers", "", False),  # a count
    (" 24h", "", False),  # a unit
    (" 503s on", "", False),  # a status
    ("", "", False),
])
def test_a_version_after_a_name(text: str, version: str, dotted: bool) -> None:
    assert version_after("Name" + text, 4) == (version, dotted)


@pytest.mark.parametrize(("text", "forms"), [
    ("We stay on Rocky Linux 9.5 for now.", [("rocky", "Rocky Linux 9.5", True)]),
    ("Revit 2025 on the lab PCs", [("revit", "Revit 2025", False)]),
    ("the Redis OSS 7.1 cluster", [("redis-oss", "Redis OSS 7.1", True)]),  # not OSS's: part of a longer name
    ("Rhapsody 7.2.1 is live", []),  # a name of two pages
    ("billing-db-02 5 Jan restore", []),  # a host's number is no version
    ("| Globus | Connect Server 5.4 |", []),  # (across a table's cells)
    ("Dell 3 brokers", []),
    ("no names 1.2.3 here", []),
])
def test_the_forms_a_statement_writes_names_in(text: str, forms: list) -> None:
    finder = NameFinder(PAGES)
    assert extents(text, finder.places(text), word_spans(text)) == forms


def test_a_whole_number_is_a_version_of_a_thing_written_with_dotted_ones() -> None:
    finder = NameFinder(PAGES)
    found = source_extents(["Revit 2025 on the lab PCs", "Dell 3120 for the lab", "Revit 2025.4 fixes it"], finder, False)
    assert versioned({"rocky": ["Rocky Linux", "Rocky Linux 9.5"], "revit": ["Revit"], "dell": ["Dell", "Dell 3120"]}) \
        == {"rocky"}
    fed: dict[str, Contribution] = {}
    versions: set[str] = set()
    add_extents(found, fed, versions, lambda form: None)
    assert versions == {"revit"}
    assert sorted(fed) == ["revit"]  # (Dell 3120: a model, a unit or a score as often as a version)
    assert fed["revit"].aliases == {"Revit 2025", "Revit 2025.4"}


def test_a_form_another_page_has_stays_that_pages() -> None:
    fed: dict[str, Contribution] = {}
    add_extents([("revit", "Revit 2025.4", True)], fed, set(), lambda form: "revit-2025-4")
    assert fed == {}
    add_extents([("revit", "Revit 2025.4", True)], fed, set(), lambda form: "revit")
    assert fed["revit"].aliases == {"Revit 2025.4"}
