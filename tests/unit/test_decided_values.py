"""kctui.core.decided_values and kctui.compiler.trust.decided_pages (QA session 32, T): which claims a person's
decision on a conflict covers, the flags they carry, and the record a decision leaves on its page."""

from __future__ import annotations

import pytest

from kctui.compiler.trust.decided_pages import base_records, decided_page, decision_of, encoded, mark_page
from kctui.core.claims import parse_claim_line
from kctui.core.decided_values import (
    CHOSEN,
    CLAIMS_KEY,
    DECIDED_KEY,
    REJECTED,
    covered,
    decided_rank,
    flag_text,
    record,
    side,
    span,
)
from kctui.core.page_status import split_page
from kctui.core.pages import parse_page, render_page, strip_kept
from kctui.core.record_tables import AGAINST_MARK, DECIDED_MARK

REC = record(subject="RabbitMQ", attribute="date", scope="", chosen="28 Nov 2026",
             chosen_citation="later.md:L5-L5", rejected="14 Nov 2026",
             rejected_lines=["plan.md:L4-L4", "sync.md:L5-L5"], action="use_new", by="human:ada",
             at="2026-12-07T10:00:00Z")


def claim(line: str):
    c = parse_claim_line(line, {})
    assert c is not None, line
    return c


@pytest.mark.parametrize(("line", "want"), [
    ("* **RabbitMQ** — date: 14 Nov 2026 ^[plan.md:L4-L4]", REJECTED),  # the rejected claim
    ("* **RabbitMQ** — date: 14 Nov 2026 ^[sync.md:L5-L5]", REJECTED),  # another line stating it
    ("* **RabbitMQ shutdown** — note: RabbitMQ shutdown: 14 Nov 2026. ^[sync.md:L5-L5]", REJECTED),  # a note of the line
    ("* **Platform sync** — RabbitMQ shutdown: 14 Nov 2026. ^[sync.md:L4-L6]", REJECTED),  # lines overlapping
    ("* **RabbitMQ** — date: 2026-11-14 ^[plan.md:L4-L4]", None),  # another spelling: not the value stated
    ("* **RabbitMQ** — date: 14 Nov 2026 ^[other.md:L4-L4]", None),  # a line the decision did not see
    ("* **RabbitMQ** — date: 14 Nov 2026 ^[plan.md:L9-L9]", None),  # another line of the file
    ("* **Kafka** — date: 14 Nov 2026 ^[plan.md:L4-L4]", None),  # another thing's fact on the same line
    ("* **RabbitMQ** — note: 14 Nov 2026, not 28 Nov 2026 ^[plan.md:L4-L4]", None),  # it holds both values
    ("* **RabbitMQ** — date: 28 Nov 2026 ^[later.md:L5-L5]", CHOSEN),
    ("* **RabbitMQ shutdown** — note: RabbitMQ shutdown: 28 Nov 2026. ^[later.md:L5-L5]", CHOSEN),
    ("* **RabbitMQ** — date: 28 Nov 2026 ^[plan.md:L4-L4]", None),  # the chosen value from a rejected line
])
def test_which_claims_a_decision_covers(line: str, want: str | None) -> None:
    assert side(REC, claim(line)) == want


@pytest.mark.parametrize(("text", "rank"), [
    (f"RabbitMQ — date: 28 Nov 2026{DECIDED_MARK} on 2026-12-07, over 14 Nov 2026)", 0),
    ("Price: $2,400 / month (⚑ kept by a person on 2026-05-28: the source now says $2,750 / month)", 0),
    ("RabbitMQ — date: 14 Nov 2026", 1),
    (f"RabbitMQ — date: 14 Nov 2026{AGAINST_MARK} on 2026-12-07, for 28 Nov 2026)", 2),
])
def test_decided_rank(text: str, rank: int) -> None:
    assert decided_rank(text) == rank


@pytest.mark.parametrize(("cited", "want"), [
    ("plan.md:L4-L4", ("plan.md", 4, 4)), ("a b/c.md:L2-L9", ("a b/c.md", 2, 9)), ("doc.pdf:p3", ("doc.pdf", 3, 3)),
    (r"x\]y.md:L1-L2", ("x]y.md", 1, 2)), ("plan.md", None), ("plan.md:4", None),
])
def test_span(cited: str, want) -> None:
    assert span(cited) == want


