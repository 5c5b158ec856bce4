"""Issue 31, precision and titles at a sentence's start: a word that opens a sentence before a determiner
is a verb, not a name ("Reinstall the previous package: …" is a step), while a name before a verb keeps
its page. Phrasings of our own."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "6" * 64


def entity_names(text: str) -> set[str]:
    return {e.name for e in extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST)).entities}


@pytest.mark.parametrize("text, word", [
    ("# Runbook\n\n1. Reinstall the previous package: `dnf downgrade zorbit-23.0.7`\n", "Reinstall"),
    ("# Runbook\n\n- Redeploy our worker with 4 replicas after 22:00.\n", "Redeploy"),
    ("# Notes\n\nReindex the archive tables on 3 March, it takes 40 minutes.\n", "Reindex"),
])
def test_a_word_opening_a_sentence_before_a_determiner_is_a_verb(text, word):
    assert word not in entity_names(text)


@pytest.mark.parametrize("text, name", [
    ("# Notes\n\nQuarvex rotates the keys every 90 days.\n", "Quarvex"),  # a name before a verb keeps its page
])
def test_a_name_opening_a_sentence_keeps_its_page(text, name):
    assert name in entity_names(text)


@pytest.mark.parametrize("text, not_a_name", [
    ("# Notes\n\nAlso: Revisit Budget in March, 3 items.\n", "Revisit Budget"),  # an English first word
    ("# Notes\n\nNote: Preconfigured Dashboards ship with 12 panels.\n", "Preconfigured Dashboards"),
])
def test_ordinary_words_opening_a_sentence_are_no_name(text, not_a_name):
    assert not_a_name not in entity_names(text)
