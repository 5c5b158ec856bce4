"""The longer forms a text names a page's thing by (issue 31): a page's title is how the text names the
thing, and notes name a product with its version ("we stay on Rocky Linux 9", "Revit 2025.4 crashes",
"the quaypg 3.4.0 release"), so the page of Rocky Linux carries "Rocky Linux 9" as an alias and is found
by it, as a reader looks it up. A pure function of a statement's text and the places of the page names
the mention step found in it (kctui.compiler.steps.name_finder `NameFinder.places`).

- **a version**: a page's name followed, after one space, by a version number: digits with dots
  ("1.29", "3.4.0", "8.10.0.12"), with a "v" ("v3.2"), a pre-release ("3.4.0rc1", "2.0-beta2") or a
  series ("3.4.x").
- **a whole number** is a version only of a thing the base also writes with a dotted one (`versioned`:
  "Rocky Linux 9" beside "Rocky Linux 9.5", "Revit 2025" beside "Revit 2025.4"), and only where it is no
  count and no date: not one with a leading zero (a phone number: "0800"), nor one before a word of the
  calendar or a unit of time ("5 Jan", "a 24 month deal") or a plural in lower case ("3 brokers"). Alone
  a number after a name is as often a model ("Dell 3120"), a unit ("TPV 2", "Group Room 4"), a score
  ("Netcore 88") or a year ("LibCal 2027") as a version.
- Not after a name of two pages ("Rhapsody" of Rhapsody IDE and of Rhapsody Health), nor a part of a
  longer name ("OSS" of "Redis OSS 7.1": that name's version), nor after a name
  ending in a code with digits of its own (a host or a record: "billing-db-02 5 Jan", "ADR-003 2024"),
  nor across a table's cells or a bracket ("Globus | Connect Server 5.4").

The mention step adds a form only where the registry finds no other page by it (a page "Revit 2025" of
its own keeps its name): a wrong alias merges two things.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from kctui.compiler.builtin import words as wd
from kctui.compiler.steps.name_finder import NameFinder, word_spans
from kctui.compiler.steps.registry import Contribution

# a version after a name: dotted digits, "v" and digits, a pre-release, a series
_DOTTED = re.compile(r"^(?:v\d+(?:\.\d+)*|\d+(?:\.\d+)+)(?:-?(?:rc|alpha|beta|a|b|pre|dev)\d*|\.x)?$", re.I)
_WHOLE = re.compile(r"^[1-9]\d{0,3}$")  # "9", "2025": a version when no count and no date
_CODED = re.compile(r"[-_.]\d|\d[-_]")  # a name ending in a host's or a record's code: billing-db-02, ADR-003
_EDGE = ".,;:!?)]}\"'’”*_`"  # punctuation that may close the version as written ("on 3.4.0.")


def version_after(text: str, end: int) -> tuple[str, bool]:
    """(the version number written right after a name that ends at `end` in `text`, one space between,
    or ""; whether it is dotted: a version by its shape alone, where a whole number is one only of a
    thing the base writes with dotted versions too)."""
    if not text.startswith(" ", end) or text.startswith("  ", end):
        return "", False
    rest = text[end + 1:].split(None, 2)
    if not rest:
        return "", False
    token = rest[0].rstrip(_EDGE)
    if _DOTTED.match(token):
        return token, True
    if not _WHOLE.match(token):
        return "", False  # ("24h", "440ml", "503s", "5xx": a unit or a status, not a version)
    nxt = rest[1].strip(_EDGE) if len(rest) > 1 and rest[0] == token else ""
    if nxt.casefold() in wd.CALENDAR or nxt.casefold() in _TIME_UNITS or wd.period(nxt) or _plural(nxt):
        return "", False
    return token, False


_TIME_UNITS = frozenset({"second", "minute", "hour", "day", "week", "month", "year"})  # "a 24 month deal"


def _plural(word: str) -> bool:
    """A plural written in lower case: what a number before it counts ("3 brokers", "40 seats")."""
    return word.isalpha() and word.islower() and len(word) > 3 and word.endswith("s") and not word.endswith("ss")


def extents(text: str, places: list[tuple[int, int, str]], spans: list[tuple[int, int]]) -> list[tuple[str, str, bool]]:
    """(page slug, the longer form, whether its version is dotted) for each name of `places`
    (`NameFinder.places(text)`: first word, words, slug) that `text` writes with a version after it: the
    name as written (its words one space apart) and its version; `spans`: where each word of `text`
    stands (the finder's words)."""
    if not places or not has_digit(text):
        return []
    out: list[tuple[str, str, bool]] = []
    pages_at: dict[tuple[int, int], set[str]] = {}
    for first, n, slug in places:
        pages_at.setdefault((first, n), set()).add(slug)
    for first, n, slug in places:
        if first + n > len(spans) or len(pages_at[first, n]) > 1 or any(
                a <= first and first + n <= a + m and (a, m) != (first, n) for a, m in pages_at):
            continue  # (a name of two pages says neither; one inside a longer name is that name's part)
        start, end = spans[first][0], spans[first + n - 1][1]
        name = text[start:end]
        if name != " ".join(text[a:b] for a, b in spans[first:first + n]) or _CODED.search(name.rsplit(None, 1)[-1]):
            continue  # (words across a table's cells or brackets: "Globus | Connect Server" is no name)
        version, dotted = version_after(text, end)
        if version:
            out.append((slug, f"{name} {version}", dotted))
    return out


def source_extents(texts: Iterable[str], finder: NameFinder, lowered: bool) -> list[tuple[str, str, bool]]:
    """`extents` of each of a source's statements (`texts`) that holds a digit."""
    return [found for text in texts if has_digit(text)
            for found in extents(text, finder.places(text, lowered), word_spans(text))]


_ASCII_DIGIT = re.compile(r"[0-9]")


def has_digit(text: str) -> bool:
    """Whether `text` holds a character `str.isdigit` takes for a digit: in ASCII text those are 0-9, which
    a regular expression finds without a Python step per character (a pass asks it of every statement)."""
    return _ASCII_DIGIT.search(text) is not None if text.isascii() else any(map(str.isdigit, text))


def versioned(names: dict[str, list[str]]) -> set[str]:
    """The pages (slug -> their names) one of whose names ends in a dotted version ("Rocky Linux 9.5")."""
    return {slug for slug, ns in names.items() if any(" " in n and _DOTTED.match(n.rsplit(None, 1)[-1]) for n in ns)}


def add_extents(found: Iterable[tuple[str, str, bool]], fed: dict[str, Contribution], versions: set[str],
                owner: Callable[[str], str | None]) -> None:
    """The longer forms a source writes its names in (`source_extents`), each an alias of its page (`fed`:
    slug -> this source's Contribution): a dotted version's always (its page joins `versions`), a whole
    number's where the page is in `versions`; only where `owner(form)` (the page the registry finds by
    the form) is none or that page."""
    found = list(found)
    versions.update(slug for slug, _, dotted in found if dotted)
    for slug, form, dotted in found:
        if (not dotted and slug not in versions) or owner(form) not in (None, slug):
            continue
        contribution = fed.get(slug)
        if contribution is None:
            contribution = fed[slug] = Contribution()
        contribution.aliases.add(form)