PAGE = """---
type: Source
title: Sync
compile_status: compiled
sources:
- id: sync-md
  resource: sync.md
  digest: sha256:aa
---

# Sync

## Summary

Sync notes. ^[sync.md:L1-L1]

## Key Claims

* **RabbitMQ** — date: 14 Nov 2026 ^[sync.md:L5-L5]
* **RabbitMQ shutdown** — note: RabbitMQ shutdown: 14 Nov 2026. ^[sync.md:L5-L5]
* **Kafka** — owner: Lena Vogel ^[sync.md:L7-L7]

## Updates

* created
"""


def test_flag_text_flags_the_lines_and_records_them() -> None:
    text = flag_text(PAGE, [REC])
    fm, body = split_page(text)
    flagged = [ln for ln in body.split("\n") if AGAINST_MARK in ln]
    assert flagged == [
        f"* **RabbitMQ** — date: 14 Nov 2026{AGAINST_MARK} on 2026-12-07, for 28 Nov 2026) ^[sync.md:L5-L5]",
        f"* **RabbitMQ shutdown** — note: RabbitMQ shutdown: 14 Nov 2026.{AGAINST_MARK} on 2026-12-07, for 28 Nov 2026)"
        " ^[sync.md:L5-L5]"]
    assert [e["side"] for e in fm[CLAIMS_KEY]] == [REJECTED, REJECTED]
    assert "* **Kafka** — owner: Lena Vogel ^[sync.md:L7-L7]" in body
    assert flag_text(text, [REC]) == text  # once is enough
    assert flag_text(PAGE, []) == PAGE  # nothing to flag: the same text
    page = parse_page(text, "sync-md")  # the compiler reads the values, not the flags
    assert [c.value for c in page.claims][:2] == ["14 Nov 2026", "RabbitMQ shutdown: 14 Nov 2026."]
    unflagged = flag_text(text, [], replace=True)  # every decision gone (undone): the flags go
    assert AGAINST_MARK not in unflagged and CLAIMS_KEY not in split_page(unflagged)[0]


def test_a_source_pages_summary_stating_the_rejected_value_is_flagged() -> None:
    page_text = PAGE.replace("Sync notes. ^[sync.md:L1-L1]", "Sync notes. RabbitMQ shutdown: 14 Nov 2026. ^[sync.md:L1-L5]")
    text = flag_text(page_text, [REC])
    summary = split_page(text)[1].split("## Summary\n\n")[1].split("\n")[0]
    assert summary == f"Sync notes. RabbitMQ shutdown: 14 Nov 2026.{AGAINST_MARK} on 2026-12-07, for 28 Nov 2026) ^[sync.md:L1-L5]"
    page = parse_page(text, "sync-md")  # read back without the flag, rendered with it
    assert page.summary is not None and page.summary[0] == "Sync notes. RabbitMQ shutdown: 14 Nov 2026."
    assert summary in render_page(page, {}, "wikilink")
    mark_page(page, [REC])
    assert summary in render_page(page, {}, "wikilink")


def test_the_renderer_flags_the_claims_a_page_records() -> None:
    page = parse_page(PAGE, "sync-md")
    mark_page(page, [REC])
    assert [e["value"] for e in page.extra[CLAIMS_KEY]] == ["14 Nov 2026", "RabbitMQ shutdown: 14 Nov 2026."]
    body = render_page(page, {}, "wikilink")
    assert body.count(AGAINST_MARK) == 2
    mark_page(page, [])
    assert CLAIMS_KEY not in page.extra and AGAINST_MARK not in render_page(page, {}, "wikilink")


DECIDED = """---
type: Entity
title: RabbitMQ
compile_status: contradicted
sources:
- {id: plan-md, resource: plan.md, digest: sha256:aa}
- {id: sync-md, resource: sync.md, digest: sha256:bb}
- {id: later-md, resource: later.md, digest: sha256:cc}
---

> **Status: contradicted** — the sources disagree on 1 fact; a person decides.
>
> * **RabbitMQ** — date: 14 Nov 2026 ^[plan.md:L4-L4]
> * **RabbitMQ** — date: 28 Nov 2026 ^[later.md:L5-L5]

# RabbitMQ

## Key Positions/Products/Claims

* **RabbitMQ** — date: 14 Nov 2026 ^[plan.md:L4-L4]
* **RabbitMQ** — date: 14 Nov 2026 ^[sync.md:L5-L5]
* **RabbitMQ** — note: RabbitMQ shutdown: 14 Nov 2026. ^[sync.md:L5-L5]
* **RabbitMQ** — note: The cluster is being retired. ^[plan.md:L3-L3]
"""
DETAILS = {"existing": {"value": "14 Nov 2026", "citation": "plan.md:L4-L4"},
           "incoming": {"value": "28 Nov 2026", "citation": "later.md:L5-L5"}}


