"""The other names a source's title gives its page (kctui.compiler.steps.title_names), table-tested."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.title_names import file_aliases, source_aliases, title_aliases


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


@pytest.mark.parametrize(("path", "title", "own", "expected"), [
    # the file's name, and its stem where that is a slug of several words
    ("runbook-release.md", "Runbook: cutting a quaypg release", [], ["runbook-release.md", "runbook-release"]),
    ("notes/todo-s3-launch.md", "s3 launch todo (dec 3)", [], ["todo-s3-launch.md", "todo-s3-launch"]),
    # a stem of one word is a word, not the note's name
    ("vendors.md", "Vendors & contracts", [], ["vendors.md"]),
    # nor one the title or a page of the source's own already has
    ("gcs01.md", "gcs01", [], ["gcs01.md"]),
    ("paywall-api.md", "Runbook: paywall-api", ["paywall-api"], ["paywall-api.md"]),
    # no extension: the name alone
    ("README", "Readme", [], []),
])
def test_file_aliases(path: str, title: str, own: list[str], expected: list[str]) -> None:
    assert file_aliases(path, title, own) == expected


def test_source_aliases_title_first_then_file() -> None:
    assert source_aliases("Runbook: paywall-api", ["paywall-api"], "runbook-paywall-api.md") == [
        "runbook-paywall-api.md", "runbook-paywall-api"]
    assert source_aliases("Postmortem: Hangar 3 Wi-Fi outage (28 Oct 2026)", [], "pm-hangar3.md") == [
        "Hangar 3 Wi-Fi outage", "Postmortem: Hangar 3 Wi-Fi outage", "pm-hangar3.md", "pm-hangar3"]
