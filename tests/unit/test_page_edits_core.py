"""The pure parts of page edits (issue 15): citations, the section people write, and deciding an edit's
dispute — table-tested."""

from __future__ import annotations

import pytest

from kctui.compiler.trust.page_edits import decide_edit, mark_disputed, open_edit_disputes
from kctui.core.page_edits import SECTION, parse_citation, section_lines, with_section
from kctui.core.page_status import page_compile_status, split_page
from kctui.services.page_edit import apply_entries


@pytest.mark.parametrize("text, expected", [
    ("notes/a.md:L3-L4", ("notes/a.md", 3, 4)),
    (" a.md:L1-L1 ", ("a.md", 1, 1)),
    ("dir with space/b.txt:L10-L12", ("dir with space/b.txt", 10, 12)),
])
def test_citations_parse(text, expected) -> None:
    assert parse_citation(text) == expected


@pytest.mark.parametrize("text", ["a.md", "a.md:L3", "a.md:L4-L3", "a.md:L0-L1", "/etc/passwd:L1-L1",
                                  "../x.md:L1-L1", "a/../../x.md:L1-L2", "a.md:p3", ""])
def test_bad_citations_are_refused(text) -> None:
    with pytest.raises(ValueError):
        parse_citation(text)


STATEMENT = {"id": "e1", "kind": "statement", "text": "Lena is on call", "by": "human:lena",
             "at": "2026-05-28T10:00:00Z", "citation": "on.md:L5-L5", "source": "on.md", "value": "Lena",
             "digest": "sha256:aa"}
NOTE = {"id": "e2", "kind": "note", "text": "Ask   first\n\n# not a heading", "by": "agent:bot", "at": "2026-05-29T00:00:00Z"}
RUNBOOK = {"id": "e3", "kind": "section", "section": "Runbook", "text": "Restart it.", "by": "human:lena",
           "at": "2026-05-30T00:00:00Z"}


def test_the_section_shows_who_wrote_what_last_on_the_page() -> None:
    lines = section_lines([RUNBOOK, STATEMENT, NOTE])
    assert lines[0] == f"## {SECTION}"
    assert lines[2] == "* Statement by a person (lena) on 2026-05-28: Lena is on call ^[on.md:L5-L5]"
    assert lines[3] == "* Note by an agent (bot) on 2026-05-29: Ask first # not a heading"  # one line, no block
    assert lines[5:7] == ["### Runbook", ""] and section_lines([]) == []
    disputed = dict(STATEMENT, disputed={"now": "Sam is on call", "digest": "sha256:bb"})
    assert "(⚑ disputed: the cited source now says “Sam is on call”; a person decides)" in section_lines([disputed])[2]


def test_the_section_is_replaced_not_repeated() -> None:
    body = "# Page\n\n## Sources\n\n* x\n"
    once = with_section(body, [STATEMENT])
    twice = with_section(once, [STATEMENT, NOTE])
    assert twice.count(f"## {SECTION}") == 1 and "Note by" in twice and twice.startswith(body.rstrip("\n"))
    assert with_section(twice, []) == body


PAGE = "---\ntype: Entity\ntitle: Billing\ncompile_status: compiled\n---\n\n# Billing\n\n## Sources\n\n* x\n"


@pytest.mark.parametrize("action, kept", [("use_new", False), ("keep", True), ("dismiss", True)])
def test_deciding_an_edit_dispute(action, kept) -> None:
    disputed = dict(STATEMENT, disputed={"now": "Sam is on call", "digest": "sha256:bb"})
    text = mark_disputed(apply_entries(PAGE, [STATEMENT, NOTE]), [disputed])
    assert page_compile_status(text) == "contradicted" and open_edit_disputes(text) == 1
    decided = decide_edit(text, "edit:e1", action)
    fm, body = split_page(decided)
    ids = [e["id"] for e in fm["page_edits"]]
    assert ids == (["e1", "e2"] if kept else ["e2"]) and open_edit_disputes(decided) == 0
    if kept:
        e1 = fm["page_edits"][0]
        assert (e1["digest"], e1["seen"]) == ("sha256:bb", "Sam is on call")
    assert ("Lena is on call" in body) is kept and "Ask first" in body
    assert decide_edit(text, "4c9b53ae5542f9c0", action) is None  # a claim's dispute is not an edit's
