"""The pure rules behind issue 13's review: a dispute decided on a page's text (only that dispute), a
claim kept against a rejected proposal (pinned and flagged), the kept marker's round trip, and held
pages grouped into change sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from kctui.compiler.trust.change_sets import change_sets
from kctui.compiler.trust.disputes import decide_dispute, fingerprint
from kctui.compiler.trust.kept import pin_kept
from kctui.core.claims import Claim, Evidence
from kctui.core.page_status import split_page
from kctui.core.pages import claim_line_kept, parse_page, strip_kept

D_W, D_N, D_W2 = "sha256:" + "a" * 64, "sha256:" + "b" * 64, "sha256:" + "c" * 64

PAGE = """---
compile_status: contradicted
sources:
- digest: {dn}
  id: notes-md
  resource: notes.md
- digest: {dw}
  id: widget-md
  resource: widget.md
status: draft
title: Widget
type: Entity
---

> **Status: contradicted** — the sources disagree on 2 facts; a person decides.
>
> * **Widget** (1.10) — eol: 2024-11-06 ^[widget.md:L5-L5]
> * **Widget** (1.10) — eol: 2024-12-01 ^[notes.md:L7-L7]
> * **Widget** (1.10) — latest: 1.10.2 ^[widget.md:L5-L5]
> * **Widget** (1.10) — latest: 1.10.3 ^[notes.md:L7-L7]

# Widget

## Key Positions/Products/Claims

