"""The host's gate on an external result (kctui.services.result_gate): the kind of each page change, the
claims a change adds checked against their cited lines, a page with no source refused, held stand-ins."""

from __future__ import annotations

from pathlib import Path

import pytest

from kctui.core.frontmatter import parse_document
from kctui.core.trust import TrustPolicy
from kctui.publish.validate import InvalidOutput
from kctui.services.result_gate import (
    Change,
    change_kind,
    decide,
    gate_result,
    has_source,
    held_stand_in,
    rewrite_manifest,
    unsupported,
)

HEAD = "---\ntype: Entity\ntitle: Datadog\ncompile_status: {status}\nsources:\n- resource: vendors.md\n{extra}---\n\n"
COST = "* **Datadog** — monthly cost: $6,100 ^[vendors.md:L3-L3]\n"
OWNER = "* **Datadog** — owner: Marta ^[vendors.md:L4-L4]\n"


def page(*lines: str, status: str = "compiled", extra: str = "") -> str:
    return HEAD.format(status=status, extra=extra) + "# Datadog\n\n## Description\n\n" + "".join(lines)


@pytest.fixture
def src(tmp_path: Path) -> Path:
    (tmp_path / "vendors.md").write_text("# Vendors\n\nMonthly cost: $6,100\nOwner: Marta\n")
    return tmp_path


@pytest.mark.parametrize(("live", "staged", "kind"), [
    (None, page(COST), "create"),
    (page(COST), None, "supersede"),
    (page(COST), page(COST), None),
    (page(COST), page(COST, status="needs-review"), None),  # a worse flag only
    (page(COST, status="needs-review"), page(COST), "revise"),  # a flag cleared is the compiler's say
    (page(COST), page(COST, OWNER), "append"),
    (page(COST, OWNER), page(COST), "revise"),
    (page(COST), page(COST.replace("6,100", "61")), "revise"),
    (page(COST, extra="verified:\n- by: human:root\n"), page(COST), "revise"),  # a sign-off dropped
    # as the built-in compiler's append (s31 G: a remote worker's append was held as a revise): a list
    # that only grew, a source's digest that moved, the description remade
    (page(COST, extra="aliases:\n- DD\n"), page(COST, OWNER, extra="aliases:\n- DD\n- Data dog\n"), "append"),
    (page(COST, extra="aliases:\n- DD\n- Data dog\n"), page(COST, OWNER, extra="aliases:\n- DD\n"), "revise"),
    (page(COST), page(COST, OWNER).replace("- resource: vendors.md", "- resource: vendors.md\n  digest: sha256:2"),
     "append"),
    (page(COST), page(COST, OWNER).replace("- resource: vendors.md", "- resource: other.md"), "revise"),
    (page(COST, extra="description: in 1 source\n"), page(COST, OWNER, extra="description: in 2 sources\n"), "append"),
])
def test_change_kind(live, staged, kind) -> None:
    assert change_kind(live, staged) == kind


@pytest.mark.parametrize(("live", "staged", "bad"), [
    (page(COST), page(COST, OWNER), None),
    (page(COST), page(COST.replace("6,100", "61")), "whose lines do not hold"),
    (page(COST), page(COST, "* **Datadog** — note: the password is hunter2.\n"), "cites no source line"),
    (page(COST), page(COST, "* **Datadog** — owner: Bob ^[vendors.md:L4-L4]\n"), "owner: Bob"),
    (page(COST), page(COST, "* **Datadog** — owner: Marta ^[absent.md:L1-L1]\n"), "absent.md:L1-L1"),
])
def test_added_claims_must_be_held_by_their_cited_lines(src, live, staged, bad) -> None:
    why = unsupported(Change("entities/datadog.md", "append", live, staged), src)
    assert (why is None) if bad is None else (bad in (why or ""))


def test_a_page_naming_no_existing_source_refuses_the_result(src) -> None:
    evil = "---\ntitle: Evil\ntype: Entity\n---\n# Evil\n\n* **Evil** — note: The database password is hunter2.\n"
    assert not has_source(evil, src)
    assert not has_source(page(COST).replace("vendors.md", "gone.md"), src)
    assert has_source(page(COST), src)
    with pytest.raises(InvalidOutput, match="entities/evil.md: the page names no source"):
        decide(Change("entities/evil.md", "create", None, evil), TrustPolicy(), src)


