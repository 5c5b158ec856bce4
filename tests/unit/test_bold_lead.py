"""A bold line that is a name alone ("**Ines**" over her standup items) leads the lines under it and
is no note of its page (kctui.compiler.steps.mentions.attach). Names are our own."""

from __future__ import annotations

import pytest

from kctui.compiler.extraction import Extraction, Statement
from kctui.compiler.steps.mentions import attach
from kctui.compiler.steps.name_finder import NameFinder

PAGES = {"piano": ["Piano"], "prebid": ["prebid"], "tom-ellery": ["Tom Ellery", "Tom"]}


def _statement(line: int, text: str) -> Statement:
    return Statement(text, "", line, line)


@pytest.mark.parametrize(("text", "noted"), [
    ("**Tom Ellery**", False),  # a bold lead over a person's standup items: the items are the notes
    ("__Piano__", False),
    ("**Piano** renews in May", True),  # the lead says something after the name
    ("Piano", True),  # a list's item that is a name alone stays (what the list it stands in says of it)
    ("**Piano and prebid**", True),  # a lead naming more than one page is no single name
])
def test_a_bold_line_that_is_a_name_alone_is_no_note_of_its_page(text: str, noted: bool) -> None:
    ex = Extraction("standup.md", "sha256:x", "markdown", "Standup", "note", "general", statements=[_statement(3, text)])
    fed: dict = {}
    attach(ex, fed, NameFinder(PAGES), {"piano": "Piano", "prebid": "prebid", "tom-ellery": "Tom Ellery"})
    assert any(c.value == text for contribution in fed.values() for c in contribution.claims) is noted