def test_decision_of_records_every_line_stating_the_rejected_value() -> None:
    rec = decision_of(DECIDED, DETAILS, "use_new", by="human:ada", at="2026-12-07T10:00:00Z")
    assert rec is not None
    assert (rec["chosen"], rec["rejected"], rec["subject"], rec["attribute"]) == ("28 Nov 2026", "14 Nov 2026",
                                                                                 "RabbitMQ", "date")
    assert rec["rejected_lines"] == ["plan.md:L4-L4", "sync.md:L5-L5"]
    kept = decision_of(DECIDED, DETAILS, "keep", by="human:ada", at="2026-12-07T10:00:00Z")
    assert kept is not None and (kept["chosen"], kept["rejected_lines"]) == ("14 Nov 2026", ["later.md:L5-L5"])
    assert decision_of(DECIDED, DETAILS, "dismiss", by="x", at="y") is None
    assert decision_of(DECIDED, {"existing": {"value": "9", "citation": "plan.md:L1-L1"}, "incoming": {}},
                       "use_new", by="x", at="y") is None


def test_decided_page_keeps_one_value_and_records_the_decision() -> None:
    from kctui.compiler.trust.disputes import decide_dispute, fingerprint

    rec = decision_of(DECIDED, DETAILS, "use_new", by="human:ada", at="2026-12-07T10:00:00Z")
    assert rec is not None
    fp = fingerprint(("date", "", ""), "14 nov 2026", "28 nov 2026")
    after, _ = decide_dispute(DECIDED, fp, "use_new")
    text = decided_page(after, rec, DECIDED)
    fm, body = split_page(text)
    said = [strip_kept(ln) for ln in body.split("\n") if ln.startswith("* ")]
    assert not [ln for ln in said if "14 Nov 2026" in ln]  # the other note's line and its restatement leave too
    assert any(DECIDED_MARK in ln and "28 Nov 2026" in ln for ln in body.split("\n"))
    assert fm[DECIDED_KEY] == [rec]
    assert "* **RabbitMQ** — note: The cluster is being retired. ^[plan.md:L3-L3]" in said


def test_records_travel_as_json() -> None:
    extra = {DECIDED_KEY: [REC, {"chosen": ""}, "junk"]}
    assert base_records([*encoded(extra), "{not json"]) == [REC]
    assert covered([claim("* **RabbitMQ** — date: 14 Nov 2026 ^[plan.md:L4-L4]")], [REC])[0]["side"] == REJECTED


def test_the_lines_a_search_index_knows_decided() -> None:
    from kctui.search.decided_lines import _add, passage_flag

    spans: dict = {}
    flag = f"{AGAINST_MARK} on 2026-12-07, for 28 Nov 2026)"
    for c in [{"value": f"14 Nov 2026{flag}", "source": "plan.md", "lines": [4, 4]},
              {"value": f"28 Nov 2026{DECIDED_MARK} on 2026-12-07, over 14 Nov 2026)", "source": "later.md", "lines": [5, 5]},
              {"value": "14 Nov 2026", "source": "other.md", "lines": [1, 1]},  # no flag: nothing decided
              {"value": f"note{flag}", "source": "plan.md", "page": 2}, "junk"]:  # a PDF page: no lines
        _add(spans, c)
    assert sorted(spans) == ["later.md", "plan.md"]
    assert passage_flag(spans, "plan.md", 3, 5, "Shutdown: 14 Nov 2026.") == flag
    assert passage_flag(spans, "plan.md", 3, 5, "Shutdown: 2 Dec 2026.") == ""  # not the value decided against
    assert passage_flag(spans, "plan.md", 5, 9, "Shutdown: 14 Nov 2026.") == ""  # other lines
    assert passage_flag(spans, "later.md", 5, 5, "- Shutdown: 28 Nov 2026.").startswith(DECIDED_MARK)
