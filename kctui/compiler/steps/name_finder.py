"""A statement's names: which entity pages a statement names, and where (`NameFinder`), for the mention step
(kctui.compiler.steps.mentions) and the pages a statement reaches (kctui.compiler.steps.statement_pages).

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
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

from kctui.compiler.builtin import words as wd
from kctui.compiler.steps.event_pages import events_of_things
from kctui.compiler.steps.joined_names import joined_places
from kctui.compiler.steps.name_position import name_position
from kctui.compiler.steps.plural_names import same_words
from kctui.core.slugs import identity_key


@lru_cache(maxsize=16384)
def written_words(text: str) -> tuple[str, ...]:
    """The words of `text` as written (the built-in reader's word: inner dots, hyphens, slashes and apostrophes kept,
    edge punctuation not), a possessive "'s" dropped. Remembered per text: a pass asks it of most statements twice or
    more (their versions' extents, the names they reach, the source's own names); a tuple no caller can change."""
    return tuple(wd.WORD.findall(_POSSESSIVE.sub("", text) if "'" in text or "’" in text else text))  # (no quote: none)


_POSSESSIVE = re.compile(r"['’][sS](?![\w'’.&+/-]*[^\W_])")

@lru_cache(maxsize=16384)
def word_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where each of `written_words(text)` stands in `text` (a possessive "'s" blanked, not dropped); remembered as
    `written_words` is."""
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
    written = written_words(name)
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
        self.persons = persons(people)  # (a section heading's person: heading_aside)
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
        openers = {e.words: e.slug for es in self._first.values() for e in es}
        self.events = events_of_things(openers, names, written_words)

    def event_pages(self, found: set[str], text: str) -> set[str]:
        """The pages of the events of the things in `found` whose noun `text` writes alone ("cutover Sat 28th" reaches
    "CKF cutover" where the statement is CKF's): `_events_of_things`."""
        if not self.events or not found:
            return set()
        words = {w.casefold() for w in written_words(text)}
        return {event for slug in found for noun, event in self.events.get(slug, ()) if noun in words}

    def find(self, text: str, lowered: bool = False) -> set[str]:
        return {slug for _, _, slug in self.places(text, lowered)}

    def places(self, text: str, lowered: bool = False) -> list[tuple[int, int, str]]:
        """(first word, words, slug) of each name `text` contains, in the order written; `lowered`: the text is of a
    source written in lower case (`lower_case_source`), where a capitalised name of English words is found in lower
    case too (not one ordinary word, nor after "a" or "an")."""
        written = written_words(text)
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
        written = written_words(text)
        folded = tuple(w.casefold() for w in written)
        return {name.slug for name in self._first.get(folded[0], ()) if name.words == folded
                and not (name.exact and written[0] != name.exact)} if folded else set()


def persons(people: Mapping[str, Iterable[str]]) -> set[str]:
    """The pages of `people` (slug -> the one-word names and initials that stand for what the page is titled by) that
    a word stands for, a given name ("Tom" of Tom Fairley): what a section heading's brackets name as who does its
    work (kctui.compiler.steps.heading_aside). Initials alone say no person: two capitalised words ("Railhead
    Analytics": "RA") or a word of two capitalised parts ("PagerDuty": "PD") have them as a colleague's name does."""
    return {slug for slug, forms in people.items() if any(not form.isupper() for form in forms)}


# a determiner after a word makes it a verb ("chase the quote", "mark the ticket"), never a person's name
_DETERMINERS = frozenset("the a an this that these those our your their its my his her each every all some any it them".split())
_INDEFINITE = frozenset({"a", "an"})  # an article that makes the word after it a common noun ("a discord")
