"""Issue 31: an identifier with underscores a document names as a thing (its tables, jobs, warehouses,
routes) gets a page like any name, and one it writes as a setting, a call, a member or a key does not; a
document that shows code names none so (kctui.compiler.builtin.identifiers, EXTRACTOR_VERSION 39). Positive
and negative tables, with phrasings of our own (not the notes corpus's)."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import identifiers, sentences
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source
from kctui.core.slugs import identity_key

DIGEST = "sha256:" + "7" * 64


def _doc(text: str):
    return read_source("notes/n.md", text.encode("utf-8"), DIGEST)


def entity_names(text: str) -> set[str]:
    return {e.name for e in extract_document(_doc(text)).entities}


def passing_names(text: str) -> set[str]:
    return {e.name for e in extract_document(_doc(text)).passing}


def named(text: str) -> set[str]:
    doc = _doc(text)
    return set(identifiers.named(sentences.units(doc) + sentences.row_units(doc), doc))


@pytest.mark.parametrize("text, name", [
    # a table named in two sentences that say something of it (bare in one of them)
    ("# Standup\n\n- the nightly `orchard_stock_daily` rebuild took 3h again\n"
     "- orchard_stock_daily is now split into 4 chunks, done by 06:00\n", "orchard_stock_daily"),
    # an identifier in capitals, a warehouse, in a list item and a table row
    ("# Handover\n\n- QUINCE_LOAD_WH credits at 140/day this week\n\n| when | what |\n| --- | --- |\n"
     "| Tue 02:10 | QUINCE_LOAD_WH suspended for 2 hours |\n", "QUINCE_LOAD_WH"),
])
def test_an_identifier_named_in_two_sentences_gets_a_page(text, name):
    assert name in entity_names(text)


def test_an_identifier_named_once_is_a_passing_mention():
    # a page once another source names it too (kctui.compiler.steps.recurrence)
    text = "# Todo\n\n- [ ] retire the plover_exports_v2 job, nobody reads it since March\n"
    assert "plover_exports_v2" in passing_names(text) | entity_names(text)


@pytest.mark.parametrize("text, not_a_name", [
    # a setting with its value after `=`, a `: value`, a comparison
    ("# Notes\n\n- set pool_size=40 on the proxy on 3 May\n- pool_size is too low for 200 clients\n", "pool_size"),
    ("# Notes\n\n- the worker reads `retry_limit: 5` from its config\n- we never saw retry_limit fire in 2 weeks\n", "retry_limit"),
    ("# Notes\n\n- alert when queue_depth > 500 for 10 min\n- queue_depth was 80 at 09:00\n", "queue_depth"),
    # a setting given a new value a word or two on, or after the identifier whose setting it is
    ("# Notes\n\n- idle_timeout bumped to 60s on 4 May\n- idle_timeout was 300s before\n", "idle_timeout"),
    ("# Notes\n\n- set MAIN_WH idle_secs 300 → 60 on 4 May\n- idle_secs saves 10 credits a day\n", "idle_secs"),
    # a column in a call or a list, a member after a dot, a key in a template path
    ("# Notes\n\n- index on orders(buyer_ref, placed_at) cut p95 to 90ms\n- buyer_ref is unique per day\n", "buyer_ref"),
    ("# Notes\n\n- check `runs.sealed_at` before 03:00\n- sealed_at moves 2 hours on a rerun\n", "sealed_at"),
    ("# Notes\n\n- logs under /data/logs/<batch_key>/ for 7 days\n- batch_key is one per night, 1 of 30\n", "batch_key"),
])
def test_a_setting_a_call_a_member_or_a_key_is_no_name(text, not_a_name):
    assert identity_key(not_a_name) not in named(text)
    assert not_a_name not in entity_names(text)


def test_a_document_that_shows_code_names_no_identifier_so():
    text = ("# Proposal\n\nThe new read_chunked method reads 4 KB at a time.\n\n"
            "```rust\nfn main() {}\n```\n\nread_chunked returns the count read, 0 at the end.\n")
    assert not named(text)
    assert "read_chunked" not in entity_names(text)


@pytest.mark.parametrize("plain, found", [
    ("port `tern_daily_loads` and tern_gps_pings by 11/19", ["tern_daily_loads", "tern_gps_pings"]),
    ("no identifier here, only words", []),
])
def test_spans_cover_a_code_span_of_its_own(plain, found):
    keys = frozenset(identity_key(f) for f in found)
    spans = identifiers.spans(plain, keys)
    assert [s.text for s in spans] == found
    if spans and "`" in plain:
        assert plain[spans[0].start] == "`" and plain[spans[0].end - 1] == "`"


@pytest.mark.parametrize("text, shows", [
    ("# Proposal\n\nAdd `fn drain_all(&mut self)`, keep `Vec<T>` and `io::copy` as they are.\n", True),
    ("# Proposal\n\n```\nmake all\n```\n", True),
    # a team's note quoting a query or a call now and then does not
    ("# Runbook\n\n- check `runs.sealed_at` and run `rerun(3)` if it is empty\n", False),
    ("# Notes\n\n- the `orchard_stock_daily` rebuild took 3h\n", False),
])
def test_a_document_shows_code_by_a_block_or_three_inline_spans_of_code(text, shows):
    assert identifiers.shows_code(_doc(text)) is shows


@pytest.mark.parametrize("plain, keys", [
    # a noun after a name, an acronym or a determiner says what the code span names
    ("Alerts page the Opsgenie service `wren-batch-late` at night", {"wren-batch-late"}),
    ("- offsite copy: Wasabi bucket `tally-nas-offsite`, 30 day lock", {"tally-nas-offsite"}),
    ("the Airbyte connector (`ledgerly_pg_prod`) failed twice", {"ledgerly_pg_prod"}),
    # a verb's object, a determiner before the span, a setting: none
    ("reset pgbouncer `pool_mode` from transaction", set()),
    ("a new `event_code` value arrived", set()),
    ("the worker reads `retry_limit: 5` from its config", set()),
])
def test_a_code_span_typed_by_the_noun_before_it(plain, keys):
    assert identifiers.typed(plain) == frozenset(keys)


def test_a_typed_code_span_gets_a_page_on_one_mention():
    text = "# Alerts\n\n- Alerts page the Opsgenie service `wren-batch-late`, owned by Ana.\n"
    assert "wren-batch-late" in entity_names(text)


@pytest.mark.parametrize("plain, found", [
    ("the nightly run picked up PR #4410 (dedup change)", ["PR #4410"]),
    ("CR #77 and CR #78 both wait on review", ["CR #77", "CR #78"]),
    # no acronym before the number: a ticket's number alone, of three digits or more (session 22); a
    # heading's sign, one or two digits: none
    ("see #4410 and ticket #51", ["#4410"]),
    ("## 3 items, PR #7 too", []),
])
def test_a_record_named_by_its_kinds_acronym_and_number(plain, found):
    assert [s.text for s in identifiers.numbered_records(plain)] == found


def test_a_record_named_by_acronym_and_number_gets_a_page_on_one_mention():
    text = "# Timeline\n\n- 06:10 the nightly run picks up PR #4410, a change to the dedup logic\n"
    assert "PR #4410" in entity_names(text)


@pytest.mark.parametrize("host", ["wren-mgmt01", "tally-login02", "ops-db-01"])
def test_a_hosts_zero_padded_number_is_a_passing_mention_named_once(host):
    # a page once another source names it too (kctui.compiler.steps.recurrence)
    text = f"# Notes\n\n- don't restart the file server on {host} during the day, ask me first\n"
    assert host in passing_names(text) | entity_names(text)


@pytest.mark.parametrize("text, not_a_name", [
    # only in a code span, in quotes or in a table's cells (a schema's fields): the document does not name it
    ("# Notes\n\n- the `quill_rows` count went 40 to 41 on 3 May\n- `quill_rows` was 80 at 09:00\n", "quill_rows"),
    ("# Notes\n\nWhat we call a reader is called a \"weekly_reader\" in the pings, 3 a week.\n", "weekly_reader"),
    ("# Fields\n\n| field | meaning |\n| --- | --- |\n| app_tier | plan, 1 to 3 |\n| app_zone | region, 2 |\n", "app_tier"),
    # an identifier opening with a function word names a method
    ("# Notes\n\n- into_parts splits the reader in 2\n- into_parts is cheap, 1 call\n", "into_parts"),
])
def test_an_identifier_the_document_does_not_name_as_a_word_of_its_own(text, not_a_name):
    assert identity_key(not_a_name) not in named(text)


def test_a_typed_code_span_is_named_though_only_in_code():
    text = "# Notes\n\n- the Airbyte connector (`ledgerly_pg_prod`) failed twice on 3 May\n"
    assert "ledgerly_pg_prod" in named(text)
