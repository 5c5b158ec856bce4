"""A value a sentence says changed, from the old to the new (QA session 31, problems 7 and 9): "the Postgres
cutover moves from 21 Nov to 28 Nov", "RabbitMQ shutdown moved from 31 January 2027 to 30 April 2027",
"the launch slips from 3 Mar to 10 Mar". The new value is a fact of the thing named before the verb (its
`date`), cited to the line, so the thing's page holds the date it has now and a source that says another
one disputes it for a person; the old one, after "from", is no value of it (it was, it is not).

Until this rule such a line was a decision of its note with the old date its alternative (agenda.py,
decided.py) and a plain note on the thing's page: no dated fact of the thing, so nothing to compare a later
move with, and `ask "… now?"` found the older dates first.

Pure functions of a sentence's text."""

from __future__ import annotations

import re
from dataclasses import replace

from kctui.compiler.builtin.named_events import event_noun
from kctui.core.claims import Claim

_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
_DAY = (rf"(?:\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}(?:,?\s+\d{{4}})?|"
        rf"{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?)")
_WEEKDAY = r"(?:(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)[a-z]*\.?,?\s+)?"
_MOVED = re.compile(
    rf"\b(?:moves?|moved|moving|slips?|slipped|slipping|shifts?|shifted|shifting|is\s+pushed|was\s+pushed|pushed|"
    rf"postponed|rescheduled|brought\s+forward|changes?|changed)\s+(?:back\s+|out\s+)?"
    rf"from\s+{_WEEKDAY}(?P<old>{_DAY})\s+to\s+{_WEEKDAY}(?P<new>{_DAY})(?![\w-])", re.I)
HINTS = (" from ",)  # what a unit holds for `moved_dates` to look at (entity_facts `_FACT_HINTS`)


def moved_dates(text: str) -> list[tuple[int, str, str]]:
    """(where the verb stands, the new date, the old date) of each change of a date `text` states."""
    return [(m.start(), " ".join(m.group("new").split()).rstrip("."), " ".join(m.group("old").split()).rstrip("."))
            for m in _MOVED.finditer(text)]


def on_events(claims: list[Claim], lines: list[str]) -> list[Claim]:
    """The moved dates (`moved_dates`: a `date` of the name before the verb) of a thing whose event the
    line names right before the verb, its name and a noun of a doing ("the Postgres cutover moves from …":
    kctui.compiler.builtin.named_events `event_noun`), given to that event: the cutover's date, not
    Postgres's."""
    out = []
    for c in claims:
        if c.attribute == "date" and c.evidence.unit == "line" and c.evidence.start >= 1:
            text = " ".join(lines[c.evidence.start - 1:c.evidence.end])
            for at, new, _ in moved_dates(text):
                m = re.search(rf"(?<![\w-])({re.escape(c.subject)})\s+([a-z]+)\s+$", text[:at], re.I)
                if new == c.value and m and event_noun(m.group(2)):
                    c = replace(c, subject=f"{m.group(1)} {m.group(2)}")
                    break
        out.append(c)
    return out
