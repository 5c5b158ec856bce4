"""What a statement is about by the place of its names (issue 31, trust): the mention step's rule for a
statement that names a thing of its own inside a section, a note or a paragraph about another.

A claim on a page must say something about that page's thing. A statement is about the thing its
section's heading, its note's title, the record its note opens with, its message's sender or the
sentence it continues names (the pages it reaches by its place: kctui.compiler.steps.mentions `reaches`)
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
  at Doncaster": kctui.compiler.steps.mentions `_headed_by`) is that thing's whatever its items open
  with: under a person's name a standup's "- Fastly quote came in, £2,150/mo" is what that person
  reports, under an agenda item what the meeting said of it ("Leeds next: provisionally Sun 6 Dec").
  A heading that names a thing after other words ("Onboarding — Ravi Menon"), and a title, are not: a
  note's title names what it is about first, and its sections go on to other things.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from kctui.compiler.builtin import words as wd


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
