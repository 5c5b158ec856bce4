"""A conversation turn's head, in any of the forms people paste a chat in: a time stamp, a speaker's name and a
separator, in the order the chat app writes them, not one pattern per app.

- a stamp: a date and/or a time of day, as people write them (`01/10/2024`, `1/10/24`, `10.01.2024`,
  `2024-01-10`, `10 Jan 2024`, `Jan 10, 2024`, a weekday in front; `09:10`, `09:10:33`, `9:10 AM`; a date then
  a time, with `,` or `at` between), bare or in brackets (`[…]`, `(…)`; a bracketed stamp holds a digit);
- a name: one to three capitalised words, perhaps in bold (`**Marta Kowalski**`);
- the head is a stamp before the name (in brackets, or bare before `-` / `–`, or a clock's time with AM / PM), or one after it (perhaps after a
  comma), or none, then `: ` and the message on the line (`Lena: …`, `[18:02] Lena Park: …`, `[1/10/24,
  09:10:33] Rosa: …`, `01/10/2024, 09:10 - Rosa: …`, `10:14 AM Rosa: …`, `**Marta Kowalski** 09:20: …`), or
  the head is a line of its own above the message (`Marta, [10 Jan 2024 at 09:10]`, `**Dev Patel** 10:07`):
  then the name is in bold or a stamp follows it that is in brackets or holds a date, so a line of a
  document ("Meeting 10:00") is no head; such a head with its message on the same line (a quoted passage's
  lines joined: `Marta, [10 Jan 2024 at 09:10] the vendor said no`) is one too where that stamp is in square
  brackets, as chat apps write it (a note's "Carol (2024-06-24) plan: …" is no turn, nor its bold label
  "**Owner**: Sam", nor an agenda's "09:30 Standup: …").

`turn_head(text)`: the head of a passage's first line (`Head`: who, the prefix as written, the day its stamp
names as written); `dated_turn(text)`: a turn as a packet writes it under its day (`("06/01/2024", "Rosa:
…")`), its stamp said once for the consecutive turns of a day (kctui.search.packet_items), as `day_label` writes
it: the date written out where the stamp's form says which field is the day, else as written. Pure
(tests/unit/test_turn_head.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]{0,6}\.?"
_DATE = (r"(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]{0,6},?\s+)?(?:\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}"
         rf"|(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?)(?:,?\s+\d{{4}})?)")
_TIME = r"\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?:\s*[AaPp]\.?[Mm]\.?)?"
_WHEN = rf"(?:{_DATE}(?:,?\s+(?:at\s+)?{_TIME})?|{_TIME})"
_STAMP = rf"(?:\[(?=[^\]\n]*\d)[^\]\n]{{1,40}}\]|\((?=[^)\n]*\d){_WHEN}\)|{_WHEN})"
_NAME = r"[A-Z][\w.'’-]{0,30}(?: [A-Z][\w.'’-]{0,30}){0,2}"
_HEAD = re.compile(rf"^\s*(?:(?P<lead>{_STAMP})\s*(?P<dash>[-–—]\s*)?)?(?P<bold>\*\*)?(?P<name>{_NAME})(?(bold)\*\*)"
                   rf"(?:,?\s*(?P<tail>{_STAMP}))?(?:(?P<said>:\s+)(?=\S)|\s*$|(?(tail)\s+(?=\S)|(?!)))")
_DAY = re.compile(_DATE)
_MERIDIEM = re.compile(r"[AaPp]\.?[Mm]\.?$")


@dataclass(frozen=True)
class Head:
    name: str  # the speaker's name as written
    prefix: str  # the head as written: up to the message (the line and its newline for a head of its own)
    day: str  # the date its stamp names, as written ("" for none)


@lru_cache(maxsize=8192)
def turn_head(text: str) -> Head | None:
    """The turn head of `text`'s first line, None when it opens with none."""
    first, nl, _rest = text.partition("\n")
    m = _HEAD.match(first)
    if m is None:
        return None
    stamps = [s for s in (m.group("lead"), m.group("tail")) if s]
    lead = m.group("lead") or ""
    if lead and not lead.startswith(("[", "(")) and not m.group("dash") and not _MERIDIEM.search(lead):
        return None  # a bare stamp in front: a phone export's "… - Name:" or a clock's "10:14 AM Name:", not an agenda's "09:30 Standup:"
    if m.group("bold") and m.group("said") and not m.group("tail"):
        return None  # "**Owner**: Sam", a note's bold label
    prefix = m.group(0)
    if not m.group("said"):  # a head above its message (perhaps flattened onto its line): the name in bold, or
        tail = m.group("tail") or ""  # a bracketed or dated stamp after it
        if not (m.group("bold") or tail.startswith(("[", "(")) or _DAY.search(tail)):
            return None
        if m.end() == len(first):
            prefix = first + nl
        elif not tail.startswith("["):  # joined onto its message: a chat app's bracketed stamp, not a note's
            return None  # "Carol (2024-06-24) plan: …"
    day = next((d.group(0) for s in stamps for d in [_DAY.search(s)] if d), "")
    return Head(m.group("name"), prefix, day)


def is_turn_line(line: str) -> bool:
    """Whether a line opens a conversation's turn (a head, with its message or above it)."""
    return turn_head(line) is not None


_NUMERIC = re.compile(r"(\d{1,4})[/.-](\d{1,2})[/.-](\d{2,4})")


@lru_cache(maxsize=1024)
def day_label(day: str) -> str:
    """A stamp's date as a packet's day label: the date it surely means, written out ("Saturday 20 January
    2024"), where its form says which field is the day (a field over 12, a year first, a month's name); as
    written where it does not ("06/01/2024": 6 January or June 1)."""
    import datetime as dt

    m = _NUMERIC.fullmatch(day)
    try:
        if m:
            a, b, c = (int(g) for g in m.groups())
            if len(m.group(1)) == 4:
                y, mo, d = a, b, c
            elif a > 12 >= b:
                d, mo, y = a, b, c
            elif b > 12 >= a:
                mo, d, y = a, b, c
            else:
                return day
            when = dt.date(y + 2000 if y < 100 else y, mo, d)
        elif re.search(r"\d{4}", day):
            from dateutil import parser as date_parser  # noqa: PLC0415 - a month's name and a year

            when = date_parser.parse(day, default=dt.datetime(1900, 1, 1)).date()
        else:
            return day
    except (ValueError, OverflowError):
        return day
    return f"{when:%A} {when.day} {when:%B %Y}"


def dated_turn(text: str) -> tuple[str, str]:
    """(the day a turn's stamp names, the turn as `Name: message`) for a turn whose stamp holds a date, else
    ("", text): the packet says the day once above the turns of that day and no time of day (the Markdown
    chats' session heading does the same), ~23 bytes a turn of an export."""
    head = turn_head(text)
    if head is None or not head.day:
        return "", text
    body = text[len(head.prefix):]
    return head.day, f"{head.name}: {body}"
