"""Every statement reaches the pages of the names it contains (issue 31, recall first).

A source that names a thing with a page of its own — made from this source or from another — says something about it
in each sentence, list item and table row that names it: "check Piano status page" in a runbook belongs on Piano's
page even when the runbook's own reading never took "Piano" for a name. After the match step has routed every source
(so every page of the pass exists), each statement of a source (`Extraction.statements`) that contains the title or
an alias of an entity page that stands — a page some source feeds a name, a claim or a term of its own — is attached
to that page as a cited note, and so is a statement that is about the page by its place (`reaches`: the thing its
section or the source's title names first, the subject of the sentence it continues) unless it opens with a name of
another thing (kctui.compiler.steps.statement_subject: "Also: Grafana Cloud's renewal is due 31 Jan." in an email on
Checkly is Grafana Cloud's, not Checkly's); at most `per_source` of one source on one page that hold no value and as
many more that hold one, unless the page holds that statement of that source whole already (`said`). A mention never
keeps a page standing: a source's page links only the pages it feeds, so when the last of those goes, the page goes
with the notes that only mention it.

How a name is found in a statement (`NameFinder`): words compared case-folded, whole words only (a word is what lies
between spaces and punctuation, a possessive "'s" dropped: "Piano's"). A name that is an English word ("Grace",
"Square", "Echo"; wordfreq zipf >= 3) matches only where the statement writes it capitalised, and a lower-case name
made of common English words ("control room") matches nowhere: the word alone does not say it is that thing (unless
a later word's capital marks it: "rev C", "iPad Air"); one such word matches where written capitalised ("ben" of a
roster: "Ben's booked you on the course") and, in lower case, where the statement puts it in a name's place ("kim
owns the generator script", "kim + luis", "| kim |": kctui.compiler.steps.name_position), as does a one-word name
that stands for a person (`people.mention_forms`: "raise w/ tom"). A name of one or two characters ("Go", "F5")
matches only as written; a person's initials (kctui.compiler.steps.first_words) only in a name's place too ("TB
thinks …").

Incremental = full: the pages a statement reaches depend on the pages that stand in the pass, so an unchanged source
is read again (from the extraction cache) when its text holds a name no page that stood before had (a page or an
alias made in this pass: `named_anew`), or when a page it only mentioned stands no more; what it attached to pages
that still stand is on them already (mention_pass).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache, partial

from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.recall import ASIDE
from kctui.compiler.builtin.stated_values import value_spans
from kctui.compiler.extraction import Extraction, Statement
from kctui.compiler.readers.base import MESSAGE_HEADER
from kctui.compiler.steps.event_pages import event_of, events_of_things
from kctui.compiler.steps.field_headers import header_subjects, opening_record, sender_domains
from kctui.compiler.steps.heading_aside import aside_page, split_aside, title_aside
from kctui.compiler.steps.joined_names import joined_places
from kctui.compiler.steps.name_position import lower_case_source, name_position
from kctui.compiler.steps.plural_names import same_words
from kctui.compiler.steps.registry import Contribution
from kctui.compiler.steps.said import not_within, said
from kctui.compiler.steps.statement_subject import (
    goes_on_topic,
    keeps_place,
    leading_pages,
    states_of_another,
    values_said_of,
)
from kctui.compiler.steps.title_event import title_event
from kctui.compiler.steps.title_record import title_record
from kctui.compiler.steps.title_scope import leaving, record_pages
from kctui.core.claims import Claim
from kctui.core.slugs import identity_key

MENTION_ORIGIN = "mention"  # a statement attached to the page of a name it contains
PER_SOURCE = 12  # at most this many statements of one source on one page, and fewer from a long one:
SOURCE_STATEMENTS = 400  # PER_SOURCE x this / its statements, at least MIN_PER_SOURCE (what a long
MIN_PER_SOURCE = 3  # document says in passing of a name it uses everywhere is its source page's)

@lru_cache(maxsize=16384)
def _words(text: str) -> tuple[str, ...]:
    """The words of `text` as written (the built-in reader's word: inner dots, hyphens, slashes and apostrophes kept,
    edge punctuation not), a possessive "'s" dropped. Remembered per text: a pass asks it of most statements twice or
    more (their versions' extents, the names they reach, the source's own names); a tuple no caller can change."""
    return tuple(wd.WORD.findall(_POSSESSIVE.sub("", text) if "'" in text or "’" in text else text))  # (no quote: none)


_POSSESSIVE = re.compile(r"['’][sS](?![\w'’.&+/-]*[^\W_])")

@lru_cache(maxsize=16384)
def word_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where each of `_words(text)` stands in `text` (a possessive "'s" blanked, not dropped); remembered as `_words`."""
    return tuple(m.span() for m in wd.WORD.finditer(_POSSESSIVE.sub(lambda m: " " * len(m.group()), text)))


