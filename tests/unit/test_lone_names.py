"""Issue 31, one word written as a name, not as code (kctui.compiler.builtin.lone_names, EXTRACTOR_VERSION
41): a rare capitalised word mid-sentence gets a page on one mention; a coined lower-case word recurs where
another source writes it. Tables with phrasings of our own (not the notes corpus's)."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import lone_names
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def entity_names(text: str) -> set[str]:
    return {e.name for e in extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST)).entities}


def _span(plain: str, word: str) -> nm.Span:
    start = plain.index(word)
    return nm.Span(word, start, start + len(word), start == 0, "caps", (word,))


@pytest.mark.parametrize("plain, word, expected", [
    ("laptop from IT, enroll in Quorvex, disk encryption on", "Quorvex", True),   # after a lower-case word, no value
    ("ticket via Zendrix, ~3 days", "Zendrix", True),
    ("Local stack: Postgres 15, Brindlemq (standing in for Kafka)", "Brindlemq", True),  # after a comma
    ("(replaced Quorvex in Sept 2025)", "Quorvex", True),                          # a bracket before the word
    ("Quorvex went down at 9", "Quorvex", False),                                  # a sentence start says nothing
    ("the team: Quorvex is down", "Quorvex", False),                               # after a colon
    ("custom role Device Quorvex granted", "Quorvex", False),                      # part of a run of capitals
    ("audited by Quorvex & Reid again", "Quorvex", False),                         # part of a name joined by "&"
    ("the old Quorvex Cloud plan", "Quorvex", False),                              # before another capital
    ("moved it to Slack", "Slack", False),                                         # frequent in English
    ("the export Expired yesterday", "Expired", False),                            # an English ending
    ("sent 11 updates to Revs", "Revs", False),                                    # an English plural
])
def test_rare_capital(plain, word, expected):
    assert lone_names.rare_capital(plain, _span(plain, word)) is expected


def test_a_word_of_capitals_and_a_word_shaped_otherwise_are_not_lone_capitals():
    plain = "we moved to QuorVexCloud and QUORVEX"
    assert not lone_names.rare_capital(plain, nm.Span("QuorVexCloud", 12, 24, False, "shaped", ("QuorVexCloud",)))
    assert not lone_names.rare_capital(plain, nm.Span("QUORVEX", 29, 36, False, "caps", ("QUORVEX",)))


@pytest.mark.parametrize("text, name, expected", [
    ("# Onboarding\n\n- laptop from IT, enroll in Quorvex, disk encryption on\n", "Quorvex", True),
    ("# Notes\n\nTickets go via Zendrix and take about 3 days.\n", "Zendrix", True),
    ("# Notes\n\nSomeone mentioned Zendrix while we talked about lunch.\n", "Zendrix", False),  # no value, prose
    ("# Notes\n\nQuorvex went down this morning.\n", "Quorvex", False),            # a passing mention at most
    ("# Notes\n\nWe moved the chat to Slack last week.\n", "Slack", False),
])
def test_a_rare_capital_mid_sentence_gets_a_page_on_one_mention(text, name, expected):
    assert (name in entity_names(text)) is expected


@pytest.mark.parametrize("name, expected", [
    ("tokenvexd", True),       # English lacks it
    ("pagerduty", True),
    ("invoice", False),        # an English word
    ("deployer", False),       # English derives it (deploy + er)
    ("standup", False),        # two English words run together
    ("etl-01", False),         # a host's shape: not letters only
    ("Quorvex", False),        # capitalised: the capital's own rule
])
def test_coined_word(name, expected):
    assert lone_names.coined_word(name) is expected


@pytest.mark.parametrize("plain, word, expected", [
    ("laptop from IT, enroll in Quorvex, DiskGuard on", "DiskGuard", True),      # two capitalised parts
    ("rows move to MyQRL nightly", "MyQRL", True),                               # a word and a short acronym
    ("pods stuck in CrashLoopOver again", "CrashLoopOver", False),               # three parts: code's name of a state
    ("the pod was OOMKilled twice", "OOMKilled", False),                          # capitals first
    ("add a vNIC to the host", "vNIC", False),                                    # a lower-case first letter
    ("files live in GitHub now", "GitHub", False),                                # English has it
])
def test_rare_capital_of_two_parts(plain, word, expected):
    start = plain.index(word)
    span = nm.Span(word, start, start + len(word), False, "shaped", (word,))
    assert lone_names.rare_capital(plain, span) is expected


def test_a_word_of_two_parts_in_a_list_item_gets_a_page_on_one_mention():
    assert "DiskGuard" in entity_names("# Onboarding\n\n- laptop from IT, turn DiskGuard on\n")
    assert "DiskGuard" not in entity_names("# Notes\n\nSomeone said DiskGuard while we talked about lunch.\n")


@pytest.mark.parametrize("plain, word", [
    ("- `FOLLOW(x)` = `{FatArrow, Comma, Semi}`", "Comma"),   # inside a code span
    ("- from Tyctor(`T`) to the inner type", "Tyctor"),       # called like a function
])
def test_code_is_no_lone_capital(plain, word):
    assert not lone_names.rare_capital(plain, _span(plain, word))


@pytest.mark.parametrize("plain, name, expected", [
    ("- SSO for the intranet via Quorvex Workspace", "Quorvex Workspace", True),
    ("- checked by Clinical Safety, Dr Odile Brannagh", "Dr Odile Brannagh", True),
    ("- migrated from the old Oct Quorvex export", "Oct Quorvex", False),      # a month's name
    ("- single sign-on via Quorvex SSO", "Quorvex SSO", False),                # an acronym glues words
    ("- moved to Shared Drives", "Shared Drives", False),                      # ordinary words
])
def test_two_or_three_words_as_a_name(plain, name, expected):
    start = plain.index(name)
    span = nm.Span(name, start, start + len(name), False, "caps", tuple(name.split()))
    assert lone_names.rare_capital(plain, span) is expected
