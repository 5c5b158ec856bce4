"""Issue 31: an identifier a note writes in a code span of its own is a thing where a noun beside it types
it or its sentence states a fact of it strongly, titled as written, its kind the noun; never a URL, a
file's name, a version, a hash, a placeholder, a setting, a command, nor anything in a document that shows
code (kctui.compiler.builtin.code_things). Phrasings of our own."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import code_things
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def entities(text: str) -> dict[str, str]:
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    return {e.name: e.entity_type for e in ex.entities}


@pytest.mark.parametrize("text, name, kind", [
    # typed by the noun after it, behind a determiner or opening its cell
    ("# Billing runbook\n\n- stuck invoices: run the `resync_ledger_rows` job by hand, it fixes most\n",
     "resync_ledger_rows", "job"),
    ("# Handover\n\n| thing | was | now |\n|---|---|---|\n| `vendor_feed_ftp` job | Priya | Oskar |\n",
     "vendor_feed_ftp", "job"),
    ("# Permits\n\nRetries go through the `permit_resend_q` queue (SQS), leave it alone.\n", "permit_resend_q", "queue"),
    # typed by the noun before it, after a preposition or a label's colon
    ("# Onboarding\n\n- [ ] licence via group `GRP-Lic-Std` (ask Wen)\n", "GRP-Lic-Std", "group"),
    ("# Epic\n\nepic: MOB-88 · flag: `watch_sync_beta` (off in prod)\n", "watch_sync_beta", "flag"),
    ("# Release 2.9\n\nBranch: `stable/2.9` (cut from main on Nov 3)\n", "stable/2.9", "branch"),
    ("# Payments runbook\n\n3. we check the signature with the secret in vault path `prod/tollgate/sig`\n",
     "prod/tollgate/sig", "path"),
    # stated of strongly: its sentence's subject, with a value
    ("# Warehouse\n\n- `wmsx_route_loads` port done, row counts match within 0.02% for 5 days\n",
     "wmsx_route_loads", ""),
])
def test_a_code_span_typed_or_stated_of_is_a_thing(text: str, name: str, kind: str) -> None:
    found = entities(text)
    assert name in found
    assert found[name] == kind or (not kind and found[name] in ("", "thing"))


@pytest.mark.parametrize("text, name", [
    # a passing mention: no noun types it, nothing stated of it
    ("# Notes\n\n- the numbers came from `orders_rollup` after the move\n", "orders_rollup"),
    # written as a setting somewhere in the note
    ("# Change\n\n- the `QUEUE_DEPTH_MAX` setting bumped\n- set `QUEUE_DEPTH_MAX=400` on the workers\n",
     "QUEUE_DEPTH_MAX"),
    # a URL's path
    ("# Runbook\n\nCallbacks hit `https://pay.example.org/api/cb/notify`.\n\n- logs: filter `cb/notify` in the group\n",
     "cb/notify"),
    # a file's name, a placeholder, a version
    ("# Release\n\n- the workflow `ci/deploy.yml` ran at 14:02, 41 wheels built\n", "ci/deploy.yml"),
    ("# Naming\n\n- laptops named via pattern `desk_xx` from the 2026 batch\n", "desk_xx"),
    ("# Upgrade\n\n- the module `2.4.1` is the default from 3 Oct\n", "2.4.1"),
    # ordinary words joined as code joins them: a pattern or a convention, not one thing
    ("# Versions\n\nEach branch starts with a `major.minor` release, patched monthly from 2019.\n", "major.minor"),
    # untyped, a variable of ordinary words (no title: name_checks.clean_title); a constant, an environment variable
    ("# Warehouse\n\n- `route_loads` port done, row counts match within 0.02% for 5 days\n", "route_loads"),
    ("# Disk\n\nThe environment variable `REPOS_PERCENT_FREE` is set to 10% by default.\n", "REPOS_PERCENT_FREE"),
    # a document that shows code: its identifiers are the code's
    ("# Design\n\nThe `retry_budget` flag caps retries at 3.\n\n```rust\nlet retry_budget = 3;\n```\n", "retry_budget"),
])
def test_no_page_for_a_code_span_that_is_no_thing(text: str, name: str) -> None:
    assert name not in entities(text)


@pytest.mark.parametrize("text, ok", [
    ("carrier_invoice_sftp", True), ("prod/pay360/hmac", True), ("maint/3.4", True), ("SG-Lic-E3", True),
    ("p4.lanternfall.lan", True), ("libsys-alerts@", True), ("#rcs-help", True), ("grip.vac_min_kpa", True),
    ("https://x.example.org/a", False), ("release.yml", False), ("tests/docker-compose.yml", False),
    ("RunParameters.xml", False), ("3.4.0", False), ("a3f9c1e", False), ("v3.x.y", False), ("ws-rem-xx", False),
    ("into_inner", False), ("snake_case", False), ("major.minor", False), ("Record.__getitem__", False), ("LN_", False), ("kubectl", False), ("12h", False),
])
def test_code_token(text: str, ok: bool) -> None:
    assert code_things.code_token(text) is ok


def _kind(plain: str) -> str:
    start = plain.index("`")
    end = plain.index("`", start + 1) + 1
    return code_things.kind(plain, nm.Span(plain[start + 1:end - 1], start, end, start == 0, "code", ()))


@pytest.mark.parametrize("plain, noun", [
    ("Oracle pw expiry for user `ETL_RO`. expires every 90 days", "user"),
    ("in the terraform repo `infra-core`, module `s3_raw`", "repo"),
    ("- salt state `render.client_ini` is merged", "state"),
    ("| `nightly_export` job | Priya |", "job"),
    ("the `permit_retry` queue (SQS)", "queue"),
    # a verb opening a task, an adjective, a verb's past after it: no noun
    ("- [ ] try `m7a.16xlarge` in the spot fleet", ""),
    ("a new `x_y` thing", ""),
    ("- module `cuda/12.4.1` added", ""),
    ("Datadog: drop `user_id` tag on the metrics", ""),
])
def test_kind(plain: str, noun: str) -> None:
    assert _kind(plain) == noun
