"""Relative times in running text, resolved against the date a passage was written: "yesterday" in a
chat session dated Tuesday 5 March 2024 is Monday 4 March 2024; "last month" is February 2024.

`anchor_date(heading)` reads a date out of a section heading or title ("Session 9 — 1:51 pm on 26 June,
2023", "## Tue 14 Mar 2024, evening", "# Chat — 2025-02-03 21:40"): it needs a four-digit year, and is
read with python-dateutil. `resolve(text, anchor)` finds the relative times of English prose (today,
yesterday, tomorrow, last/next/this Friday, last/next week, month or year, N days, weeks, months or years
ago, in N days …, a fortnight) and gives each as the date or the date range it means; a weekday named alone
("Picked her up on Saturday", "Tuesday if nothing breaks") is the one before or after as its clause's tense
says (kctui.core.tense), and stays unresolved where the clause does not say. Pure: a function of its inputs
(tests/unit/test_relative_time.py).
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass

from kctui.core.tense import weekday_direction

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a few": 3}
_YEAR = re.compile(r"\b(19|20)\d\d\b")
_DAY = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_COUNT = r"(\d{1,3}|a couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_UNIT = r"(day|week|fortnight|month|year)s?"
_PATTERNS = (
    ("day_before", re.compile(r"\bthe day before yesterday\b", re.I)),
    ("day_after", re.compile(r"\bthe day after tomorrow\b", re.I)),
    ("yesterday", re.compile(r"\byesterday\b", re.I)),
    ("tomorrow", re.compile(r"\btomorrow\b", re.I)),
    ("today", re.compile(r"\b(today|tonight|this (?:morning|afternoon|evening))\b", re.I)),
    ("week_on", re.compile(rf"\ba week on {_DAY}\b", re.I)),
    ("last_day", re.compile(rf"\blast {_DAY}\b", re.I)),
    ("next_day", re.compile(rf"\bnext {_DAY}\b", re.I)),
    ("this_day", re.compile(rf"\bthis (?:coming )?{_DAY}\b", re.I)),
    ("ago", re.compile(rf"\b{_COUNT} {_UNIT} ago\b", re.I)),
    ("within", re.compile(rf"\bin {_COUNT} {_UNIT}\b", re.I)),
    ("last_span", re.compile(r"\blast (week|month|year)\b", re.I)),
    ("next_span", re.compile(r"\bnext (week|month|year)\b", re.I)),
)

# a weekday named alone: not after a word that says which one ("last", "every", "that", "a week on" …, which
# _PATTERNS reads or nobody can), not a plural, not before the date it names ("Saturday 25 January") nor
# before "week" ("Thursday week")
_MONTHS = "|".join([*calendar.month_name[1:], *calendar.month_abbr[1:]])
_BARE_DAY = re.compile(rf"\b{_DAY}\b(?!\s*,?\s*(?:the\s+)?\d|\s*,?\s*(?:{_MONTHS})\b|\s+week\b)", re.I)
_SAYS_WHICH = re.compile(r"\b(?:last|next|this|that|every|each|same|the|a|one|coming|following|other)\s+$", re.I)


@dataclass(frozen=True)
class RelativeTime:
    phrase: str  # as written
    start: dt.date
    end: dt.date  # the same as start for one day

    def gloss(self) -> str:
        """What a statement carries beside it: `yesterday = Monday 4 March 2024`; a weekday named alone as
        its date (`Saturday 2 March 2024`: the phrase is the label's first word)."""
        label = self.label()
        return label if label.split(" ", 1)[0].casefold() == self.phrase.casefold() else f"{self.phrase} = {label}"

    def label(self) -> str:
        """`Monday 4 March 2024`, `25 Feb–2 Mar 2024`, `February 2024` or `2023`."""
        if self.start == self.end:
            return f"{self.start:%A} {self.start.day} {self.start:%B %Y}"
        if self.start.day == 1 and self.end == _month_end(self.start):
            return f"{self.start:%B %Y}"
        if (self.start.month, self.start.day, self.end.month, self.end.day) == (1, 1, 12, 31):
            return f"{self.start.year}"
        return f"{self.start.day} {self.start:%b}–{self.end.day} {self.end:%b %Y}"


_DATE_SPANS = (  # (a date as people write it in a heading, read day first)
    (re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}\b"), False),
    (re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?[A-Za-z]{3,9}\.?,?\s+\d{4}\b"), True),
    (re.compile(r"\b[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}\b"), False),
    (re.compile(r"\b\d{1,2}[/.]\d{1,2}[/.]\d{4}\b"), True),
)


def _month_end(day: dt.date) -> dt.date:
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def anchor_date(heading: str) -> dt.date | None:
    """The date a heading names (it must hold a four-digit year), else None."""
    if not heading or not _YEAR.search(heading):
        return None
    for pattern, dayfirst in _DATE_SPANS:
        m = pattern.search(heading)
        if m is None:
            continue
        from dateutil import parser as date_parser  # noqa: PLC0415 - loaded when a heading holds a year

        try:
            return date_parser.parse(m.group(0), dayfirst=dayfirst, default=dt.datetime(1900, 1, 1)).date()
        except (ValueError, OverflowError):
            continue
    return None


# a chat line's own time stamp, as chat exports write it: "[01/10/2024, 09:10:00] Rosa: …", "01/10/2024, 09:10 - Rosa: …"
_LINE_STAMP = re.compile(r"^\s*(?:\[(?P<inner>[^\]\n]{6,40})\]|(?P<bare>\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4},?\s+\d{1,2}[:.]\d{2}"
                         r"(?:[:.]\d{2})?(?:\s*[AaPp]\.?[Mm]\.?)?)\s*[-–—])")


def stamp_date(text: str) -> dt.date | None:
    """The date of the time stamp a chat line opens with (it must hold a four-digit year), else None: the
    day its relative times are said from, where no heading dates the line."""
    m = _LINE_STAMP.match(text) if text[:1] in "[0123456789 " else None
    return anchor_date(m.group("inner") or m.group("bare")) if m else None


def resolve(text: str, anchor: dt.date) -> list[RelativeTime]:
    """Each relative time of `text`, in order, as the date or range it means on `anchor`."""
    found: list[tuple[int, RelativeTime]] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            got = _RESOLVERS[kind](m, anchor)
            if got is not None:
                taken.append(m.span())
                found.append((m.start(), RelativeTime(m.group(0), *got)))
    for m in _BARE_DAY.finditer(text):
        if any(a < m.end() and m.start() < b for a, b in taken) or _SAYS_WHICH.search(text, 0, m.start()):
            continue
        want = WEEKDAYS.index(m.group(1).lower())
        direction = weekday_direction(text, m.start(), m.end()) if want != anchor.weekday() else 0
        if direction:
            found.append((m.start(), RelativeTime(m.group(0), *_weekday(m, anchor, direction))))
    return [r for _at, r in sorted(found, key=lambda x: x[0])]


def _count(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else _NUMBER_WORDS.get(word, 1)


def _shift(anchor: dt.date, n: int, unit: str) -> tuple[dt.date, dt.date]:
    """`n` units from the anchor (negative: back): a day for days and weeks, the month or the year."""
    unit = unit.lower().rstrip("s")
    if unit in ("day", "week", "fortnight"):
        day = anchor + dt.timedelta(days=n * {"day": 1, "week": 7, "fortnight": 14}[unit])
        return day, day
    if unit == "month":
        months = anchor.year * 12 + anchor.month - 1 + n
        first = dt.date(months // 12, months % 12 + 1, 1)
        return first, _month_end(first)
    year = anchor.year + n
    return dt.date(year, 1, 1), dt.date(year, 12, 31)


def _weekday(m: re.Match, anchor: dt.date, direction: int, extra: int = 0) -> tuple[dt.date, dt.date]:
    """The named weekday before (direction -1) or after (+1) the anchor, never the anchor itself."""
    want = WEEKDAYS.index(m.group(1).lower())
    days = (anchor.weekday() - want) % 7 or 7 if direction < 0 else (want - anchor.weekday()) % 7 or 7
    day = anchor + dt.timedelta(days=direction * days + extra)
    return day, day


def _span(m: re.Match, anchor: dt.date, n: int) -> tuple[dt.date, dt.date]:
    unit = m.group(1).lower()
    if unit == "week":
        monday = anchor - dt.timedelta(days=anchor.weekday()) + dt.timedelta(weeks=n)
        return monday, monday + dt.timedelta(days=6)
    return _shift(anchor, n, unit)


def _day(offset: int):  # noqa: ANN202 - a resolver
    return lambda m, anchor: (anchor + dt.timedelta(days=offset),) * 2


_RESOLVERS = {
    "day_before": _day(-2), "day_after": _day(2), "yesterday": _day(-1), "tomorrow": _day(1), "today": _day(0),
    "week_on": lambda m, anchor: _weekday(m, anchor, 1, 7),
    "last_day": lambda m, anchor: _weekday(m, anchor, -1),
    "next_day": lambda m, anchor: _weekday(m, anchor, 1),
    "this_day": lambda m, anchor: _weekday(m, anchor, 1) if WEEKDAYS.index(m.group(1).lower()) != anchor.weekday()
    else (anchor, anchor),
    "ago": lambda m, anchor: _shift(anchor, -_count(m.group(1)), m.group(2)),
    "within": lambda m, anchor: _shift(anchor, _count(m.group(1)), m.group(2)),
    "last_span": lambda m, anchor: _span(m, anchor, -1),
    "next_span": lambda m, anchor: _span(m, anchor, 1),
}