@dataclass(frozen=True, slots=True)
class _Name:
    words: tuple[str, ...]
    slug: str
    capitalised: bool  # must be written with a capital
    exact: str  # must be written exactly so ("" when any case will do)
    placed: bool = False  # or in lower case where it stands as a name (`name_position`)
    lowered: bool = False  # or in lower case in a source written in lower case (`lower_case_source`)
    person: bool = False  # a one-word name standing for a person: in lower case, not before a determiner


@lru_cache(maxsize=16384)
def _entry(name: str, slug: str) -> _Name | None:
    """How `name` is found in a statement, or None when its words alone never say it is that thing (remembered)."""
    written = _words(name)
    if not written:
        return None
    folded = tuple(w.casefold() for w in written)
    if len(folded) == 1 and (folded[0] in wd.FUNCTION_WORDS or len(folded[0]) <= 2):
        return None if folded[0] in wd.FUNCTION_WORDS else _Name(folded, slug, False, written[0])
    english = all(w.isalpha() and wd.zipf(w) >= wd.RARE_ZIPF for w in folded)
    if not name[:1].isupper():
        common = all(w.isalpha() and wd.zipf(w) >= wd.COMMON_ZIPF for w in folded)
        marked = any(w[:1].isupper() for w in written[1:])  # a later word's capital marks it ("rev C")
        if common and not marked:  # a name of one ordinary word a note writes in lower case ("kim" of
            # a roster) is found where a statement capitalises it, as a capitalised English word is, and
            # in lower case where it stands as a name ("kim owns the generator script", "kim + luis")
            return _Name(folded, slug, True, "", placed=True) if len(folded) == 1 else None
        return _Name(folded, slug, False, "")
    # (a capitalised name of English words a note written in lower case writes in lower case: "sentry", "better
    # stack"; not one ordinary word: "linear", "piano")
    return _Name(folded, slug, english, "", lowered=english and (len(folded) > 1 or wd.zipf(folded[0]) < wd.COMMON_ZIPF))


