"""The entity pages a statement is about (`reaches`): those whose names it contains, and those it is about by its
place — the thing its section's heading or lead names first, what the source's title names first (`title_subjects`),
the record its opening header names, its sender's, the subject of the sentence it continues — unless it opens with a
name of another thing (kctui.compiler.steps.statement_subject: "Also: Grafana Cloud's renewal is due 31 Jan." in an
email on Checkly is Grafana Cloud's, not Checkly's). The mention step (kctui.compiler.steps.mentions) attaches each
statement to the pages it reaches.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import partial

from kctui.compiler.builtin.recall import ASIDE
from kctui.compiler.extraction import Extraction, Statement
from kctui.compiler.readers.base import MESSAGE_HEADER
from kctui.compiler.steps.event_pages import event_of
from kctui.compiler.steps.field_headers import header_subjects, sender_domains
from kctui.compiler.steps.heading_aside import aside_page, split_aside, title_aside
from kctui.compiler.steps.name_finder import NameFinder, word_spans, written_words
from kctui.compiler.steps.name_position import lower_case_source
from kctui.compiler.steps.statement_subject import (
    goes_on_topic,
    keeps_place,
    leading_pages,
    states_of_another,
    values_said_of,
)
from kctui.compiler.steps.title_event import title_event
from kctui.compiler.steps.title_scope import leaving, record_pages


def reaches(ex: Extraction, finder: NameFinder, subjects: tuple[str, str], record: str
            ) -> Iterator[tuple[Statement, set[str]]]:
    """Each statement of `ex` with the entity pages it is about: those whose names it contains; when it names
    nothing, or names a thing only after opening words that name nothing, the page of what the sentence it continues
    is about too (`Statement.follows`: "Tooling unchanged at USD 6,500." after a sentence on Huaxin, "- new date thu
    15 oct, CHG-0193 re-approved" after an item on PermitTrack); the page of the thing the section it stands in is
    headed by (its scope: "**Tom**" over Tom's standup items, "## Fastly"), else of the thing the source's title
    names; a heading or title that names several things is about the one it names first ("email huaxin dfm review",
    "Onboarding — Ravi Menon": the longest name that starts there). A statement that opens with a name of its own,
    where the sentence's subject stands, is that thing's: it reaches the pages it is about by its place (its
    section's, title's, record's, sender's, the one it continues) only when it names one of them there too, or its
    section's heading opens with a name ("**Tom**"), and leaves its title's when it states a value of another thing
    (kctui.compiler.steps.statement_subject `states_of_another`), or names other things and not the title's
    (kctui.compiler.steps.title_scope). `subjects`: `title_subjects` of its title; `record`: the record its opening
    header names (`opening_record`: a note opening with a record's header is its)."""
    subject, decided = subjects
    sections: dict[str, tuple[set[str], bool]] = {"": ({subject} - {""}, False)}
    own: NameFinder | None = None  # the source's own names, made when a sentence names a page after its first word
    before = ""  # the page the statement before is about: its first name's, or the one it continues
    lowered = lower_case_source(s.value for s in ex.statements)
    headers = header_subjects(ex.statements, finder.named, lambda text: finder.first(text, lowered))
    senders = sender_domains(ex.statements, finder.named)  # (a message from a page's domain is about it)
    said_of, records = values_said_of(ex, finder.named), record_pages(ex.title, subject, record, finder.people)

    def own_places(text: str) -> list[tuple[int, int, str]]:  # (the source's own names: made when asked)
        nonlocal own
        if own is None:
            own = NameFinder({str(n): [t.name, *t.aliases] for n, t in enumerate([*ex.concepts, *ex.entities, *ex.passing])})
        return own.places(text)

    for k, statement in enumerate(ex.statements):
        turn = _TURN.match(statement.value)  # (a chat turn: what its speaker says, after their name)
        text = statement.value[turn.end():] if turn else statement.value
        places = finder.ordered(text, lowered)
        found = {slug for _, _, slug in (finder.places(statement.value, lowered) if turn else places)}
        found |= {headers[k]} if k in headers else set()
        leads = leading_pages(text, places, partial(word_spans, text))
        item = statement.follows and statement.start > ex.statements[k - 1].end  # (a list item: `Statement.follows`)
        goes_on = goes_on_topic(text, places, partial(word_spans, text), statement.follows, item, turn is not None)
        topic, before = _carried(places, leads, goes_on, before, partial(own_places, text))
        if topic:
            found.add(topic)
        if not says_something(statement.value):
            yield statement, found | finder.event_pages(found, text)  # a greeting, a sign-off or a message
            continue  # header is about what it names alone
        if before:
            found.add(before)
        headed, explicit = sections.get(statement.scope) or sections.setdefault(
            statement.scope, _headed_by(statement.scope, finder, subject))
        titled = {page for page in (senders.get(k, ""), record, decided) if page} | (
            headed if headed == {subject} else set())  # (what the note's title, its record or its sender names)
        placed = headed | titled
        if keeps_place(leads, placed):  # (one opening with a name of its own is that thing's: statement_subject)
            if titled and states_of_another(said_of(statement), placed):
                placed -= titled  # (a value of another thing is not the title's: statement_subject)
            placed -= leaving(text, places, titled - records, finder.heads)  # (other things' line: title_scope)
            found |= placed
        elif explicit:
            found |= headed
        yield statement, found | finder.event_pages(found, text)


_JOINED = re.compile(r"\s*[/&+]\s*")  # "Rosa / LibCal": a lead of names joined


def _headed_by(scope: str, finder: NameFinder, subject: str) -> tuple[set[str], bool]:
    """(the pages a section is about, whether its heading opens with their names): what its heading or lead names
    first outside brackets (or is the whole of: "**tom**"), all its names when it joins names ("Rosa / LibCal"),
    else what its brackets name alone (heading_aside), else the source's subject. It opens with a name when only its
    number or function words precede it ("1. StockPilot 9.4.0 at Doncaster"; not "Onboarding — Ravi Menon")."""
    scope, asides = split_aside(scope)
    parts = _JOINED.split(scope)
    if len(parts) > 1 and all(finder.named(p) for p in parts):
        return {slug for p in parts for slug in finder.named(p)}, True
    named, places = finder.named(scope), finder.ordered(scope)
    first = places[0][2] if places else next(iter(named)) if len(named) == 1 else aside_page(asides, finder, subject, finder.persons)
    return {first, event_of(written_words(scope), places)} - {""}, bool(named) or first in leading_pages(
        scope, places, partial(word_spans, scope))


def title_subjects(title: str, finder: NameFinder, body: Iterable[Statement] = ()) -> tuple[str, str]:
    """(the page of what a source's title names first, of the thing a record's title decides on or ""): a
    title that opens with a record's identifier (a name with a digit: "ADR-007: Move EZproxy to OCLC Hosted") is
    about the record and the first thing its decision names after it (EZproxy), as its page and claims say."""
    text = ASIDE.sub("", title)
    places = finder.ordered(text)
    if not places:  # (what its brackets name alone, named in its `body` too: heading_aside `title_aside`)
        return title_aside(title, finder, [s.value for s in body]), ""
    first = places[0]
    opening = written_words(text)[first[0]:first[0] + first[1]]
    if first[0] or not any(c.isdigit() for w in opening for c in w):  # (a party, then an event: title_event)
        event = event_of(written_words(text), places)
        return (first[2], event) if event else title_event(text, finder.ordered, written_words) or (first[2], "")
    return first[2], next((slug for at, _, slug in places if at >= first[1] and slug != first[2]), "")


# a chat turn's opening: its speaker in bold and the time ("**Dev Patel** 10:07", "**Tom W** 03/02 8:03 AM")
_TURN = re.compile(r"^\*\*[^*\n]{1,60}\*\*:?\s*(?:\d{1,2}/\d{1,2}\s+)?\d{1,2}[:.]\d{2}(?:\s*[AaPp][Mm])?\s*")


def _carried(places: list[tuple[int, int, str]], leads: set[str], follows: bool, before: str,
             own_places: Callable[[], list[tuple[int, int, str]]]) -> tuple[str, str]:
    """(the page a statement is about by what it continues, "" if none; the page the next statement continues): a
    statement that names nothing and may go on with the one before's topic (`follows`:
    kctui.compiler.steps.statement_subject `goes_on_topic`, a chat turn naming nothing too: "**Dev Patel** 10:07
    £96k year one" after a turn on Vocera) goes on with it; one naming a thing only after opening words that name
    nothing too ("- new date thu 15 oct, CHG-0193 re-approved"), unless those words hold a name of the source's own
    ("Textual is a Python framework. It was created by …" continues Textual, not Python) or only function words
    precede the name (`leads`, the names where its subject stands: "The Sectra quote came in" is Sectra's,
    kctui.compiler.steps.statement_subject)."""
    if not places:
        return "", before if follows and not any(k == 0 for k, _, _ in own_places()) else ""
    at, _, first = places[0]
    if first in leads:
        return "", first
    if any(k < at for k, _, _ in own_places()):
        return "", ""
    return (before if follows else ""), first


def says_something(text: str) -> bool:
    """Can a statement be about its section's or its document's thing without naming it ("restart it", "PTO Fri
    4th")? Not a message header ("Date: Mon, 30 Nov 2026", "From: …"), a greeting that ends on a comma ("Hi Omar,"),
    a sign-off of a word and a name ("Thanks, Dana") or a single word ("done")."""
    if MESSAGE_HEADER.match(text):
        return False
    if re.search("[0-9]", text) if text.isascii() else any(map(str.isdigit, text)):  # (ASCII's isdigit: one C scan)
        return True
    return len(text.split()) >= 2 and not text.rstrip().endswith(",") and not _SIGN_OFF.match(text)


_SIGN_OFF = re.compile(r"^\w+,?\s+[A-Z][\w.'’-]*\.?$")
