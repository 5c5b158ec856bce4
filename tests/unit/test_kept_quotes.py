"""A kept value's flag quotes what its own cited lines say now, and an answer never verifies it
(QA session 29, item 1: a partial approval quoted line 11 for a claim citing L4; `ask` marked ✓ a kept
value its cited line no longer holds)."""

from __future__ import annotations

from kctui.compiler.trust.kept import pin_kept
from kctui.core.page_status import split_page
from kctui.services.ask_kept import KEPT_WHY, unverify_kept

OLD, NEW = "sha256:" + "a" * 64, "sha256:" + "b" * 64

PAGE = """---
compile_status: compiled
sources:
- digest: {digest}
  id: runbook-md
  resource: runbook.md
status: draft
title: ingest-gateway
type: Entity
---

# ingest-gateway

## Key Positions/Products/Claims

* **ingest-gateway** — note: Check the pgbouncer pool. ^[runbook.md:L11-L11]
* **ingest-gateway** — note: {oncall} ^[runbook.md:L4-L4]
* **ingest-gateway** — note: {service} ^[runbook.md:L3-L3]
* **ingest-gateway** — version: {version} ^[runbook.md:L3-L3]
* **ingest-gateway** — version: 2.2.9 ^[runbook.md:L13-L13]
"""


def _page(digest: str, oncall: str, version: str) -> str:
    return PAGE.format(digest=digest, oncall=f"Primary on-call: {oncall}", version=version,
                       service=f"Service: ingest-gateway (current version {version})")


def test_the_flag_quotes_the_cited_lines_not_another_line_of_the_source() -> None:
    current, proposed = _page(OLD, "Tomasz Wren", "2.3.1"), _page(NEW, "Raj Patel", "2.5.0")
    out = pin_kept(current, proposed, "entities/ingest-gateway.md", by="human:ada", at="2026-12-07T00:00:00Z")
    now = {e["value"]: e["now"] for e in split_page(out)[0]["kept_claims"]}
    assert now == {"Primary on-call: Tomasz Wren": "Primary on-call: Raj Patel",
                   "Service: ingest-gateway (current version 2.3.1)": "Service: ingest-gateway (current version 2.5.0)",
                   "2.3.1": "2.5.0"}
    assert "Tomasz Wren (⚑ kept by a person on 2026-12-07: the source now says Primary on-call: Raj Patel;" in out


def test_a_note_whose_line_no_longer_says_anything_of_it_is_no_longer_said() -> None:
    current = _page(OLD, "Tomasz Wren", "2.3.1")
    proposed = _page(NEW, "Raj Patel", "2.3.1").replace("* **ingest-gateway** — note: Primary on-call: Raj Patel "
                                                       "^[runbook.md:L4-L4]\n", "")
    out = pin_kept(current, proposed, "entities/ingest-gateway.md", by="human:ada", at="2026-12-07T00:00:00Z")
    assert [e["now"] for e in split_page(out)[0]["kept_claims"]] == [""]
    assert "Tomasz Wren (⚑ kept by a person on 2026-12-07: the source no longer says this;" in out


KEPT = ("Primary on-call: Tomasz Wren (⚑ kept by a person on 2026-12-07: the source now says Primary on-call: "
        "Raj Patel; this value is from runbook.md at sha256:aaaa) ^[runbook.md:L4-L4]")
ITEMS = [{"kind": "page", "page": "entities/on-call.md", "title": "On-call", "claims": [KEPT]},
         {"kind": "page", "page": "entities/pagerduty.md", "title": "PagerDuty", "claims": ["PagerDuty — Owner: Maya ^[v.md:L7-L7]"]}]


def test_an_answer_citing_a_kept_value_is_not_verified() -> None:
    result = {"verified": True, "citations": [
        {"item": "1", "lines": [4, 4], "verified": True, "why": "the packet's own text"},
        {"item": "2", "lines": [7, 7], "verified": True, "why": "the packet's own text"}]}
    unverify_kept(result, ITEMS)
    assert [c["verified"] for c in result["citations"]] == [False, True]
    assert result["citations"][0]["why"] == KEPT_WHY and result["verified"] is False
