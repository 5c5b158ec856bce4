"""The event a title names after a party's name (issue 31, facts on their subject's page): a note's title often
opens with the party a thing is done for — the writer's own organisation, the client — and names what the note is
about after a separator, an event of a thing (kctui.compiler.steps.event_pages `event_of`: a name and a noun of a
doing):

    Subject: RE: Brackenfold Ltd – QuillPool renewal (exp. 3/31/2027)
    # Brackenfold — Tarnmoor migration plan

The note's lines that name nothing ("We'll renew for **1 year**, not the 3-yr term.", "- 3-year term, 75,000
credits/yr") are facts of the renewal and of its thing, not of the party the title opens with: the title is about
the event and its thing, as a title that opens with the event is ("QuillPool renewal – Brackenfold – 2027"). A part
after the first that opens with a name and no noun of a doing ("Brackenfold — QuillPool sync", "QuillPool migration
— kickoff w/ Tarnmoor") leaves the title's first name its subject, and so does an event with no page of its own
(tried on the notes: its thing's page took the event's lines, 10 of 12 labelled as the event's, not the thing's).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from kctui.compiler.steps.event_pages import event_of

_BRACKETED = re.compile(r"\([^()]*\)")
_SEPARATOR = re.compile(r"\s*(?::\s|\s[—–-]\s|\s[|/]\s)\s*")

Places = Callable[[str], list[tuple[int, int, str]]]  # text -> (first word, words, page) of its names, in order
Words = Callable[[str], Sequence[str]]  # text -> its words, as `Places` counts them


def title_event(title: str, places: Places, words: Words) -> tuple[str, str] | None:
    """(the event's page, its thing's page) of the first part of `title` after the one its first name stands in
    that opens with the name of an event of a thing (a page of its own), None when no such part follows."""
    pieces = [p.strip(" .#*_`'\"") for p in _SEPARATOR.split(_BRACKETED.sub(" ", title))]
    named = False
    for piece in pieces:
        found = places(piece)
        if named and found and found[0][0] == 0:
            thing = event_of(tuple(words(piece)), found)
            if thing:
                return found[0][2], thing
        named = named or bool(found)
    return None

