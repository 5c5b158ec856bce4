"""The lines a context packet writes for its statements (kctui.search.packet_items), read back: a claim's
citation ends it, a passage's lines open it, a `§ section` line is no statement — as tables."""

from __future__ import annotations

import pytest

from kctui.search.packet_items import lines_label, read_claim, read_passage


@pytest.mark.parametrize(("line", "want"), [
    ("L29: The numbat eats termites.", ((29, 29), "The numbat eats termites.")),
    ("L3-L5: Marcus: L4: not a label here", ((3, 5), "Marcus: L4: not a label here")),
    ("L7: yesterday we met (yesterday = Mon 4 Mar 2024)", ((7, 7), "yesterday we met (yesterday = Mon 4 Mar 2024)")),
    ("§ Session 2", None),
    ("§ (no heading)", None),
    ("L12 without its colon", None),
])
def test_a_passage_line_gives_its_lines_and_text(line, want):
    assert read_passage(line) == want


@pytest.mark.parametrize(("line", "want"), [
    ("RabbitMQ shutdown moves to 30 April ^[sync.md:L24-L24]", ("RabbitMQ shutdown moves to 30 April", "^[sync.md:L24-L24]")),
    ("a price [see ^[x]] is quoted ^[notes/a b.md:L3-L4]", ("a price [see ^[x]] is quoted", "^[notes/a b.md:L3-L4]")),
    ("escaped ^[we\\]ird.md:L1-L1]", ("escaped", "^[we\\]ird.md:L1-L1]")),
    ("a page of a PDF ^[doc.pdf:p2]", ("a page of a PDF", "^[doc.pdf:p2]")),
    ("no citation at all", ("no citation at all", "")),
])
def test_a_claim_line_gives_its_text_and_citation(line, want):
    assert read_claim(line) == want


@pytest.mark.parametrize(("lines", "label"), [((29, 29), "L29"), ((3, 5), "L3-L5")])
def test_a_passage_is_labelled_by_its_lines_as_the_text_packet_writes_them(lines, label):
    assert lines_label(lines) == label
    assert read_passage(f"{label}: x") == (lines, "x")
