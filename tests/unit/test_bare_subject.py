"""A capitalised word opening its sentence as the bare subject of a verb is a name (issue 31's own example:
"Sentry handles error tracking; the contract renews on 2026-09-30." had no Sentry page): English puts a
determiner before a common noun that is a subject ("The sentry handles …"). Not a frequent word (a mass noun,
"Deployment is blocked"), not a word with an English ending or in -s ("Heterogeneous lists are", "Exposes
endpoints"), not a plural noun before its verb."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "4" * 64


def entities(text: str) -> set[str]:
    return {e.name for e in extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST)).entities}


@pytest.mark.parametrize("sentence, name", [
    ("Sentry handles error tracking; the contract renews on 2026-09-30.", "Sentry"),
    ("Ubuntu expires on 31 May 2027 on the build fleet.", "Ubuntu"),
])
def test_a_bare_subject_with_a_stated_fact_gets_a_page(sentence, name):
    assert name in entities(f"# Team notes\n\nSome words first.\n\n{sentence}\n")


@pytest.mark.parametrize("sentence", [
    "Deployment is blocked until 3 May.",
    "Everything is fine since 2 May.",
    "Heterogeneous lists are one example of 3 kinds.",
    "Exposes endpoints for 12 services.",
    "Unresolved questions remain after 3 rounds.",
])
def test_no_page_for_a_common_word_an_adjective_or_a_verb_opening_the_sentence(sentence):
    found = entities(f"# Notes\n\nSome words first.\n\n{sentence}\n")
    assert not {sentence.split()[0]} & found
