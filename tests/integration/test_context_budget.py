"""Answers fit the budget (issue 12, point 9): a context packet's item for a page carries the page's
title, status and flag and the page's claims that match the query, most relevant first; an item that
does not fit whole goes in trimmed, so a small budget still holds the best answer.

- a 2 KB JSON packet (and the text one) holds the matching claim of a long page whose whole item is
  larger than the budget, first among the page's claims, with its citation;
- a flagged page keeps its flag (status and why) in the trimmed item, in JSON and in text;
- claims that only share the page's title with the query come after claims that name the query's
  terms themselves (and are left out when those exist);
- while more items wait, no item takes more than half the budget, so the next pages still show;
- the packet never exceeds its budget, over random budgets and items (the pure packer and the
  service), a trimmed item's claims are the head of the whole item's claims, `truncated` means items
  were left out, `itemsTrimmed` counts the items cut down, and the packet names a budget that holds
  the first cut item whole.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kctui import paths
from kctui.core.page_status import set_page_status
from kctui.search import context as packets
from kctui.search.context import MAX_BUDGET, MIN_BUDGET
from kctui.services import jobs
from kctui.services import search as svc_search
from kctui.services.local_transport import LocalTransport
from kctui.services.review_publish import publish_pages
from kctui.services.worker import run_worker
from tests.helpers import make_base

NOTES = "\n".join(f"Line {n} of the ledger notes says something about settlement batch {n}." for n in range(1, 61)) + "\n"
FILLER = ("the settlement batch is reconciled against the bank statement every night, and any difference "
          "is written to the exceptions queue for a person to look at before the next business day starts")


def long_page(status: str = "compiled") -> str:
    """An entity page of 40 claims, several about retention, one naming the retention window (line 37)."""
    claims = []
    for n in range(1, 41):
        if n == 37:
            claims.append("* **Ledger service** — retention window: settlement records are kept for 400 days "
                          f"^[notes.md:L{n}-L{n}]")
        elif n % 4 == 0:
            claims.append(f"* **Ledger service** — batch {n}: retention of batch {n} follows the policy; {FILLER} "
                          f"^[notes.md:L{n}-L{n}]")
        else:
            claims.append(f"* **Ledger service** — batch {n}: {FILLER} ^[notes.md:L{n}-L{n}]")
    text = (
        "---\ntype: Entity\ntitle: Ledger service\naliases: []\ncompile_status: compiled\nstatus: stable\n"
        "description: The ledger service records every settlement batch and keeps an audit trail of each "
        "reconciliation, including the exceptions a person resolved and when they resolved them, for the "
        "auditors who ask about a batch long after it settled.\n"
        "sources:\n- id: notes-md\n  resource: notes.md\n  digest: sha256:" + "0" * 64 + "\n---\n\n"
        "# Ledger service\n\n## Description\n\nThe ledger service records every settlement batch.\n\n"
        "## Key Positions/Products/Claims\n\n" + "\n".join(claims) + "\n"
    )
    return text if status == "compiled" else set_page_status(text, status)


def compiled_with_page(svc, ws: Path, status: str = "compiled") -> str:
    base = make_base(svc, ws, "Ledger", {"notes.md": NOTES})
    jobs.request_compile(svc, ws, base.id)
    outcomes = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
    assert [o.result for o in outcomes] == ["succeeded"], outcomes
    with svc.store.write() as conn:
        publish_pages(conn, str(ws), base.id, {"entities/ledger-service.md": long_page(status)},
                      author="test", reason="test", now_us=svc.now())
    return base.id


def packet(svc, ws, kb, query, budget, fmt="json"):
    out = svc_search.context(svc, ws, kb, query, budget=budget, fmt=fmt)
    assert len(out.encode("utf-8")) <= budget
    return json.loads(out) if fmt == "json" else out


def ledger_item(pkt: dict) -> dict:
    return next(i for i in pkt["items"] if i.get("page") == "entities/ledger-service.md")


QUERY = "ledger retention window"


def test_a_2kb_json_packet_holds_the_matching_claim_of_a_long_page(svc, workspace):
    kb = compiled_with_page(svc, workspace)
    whole = ledger_item(packet(svc, workspace, kb, QUERY, MAX_BUDGET))
    assert packets.item_size(whole, "json") > 2048  # the whole item alone is over the budget
    assert whole["claims"][0]["citation"] == "^[notes.md:L37-L37]"  # the claim naming both terms leads
    assert "400 days" in whole["claims"][0]["text"]
    # Claims that name a query term themselves come next; ones sharing only the title are left out.
    assert all("retention" in c["text"] for c in whole["claims"])

    small = packet(svc, workspace, kb, QUERY, 2048)
    assert small["items"] and small["items"][0]["page"] == "entities/ledger-service.md"
    item = small["items"][0]
    assert item["trimmed"] is True and item["claimsOmitted"] >= 1
    assert item["claims"][0]["citation"] == "^[notes.md:L37-L37]" and "400 days" in item["claims"][0]["text"]
    assert (item["title"], item["status"], item["flag"]) == ("Ledger service", "compiled", None)
    assert small["itemsTrimmed"] >= 1
    need = int(re.search(r"to ([\d,]+) bytes", small["nextActions"][0]).group(1).replace(",", ""))
    assert "first trimmed item whole" in small["nextActions"][0]
    bigger = packet(svc, workspace, kb, QUERY, need)
    assert ledger_item(bigger) == whole  # the named budget holds the page whole

    text = packet(svc, workspace, kb, QUERY, 2048, fmt="text")
    block = text.split("## [1] ")[1]
    assert block.startswith("Ledger service — entities/ledger-service.md (compiled)")
    assert "settlement records are kept for 400 days ^[notes.md:L37-L37]" in block
    assert "more matching claim(s) left out to fit the budget" in block
    assert re.search(r"\((truncated; )?\d+ trimmed to fit\)\.", text)


@pytest.mark.parametrize("status", ["needs-review", "contradicted"])
def test_a_flagged_page_keeps_its_flag_when_trimmed(svc, workspace, status):
    kb = compiled_with_page(svc, workspace, status)
    for budget in (1200, 2048):
        pkt = packet(svc, workspace, kb, QUERY, budget)
        item = ledger_item(pkt)
        assert item["status"] == status and item["flag"]["status"] == status and item["flag"]["why"]
        assert item["claims"] and "400 days" in item["claims"][0]["text"]
        text = packet(svc, workspace, kb, QUERY, budget, fmt="text")
        assert f"⚠ {status.upper()}:" in text and "do not assert it as settled" in text
        assert "400 days" in text


def test_a_stale_page_keeps_its_flag_when_trimmed(svc, workspace):
    kb = compiled_with_page(svc, workspace)
    live = paths.wiki_path(workspace, kb)
    page = (live / "entities/ledger-service.md").read_text(encoding="utf-8")
    with svc.store.write() as conn:
        publish_pages(conn, str(workspace), kb, {
            "entities/ledger-service.md": set_page_status(page, "compiled", stale_after="2020-01-01T00:00:00Z")},
            author="test", reason="test", now_us=svc.now())
    item = ledger_item(packet(svc, workspace, kb, QUERY, 2048))
    assert item["flag"]["status"] == "stale" and "2020-01-01" in item["flag"]["why"]
    assert "400 days" in item["claims"][0]["text"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(budget=st.integers(MIN_BUDGET, 6000), fmt=st.sampled_from(["json", "text"]),
       query=st.sampled_from([QUERY, "ledger", "retention", "settlement batch", "window 400", "batch 12 retention"]))
def test_the_service_never_exceeds_the_budget_and_trims_from_the_end(svc, workspace, budget, fmt, query):
    kb = _shared_kb(svc, workspace)
    out = svc_search.context(svc, workspace, kb, query, budget=budget, fmt=fmt)
    assert len(out.encode("utf-8")) <= budget
    if fmt == "text":
        assert re.search(r"— \d+ of \d+ items, [\d,]+ of [\d,]+ bytes", out)
        return
    data = json.loads(out)
    assert data["bytes"] == len(out.encode("utf-8"))
    def ident(item: dict) -> tuple:
        return (item["page"],) if item["kind"] == "page" else (item["source"], item["lines"][0])

    full = {ident(i): i for i in json.loads(
        svc_search.context(svc, workspace, kb, query, budget=MAX_BUDGET, fmt="json"))["items"]}
    for n, item in enumerate(data["items"]):
        whole = full[ident(item)]
        if not item.get("trimmed"):
            assert item == whole
            continue
        assert data["itemsTrimmed"] >= 1 and "raise the budget" in data["nextActions"][0]
        if item["kind"] == "page":
            assert (item["title"], item["status"], item["flag"] is None) == (whole["title"], whole["status"], whole["flag"] is None)
            kept = item["claims"]
            assert item["claimsOmitted"] == len(whole["claims"]) - len(kept)
            for got, want in zip(kept, whole["claims"]):
                assert got["citation"] == want["citation"]  # the head of the ranked claims, in order


_KB: dict[Path, str] = {}


def _shared_kb(svc, workspace: Path) -> str:
    if workspace not in _KB:
        _KB.clear()
        _KB[workspace] = compiled_with_page(svc, workspace)
    return _KB[workspace]


# -- the pure packer over random items -----------------------------------------------------------------


def _env() -> packets.Envelope:
    return packets.Envelope(query="q", terms=["q"], knowledge_base={"workspace": "/w", "id": "kb", "compiled": True,
                                                                    "pendingChanges": False},
                            match="all", uncovered=[], pages_matched=3, next_actions_empty=["broaden the query"],
                            hint_more="narrow the query")


TEXTS = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=400)
CLAIM = st.builds(lambda t, n: {"text": t, "value": t[: len(t) // 2], "citation": f"^[a.md:L{n}-L{n}]"},
                  TEXTS, st.integers(1, 999))
FLAG = st.none() | st.builds(lambda s, w, cs: {"status": s, "why": w, "derived": False, "conflicts": cs},
                             st.sampled_from(["contradicted", "needs-review", "stale", "archived"]), TEXTS,
                             st.lists(CLAIM, max_size=5))
ITEM = st.builds(lambda title, flag, desc, claims: {
    "kind": "page", "rank": 1, "page": f"entities/{abs(hash(title)) % 10**6}.md", "title": title,
    "status": flag["status"] if flag else "compiled", "flag": flag, "description": desc, "claims": claims},
    st.text(min_size=1, max_size=80), FLAG, st.text(max_size=600), st.lists(CLAIM, max_size=12))


@settings(max_examples=300, deadline=None)
@given(items=st.lists(ITEM, min_size=1, max_size=6), budget=st.integers(MIN_BUDGET, 8192),
       fmt=st.sampled_from(["json", "text"]))
def test_the_packer_never_exceeds_the_budget_and_keeps_every_flag(items, budget, fmt):
    out = packets.pack(_env(), items, budget, fmt)
    assert len(out.encode("utf-8")) <= budget
    if fmt == "text":
        for item in items:
            if f"## [{items.index(item) + 1}] " in out and item["flag"]:
                assert f"⚠ {item['flag']['status'].upper()}: " in out
        return
    data = json.loads(out)
    assert data["bytes"] == len(out.encode("utf-8"))
    assert data["itemsIncluded"] == len(data["items"])
    assert data["itemsTrimmed"] == sum(1 for i in data["items"] if i.get("trimmed"))
    assert data["truncated"] == (len(data["items"]) < len(items))
    if data["truncated"] or data["itemsTrimmed"]:
        assert "raise the budget" in data["nextActions"][0]
    for n, (got, want) in enumerate(zip(data["items"], items)):
        if n + 1 < len(items) and got.get("trimmed"):  # while more items wait, none takes more than half
            smallest = min(packets.item_size(f, "json") for f in packets.trimmed_forms(want))  # (the budget,
            assert packets.item_size(got, "json") <= max(budget // 2 + 1, smallest)  # unless no form can)
        if not got.get("trimmed"):
            assert got == json.loads(json.dumps(want))
            continue
        assert (got["title"], got["status"], got["page"]) == (want["title"], want["status"], want["page"])
        if want["flag"]:  # the flag's status and why are never cut
            assert (got["flag"]["status"], got["flag"]["why"]) == (want["flag"]["status"], want["flag"]["why"])
        else:
            assert got["flag"] is None
        assert got["claimsOmitted"] == len(want["claims"]) - len(got["claims"])
        assert [c["citation"] for c in got["claims"]] == [c["citation"] for c in want["claims"][: len(got["claims"])]]


def test_one_long_page_does_not_crowd_out_the_next_pages():
    claim = {"text": "a matching claim " * 12, "value": "v", "citation": "^[a.md:L1-L1]"}
    long_item = {"kind": "page", "rank": 1, "page": "entities/long.md", "title": "Long", "status": "compiled",
                 "flag": None, "description": "", "claims": [dict(claim, citation=f"^[a.md:L{n}-L{n}]") for n in range(1, 9)]}
    short = [{"kind": "page", "rank": n, "page": f"entities/p{n}.md", "title": f"P{n}", "status": "compiled",
              "flag": None, "description": "", "claims": [{"text": f"claim {n}", "value": "v", "citation": f"^[b.md:L{n}-L{n}]"}]}
             for n in (2, 3)]
    assert packets.item_size(long_item, "json") > 1500
    data = json.loads(packets.pack(_env(), [long_item] + short, 2048, "json"))
    assert [i["page"] for i in data["items"]] == ["entities/long.md", "entities/p2.md", "entities/p3.md"]
    first = data["items"][0]
    assert first["trimmed"] and first["claims"] and first["claims"][0]["citation"] == "^[a.md:L1-L1]"
    assert packets.item_size(first, "json") <= 1024
    assert data["itemsTrimmed"] == 1 and not data["truncated"]
    need = int(re.search(r"to ([\d,]+) bytes", data["nextActions"][0]).group(1).replace(",", ""))
    whole = json.loads(packets.pack(_env(), [long_item] + short, need, "json"))
    assert whole["items"][0] == long_item and whole["itemsTrimmed"] == 0


def test_an_item_too_large_for_any_trim_is_left_out_and_named():
    huge = {"kind": "page", "rank": 1, "page": "entities/x.md", "title": "x" * 3000, "status": "compiled",
            "flag": None, "description": "", "claims": []}
    data = json.loads(packets.pack(_env(), [huge], MIN_BUDGET, "json"))
    assert data["items"] == [] and data["truncated"] and "raise the budget" in data["nextActions"][0]


@pytest.mark.parametrize("description, typed, expected", [
    ("Cody is an AI coding assistant that lives in your editor.", {"cody"}, True),
    ("A tracking issue is a GitHub issue that captures planned work.", {"tracking", "issue"}, True),
    ("ArgoCD is a continuous delivery tool.", {"argocd", "tool"}, True),
    ("Cody Gateway is a proxy.", {"cody"}, False),  # the page defines something else
    ("We use Cody every day, and it is great.", {"cody"}, False),  # no "X is" opening
    ("Is Cody ready?", {"cody"}, False),
    ("", {"cody"}, False),
])
def test_a_description_defines_what_was_typed(description, typed, expected):
    assert svc_search.defines(description, typed) is expected
