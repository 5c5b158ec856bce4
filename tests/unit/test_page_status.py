from __future__ import annotations

import pytest

from kctui.core.page_status import okf_status, page_compile_status, set_page_status, split_page

PAGE = "---\ntype: Concept\ntitle: Event sourcing\ncompile_status: compiled\nstatus: stable\n---\n\n# Event sourcing\n\nBody.\n"


@pytest.mark.parametrize("cs, okf", [("compiled", "stable"), ("confirmed", "stable"), ("stale", "stable"),
                                     ("needs-review", "draft"), ("contradicted", "draft"), ("archived", "deprecated")])
def test_okf_status_follows_compile_status(cs, okf):
    assert okf_status(cs) == okf
    text = set_page_status(PAGE, cs)
    fm, body = split_page(text)
    assert fm["compile_status"] == cs and fm["status"] == okf
    visible = body.lstrip("\n").startswith("> **Status:")
    assert visible is (cs not in ("compiled", "confirmed")), "not plainly current pages say so at the top"


def test_status_line_replaced_not_stacked_and_removed_when_current():
    t = set_page_status(PAGE, "needs-review")
    t = set_page_status(t, "contradicted", note="3.12 eol: 2028-10-31 vs 2028-10-01")
    assert t.count("> **Status:") == 1 and "contradicted** — 3.12 eol" in t
    t = set_page_status(t, "confirmed", verified_by="human:ada", at="2026-11-29T00:00:00Z")
    fm, body = split_page(t)
    assert "> **Status:" not in t and body.lstrip("\n").startswith("# Event sourcing")
    assert fm["verified"] == [{"by": "human:ada", "at": "2026-11-29T00:00:00Z"}]
    assert page_compile_status(t) == "confirmed"


def test_unknown_status_refused():
    with pytest.raises(ValueError):
        set_page_status(PAGE, "fine")