* **Widget** (1.10) — eol: 2024-11-06 ^[widget.md:L5-L5]
* **Widget** (1.10) — latest: 1.10.2 ^[widget.md:L5-L5]
* **Widget** (2.1) — latest: {latest} ^[widget.md:L6-L6]
"""


def fp(attr: str, a: str, b: str) -> str:
    c = Claim("Widget", attr, a, "1.10", "fact", "fact", Evidence("widget.md", 5, 5, D_W))
    return fingerprint((c.key[1], c.key[2], c.key[3]), c.norm_value,
                       Claim("Widget", attr, b, "1.10", "fact", "fact", Evidence("n", 1, 1, "")).norm_value)


@pytest.mark.parametrize("action, eol_line, latest_kept", [
    ("use_new", "* **Widget** (1.10) — eol: 2024-12-01 ^[notes.md:L7-L7]", True),
    ("keep", "* **Widget** (1.10) — eol: 2024-11-06 ^[widget.md:L5-L5]", True),
    ("dismiss", "* **Widget** (1.10) — eol: 2024-11-06 ^[widget.md:L5-L5]", True),
])
def test_decide_dispute_touches_only_its_dispute(action, eol_line, latest_kept) -> None:
    text = PAGE.format(dn=D_N, dw=D_W, latest="2.1.5")  # 2.1.5: a held change in this text stays as it is
    out, left = decide_dispute(text, fp("eol", "2024-11-06", "2024-12-01"), action)
    fm, body = split_page(out)
    assert left == 1 and "the sources disagree on 1 fact" in body
    assert eol_line in body.split("# Widget", 1)[1]
    assert "> * **Widget** (1.10) — eol:" not in body and body.count("> * **Widget** (1.10) — latest:") == 2
    assert "(2.1) — latest: 2.1.5 ^[widget.md:L6-L6]" in body and fm["resolved_conflicts"]
    last, none_left = decide_dispute(out, fp("latest", "1.10.2", "1.10.3"), "use_new")
    assert none_left == 0 and "> * " not in split_page(last)[1]
    assert "* **Widget** (1.10) — latest: 1.10.3 ^[notes.md:L7-L7]" in last


def test_decide_dispute_of_another_page_changes_nothing_but_the_record() -> None:
    text = PAGE.format(dn=D_N, dw=D_W, latest="2.1.4")
    out, left = decide_dispute(text, "0123456789abcdef", "use_new")
    assert left == 2 and split_page(out)[1] == split_page(text)[1]


def test_pin_kept_flags_revised_and_retracted_claims_and_follows_moved_lines() -> None:
    current = PAGE.format(dn=D_N, dw=D_W, latest="2.1.4").replace("compile_status: contradicted", "compile_status: compiled")
    current = current.split("> **Status")[0] + "# Widget" + current.split("\n# Widget", 1)[1]
    proposed = (current.replace(D_W, D_W2).replace("latest: 2.1.4 ^[widget.md:L6-L6]", "latest: 2.1.5 ^[widget.md:L6-L6]")
                .replace("eol: 2024-11-06 ^[widget.md:L5-L5]", "eol: 2024-11-06 ^[widget.md:L8-L8]")
                .replace("* **Widget** (1.10) — latest: 1.10.2 ^[widget.md:L5-L5]\n", ""))
    out = pin_kept(current, proposed, "entities/widget.md", by="human:ada", at="2026-05-28T00:00:00Z")
    fm, body = split_page(out)
    assert [s["digest"] for s in fm["sources"] if s["resource"] == "widget.md"] == [D_W2]
    kept = {(e["value"], e["now"], e["pinned"], e["seen"]) for e in fm["kept_claims"]}
    assert kept == {("2.1.4", "2.1.5", D_W, D_W2), ("1.10.2", "", D_W, D_W2)}
    assert "* **Widget** (1.10) — eol: 2024-11-06 ^[widget.md:L8-L8]" in body  # same value, new lines
    assert ("* **Widget** (2.1) — latest: 2.1.4 (⚑ kept by a person on 2026-05-28: the source now says 2.1.5; "
            f"this value is from widget.md at {D_W[:19]}) ^[widget.md:L6-L6]") in body
    assert "1.10.2 (⚑ kept by a person on 2026-05-28: the source no longer says this;" in body
    page = parse_page(out, "widget")  # the compiler reads the values, not the flags
    assert {c.value for c in page.claims} == {"2024-11-06", "1.10.2", "2.1.4"}


def test_kept_marker_round_trip() -> None:
    c = Claim("Vendors", "Price", "$2,400 / month", "", "fact", "fact", Evidence("v.md", 7, 7, D_W))
    entry = {"subject": "Vendors", "attribute": "Price", "scope": "", "value": "$2,400 / month",
             "citation": "v.md:L7-L7", "pinned": D_W, "now": "$2,750 / month", "at": "2026-05-28T00:00:00Z", "source": "v.md"}
    line = claim_line_kept(c, [entry])
    assert "(⚑ kept by a person on 2026-05-28: the source now says $2,750 / month" in line
    assert line.endswith(" ^[v.md:L7-L7]") and strip_kept(line) == claim_line_kept(c, [])


def test_change_sets_group_by_source_and_by_deleted_folder(tmp_path: Path) -> None:
    (tmp_path / "kept").mkdir()
    def held(page: str) -> dict:
        return {"kind": "held", "page": page, "title": page, "updateKind": "revise", "reason": "autonomy_ceiling",
                "summary": page, "proposedBody": page}
    filed = [held("entities/a.md"), held("sources/a-md.md"), {"kind": "conflict", "page": "entities/a.md"},
             held("sources/gone-x-md.md"), held("sources/gone-y-md.md"), held("sources/kept-z-md.md"),
             held("sources/b-md.md")]
    causes = [{"a.md"}, {"a.md"}, set(), {"gone/x.md"}, {"gone/sub/y.md"}, {"kept/z.md"}, {"b.md"}]
    out = change_sets(filed, causes, tmp_path)
    shape = [(it["kind"], [p["page"] for p in it.get("pages", [])]) for it in out]
    assert shape == [("held", ["entities/a.md", "sources/a-md.md"]), ("conflict", []),
                     ("held", ["sources/gone-x-md.md", "sources/gone-y-md.md"]), ("held", ["sources/kept-z-md.md"]),
                     ("held", ["sources/b-md.md"])]
    assert out[0]["sources"] == ["a.md"] and out[2]["sources"] == ["gone/sub/y.md", "gone/x.md"]
