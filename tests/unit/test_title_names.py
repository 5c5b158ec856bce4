"""The other names a source's title gives its page (kctui.compiler.steps.title_names), table-tested."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.title_names import title_aliases


@pytest.mark.parametrize(("title", "own", "expected"), [
    # the part after a one-word kind, and the title without its date
    ("Postmortem: Hangar 3 Wi-Fi outage (28 Oct 2026)", [], ["Hangar 3 Wi-Fi outage", "Postmortem: Hangar 3 Wi-Fi outage"]),
    ("Onboarding - Joel Achterberg (junior sysadmin), starts Mon 2 Nov 2026", [],
     ["Joel Achterberg", "Onboarding - Joel Achterberg"]),
    # the first part, a date after it cut
    ("RCS Operations Meeting — Tuesday 20 January 2026", [], ["RCS Operations Meeting"]),
    ("On-call handover — Fri 13 Nov 2026", [], ["On-call handover"]),
    ("ops-IT TODO — Q4 2026 (Priya's list)", [], ["ops-IT TODO"]),
    ("Decision 003: Brewery management system", [], ["Decision 003"]),
    # a later part is context, not the note's name
    ("LibCal renewal 2027 - Castlebrook University", [], ["LibCal renewal 2027"]),
    # a name the source gives a page of its own is that page's
    ("ADR-007: Move EZproxy to OCLC Hosted", ["ADR-007"], ["Move EZproxy to OCLC Hosted"]),
    ("Runbook: paywall-api", ["paywall-api"], []),
    # a date, a kind of note or one ordinary word names nothing
    ("Standup — Mon 9 Feb 2026", [], []),
    ("Standup 26/10", [], []),
    ("Summary", [], []),
    ("standup 2026 11 09", [], []),
])
def test_title_aliases(title: str, own: list[str], expected: list[str]) -> None:
    assert title_aliases(title, own) == expected
