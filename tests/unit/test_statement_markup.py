"""A line whose backslashes are a Windows share's or a code span's is a statement like any other (issue 31:
"masters -> `\\nas02\\masters`" is what the note says of nas02); a Markdown escape elsewhere is markup, its
text not what the line says (kctui.compiler.builtin.statements.markup)."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.sentences import units
from kctui.compiler.builtin.statements import all_statements, markup
from kctui.compiler.readers.markdown import read_markdown


@pytest.mark.parametrize(("text", "wanted"), [
    ("masters go to `\\\\qnap7\\masters\\YYYY\\` — never delete", False),  # a code span shows as written
    ("copied to \\\\ORV-FS02\\Archive\\Scans tonight", False),  # a share's host after its two backslashes
    ("ops-fs-01\\efb holds it", False),  # one backslash before a letter: a path
    ("price is 5 \\* 3 per seat", True),  # an escape outside a code span
    ("| a \\| b |", True),
    ("see <https://example.com/x> now", True),  # an autolink
])
def test_markup(text: str, wanted: bool) -> None:
    assert markup(text) is wanted


def test_a_list_item_and_a_row_holding_a_share_are_statements() -> None:
    text = ("# Onboarding\n\n- masters -> `\\\\qnap7\\masters` — never overwrite\n\n"
            "| what | where |\n| --- | --- |\n| scans | \\\\ORV-FS02\\Scans, 14 days |\n")
    doc = read_markdown("onboarding.md", text, "sha256:x", len(text))
    got = {s.start for s in all_statements(doc, units(doc))}
    assert {3, 7} <= got
