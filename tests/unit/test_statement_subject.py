"""A statement that opens with a name of another thing is that thing's, not its section's or its note's
(kctui.compiler.steps.statement_subject, used by kctui.compiler.steps.mentions `reaches`)."""

from __future__ import annotations

from functools import partial

import pytest

from kctui.compiler.extraction import Extraction, Statement
from kctui.compiler.steps.mentions import NameFinder, attach, word_spans
from kctui.compiler.steps.statement_subject import keeps_place, leading_pages

PAGES = {
    "checkly": ["Checkly"],
    "grafana-cloud": ["Grafana Cloud"],
    "billing-api": ["Billing API"],
    "pg-prod-02": ["pg-prod-02"],
    "tom": ["Tom"],
    "nginx": ["nginx"],
    "payments": ["Payments"],
    "datadog": ["Datadog"],
    "python": ["Python"],
    "django": ["Django"],
    "castlebrook": ["Castlebrook"],
    "adr-007": ["ADR-007"],
    "priya-nair": ["Priya Nair"],
    "sectra": ["Sectra"],
    "standup": ["Standup"],
}
TITLES = {slug: names[0] for slug, names in PAGES.items()}
FINDER = NameFinder(PAGES)


def _leads(text: str) -> set[str]:
    places = sorted(FINDER.places(text), key=lambda p: (p[0], -p[1], p[2]))
    return leading_pages(text, places, partial(word_spans, text))


@pytest.mark.parametrize(("text", "leads"), [
    ("Grafana Cloud's renewal is due 31 Jan.", {"grafana-cloud"}),  # opening the sentence
    ("Also: Grafana Cloud's renewal is due 31 Jan.", {"grafana-cloud"}),  # after a function word and a colon
    ("The Sectra renewal quote came in on Friday.", {"sectra"}),  # after an article
    ("- 09:55 Tom upgraded nginx to 1.25", {"tom"}),  # after a list's dash and a time
    ("Datadog | Metrics, APM | $212,000", {"datadog"}),  # a table row's first cell
    ("Tom: upgraded nginx to 1.25", {"tom"}),
    ("runs on pg-prod-02", set()),  # an object after its verb
    ("Owner: Priya Nair", set()),  # a field's value
    ("waiting on Datadog quote", set()),
    ("after the Datadog renewal, so probably w/c 26 Oct", set()),  # after a preposition: a phrase of its own
    ("If Castlebrook commits to a 2-year term we can hold it at £5,090/yr.", set()),  # a clause of its own
    ("Python 3.11, Django 4.2 LTS locally", set()),  # a list of names opening the statement
    ("Last year we paid $9,600.", set()),  # no name at all
])
def test_a_name_stands_where_the_subject_does_when_no_content_word_precedes_it(text: str, leads: set[str]) -> None:
    assert _leads(text) == leads


@pytest.mark.parametrize(("leads", "placed", "keeps"), [
    (set(), {"checkly"}, True),  # names nothing where its subject stands
    ({"grafana-cloud"}, {"checkly"}, False),  # opens with another thing
    ({"checkly"}, {"checkly", "adr-007"}, True),  # opens with one of the things it is about by its place
])
def test_a_statement_keeps_its_place_unless_it_opens_with_another_thing(leads: set[str], placed: set[str],
                                                                        keeps: bool) -> None:
    assert keeps_place(leads, placed) is keeps


def _reached(title: str, statements: list[tuple[str, str, bool]]) -> dict[int, set[str]]:
    """Line -> the pages its statement reaches, for a note titled `title` of (text, scope, follows)."""
    ex = Extraction("n.md", "sha256:x", "markdown", title, "note", "general",
                    statements=[Statement(text, scope, line, line, "line", follows)
                                for line, (text, scope, follows) in enumerate(statements, start=3)])
    fed: dict = {}
    attach(ex, fed, FINDER, TITLES)
    out: dict[int, set[str]] = {}
    for slug, contribution in fed.items():
        for claim in contribution.claims:
            out.setdefault(claim.evidence.start, set()).add(slug)
    return out


@pytest.mark.parametrize(("title", "statements", "reached"), [
    # an email on Checkly: the line opening with another thing is that thing's; one naming nothing is Checkly's
    ("Checkly renewal", [("Also: Grafana Cloud's renewal is due 31 Jan.", "", False),
                         ("Last year we paid $9,600.", "", False)],
     {3: {"grafana-cloud"}, 4: {"checkly"}}),
    # a heading's thing runs on the host: both pages
    ("Platform notes", [("runs on pg-prod-02 since March", "Billing API", False)],
     {3: {"billing-api", "pg-prod-02"}}),
    # a section headed by a name alone: the person's items, whatever they open with
    ("Payments standup", [("nginx upgraded to 1.25 on Monday", "Tom", False),
                          ("Datadog bill was $23,400 in January", "Tom", False)],
     {3: {"tom", "nginx"}, 4: {"tom", "datadog"}}),
    # a section whose heading opens with its thing (an agenda item); the person opening an item is the subject
    ("Payments standup", [("Tom: upgraded nginx to 1.25", "Standup", False),
                          ("Tom: upgraded nginx to 1.25", "", False),
                          ("upgraded nginx to 1.25", "", False)],
     {3: {"standup", "tom", "nginx"}, 4: {"tom", "nginx"}, 5: {"payments", "nginx"}}),
    # a table row: its first cell is its subject; a row whose first cell is a label stays with the section
    ("Payments vendors", [("Datadog | Metrics, APM | $212,000", "", False),
                          ("Host | pg-prod-02 | 16 GB", "", False)],
     {3: {"datadog"}, 4: {"payments", "pg-prod-02"}}),
    # a record's fields and a clause of its own stay with the record
    ("ADR-007: Move the ledger to Aurora", [("Deciders: Priya Nair, Tom", "", False),
                                            ("If Castlebrook commits to 2 years we hold £5,090/yr.", "", False)],
     {3: {"adr-007", "priya-nair", "tom"}, 4: {"adr-007", "castlebrook"}}),
    # a list opening a statement names each in passing
    ("Payments onboarding", [("Python 3.11, Django 4.2 locally", "", False)],
     {3: {"payments", "python", "django"}}),
])
def test_a_statement_opening_with_another_thing_leaves_its_section_and_title(
        title: str, statements: list[tuple[str, str, bool]], reached: dict[int, set[str]]) -> None:
    assert _reached(title, statements) == reached


def test_a_continuation_opening_with_a_name_is_not_the_topic_before() -> None:
    reached = _reached("Vendor notes", [("Datadog sent the renewal quote", "", False),
                                        ("it is $23,400 a month", "", True),
                                        ("The Sectra quote came in at $9,000", "", True),
                                        ("new date thu 15 oct, Sectra signs", "", True)])
    assert reached == {3: {"datadog"}, 4: {"datadog"}, 5: {"sectra"}, 6: {"sectra"}}