class NameFinder:
    """The entity pages whose names a statement contains."""

    def __init__(self, names: Mapping[str, Iterable[str]], people: Mapping[str, Iterable[str]] | None = None,
                 written: Mapping[str, Iterable[str]] | None = None) -> None:
        """`names`: entity page slug -> its title and aliases; `people`: slug -> the one-word names that stand for the
    person the page is titled by (`people.mention_forms`), found as `names` are and, when only a capital would make
    them that name, also in lower case where they stand as a name; so is a one-word alias of such a person's page
    ("Sandy" of Sandeep Gill: "kofi, sandy (dial-in)"); `written`: slug -> names found only as a name is written,
    capitalised or in a source written in lower case (`name_forms.brand_forms`: "Widget" of "Widget Server" is not
    "a small widget")."""
        self._first: dict[str, list[_Name]] = {}
        self.keys: set[str] = set()
        self.heads: dict[str, set[str]] = {}  # slug -> the words that open its names (title_scope)
        people = self.people = people or {}  # (a person's own note: kctui.compiler.steps.title_scope)
        seen: set[_Name] = set()
        for kind, named in (("", names), ("placed", people), ("written", written or {})):
            for slug in sorted(named):
                for name in named[slug]:
                    entry = _entry(name, slug)
                    if entry is not None:
                        if entry.capitalised and (kind == "placed" or (slug in people and len(entry.words) == 1)):
                            entry = replace(entry, placed=True, lowered=True, person=True)
                        elif kind == "placed" and entry.exact.isupper():  # (a person's initials: where a name goes)
                            entry = replace(entry, placed=True)
                        if kind == "written" and not entry.exact:
                            entry = replace(entry, capitalised=True, lowered=True)
                        if kind != "placed" and entry.words[0] not in wd.FUNCTION_WORDS:
                            self.heads.setdefault(slug, set()).add(entry.words[0])
                        if entry not in seen:  # (a page's names repeat: its aliases, this pass's and the last's)
                            seen.add(entry)
                            self._first.setdefault(entry.words[0], []).append(entry)
                        self.keys.add(identity_key(name))
        self.events = events_of_things({e.words: e.slug for es in self._first.values() for e in es}, names, _words)

    def event_pages(self, found: set[str], text: str) -> set[str]:
        """The pages of the events of the things in `found` whose noun `text` writes alone ("cutover Sat 28th" reaches
    "CKF cutover" where the statement is CKF's): `_events_of_things`."""
        if not self.events or not found:
            return set()
        words = {w.casefold() for w in _words(text)}
        return {event for slug in found for noun, event in self.events.get(slug, ()) if noun in words}

    def find(self, text: str, lowered: bool = False) -> set[str]:
        return {slug for _, _, slug in self.places(text, lowered)}

    def places(self, text: str, lowered: bool = False) -> list[tuple[int, int, str]]:
        """(first word, words, slug) of each name `text` contains, in the order written; `lowered`: the text is of a
    source written in lower case (`lower_case_source`), where a capitalised name of English words is found in lower
    case too (not one ordinary word, nor after "a" or "an")."""
        written = _words(text)
        folded = "\x00".join(written).casefold().split("\x00")
        found: list[tuple[int, int, str]] = []
        if self._first.keys().isdisjoint(folded):
            return joined_places(written, self._first, set(), lowered)  # (names inside a word: "Leeds/Doncaster")
        spans: tuple[tuple[int, int], ...] = ()
        openers = self._first
        for i in [i for i, word in enumerate(folded) if word in openers]:  # (the words that open a name: few)
            for name in openers[folded[i]]:
                n = len(name.words)
                if (n > 1 and not same_words(name.words, folded[i:i + n])) or (name.exact and written[i] != name.exact):
                    continue
                if (name.capitalised or name.placed) and not (written[i][:1].isupper() and name.capitalised) and not (
                        lowered and name.lowered and not (i and folded[i - 1] in _INDEFINITE)
                        and not (name.person and folded[i + 1:i + 2] and folded[i + 1] in _DETERMINERS)):
                    spans = spans or word_spans(text)
                    if not (name.placed and name_position(text, *spans[i])):
                        continue
                found.append((i, n, name.slug))
        return found + joined_places(written, openers, {i for i, _, _ in found}, lowered)

    def ordered(self, text: str, lowered: bool = False) -> list[tuple[int, int, str]]:
        """`places` in the order the text writes them, the longest first of those that start at one word
        ("Primo VE" before "Primo")."""
        return sorted(self.places(text, lowered), key=lambda p: (p[0], -p[1], p[2]))

    def first(self, text: str, lowered: bool = False) -> str:
        """The page of the first name `text` contains (the longest of those that start there, "Primo VE"
        before "Primo"), or "" when it names none: what a title that names several things names first."""
        places = self.ordered(text, lowered)
        return places[0][2] if places else ""

    def named(self, text: str) -> set[str]:
        """The pages one of whose names is the whole of `text`, in any case: a section headed by a name
        alone ("**tom**" over tom's standup items) is about it however the note writes it."""
        written = _words(text)
        folded = tuple(w.casefold() for w in written)
        return {name.slug for name in self._first.get(folded[0], ()) if name.words == folded
                and not (name.exact and written[0] != name.exact)} if folded else set()


