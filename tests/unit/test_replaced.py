"""Decisions that replace earlier ones (kctui.compiler.builtin.replaced) and the links between records
(kctui.compiler.builtin.records.supersession): issue 31, point 3, session 32."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import records, replaced, sentences
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def doc_of(text: str):  # noqa: ANN201
    return read_source("notes/n.md", text.encode("utf-8"), DIGEST)


def links(text: str) -> set[tuple[str, str, str]]:
    ex = extract_document(doc_of(text))
    return {(c.subject, c.attribute, c.value) for c in ex.claims}


@pytest.mark.parametrize("line, wanted", [
    ("- Google: DR-3 is superseded. We cancelled the commit.", {("DR-3", "status", "superseded")}),
    ("- DR-4 marked superseded on the wiki", {("DR-4", "status", "superseded")}),
    ("- DR-4 was **superseded** last spring", {("DR-4", "status", "superseded")}),
    ("- DR-4 is superseded by DR-12", set()),  # (a link: records.supersession)
    ("- Supersedes: DR-6 (the old jump boxes)", set()),
    ("- superseded plans are kept for history", set()),  # (no record named)
])
def test_a_record_said_to_be_superseded_gets_that_status(line, wanted):
    doc = doc_of(f"# Vendors\n\n{line}\n")
    _, claims = replaced.superseded_records(doc, sentences.units(doc))
    assert {(c.subject, c.attribute, c.value) for c in claims} == wanted
    assert all(c.evidence.start == 3 for c in claims)


@pytest.mark.parametrize("line, earlier", [
    ("- Release goes out Friday; this replaces the 12 Feb decision.", "the 12 Feb decision"),
    ("- from 1 April I'm Mon–Wed only. (Changed from what we said on 9/3, Mon/Fri)", "what we said on 9/3"),
    ("- we keep the Tuesday slot, which reverses the plan from 3 March", "the plan from 3 March"),
    ("- Ops overrides the call on Monday: no deploys this week", "the call on Monday"),
    ("- This replaces the old file server in the basement.", None),  # (no decision replaced)
    ("- this replaces the decision we took", None),  # (no date names the earlier one)
    ("- does this reverse the 12 Feb decision?", None),  # (a question decides nothing)
])
def test_a_decision_replacing_an_earlier_one_named_by_its_date(line, earlier):
    doc = doc_of(f"# Weekly sync\n\n{line}\n")
    claims = replaced.replaced_decisions(doc, sentences.units(doc), set())
    said = {(c.attribute, c.value) for c in claims}
    if earlier is None:
        assert not said
    else:
        assert ("supersedes", earlier) in said
        assert any(attribute == "decision" for attribute, _ in said)
        assert all(c.subject == "Weekly sync" and c.evidence.start == 3 for c in claims)


def test_a_line_typed_as_a_decision_already_gets_only_the_link():
    doc = doc_of("# Weekly sync\n\n- Release goes out Friday; this replaces the 12 Feb decision.\n")
    claims = replaced.replaced_decisions(doc, sentences.units(doc), {3})
    assert [c.attribute for c in claims] == ["supersedes"]


@pytest.mark.parametrize("title, name", [
    ("# ADR-011 Remote access via the jump host", "ADR-011"),  # (a zero-padded number, no separator)
    ("# ADR-011: Remote access via the jump host", "ADR-011"),
    ("# COVID-19 Guidance for staff", ""),  # (two digits and no separator: a name, no record)
    ("# Notes from the 12 May sync", ""),
])
def test_a_record_title_names_its_identifier(title, name):
    assert records.record_name(doc_of(f"{title}\n\nText.\n")) == name


@pytest.mark.parametrize("text, older, newer", [
    # the title says it, with no separator after the identifier
    ("# DR-019 Remote access via the jump host (supersedes DR-007)\n\nstatus: Accepted\n\n## Why\n\nAudit.\n",
     "DR-007", "DR-019"),
    # the older record points to the newer one
    ("# DR-7: Archive on tape\n\nState: accepted\n\n## Update\n\n*Update Feb 2024: superseded, see DR-11.*\n",
     "DR-7", "DR-11"),
    # a header table's row
    ("# DR-14: Backups to restic\n\n| Field | Value |\n|---|---|\n| Status | Accepted |\n| Supersedes | DR-9 (tape) |\n\n"
     "## Why\n\nCost.\n", "DR-9", "DR-14"),
])
def test_supersession_links_both_records_in_more_shapes(text, older, newer):
    said = links(text)
    assert (older, "superseded by", newer) in said
    assert (newer, "supersedes", older) in said


def test_a_line_far_below_the_title_links_only_its_own_record():
    # the older record names the newer one far below its title: the newer's claim would cite the whole record
    body = "".join(f"- point {k} of the context\n" for k in range(12))
    text = f"# DR-7: Archive on tape\n\nState: accepted\n\n## Context\n\n{body}\n*Update Feb 2024: superseded, see DR-11.*\n"
    ex = extract_document(doc_of(text))
    said = {(c.subject, c.attribute, c.value, c.evidence.start, c.evidence.end) for c in ex.claims}
    assert ("DR-7", "superseded by", "DR-11", 20, 20) in said
    assert not any(subject == "DR-11" and attribute == "supersedes" for subject, attribute, *_ in said)


def test_a_records_body_field_stays_the_notes():
    text = ("# DR-7: Archive on tape\n\nStatus: accepted\n\n## Plan\n\ncutover window: Sat 5 Dec 02:00\n")
    ex = extract_document(doc_of(text))
    on = {(c.subject, c.evidence.start) for c in ex.claims if c.origin == "kv"}
    assert ("DR-7", 3) in on  # (the header's field is the record's)
    assert ("DR-7", 7) not in on and ("DR-7: Archive on tape", 7) in on
