"""Issue 31, trust: a line of a note that names other things and not the title's leaves the title's page
(kctui.compiler.steps.title_scope, in the mention step). Names of our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.name_finder import NameFinder
from kctui.compiler.steps.title_scope import leaves_title, leaving, record_pages

FINDER = NameFinder({"quillpool": ["QuillPool"], "redwick": ["Redwick"], "tarn-db": ["tarn-db"],
                     "amber-aurora": ["Amber Aurora Cloud"], "aurora": ["Aurora"]})


@pytest.mark.parametrize("text, titled, leaves", [
    # another thing's line: it names tarn-db and not QuillPool
    ("look at `tarn-db` CPU in the console. >80% = trouble", {"quillpool"}, True),
    ("2. Redwick, provisioned, three brokers in eu-west-1.", {"quillpool"}, True),
    # kept: it names nothing, it names the title's thing, it is a field of the note
    ("canary was only 5% for 10 min, which wasnt enough to see it.", {"quillpool"}, False),
    ("QuillPool runs on tarn-db since March", {"quillpool"}, False),
    ("owner: Redwick (backup: Tom)", {"quillpool"}, False),
    ("- **Applies to:** tarn-db (active)", {"quillpool"}, False),
    # kept: a word opening one of the title's thing's names stands in it
    ("So we're moving ledger-svc to Amber Aurora Cloud 15", {"aurora"}, False),
    # nothing placed by the title
    ("2. Redwick, provisioned", set(), False),
])
def test_leaves_title(text, titled, leaves):
    assert leaves_title(text, FINDER.ordered(text), titled, FINDER.heads) is leaves


@pytest.mark.parametrize("title, subject, record, pages", [
    ("ADR-007: Move the queue to Redwick", "adr-007", "", {"adr-007"}),  # a title opening with an identifier
    ("Postmortem: QuillPool queue stuck — INC-4471", "quillpool", "inc-4471", {"inc-4471"}),  # named apart
    ("QuillPool runbook", "quillpool", "", set()),
    ("Onboarding — Ana Ruiz", "ana-ruiz", "", {"ana-ruiz"}),  # a person's own note
])
def test_record_pages(title, subject, record, pages):
    assert record_pages(title, subject, record, {"ana-ruiz": ["Ana"]}) == pages


def test_a_records_write_up_stays_on_its_page():
    text = "Option 2, logical replication to tarn-db then cutover."
    places = FINDER.ordered(text)
    assert leaving(text, places, {"adr-007", "redwick"} - {"adr-007"}, FINDER.heads) == {"redwick"}