# a determiner after a word makes it a verb ("chase the quote", "mark the ticket"), never a person's name
_DETERMINERS = frozenset("the a an this that these those our your their its my his her each every all some any it them".split())
_INDEFINITE = frozenset({"a", "an"})  # an article that makes the word after it a common noun ("a discord")


def names_of(slugs: Iterable[str], titles: Mapping[str, str], aliases: Mapping[str, Iterable[str]],
             routed: Iterable[Mapping[str, object]]) -> dict[str, list[str]]:
    """Entity page slug -> its title and aliases: the previous wiki's (`aliases` by slug) and those the
    sources routed in this pass give it."""
    out = {slug: [titles[slug], *aliases.get(slug, ())] for slug in slugs}
    for contributions in routed:
        for slug, contribution in contributions.items():
            if slug in out:
                out[slug] += sorted(getattr(contribution, "aliases", ()))
    return out


def attach(ex: Extraction, fed: dict[str, Contribution], finder: NameFinder, titles: Mapping[str, str]) -> None:
    """Each statement of `ex` as a note on the entity pages it reaches (`reaches`): on one page at most `per_source`
    of those that state no value and as many of those that state one, except on the page of what the source is
    about (what its title names first, the record its opening header names), where every stated fact goes (no fact
    of its own subject is said in passing); `fed`: the pages this source feeds, slug -> Contribution."""
    counts: dict[tuple[bool, str], int] = {}
    cap = per_source(len(ex.statements))
    subjects, record = title_subjects(ex.title, finder, ex.statements), opening_record(ex.statements, finder.named)
    record = record or title_record(ex.title, finder.places, _words, subjects[0])  # ("… — INC-2291", "(LDS-FS01)")
    own = {*subjects, record} - {""}
    for statement, found in reaches(ex, finder, subjects, record):
        if not found or _bare_lead(statement.value, finder):
            continue
        valued = bool(value_spans(statement.value))  # (a stated fact: counted apart, `cap` of them too)
        ev = statement.evidence(ex)
        for slug in sorted(found):
            if counts.get((valued, slug), 0) >= cap and not (valued and slug in own):
                continue
            contribution = fed.get(slug)
            if contribution is not None and said(statement.value, ev, contribution.claims):
                continue  # the page has this statement of this source already
            counts[valued, slug] = counts.get((valued, slug), 0) + 1
            if contribution is None:
                contribution = fed[slug] = Contribution()
            contribution.claims[:] = not_within(statement.value, ev, contribution.claims)
            contribution.claims.append(Claim(titles[slug], "note", statement.value, "", "fact", MENTION_ORIGIN, ev))
            contribution.mentions = []  # the cited sentences say what the source says; no bare mention line


def _bare_lead(text: str, finder: NameFinder) -> bool:
    """A bold line that is a name alone ("**Ines**" over her items) leads them: no note of its own on the page."""
    inner = text.strip()
    return len(inner) > 4 and inner[:2] in ("**", "__") and inner[-2:] == inner[:2] and bool(finder.named(inner[2:-2]))


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
    first = places[0][2] if places else next(iter(named)) if len(named) == 1 else aside_page(asides, finder, subject)
    return {first, event_of(_words(scope), places)} - {""}, bool(named) or first in leading_pages(
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
    opening = _words(text)[first[0]:first[0] + first[1]]
    if first[0] or not any(c.isdigit() for w in opening for c in w):  # (a party, then an event: title_event)
        event = event_of(_words(text), places)
        return (first[2], event) if event else title_event(text, finder.ordered, _words) or (first[2], "")
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


def per_source(statements: int) -> int:
    """How many statements of a source with this many reach one page."""
    return max(MIN_PER_SOURCE, min(PER_SOURCE, SOURCE_STATEMENTS // max(statements, 1)))
