"""A name of two words called by its first (issue 31, recall): notes write a page's name in full once
and then by its first word — a colleague by their given name ("Hannah tells SSEN …" of Hannah Cole,
"Karen says price held" of Karen Holt), a firm by its own word ("Welsh page back from Lumen" of Lumen
Translations). The people of the base get theirs through the fold (kctui.compiler.steps.people), but a
name no source types as a person's, and a firm's name whose first word English has, get none:
kctui.compiler.steps.name_forms `brand_forms` takes only a word English does not have.

The rule (`first_word_forms`), a pure function of the pages' names, so the previous pass's pages give the
same forms (the mention step compares the two to know which sources name a page anew):

- a name of two words, each a capitalised word of letters (a hyphen or an apostrophe inside: "O'Neill",
  "Smith-Jones"), neither an acronym ("Corporate IT", "VAST Data" are not);
- its first word a word English has, but not one of its most frequent (a given name is in the word
  lists: "Karen", "Hollis"; "Will", "May", "Station" are too frequent to stand for one thing), of three
  letters or more, no function word and no word of the calendar;
- its second word no kind of thing ("Kestrel Software", "Keeper Business", "Station Hotel": a second
  word English uses often, or a noun that types a name, makes the first word a brand's or a place's,
  which it shares with the other things of that brand or place);
- where no other page has a name that is the word, begins with it, or opens with a longer word it
  begins ("Tom" of "Tom Fairley" beside a page "Tomasz Wójcik": the fold's short form is his).

The mention step finds such a word as a person's one-word name is found (kctui.compiler.steps.name_finder,
the `people` of `NameFinder`): written capitalised, and in lower case only where it stands as a name or
in a source written in lower case ("hannah ok with it").

A team writes its people by their initials too ("TB thinks printhead", "- [ ] wms-db-01 lag — DO",
"Scribe: DJ"), and a tool named by two words run together by theirs ("PD pages Tomek" of PagerDuty, "WP
updated to 6.4.3" of WordPress): the capitals of such a name's two words (`initials_forms`; its first
word may be one English does not have, "Dhananjay Joshi"), or of a word of two capitalised parts, stand for it where no other such name has them and no page is
named by them, found only written so and only where the statement puts a name (kctui.compiler.steps.
name_position: a slot of a list, a label's value, a clause's subject before its verb: "DJ did it"), never
as a word ("IS", "DO" in "DO conf rm B" stand where a name does not).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import words as wd
from kctui.compiler.steps.names_memo import remembered
from kctui.core.slugs import identity_key

FIRST_MAX_ZIPF = 5.0  # a first word this frequent or more ("Will", "Station") stands for no one thing
SECOND_MAX_ZIPF = 4.5  # a second word this frequent or more ("Business", "Hotel") is a kind, not a surname
_WORD = re.compile(r"^[A-Z][a-z]+(?:['’-][A-Za-z][a-z]+)?$")  # a capitalised word of letters, not an acronym


def _two_words(name: str) -> list[str]:
    """The two words of a name shaped as the module's rule asks (neither a kind nor a frequent word, the
    first no function word nor the calendar's), or []."""
    words = name.split()
    if len(words) != 2 or not all(_WORD.match(w) for w in words):
        return []
    first, second = (w.casefold() for w in words)
    if not _may_open(first):
        return []
    if wd.zipf(first) >= FIRST_MAX_ZIPF or wd.zipf(second) >= SECOND_MAX_ZIPF or second in nt.TYPE_NOUNS:
        return []
    return words


def _may_open(first: str) -> bool:
    """Could the (casefolded) first word stand for its name: three letters or more, no function word, no
    word of the calendar?"""
    return len(first) >= 3 and first not in wd.FUNCTION_WORDS and first not in wd.CALENDAR \
        and first not in wd.CALENDAR_SHORT


def _first_word(name: str) -> str:
    """The first word of `name` that may stand for it (the module's rule), or ""."""
    words = name.split()
    if len(words) != 2 or not _WORD.match(words[0]) or not (_MODEL.match(words[1]) or _two_words(name)):
        return ""  # (a model's designation, or a second word that is no kind: `_two_words`)
    first = words[0].casefold()
    if not _may_open(first):
        return ""
    if not first.isalpha() or first.endswith(_ENGLISH_ENDINGS):
        return ""  # (an adjective or a noun English derives: "Additional Artifacts", "Usage Pings", "Self-serve Cody")
    return words[0] if wd.RARE_ZIPF <= wd.zipf(first) < FIRST_MAX_ZIPF else ""


_ENGLISH_ENDINGS = ("al", "ic", "ive", "ous", "ing", "ed", "age", "ion", "ment", "ity", "ness", "ary", "ory", "ful",
                    "less", "ly", "able", "ible", "ance", "ence", "ure", "ism", "ist", "ship")


_MODEL = re.compile(r"^[A-Z][A-Z-]*\d[\w-]*$")  # a model's designation: C736, FMD-3200, T54W


def _initials(name: str) -> str:
    """The capitals of a name's two words ("DJ" of "Dhananjay Joshi") or of a word of two capitalised
    parts ("PD" of "PagerDuty", "WP" of "WordPress"), or ""."""
    if _TWO_PARTS.match(name):  # (not a function word's: "IntoOwned")
        return "" if re.split(r"(?=[A-Z])", name)[1].casefold() in wd.FUNCTION_WORDS else "".join(
            c for c in name if c.isupper())
    return "".join(w[0] for w in _two_words(name))


_TWO_PARTS = re.compile(r"^[A-Z][a-z]{2,}[A-Z][a-z]{2,}$")  # PagerDuty, LaunchDarkly, ShotGrid


@remembered  # (asked again of the same names by a long-lived worker's next pass)
def first_word_forms(names: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Page slug -> the first words that stand for its names (the module's rule) that no other page
    shares: no other page has a name that is the word, or whose first word is or begins with it."""
    return _unique(names, _first_word)


@remembered
def initials_forms(names: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Page slug -> the initials that stand for its names (`_initials`) that no other page shares."""
    return _unique(names, _initials)


def _unique(names: Mapping[str, Iterable[str]], form_of: Callable[[str], str]) -> dict[str, list[str]]:
    """Page slug -> the forms `form_of` gives its names that no other page's names give, are, or open
    (a name whose first word is the form or begins with it)."""
    heads: dict[str, dict[str, str]] = {}  # identity key of a form -> slug -> the form as written
    for slug in sorted(names):
        for name in names[slug]:
            if word := form_of(name):
                heads.setdefault(identity_key(word), {}).setdefault(slug, word)
    if not heads:
        return {}
    owners: dict[str, set[str]] = {}  # identity key of a first word -> the pages with a name it opens
    for slug, ns in names.items():
        for name in ns:
            key = identity_key(name)
            first = key.split(" ")[0] if key else ""
            for end in range(1, len(first) + 1):  # (each form the first word begins with: its prefixes)
                if first[:end] in heads:
                    owners.setdefault(first[:end], set()).add(slug)
    out: dict[str, list[str]] = {}
    for key, by_slug in sorted(heads.items()):
        if len(by_slug) != 1:
            continue
        (slug, word), = by_slug.items()
        if owners.get(key, set()) - {slug} or key in {identity_key(n) for n in names[slug]}:
            continue
        out.setdefault(slug, []).append(word)
    return out
