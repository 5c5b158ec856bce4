"""The mention step's re-read of unchanged sources (kctui.compiler.steps.mention_pass): the nouns of the
event pages named anew, which a source may write alone ("Renewal: quote …" in the note on Fastly).
The whole path, incremental against full, is
tests/integration/test_mentions_compile.py::test_an_event_page_a_new_note_makes_collects_the_unchanged_notes_lines_that_write_its_noun."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.mention_pass import _holds_word, new_event_nouns

EVENTS = {"fastly": [("renewal", "fastly-renewal")], "ckf": [("cutover", "ckf-cutover"), ("Migration", "ckf-migration")]}
NAMES = {"fastly-renewal": ["Fastly renewal"], "ckf-cutover": ["CKF cutover"], "ckf-migration": ["CKF Migration"]}


@pytest.mark.parametrize(("anew", "nouns"), [
    ({"fastly renewal"}, {"renewal"}),  # the event's page is named anew: its noun reaches it
    ({"ckf cutover", "ckf migration"}, {"cutover", "migration"}),  # (case-folded)
    ({"fastly"}, set()),  # the thing anew, not its event: no noun
    (set(), set()),
])
def test_the_nouns_of_the_event_pages_named_anew(anew: set[str], nouns: set[str]) -> None:
    assert new_event_nouns(EVENTS, NAMES, anew) == nouns


@pytest.mark.parametrize(("text", "words", "held"), [
    ("Renewal: quote £2,150/mo for 12 months", {"renewal"}, True),
    ("renewals are due in March", {"renewal"}, False),  # another word
    ("Renewal: quote", set(), False),
])
def test_a_statement_writing_the_noun_alone(text: str, words: set[str], held: bool) -> None:
    assert _holds_word(text, words) is held
