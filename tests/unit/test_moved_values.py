"""A value a sentence says moved from the old to the new (QA session 31, problems 7 and 9): the new date is
the thing's `date`, on the event the line names before the verb (kctui.compiler.builtin.moved_values)."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.moved_values import moved_dates, on_events
from kctui.core.claims import Claim, Evidence


@pytest.mark.parametrize(("text", "expected"), [
    ("The Postgres cutover moves from 21 Nov to 28 Nov.", [("28 Nov", "21 Nov")]),
    ("Mara: the Postgres cutover moves from 14 Nov to 21 Nov because the vendor patch is late.", [("21 Nov", "14 Nov")]),
    ("RabbitMQ shutdown moved from 31 January 2027 to 30 April 2027", [("30 April 2027", "31 January 2027")]),
    ("launch slipped from Tue 3 Mar to Tue 10 Mar", [("10 Mar", "3 Mar")]),
    ("go-live was pushed from 2026-03-01 to 2026-03-15.", [("2026-03-15", "2026-03-01")]),
    ("We moved from Jenkins to GitHub Actions.", []),
    ("The office moves from floor 3 to floor 5.", []),
    ("Prices go from $10 to $12 in May.", []),
])
def test_moved_dates(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(new, old) for _, new, old in moved_dates(text)] == expected


def _date(subject: str, value: str, line: int) -> Claim:
    return Claim(subject, "date", value, "", "fact", "statement", Evidence("n.md", line, line, "sha256:x"))


def test_the_moved_date_is_the_events() -> None:
    lines = ["# Planning", "- The Postgres cutover moves from 21 Nov to 28 Nov.", "- Postgres 16 goes live on 28 Nov."]
    out = on_events([_date("Postgres", "28 Nov", 2), _date("Postgres", "28 Nov", 3)], lines)
    assert [(c.subject, c.value) for c in out] == [("Postgres cutover", "28 Nov"), ("Postgres", "28 Nov")]


def test_a_thing_moved_itself_keeps_its_date() -> None:
    lines = ["RabbitMQ shutdown moved from 31 January 2027 to 30 April 2027", "Fastly moves from 1 Mar to 1 Apr."]
    out = on_events([_date("RabbitMQ", "30 April 2027", 1), _date("Fastly", "1 Apr", 2)], lines)
    assert [c.subject for c in out] == ["RabbitMQ shutdown", "Fastly"]
