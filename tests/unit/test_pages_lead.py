"""The line that leads an entity page no source defines: a statement, not a message's header field."""

from kctui.core.claims import Claim, Evidence
from kctui.core.pages import _lead


def note(value: str, line: int) -> Claim:
    return Claim("Hetzner Online", "note", value, "", "fact", "statement", Evidence("mail.md", line, line, "sha256:x"))


def test_a_header_field_does_not_lead_while_a_statement_is_there():
    header = note("Date: 2 Dec 2026", 4)
    sender = note("From: Hetzner Online <billing@hetzner.example>", 2)
    price = note("The monthly price of your AX102 servers changes from €104.00 to €119.00.", 8)
    assert _lead("Hetzner Online", [header, sender, price]) is price
    assert _lead("Hetzner Online", [header, sender]) is header  # nothing else: the first field still leads
    turn = note("Tom: we moved the standup to 10:00", 3)  # a turn's speaker is no header field
    assert _lead("Tom", [turn, price]) is turn
