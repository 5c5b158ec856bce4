"""Issue 31: a name written as code (a token joined by hyphens or dots) that its sentence states a fact of
gets a page on one mention where the text sets it apart: in a code span or quotes of its own, or, in
lower case, ending in a host's number (kctui.compiler.builtin.code_named). Phrasings of our own."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import code_named
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "6" * 64


def entity_names(text: str) -> set[str]:
    return {e.name for e in extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST)).entities}


@pytest.mark.parametrize("text, name", [
    ("# Runbook\n\nThe alert pages the `lumen-urgent` rotation within 5 minutes of the first failure.\n",
     "lumen-urgent"),
    ('# On-call\n\nPager is the rotation "tide-ops" from 2 March, backup is whoever is free.\n', "tide-ops"),
    ("# Storage\n\n- seeded the bucket `quarry-vault-9y` with 2.1 TB on Tuesday night\n", "quarry-vault-9y"),
    ("# Hosts\n\n- tailscale reaches bastion-fr-01 from the office subnet since 3 May\n", "bastion-fr-01"),
    ("# Hosts\n\nThe sessions cache is cache-edge-1 now, 4 GB, shared with the rate limiter.\n", "cache-edge-1"),
])
def test_a_name_written_as_code_with_a_fact_gets_a_page_on_one_mention(text: str, name: str) -> None:
    assert name in entity_names(text)


@pytest.mark.parametrize("text, name", [
    # a passing mention: no value, not the subject
    ("# Hosts\n\n- the logs went to `tarn-ingest` after the move\n", "tarn-ingest"),
    # a compound English makes, unmarked, is no name
    ("# Notes\n\nWe saw 14 drop-offs at the checkout step on Monday after the release.\n", "drop-offs"),
    # a machine size after an English word: no host's number
    ("# Cloud\n\nThe workers moved to us-east4 last week, 40 ms closer to the users.\n", "us-east4"),
    # a placeholder pattern
    ("# Naming\n\nLaptops are named `ws-rem-xx` from 2026, numbered by desk.\n", "ws-rem-xx"),
    # a bare domain
    ('# Links\n\nStatus lives at "status.quarrylane.io" since 4 June, per the vendor.\n', "status.quarrylane.io"),
])
def test_no_page_for_what_is_not_a_name_written_as_code(text: str, name: str) -> None:
    assert name not in entity_names(text)


@pytest.mark.parametrize("text, shaped", [
    ("copperline-dev", True), ("AF-Win11-2026.09", True), ("pg-settle-04", True),
    ("long-running", False), ("re-auth", False), ("end-to-end", False), ("v1.2.3", False), ("16GB", False),
    ("runbook.md", False), ("docs.example.org", False), ("x-y", False),
])
def test_code_shaped(text: str, shaped: bool) -> None:
    assert code_named.code_shaped(text) is shaped


@pytest.mark.parametrize("text, host", [
    ("pg-settle-04", True), ("kestrel-login01", True), ("cache-prod-1", True), ("rms-idf2-sw1", True),
    ("e2-standard-2", False), ("us-east4", False), ("payouts-critical", False),
])
def test_host_number(text: str, host: bool) -> None:
    assert code_named.host_number(text) is host

