"""Issue 12 (6): a front-matter list of records is one table on the page, a cited row per record, and a
changed value in one record is reviewed exactly as a changed claim line was — one held change set for
a revise, one conflict for a note that disagrees, a rejected value kept and flagged, the person's
decision never undone by the next pass. Through the real host path (built-in compiler, `guarded`)."""

from __future__ import annotations

import re

from kctui.core.pages import parse_page
from kctui.services import review
from kctui.services import search as svc_search
from tests.helpers.review import Base, said

GADGET = """---
title: Gadget Daemon
category: server-app
releases:
  - releaseCycle: "2.0"
    releaseDate: 2026-01-10
    eol: {eol}
    latest: "{latest}"
    lts: false
  - releaseCycle: "1.0"
    releaseDate: 2025-01-10
    eol: 2026-01-10
    latest: "1.0.9"
---

Gadget Daemon is a background service for gadgets.
"""
NOTE = "# Gadget Daemon\n\nOur support desk says:\n\n| releaseCycle | eol |\n| --- | --- |\n| 1.0 | 2026-02-01 |\n"
ENTITY, SOURCE = "entities/gadget-daemon.md", "sources/gadget-md.md"
HEADER = "| releaseCycle | eol | latest | lts | releaseDate | Source |"
ROW_20 = "| 2.0 | {eol} | {latest} | false | 2026-01-10 | ^[gadget.md:L5-L9] |"
ROW_10 = "| 1.0 | {eol} | 1.0.9 |  | 2025-01-10 | ^[gadget.md:L10-L13] |"


def gadget(eol: str = "false", latest: str = "2.0.3") -> str:
    return GADGET.format(eol=eol, latest=latest)


def table(body: str) -> list[str]:
    return [ln for ln in body.split("\n") if ln.startswith("| ")]


def claim_lines(body: str) -> list[str]:
    return [ln for ln in body.split("\n") if ln.startswith("* **Gadget Daemon** (")]


def test_a_record_list_is_one_table_with_a_cited_row_per_record(svc, workspace) -> None:
    b = Base(svc, workspace, {"gadget.md": gadget()})
    b.compile()
    for rel in (ENTITY, SOURCE):
        fm, body = b.page(rel)
        assert fm["compile_status"] == "compiled"
        assert "**Gadget Daemon** — one row per releaseCycle:" in body
        assert table(body) == [HEADER, "| --- | --- | --- | --- | --- | --- |",
                               ROW_20.format(eol="false", latest="2.0.3"), ROW_10.format(eol="2026-01-10")]
        assert claim_lines(body) == []  # no bullet per key any more
        page = parse_page((b.wiki / rel).read_text(encoding="utf-8"), rel.split("/")[1][:-3])
        eol = next(c for c in page.claims if (c.attribute, c.scope) == ("eol", "1.0"))
        assert (eol.value, eol.evidence.start, eol.evidence.end) == ("2026-01-10", 10, 13)
    # search and context packets still find the value of one record
    hit = svc_search.search(svc, b.ws, b.kb.id, "gadget daemon 1.0 eol")["items"][0]
    assert any(c["scope"] == "1.0" and c["attribute"] == "eol" and c["value"] == "2026-01-10"
               and c["citation"] == "^[gadget.md:L10-L13]" for c in hit["claims"])
    packet = svc_search.context(svc, b.ws, b.kb.id, "gadget daemon 1.0 eol", fmt="text")
    assert "Gadget Daemon (1.0) — eol: 2026-01-10" in packet


def test_a_changed_value_in_one_record_is_one_held_revise_shown_on_its_row(svc, workspace) -> None:
    b = Base(svc, workspace, {"gadget.md": gadget()})
    b.compile()
    b.write("gadget.md", gadget(latest="2.0.4"))
    b.compile()
    [item] = b.items()  # one source change: one change set for both pages, as for a claim line
    assert item.kind == "held" and {p.page_path for p in item.page_list} == {ENTITY, SOURCE}
    assert all(p["kind"] == "revise" for p in item.json()["pages"])
    shown = review.show_item(svc, item.id)
    for p in shown["pages"]:
        assert f"-{ROW_20.format(eol='false', latest='2.0.3')}" in p["diff"]
        assert f"+{ROW_20.format(eol='false', latest='2.0.4')}" in p["diff"]
        assert "1.0.9" not in "".join(ln for ln in p["diff"].split("\n") if ln[:1] in "+-")  # the other row stands
    review.resolve(svc, item.id, "approve", actor="human:ada")
    fm, body = b.page(ENTITY)
    assert fm["compile_status"] == "confirmed" and ROW_20.format(eol="false", latest="2.0.4") in table(body)
    assert "revised Gadget Daemon (2.0) latest: 2.0.3 → 2.0.4" in body


