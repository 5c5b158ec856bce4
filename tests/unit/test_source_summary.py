"""What a source page says it is (its description): the first paragraph that says something, not a header
of `Label: value` fields (issue 31: a decision record's description had been "Status: accepted.")."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.summary import summary
from kctui.compiler.readers.markdown import read_markdown


def _summary(text: str) -> str:
    found = summary(read_markdown("note.md", text, "sha256:x", len(text)))
    return found[0] if found else ""


@pytest.mark.parametrize(("text", "expected"), [
    # a decision record's status fields give way to its first sentence
    ("# ADR-7: Use Redis Streams\n\nStatus: accepted\nDeciders: Maya, Tomas\n\n## Context\n\n"
     "The job queue lives in Postgres and locks under load.\n", "The job queue lives in Postgres and locks under load."),
    # an email's header and greeting give way to what it says
    ("From: Megan Cole <megan@vendor.example>\nTo: Rosa <rosa@uni.example>\nSubject: Renewal\n\nHi Rosa,\n\n"
     "Your subscription renews on 1 January 2027.\n", "Your subscription renews on 1 January 2027."),
    # a header followed by lists and a sign-off: the header says the most
    ("# Duty handover\nFrom: Tom -> To: Priya (duty 26 Oct - 1 Nov)\n\n## Open\n- cert expires 2 Nov\n\nhave a quiet one\n",
     "From: Tom -> To: Priya (duty 26 Oct - 1 Nov)"),
    # one line that reads as a sentence is prose, not a field
    ("Note: we moved the vacuum window to 05:30 because of lag.\n\nOther text follows here later.\n",
     "Note: we moved the vacuum window to 05:30 because of lag."),
])
def test_the_description_is_the_first_paragraph_that_says_something(text: str, expected: str) -> None:
    assert _summary(text) == expected


def test_a_bold_lead_line_is_no_description() -> None:
    """A standup's "**Priya**" heads her items; the note's first item says more of it."""
    text = "## Standup 1 Dec\n\n**Priya**\n- ledger-db vacuum now 05:30, no lag since\n\n**Omar** (on call)\n- quiet\n"
    assert _summary(text) == "ledger-db vacuum now 05:30, no lag since"


@pytest.mark.parametrize(("text", "expected"), [
    # a label over a list is no description: the first item says more of the note
    ("# Standup 1 Dec\n\n- **Anneke**: finished the Grafana upgrade\n\nDecisions\n- we stop paying for Pingdom\n",
     "**Anneke**: finished the Grafana upgrade"),
    ("parking lot:\n- who owns the VPN renewal\n", "who owns the VPN renewal"),
    # a greeting gives way to what the email says
    ("Dear Helen,\n\nThe support contract renews on 1 March at £4,200.\n", "The support contract renews on 1 March at £4,200."),
    # a paragraph of three words or more without a colon still says something
    ("Dana, Kat, Marcus\n\n- quiet week\n", "Dana, Kat, Marcus"),
])
def test_a_label_line_is_no_description(text: str, expected: str) -> None:
    assert _summary(text).replace("*", "") == expected.replace("*", "")
