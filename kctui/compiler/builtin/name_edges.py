"""The words at the edges of a run of capitals that the text writes beside a name, not as part of it.

A run of capitalised words is read as one name (kctui.compiler.builtin.names), but notes glue other
capitalised words to a name without a comma: a date ("3 Sep Wrekin main transmitter", "Waterfront Wed 9
Dec", "Brightloop Oct invoice"), a recurring day ("1:1 w/ Dana Thursdays 3pm"). Each rule here reads the
grammar of dates and verbs (closed classes: the days and months and their short forms), never a list of
a corpus's names: the title is the name as the text writes it, without what it glued on.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin.name_types import person_like
from kctui.compiler.builtin.words import (
    CALENDAR,
    CALENDAR_SHORT,
    PARTICLES,
    PREFIXES,
    RARE_ZIPF,
    RECORD_ID,
    common_word,
    zipf,
)

Token = tuple[str, int, int]  # (token, start, end) in the plain sentence

_DIGIT_BEFORE = re.compile(r"\d(?:st|nd|rd|th)?\s+$")  # "3 Sep", "21st Oct"
_DIGIT_AFTER = re.compile(r"\s+\d")  # "Wed 9", "Mar 9"


def _calendar(token: str) -> bool:
    return token.casefold() in CALENDAR or _plural_day(token)


def _plural_day(token: str) -> bool:
    """A day in the plural ("Thursdays"): a day that recurs, never part of a name."""
    low = token.casefold()
    return low.endswith("days") and low[:-1] in CALENDAR


def without_dates(plain: str, group: list[Token]) -> list[Token]:
    """The run less the days and months glued to its ends: at its end, a day's or month's short form (never
    a name's last word: "Patch Tuesday" is one, "Brightloop Oct" a name and a month), a
    day in the plural, or one a number follows ("Waterfront Wed 9" → Waterfront, "Dana Thursdays" →
    Dana, "Mon Mar 9" → nothing); at its start, one a number precedes or another date follows ("3 Sep
    Wrekin" → Wrekin), or a day in the plural. A short form before a name of a person's shape stays:
    it may be a given name ("Jun Takahashi")."""
    if not any(_calendar(t) for t, _, _ in group):
        return group
    out = list(group)
    while out and _calendar(out[-1][0]) and (
            out[-1][0].casefold() in CALENDAR_SHORT or _plural_day(out[-1][0])
            or _DIGIT_AFTER.match(plain, out[-1][2]) is not None):
        out.pop()
    while out and _calendar(out[0][0]) and (
            _plural_day(out[0][0]) or _DIGIT_BEFORE.search(plain, 0, out[0][1]) is not None
            or (len(out) > 1 and _calendar(out[1][0]))
            or (len(out) > 1 and out[0][0].casefold() in CALENDAR_SHORT
                and not person_with_particles(plain[out[0][1]:out[-1][2]]))):
        out.pop(0)  # ("Oct Brightloop Cloud"; not "Jun Takahashi")
    return out


_POSSESSIVE = re.compile(r"['’]s$")


def possessor(name: str) -> str:
    """A name less the possessive the text glues to it ("Hannah Cole's team": Hannah Cole): whose
    something is, as the text names them."""
    return _POSSESSIVE.sub("", name)


_NICKNAME = re.compile(r"^(?P<short>[A-Z][a-z]+)\s+\((?P<full>[^()]{3,40})\)$")


def nickname_of(text: str) -> str:
    """The full name of "Dev (Devendra Malhotra)": one word, and in brackets a name of a person's shape
    that it shortens or stands for, is that person's name and the word an alias ("" when not)."""
    m = _NICKNAME.match(text)
    if m is None or not person_like(full := m.group("full")):
        return ""
    return full


def verb_form(token: str) -> bool:
    """A capitalised word that is an English verb's past ("Reinstalled", "Reflashed"): its stem, less an
    English prefix, is an English word ("install", "flash"), its "e" dropped or its last consonant
    doubled ("Rebased", "Unplugged"). Opening a sentence before a name ("Reinstalled FTDI driver …"), it
    is the verb of the step the note records, not the name's first word. (Not a participle in -ing:
    English derives those of nouns too, "Aisling" of "aisle".)"""
    low = token.casefold()
    if len(low) <= 5 or not token[1:].islower() or not low.isalpha() or not low.endswith("ed"):
        return False
    stem = low[:-2]
    stems = {stem} | {stem[len(p):] for p in PREFIXES if stem.startswith(p) and len(stem) - len(p) >= 3}
    return any(zipf(s) >= RARE_ZIPF for t in stems
               for s in (t, t + "e", t[:-1] if t[-1:] == t[-2:-1] else "") if len(s) >= 3)


_SURNAME_PARTICLES = PARTICLES - {"of"}  # inside a surname, in lower case ("Pieter de Vries", "Jan van der Berg")


def person_with_particles(name: str) -> bool:
    """Is the name a person's by its shape (`name_types.person_like`) once the particles inside it are
    left out ("Pieter de Vries" as "Pieter Vries")? The surname alone ("Vries" of "… de Vries says …")
    then stands for that person, as "Micay" does for Daniel Micay."""
    words = name.split()
    inner = [w for w in words[1:-1] if w not in _SURNAME_PARTICLES]
    return person_like(" ".join([words[0], *inner, words[-1]]) if len(words) > 2 else name)


def _shouted(token: str) -> bool:
    """An ordinary English word written in capitals ("CRITICAL", "WARNING", "RESOLVED"): a state or a
    severity an alert shouts, not an acronym."""
    return len(token) >= 4 and token.isalpha() and token.isupper() and common_word(token)


def record_label(before: str, token: str, after: str) -> bool:
    """Does a run of capitals break at `token` (between the tokens `before` and `after`, "" at its ends):
    an ordinary word in capitals before a record's identifier, or the identifier after one ("FrostLine
    CRITICAL FRZ-04 …": FrostLine, FRZ-04)? An alert's text glues its source, its severity and the
    record; the severity names nothing ("OPERA Cloud", "VAST Data" are names: no identifier follows)."""
    return (_shouted(token) and bool(RECORD_ID.match(after))) or (_shouted(before) and bool(RECORD_ID.match(token)))


_READING = re.compile(r"(?:^|\s)[-+−±]\d|\d\s?[°%‰]|\s\(\d[\d,]*(?: [A-Za-z]+)?\)$")


def holds_reading(name: str) -> bool:
    """Does the text hold a reading ("-58 °C", "+3", "92%") or close with a count in brackets ("ActivPanels
    Franklin MS (28)", "Wi-Fi CVHS (92 APs)")? A value measured or counted, never part of a name: a title
    holding one is an alert's or a status table's row label, the name glued to how many, not what names
    the thing (a count inside a name stays: "XT cabinets (46) + OmniCenter")."""
    return bool(_READING.search(name))