@pytest.mark.parametrize(("autonomy", "live", "staged", "reason"), [
    ("guarded", None, page(COST), None),
    ("suggest", None, page(COST), "autonomy_ceiling"),
    ("guarded", page(COST), page(COST, OWNER), None),
    ("guarded", page(COST, OWNER), page(OWNER), "autonomy_ceiling"),
    ("auto", page(COST, OWNER), page(OWNER), None),
    ("auto", page(COST), None, "supersede"),
    ("auto", page(COST, status="confirmed"), page(OWNER, status="confirmed"), "human_confirmed"),
    ("auto", page(COST, status="confirmed"), page(COST, OWNER, status="confirmed"), None),
    ("auto", page(COST), page(COST.replace("6,100", "61")), "unsupported_claim"),
    ("auto", page(COST, status="confirmed"), page(COST.replace("6,100", "61"), status="confirmed"), "human_confirmed"),
])
def test_decide_with_the_policy(src, autonomy, live, staged, reason) -> None:
    kind = change_kind(live, staged)
    got, summary = decide(Change("entities/datadog.md", kind, live, staged), TrustPolicy(autonomy=autonomy), src)
    assert got == reason and summary.startswith("Datadog: ")


def test_held_stand_ins_keep_the_live_page_or_a_stub() -> None:
    live = page(COST)
    held = held_stand_in(Change("entities/datadog.md", "revise", live, page(OWNER)), "autonomy_ceiling")
    assert COST in held and OWNER not in held
    assert parse_document(held)[0]["compile_status"] == "needs-review"
    stub = held_stand_in(Change("entities/datadog.md", "create", None, page(COST)), "autonomy_ceiling")
    data, body, _ = parse_document(stub)
    assert data["awaiting_review"] == "create" and COST not in body


def test_gate_result_writes_held_pages_back_and_lists_them(tmp_path, src) -> None:
    live, staged = tmp_path / "live", tmp_path / "staged"
    for root, text in ((live, page(COST)), (staged, page(COST.replace("6,100", "61")))):
        (root / "entities").mkdir(parents=True)
        (root / "entities/datadog.md").write_text(text)
    (live / "entities/gone.md").write_text(page(OWNER))
    items = gate_result(live, staged, src, TrustPolicy(autonomy="auto"))
    assert [(i["page"], i["reason"], i["updateKind"]) for i in items] == [
        ("entities/datadog.md", "unsupported_claim", "revise"), ("entities/gone.md", "supersede", "supersede")]
    assert "$6,100" in (staged / "entities/datadog.md").read_text()
    assert "$61 " in items[0]["proposedBody"]
    assert OWNER in (staged / "entities/gone.md").read_text()


def test_a_wait_the_compiler_settled_ends_only_with_the_page_as_it_is(tmp_path) -> None:
    """s31 G: the sources say again what the page says; the compiler's pass clears the needs-review flag
    and settles the held item, as the built-in gate does; the host honours that for an unchanged page only."""
    import json

    waiting, back = page(COST, status="needs-review"), page(COST)
    assert change_kind(waiting, back) == "revise"  # not settled by the compiler: the flag is the compiler's say
    assert change_kind(waiting, back, settled=True) is None
    assert change_kind(waiting, page(COST, OWNER), settled=True) == "append"  # a change is still a change
    assert change_kind(page(COST, status="contradicted"), back, settled=True) == "revise"  # never a conflict
    live, staged = tmp_path / "live", tmp_path / "job" / "wiki"
    for root, texts in ((live, (waiting, waiting)), (staged, (back, page(COST, OWNER)))):
        (root / "entities").mkdir(parents=True)
        (root / "entities/a.md").write_text(texts[0])
        (root / "entities/b.md").write_text(texts[1])
    (tmp_path / "job/review.json").write_text(json.dumps(
        {"version": 1, "items": [], "settled": ["entities/a.md", "entities/b.md"], "closedConflicts": ["x"]}))
    assert rewrite_manifest(tmp_path / "job", [], live)
    data = json.loads((tmp_path / "job/review.json").read_text())
    assert data.get("settled") == ["entities/a.md"] and "closedConflicts" not in data
