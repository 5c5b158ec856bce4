"""The record a note's title names apart (issue 31): a title often names the note's thing twice, in words
and by its identifier, set apart in brackets or as the title's last part:

    # Postmortem: authgw p99 latency / soft declines — INC-2291
    # Postmortem — Leeds file server outage (LDS-FS01), Tue 20 Jan 2026
    # Email thread - Grind & Co wifi refresh quote (Q-2026-041)

The words name what happened and the thing it happened to ("authgw"); the identifier names the record the
note is of: the incident, the host, the quote. What the note says without naming anything ("- 15:06
resolved", "**Duration:** 6 hours 40 minutes", "| **Total inc GST** | | | **$4,719.00** |") is a fact of
that record as much as of the title's first name, so the mention step takes the record for a subject of
the note beside the first name (kctui.compiler.steps.statement_pages `title_subjects`, where a title that opens
with a record's identifier already makes it the subject).

A part set apart is the record's when it is one page's name and nothing more ("(supersedes ADR-007)"
names another record), a name with two digits or more: an identifier, a host's or an asset's number (a
name of words in brackets, "(Kraków)", "(junior sysadmin)", is a remark; a level, "(SEV2)", "(P1)", is a
value of the record's, not its name; a date is no name of a page).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

_BRACKETED = re.compile(r"\(([^()]*)\)")
_SEPARATOR = re.compile(r"\s*(?::\s|\s[—–-]\s|\s\|\s)\s*")
MIN_DIGITS = 2  # an identifier's or a number's ("INC-2291", "gcs01"), not a level's ("SEV2", "P1")

Places = Callable[[str], list[tuple[int, int, str]]]  # text -> (first word, words, page) of the names it holds
Words = Callable[[str], Sequence[str]]  # text -> its words, as `Places` counts them


def title_record(title: str, places: Places, words: Words, subject: str) -> str:
    """The page of the record `title` names apart (in brackets, or as its last part after a separator),
    "" when none, or when it is the title's first name (`subject`) already; `places` finds the pages'
    names in a text (kctui.compiler.steps.name_finder `NameFinder.places`), `words` its words."""
    parts = [m.group(1) for m in _BRACKETED.finditer(title)]
    plain = _BRACKETED.sub(" ", title)
    pieces = [p.strip(" .#*_`'\"") for p in _SEPARATOR.split(plain)]
    if len(pieces) > 1:
        parts.append(pieces[-1])
    for part in parts:
        page = _record_of(part.strip(), places, words)
        if page and page != subject:
            return page
    return ""


def _record_of(part: str, places: Places, words_of: Words) -> str:
    """The page whose name, with two digits or more, is the whole of `part`."""
    words = words_of(part)
    found = [p for p in places(part) if p[0] == 0 and p[1] == len(words)] if words else []
    if len(found) != 1 or sum(ch.isdigit() for ch in part) < MIN_DIGITS:
        return ""
    return found[0][2]
