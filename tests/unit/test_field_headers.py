"""What a header of fields is about (kctui.compiler.steps.field_headers): a message's sender, a record
named by its identifier, the page a sender's address domain names."""

from __future__ import annotations

import pytest

from kctui.compiler.extraction import Statement
from kctui.compiler.steps.field_headers import header_subjects, sender_domains

PAGES = {"jo quill": "jo-quill", "inc0042": "inc0042", "bunny.net": "bunny", "huaxin ems": "huaxin",
         "trakline": "trakline"}


def _named(text: str) -> set[str]:
    return {PAGES[text.casefold()]} if text.casefold() in PAGES else set()


def _first(text: str) -> str:
    return next((slug for name, slug in PAGES.items() if name in text.casefold()), "")


def _statements(lines: list[str]) -> list[Statement]:
    return [Statement(text, "", k, k) for k, text in enumerate(lines, start=1) if text]


@pytest.mark.parametrize(("lines", "about"), [
    (["From: Jo Quill <jo@example.com>", "To: Rafe Dunmore", "Date: Mon, 2 Nov 2026 14:12"], {1: "jo-quill", 2: "jo-quill", 3: "jo-quill"}),
    (["> From: Jo Quill", "> Sent: 4 November 2026 09:30"], {1: "jo-quill", 2: "jo-quill"}),  # quoted
    (["**Incident:** INC0042", "**Severity:** Sev 2", "**Status:** Final"], {1: "inc0042", 2: "inc0042", 3: "inc0042"}),
    (["**Incident:** INC0042", "", "**Severity:** Sev 2"], {}),  # a blank line ends the header
    (["**Severity:** Sev 2", "**Status:** Final"], {}),  # no field names what it is about
    (["Owner: Jo Quill", "Status: final"], {}),  # a person in a record's field is no sender
    (["Date: Mon, 2 Nov 2026 14:12"], {}),  # one field is no header
    (["Incident | INC0042", "Duration | 09:00 – 11:42 (2h 42m)"], {1: "inc0042", 2: "inc0042"}),  # as a table
    ([*[""] * 12, "Incident | INC0042", "Duration | 2h 42m"], {}),  # a table of settings further down
])
def test_a_header_of_fields_is_about_its_sender_or_its_record(lines: list[str], about: dict[int, str]) -> None:
    statements = _statements(lines)
    got = header_subjects(statements, _named, _first)
    assert {statements[k].start: slug for k, slug in got.items()} == about


@pytest.mark.parametrize(("sender", "page"), [
    ("From: Kasia Nowak <kasia.n@bunny.net>", "bunny"),  # the domain is the page's name
    ("From: Wendy Lin <wendy.lin@huaxin-ems.cn>", "huaxin"),  # its first label, hyphens as spaces
    ("**From:** Lena Fischer <lena@trakline.example>", "trakline"),  # its first label
    ("From: Jo Quill <jo@example.com>", ""),  # a domain naming no page
    ("From: Jo Quill", ""),  # no address
])
def test_a_message_from_an_address_at_a_pages_domain_is_about_that_page(sender: str, page: str) -> None:
    statements = _statements([sender, "Date: Thu, 12 Nov 2026", "", "Volume tier: $0.0028/GB.", "",
                              "From: Tomasz W <t@example.com>", "ok, signed"])
    got = sender_domains(statements, _named)
    assert {statements[k].start: slug for k, slug in got.items()} == ({1: page, 2: page, 4: page} if page else {})


@pytest.mark.parametrize(("lines", "record"), [
    (["**Incident:** INC0042", "**Severity:** Sev 2", "", "Between 06:12 and 08:52 results were late."], "inc0042"),
    (["Author: Jo Quill", "Status: final", "Ticket: INC0042", "", "The filesystem ran out of inodes."], "inc0042"),
    (["The filesystem ran out of inodes.", "", *[f"line {n}" for n in range(12)], "Ticket: INC0042", "Status: final"], ""),
    (["**Incident:** INC0042"], ""),  # one field is no header
    (["Incident | INC0042", "Severity | P1", "", "The kiosks could not log in."], ""),  # a table: no write-up
])
def test_a_note_opening_with_a_records_header_is_about_that_record(lines: list[str], record: str) -> None:
    from kctui.compiler.steps.field_headers import opening_record

    assert opening_record(_statements(lines), _named) == record


# -- the fields of one line (kctui.compiler.builtin.facts.fields) ------------------------------------------

from kctui.compiler.builtin import facts  # noqa: E402
from kctui.compiler.builtin.document import extract_document  # noqa: E402
from kctui.compiler.readers import read_source  # noqa: E402


@pytest.mark.parametrize(("line", "found"), [
    ("Owner: Jo Quill", [("Owner", "Jo Quill")]),
    ("**Severity:** Sev 2 **Duration:** 47 min **Commander:** Jo Quill",
     [("Severity", "Sev 2"), ("Duration", "47 min"), ("Commander", "Jo Quill")]),
    ("**Severity:** Sev 2", [("Severity", "Sev 2")]),
    ("Severity: Sev 2 | Duration: 47 min · Commander: Jo Quill",
     [("Severity", "Sev 2"), ("Duration", "47 min"), ("Commander", "Jo Quill")]),
    ("Severity: Sev 2 | then we rolled back", []),  # a part that is no field: no fields
    ("**Tom**: upgraded nginx to 1.25", []),  # a standup's bold person and what they did: no field
    ("We rolled back at 14:44", []),
])
def test_the_fields_of_a_line(line: str, found: list[tuple[str, str]]) -> None:
    assert facts.fields(line) == found


def test_a_line_of_fields_states_each_value_of_what_the_note_is_about_not_of_a_name_in_it() -> None:
    text = "# Incident: checkout errors\n\n**Severity:** SEV2 **Duration:** 47 min **Commander:** Hana Sato\n\nWebhooks failed.\n"
    ex = extract_document(read_source("notes/n.md", text.encode(), "sha256:" + "5" * 64))
    got = {(c.subject, c.attribute, c.value) for c in ex.claims}
    assert {("Incident: checkout errors", "Duration", "47 min"), ("Incident: checkout errors", "Commander", "Hana Sato")} <= got
    assert not any(c.subject == "SEV2" and c.value == "47 min" for c in ex.claims)
    assert "Hana Sato" in {e.name for e in ex.entities}
