"""What a statement is about by the place of its names (issue 31, trust): the mention step's rule for a
statement that names a thing of its own inside a section, a note or a paragraph about another.

A claim on a page must say something about that page's thing. A statement is about the thing its
section's heading, its note's title, the record its note opens with, its message's sender or the
sentence it continues names (the pages it reaches by its place: kctui.compiler.steps.statement_pages `reaches`)
when it names nothing ("Last year we paid $9,600." in an email on Checkly), or names things only after a
word that says something of its own ("runs on pg-prod-02" under "## Billing API": the heading's thing
runs on the host, both pages are right). It is not when it opens with a name: the thing named where the
sentence's subject stands is what it is about ("Also: Grafana Cloud's renewal is due 31 Jan." in that
email is Grafana Cloud's, not Checkly's), unless that name is of one of the pages it reaches by its place
(`keeps_place`), or its section's heading opens with a name.

- **the subject's place** (`leading_pages`): a name that no content word of the statement precedes —
  before it only markup, digits, a time and function words ("The", "Also:", "| Datadog |", "09:55 Kim
  confirms"). A content word before it (a verb, a label's noun: "Owner: Tom W.", "Deciders: …",
  "waiting Caledon quote") makes the name an object or a field's value, and so does a preposition or a
  subordinating conjunction ("after the PBN Ridge Hill maintenance", "If Castlebrook commits …": a
  phrase or clause of its own); the statement stays with what it is about by its place.
- **a list is no subject**: a statement that opens with names in a list ("Python 3.11, Django 4.2 LTS,
  Postgres 16 locally" under "getting into Shiftly dev", "FAR1 + LIS2 together in Feb") names each in
  passing, and stays with its section's thing too.
- **a section whose heading opens with a name** ("**Tom**", "## Grace (on call)", "1. StockPilot 9.4.0
  at Doncaster": kctui.compiler.steps.statement_pages `_headed_by`) is that thing's whatever its items open
  with: under a person's name a standup's "- Fastly quote came in, £2,150/mo" is what that person
  reports, under an agenda item what the meeting said of it ("Leeds next: provisionally Sun 6 Dec").
  A heading that names a thing after other words ("Onboarding — Ravi Menon"), and a title, are not: a
  note's title names what it is about first, and its sections go on to other things.
- **a value of another thing is not the title's** (`states_of_another`): a statement that reaches a
  page only by its note's title (or the record it opens with, or its sender) and states a value the
  source's reading takes for another thing's, none for the title's, leaves the title's page: "Running
  cost: about 40 LTO-9 cartridges a year, roughly £3,200." in a decision record on backing up /home is a
  price of LTO-9, "**Move the whole app to Render** (web service $7 + Postgres $19)" in one on Shiftly's
  database is Render's. It stays on the pages it names. One that names nothing, or states no value, or
  one of the title's thing ("owner: Marek (backup: Tom)" in a runbook, a field of the note), stays with
  the title: a note titled after one thing goes on to other things, but not every line of it does.
- **a turn or a list item that names its own thing opens a topic** (`goes_on_topic`): a chat turn is
  its speaker's statement, about the turn before's topic only when it names nothing ("yes, do it"); a
  list item that names a thing before stating a value ("- mq-01..03 decommissioned") is not about the
  item before's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence

from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.stated_values import value_spans
from kctui.compiler.extraction import Extraction, Statement
from kctui.core.claims import Claim


def leading_pages(text: str, places: Sequence[tuple[int, int, str]],
                  spans: Callable[[], Sequence[tuple[int, int]]]) -> set[str]:
    """The pages of the names a statement holds in its subject's place (the module's rule), none when it
    opens with a list of names ("Python 3.11, Django 4.2 LTS, Postgres 16 locally": `_opens_list`):
    `places`: (first word, words, slug) of each name `text` holds, in the order written
    (`NameFinder.places`); `spans()`: where its words stand in `text`, as `NameFinder.places` counts them
    (asked only when it holds a name after its first word or two names)."""
    if not places:
        return set()
    first = min(at for at, _, _ in places)
    if first or len(places) > 1:
        where = spans()
        if not all(_says_nothing(text[a:b]) for a, b in where[:first]) or _opens_list(text, places, first, where):
            return set()
    return {slug for at, _, slug in places if at == first}


def _opens_list(text: str, places: Sequence[tuple[int, int, str]], first: int, where: Sequence[tuple[int, int]]) -> bool:
    """Does the name at word `first` open a list of names: the next name follows it after a separator
    (",", "+", "&", "/") and nothing but numbers ("Python 3.11, Django 4.2", "FAR1 + LIS2")?"""
    end = max(at + n for at, n, _ in places if at == first)
    after = [at for at, _, _ in places if at >= end]
    if not after or min(after) >= len(where) or end > len(where):
        return False
    gap = text[where[end - 1][1]:where[min(after)][0]]
    return bool(_LIST_GAP.match(gap)) and not any(c.isalpha() for c in gap)


_LIST_GAP = re.compile(r"^[^,+&/]*[,+&/][^,+&/]*$")  # one separator between two names (numbers beside it)


def _says_nothing(word: str) -> bool:
    """Is a word before a name no content word, nor one that opens a phrase or clause of its own: a
    function word other than a preposition or a subordinating conjunction, or digits and signs alone (a
    time, a step's number: "09:55", "3")?"""
    folded = word.casefold()
    return (folded in wd.FUNCTION_WORDS and folded not in _OPENS_PHRASE) or not any(c.isalpha() for c in word)


# prepositions and subordinating conjunctions: a name after one stands in a phrase or clause of its own
# ("after the PBN Ridge Hill maintenance, so probably w/c 26 Oct", "If Castlebrook commits to a 2-year
# term we can hold it at £5,090/yr"), not where the sentence's subject stands
_OPENS_PHRASE = frozenset("as at by for from in into of on onto with without via per about after before over under "
                          "between since because although though while unless until once whether if when where how "
                          "than to".split())


def keeps_place(leads: Collection[str], placed: Collection[str]) -> bool:
    """Does a statement reach the pages it is about by its place (`placed`: its section's, its title's,
    its record's, its sender's)? Yes when it names nothing in its subject's place (`leads`), or names one
    of those pages there."""
    return not leads or any(page in placed for page in leads)


def states_of_another(said_of: Iterable[Collection[str]], own: Collection[str]) -> bool:
    """Does a statement its note's title places on a page (`own`: the pages of what the title, the record
    it opens with or its sender names, and its section's) state a value of another thing and none of its
    own (the module's rule: `said_of`, for each value the source's reading states of a name in the
    statement's lines, the pages that name is the whole of, `TITLE` for the note's title itself, none for
    a name without a page of its own)?"""
    other = False
    for pages in said_of:
        if TITLE in pages or any(page in own for page in pages):
            return False
        other = True
    return other


TITLE = "\x00title"  # what `states_of_another` is given for a value stated of the note's title itself


def values_said_of(ex: Extraction, named: Callable[[str], set[str]]) -> Callable[[Statement], list[set[str]]]:
    """For a statement of `ex`: for each value the source's reading states of a name in its lines (a
    claim of the name, not the statement itself: "LTO-9 · price: £3,200"), the pages that name is the
    whole of (`named`; `TITLE` for the source's own title): what `states_of_another` is given."""
    by_line: dict[int, list[Claim]] = {}
    for claim in ex.claims:
        if claim.attribute != "note" and value_spans(claim.value):  # (a value of a name, not the sentence)
            for line in range(claim.evidence.start, claim.evidence.end + 1):
                by_line.setdefault(line, []).append(claim)

    def said_of(statement: Statement) -> list[set[str]]:
        claims = {c for line in range(statement.start, statement.end + 1) for c in by_line.get(line, ())
                  if c.value in statement.value}
        return [{TITLE} if c.subject == ex.title else named(c.subject) for c in claims]
    return said_of


def goes_on_topic(text: str, places: Sequence[tuple[int, int, str]], spans: Callable[[], Sequence[tuple[int, int]]],
                  follows: bool, item: bool, turn: bool) -> bool:
    """May a statement go on with the topic of the one before it (kctui.compiler.steps.statement_pages
    `_carried`)? `follows`: it continues the sentence or list item before it (`Statement.follows`), `item`:
    as a list item; `turn`: it is a chat turn, `text` what its speaker says; `places`: the names `text`
    holds (`NameFinder.ordered`), `spans()` where its words stand.

    - **a turn is its speaker's statement**: it goes on with the turn before's topic only when it names
      nothing ("**Dev Patel** 10:07 £96k year one" after a turn on Vocera, "yes, do it"); one that
      names a thing is about what it names ("**Anouk** 09:31 fyi restic …" is not Wasabi's).
    - **a list item that names its own thing** opens a topic of its own ("- mq-01..03 decommissioned"
      after an item on Kofi's work): it goes on with the item before's only when it names nothing, or
      states a value before the first thing it names ("- new date thu 15 oct, CHG-0193 re-approved"
      after "- PermitTrack upgrade slipped": the date is the upgrade's). A time or a step's number
      opening it is no value of that kind ("- 09:40 P2 raised, on-call paged (Tom)").
    - a later sentence of a paragraph goes on as the sentence before does (`_carried` decides by its
      opening words)."""
    if turn and not places:
        return True
    if not follows or not (item and places):
        return follows
    return bool(value_spans(_STAMP.sub("", text[:spans()[places[0][0]][0]])))


_STAMP = re.compile(r"^[^A-Za-z]*(?=\s|$)")  # what opens an item before its first word of letters: a time, a number
