"""Issue 31, facts on their subject's page: a title that opens with a party's name and names an event of a thing
after a separator is about the event and its thing (kctui.compiler.steps.title_event, hooked into the mention
step's `title_subjects`). Titles of our own (not the notes corpus's)."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.name_finder import NameFinder, written_words
from kctui.compiler.steps.statement_pages import title_subjects
from kctui.compiler.steps.title_event import title_event

PAGES = {"brackenfold": ["Brackenfold Ltd", "Brackenfold"], "quillpool": ["QuillPool"],
         "quillpool-renewal": ["QuillPool renewal"], "tarnmoor": ["Tarnmoor"],
         "tarnmoor-migration": ["Tarnmoor migration"], "ana-petrova": ["Ana Petrova"]}
FINDER = NameFinder(PAGES)


@pytest.mark.parametrize("title, expected", [
    ("Brackenfold – QuillPool renewal (exp. 3/31)", ("quillpool-renewal", "quillpool")),  # after an en dash
    ("RE: Brackenfold — QuillPool renewal", ("quillpool-renewal", "quillpool")),
    ("Brackenfold / Tarnmoor migration — kickoff", ("tarnmoor-migration", "tarnmoor")),  # after a slash
    # no event after the party: the part opens with a plain name, a word, or names nothing
    ("Brackenfold — QuillPool sync", None),
    ("Brackenfold — QuillPool", None),
    ("Brackenfold — notes on the QuillPool renewal", None),
    ("Onboarding — Ana Petrova", None),
    # no name before the separator: the title's first name is the event already
    ("Renewal notes — QuillPool renewal", None),
])
def test_title_event(title, expected):
    assert title_event(title, FINDER.ordered, written_words) == expected


@pytest.mark.parametrize("title, subjects", [
    ("Brackenfold – QuillPool renewal (exp. 3/31)", ("quillpool-renewal", "quillpool")),
    ("QuillPool renewal – Brackenfold – 2027", ("quillpool-renewal", "quillpool")),  # opening with the event
    ("Brackenfold — QuillPool sync", ("brackenfold", "")),  # the party stays the subject
    ("Tarnmoor migration — Ana Petrova", ("tarnmoor-migration", "tarnmoor")),
])
def test_title_subjects(title, subjects):
    assert title_subjects(title, FINDER) == subjects
