"""Relative times resolved against the date a passage was written (kctui.core.relative_time)."""

from __future__ import annotations

import datetime as dt

import pytest

from kctui.core.relative_time import anchor_date, resolve, stamp_date

TUE = dt.date(2024, 3, 5)  # a Tuesday


@pytest.mark.parametrize("heading, date", [
    ("Session 9 — 1:51 pm on 26 June, 2023", dt.date(2023, 6, 26)),
    ("Tue 14 Mar 2024, evening", dt.date(2024, 3, 14)),
    ("Chat — 2025-02-03 21:40", dt.date(2025, 2, 3)),
    ("7 January 2024 (Sunday)", dt.date(2024, 1, 7)),
    ("Call log, 5 May 2024, 8:15 pm", dt.date(2024, 5, 5)),
    ("Session 3", None),  # no year: no date
    ("Runbook: checkout-api 5xx", None),
    ("", None),
])
def test_a_heading_gives_its_date_when_it_holds_a_year(heading, date):
    assert anchor_date(heading) == date


@pytest.mark.parametrize("text, phrase, start, end", [
    ("I sprained it yesterday.", "yesterday", "2024-03-04", "2024-03-04"),
    ("The day before yesterday was mad.", "The day before yesterday", "2024-03-03", "2024-03-03"),
    ("See you tomorrow!", "tomorrow", "2024-03-06", "2024-03-06"),
    ("We met last Friday.", "last Friday", "2024-03-01", "2024-03-01"),
    ("Not last Tuesday, the one before.", "last Tuesday", "2024-02-27", "2024-02-27"),
    ("It's next Monday.", "next Monday", "2024-03-11", "2024-03-11"),
    ("The interview's a week on Wednesday.", "a week on Wednesday", "2024-03-13", "2024-03-13"),
    ("We moved two years ago.", "two years ago", "2022-01-01", "2022-12-31"),
    ("That was 3 days ago.", "3 days ago", "2024-03-02", "2024-03-02"),
    ("A couple of months ago, maybe.", "A couple of months ago", "2024-01-01", "2024-01-31"),
    ("The results come in a fortnight.", "in a fortnight", "2024-03-19", "2024-03-19"),
    ("We went last week.", "last week", "2024-02-26", "2024-03-03"),
    ("Next month is busy.", "Next month", "2024-04-01", "2024-04-30"),
])
def test_a_relative_time_is_the_date_or_range_it_means_that_day(text, phrase, start, end):
    got = resolve(text, TUE)
    assert [(r.phrase, r.start.isoformat(), r.end.isoformat()) for r in got] == [(phrase, start, end)]


def test_several_in_one_sentence_in_order_and_none_in_plain_text():
    got = resolve("Yesterday I booked it for next Friday.", TUE)
    assert [r.phrase for r in got] == ["Yesterday", "next Friday"]
    assert resolve("Postgres 16 replaced MySQL; the daily job runs at noon.", TUE) == []


def test_labels_read_as_a_person_writes_dates():
    assert [r.label() for r in resolve("yesterday, last month, two years ago, last week", TUE)] == [
        "Monday 4 March 2024", "February 2024", "2022", "26 Feb–3 Mar 2024"]


@pytest.mark.parametrize("text, written", [
    ("Picked her up on Saturday", "Saturday 2 March 2024"),  # the Saturday before Tuesday 5 March
    ("I'm flying home on Sunday", "Sunday 10 March 2024"),  # the Sunday after
    ("Sent it off on Tuesday.", None),  # the day it was written: today, or a week ago?
    ("I can do every other Saturday", None),
    ("They're offering Thursday May 4th instead.", None),  # a date, not a weekday alone
    ("The guy can't do till Thursday week", None),
    ("Saturdays are best, see you Friday", None),  # a habit
])
def test_a_weekday_alone_is_the_one_its_tense_points_to_written_as_its_date(text, written):
    got = [r.gloss() for r in resolve(text, TUE)]
    assert got == ([written] if written else [])


def test_a_relative_time_is_glossed_with_its_phrase():
    assert [r.gloss() for r in resolve("I sprained it yesterday.", TUE)] == ["yesterday = Monday 4 March 2024"]


@pytest.mark.parametrize(("line", "day"), [
    ("[01/10/2024, 09:10:00] Rosa: You said she was poorly yesterday.", dt.date(2024, 10, 1)),  # an export's stamp
    ("01/10/2024, 09:10 - Rosa: You said she was poorly yesterday.", dt.date(2024, 10, 1)),
    ("[2024-10-01 09:10] Rosa: hi", dt.date(2024, 10, 1)),
    ("[09:41] Tomasz Wren: heads up", None),  # a time of day alone dates nothing
    ("Rosa: yesterday, at 10/01/2024", None),  # a date inside the words is no stamp
])
def test_a_chat_lines_own_stamp_dates_it(line, day):
    assert stamp_date(line) == day