def test_a_rejected_value_is_kept_flagged_in_its_row_and_not_asked_again(svc, workspace) -> None:
    b = Base(svc, workspace, {"gadget.md": gadget()})
    b.compile()
    b.write("gadget.md", gadget(eol="2027-06-01"))  # `false` stays on the record's lines (lts)
    b.compile()
    [item] = b.items()
    review.resolve(svc, item.id, "reject", actor="human:ada")

    def kept_state() -> None:
        for rel in (ENTITY, SOURCE):
            fm, body = b.page(rel)
            [kept] = fm["kept_claims"]
            assert (kept["attribute"], kept["scope"], kept["value"], kept["now"]) == ("eol", "2.0", "false", "2027-06-01")
            assert ROW_20.format(eol="⚑", latest="2.0.3") in table(body)  # flagged in its cell ...
            [line] = claim_lines(body)  # ... and on its own line, citing the record it came from
            assert line.startswith("* **Gadget Daemon** (2.0) — eol: false (⚑ kept by a person on ")
            assert "the source now says 2027-06-01" in line and line.endswith("^[gadget.md:L5-L9]")

    kept_state()
    b.compile()  # the source is still the revision the person decided against: nothing is asked again
    assert b.items() == []
    kept_state()
    # another source feeds the page, so it is built again: `false` is still on the record's lines (as
    # lts's value), which must not count as the source saying the kept eol again
    b.write("owner.md", "# Gadget Daemon\n\n- Owner: Platform team\n")
    b.compile()
    assert b.items() == [] and "— Owner: Platform team ^[owner.md:L3-L3]" in b.page(ENTITY)[1]
    kept_state()
    b.write("gadget.md", gadget())  # the source says the kept value again: the flag goes away
    b.compile()
    assert b.items() == []
    for rel in (ENTITY, SOURCE):
        fm, body = b.page(rel)
        assert "kept_claims" not in fm and claim_lines(body) == []
        assert ROW_20.format(eol="false", latest="2.0.3") in table(body)


def test_a_note_disagreeing_with_one_record_is_exactly_one_conflict(svc, workspace) -> None:
    b = Base(svc, workspace, {"gadget.md": gadget()})
    b.compile()
    b.write("notes.md", NOTE)
    b.compile()
    [conflict] = [i for i in b.items() if i.kind == "conflict"]
    assert [i.kind for i in b.items()] == ["conflict"]
    assert "eol: 2026-01-10 (`gadget.md`) vs 2026-02-01 (`notes.md`)" in conflict.summary
    fm, body = b.page(ENTITY)
    assert fm["compile_status"] == "contradicted"
    assert "> * **Gadget Daemon** (1.0) — eol: 2026-01-10 ^[gadget.md:L10-L13]" in body
    assert "> * **Gadget Daemon** (1.0) — eol: 2026-02-01 ^[notes.md:L7-L7]" in body
    # the disputed value leaves its row for its own line; the rest of the table stands
    assert ROW_10.format(eol="⚑") in table(body) and ROW_20.format(eol="false", latest="2.0.3") in table(body)
    assert claim_lines(body) == ["* **Gadget Daemon** (1.0) — eol: 2026-01-10 ^[gadget.md:L10-L13]"]
    review.resolve(svc, conflict.id, "use_new", expected_revision=conflict.expected_revision, actor="human:ada")
    fm, body = b.page(ENTITY)
    assert fm["compile_status"] != "contradicted" and not re.search(r"^> \* ", body, re.M)
    assert [said(ln) for ln in claim_lines(body)] == [  # the decision, marked ✓ decided (QA s32)
        "* **Gadget Daemon** (1.0) — eol: 2026-02-01 ^[notes.md:L7-L7]"]
    assert ROW_10.format(eol="") in table(body)  # the record's own eol is no longer on the page
    before = (b.wiki / ENTITY).read_text(encoding="utf-8")
    b.compile()  # nothing changed: the decision stands, nothing is asked again
    assert b.items() == [] and (b.wiki / ENTITY).read_text(encoding="utf-8") == before


def test_a_conflict_kept_by_a_person_puts_the_value_back_in_its_row(svc, workspace) -> None:
    b = Base(svc, workspace, {"gadget.md": gadget()})
    b.compile()
    b.write("notes.md", NOTE)
    b.compile()
    [conflict] = b.items()
    review.resolve(svc, conflict.id, "keep", expected_revision=conflict.expected_revision, actor="human:ada")
    fm, body = b.page(ENTITY)
    # the kept value is marked decided, on its own line as a kept claim is, never a cell (QA s32)
    assert fm["compile_status"] != "contradicted" and [said(ln) for ln in claim_lines(body)] == [
        "* **Gadget Daemon** (1.0) — eol: 2026-01-10 ^[gadget.md:L10-L13]"]
    assert "(✓ decided by a person on " in claim_lines(body)[0] and ROW_10.format(eol="⚑") in table(body)
    b.compile()
    assert b.items() == []
