"""Whether a span is a name (`name_like`), and whether a name could title an entity page (`clean_title`).

`kctui.compiler.builtin.names` finds where a sentence's spans are; the rules here judge them, by evidence
and never by a list. A span marked by its shape (an inner capital or digit, code, a handle, a channel) is
a candidate. A span of one capitalised word is one only when the word is not frequent in English
(`wordfreq`) and the document never writes it in lower case, or when it opens its sentence as the bare
subject of a verb ("Sentry handles …"); an acronym needs more (its expansion, a definition, a typing
noun, or usage). A span of several words is none when it is a role, a kind of thing ("AWS API", an
acronym the document counts like a noun) or a span of days or months ("Thu-Fri"). A title is held to
more: no common word, placeholder, English word written short ("Bldg"), period of the year ("FY27",
"wk47"), English compound ("dial-up") or word English writes closed up ("Wi-Fi"), reading ("-58 °C") or
count in brackets ("ActivPanels Franklin MS (28)"), "<common word> team", a telephone's extension
("x2210"), an identifier with a part held open ("TX-xx") or an offset from UTC ("UTC+5").

Why apart from finding the spans: a span is judged against the whole document's usage (`usage.Lower`),
and a title is checked again wherever a page's name is settled (`kctui.compiler.builtin.recognise`,
`kctui.compiler.builtin.document`), long after its sentence was read.
"""

from __future__ import annotations

import re
from collections.abc import Container
from functools import lru_cache

from kctui.compiler.builtin.name_edges import holds_reading
from kctui.compiler.builtin.name_types import TYPE_NOUNS, role_phrase
from kctui.compiler.builtin.names import Span, english_ending
from kctui.compiler.builtin.words import (
    ACRONYM,
    CALENDAR,
    COMMON_ZIPF,
    FUNCTION_WORDS,
    IDENT,
    PARTICLES,
    PREFIXES,
    RARE_ZIPF,
    TICKET_NUMBER,
    closed_up,
    code_identifier,
    common_word,
    english_compound,
    generic_acronym,
    period,
    placeholder,
    shaped,
    shorthand,
    zipf,
)

# (a span that opens its sentence before a finite verb is its subject: `names.Span.subject`)
SUBJECT_BAND = 3.5  # a word that opens its sentence as a verb's bare subject: rarer than this (not "Deployment is")
_RANGE_GAP = re.compile(r"[-–—/]")


def _calendar_range(token: str) -> bool:
    """A span of days or months ("Thu-Fri", "Jan/Feb")."""
    parts = _RANGE_GAP.split(token)
    return len(parts) > 1 and all(p.casefold() in CALENDAR for p in parts)


def name_like(span: Span, lower_words: Container[str]) -> tuple[bool, bool]:
    """(is a candidate, is strong evidence on its own) for a span, given the words the document writes in
    lower case (`usage.Lower`, whose counted acronyms `kinds` are read too; a plain set of words will do)."""
    tokens = [t for t in span.tokens if t.casefold() not in PARTICLES]
    if not tokens or placeholder(span.text):
        return False, False
    if span.kind in ("code", "ident", "handle", "path", "channel"):
        return True, span.kind in ("handle", "channel")
    if all(_calendar_range(t) for t in tokens):
        return False, False  # a span of days or months ("Thu-Fri", "Mon–Wed", "Jan/Feb"), not a name
    if any(shaped(t) for t in tokens):
        return True, True
    if len(tokens) == 1:
        return _one_word_like(span, tokens[0], lower_words)
    return _words_like(span, tokens, lower_words)


def _one_word_like(span: Span, t: str, lower_words: Container[str]) -> tuple[bool, bool]:
    """name_like of a span of one word: a rare word, capitalised and never written in lower case."""
    low = t.casefold()
    if low in lower_words or low.removesuffix("s") in CALENDAR or (len(low) > 4 and (
            (low.endswith("s") and low[:-1] in lower_words) or low + "s" in lower_words)):
        return False, False  # the document writes it (or its singular, its plural) as an ordinary word; a day or month
    if ACRONYM.match(t):
        return False, False  # an acronym needs its expansion, a definition or a typing noun (or usage)
    z = zipf(t)
    if z >= COMMON_ZIPF:
        return False, False  # a frequent word: only the document's usage can make it a name
    if span.subject and z < SUBJECT_BAND and low not in FUNCTION_WORDS and not english_ending(t) and low[-1] != "s":
        return True, False  # "Sentry handles error tracking; …": the bare subject of a verb is a name
    return (not span.at_start or z < RARE_ZIPF), z < RARE_ZIPF and not span.at_start


def _words_like(span: Span, tokens: list[str], lower_words: Container[str]) -> tuple[bool, bool]:
    """name_like of a span of several words: not a role, not a kind of thing; ordinary words only away
    from a sentence start and never written so in lower case."""
    if role_phrase(tokens) or _kind_phrase(tokens, lower_words) or _PLURAL_ACRONYM_TAIL.match(tokens[-1]):
        return False, False  # (an acronym in the plural heads a count of things: "zone C APs")
    if all(common_word(t) for t in tokens):
        phrase = " ".join(tokens).casefold()
        return (not span.at_start and phrase not in lower_words and len(tokens) <= 3), False
    return True, not span.at_start or sum(not common_word(t) for t in tokens) >= 2


_PLURAL_ACRONYM_TAIL = re.compile(r"^[A-Z]{2,6}s$")


def _kind_phrase(tokens: list[str], lower_words: Container[str]) -> bool:
    """Words that name a kind of thing, not a thing: kinds of document the text counts ("RFC PR": "an
    RFC"), or acronyms headed by a generic one ("AWS API")."""
    kinds = getattr(lower_words, "kinds", frozenset())
    if kinds and any(t in kinds for t in tokens) and all(t in kinds or common_word(t) or generic_acronym(t) for t in tokens):
        return True
    return all(ACRONYM.match(t) for t in tokens) and generic_acronym(tokens[-1])


def typed_compound(token: str) -> bool:
    """A lower-case identifier whose last part is a noun of a kind of thing ("label-service",
    "billing-db", "order-queue"): the name of one thing of that kind, however ordinary its parts (an
    English compound ends in a modifier's head: "long-term", "follow-up")."""
    if not IDENT.match(token) or "_" in token:
        return False
    parts = [p for p in re.split(r"[-.]", token) if p]
    kind = TYPE_NOUNS.get(parts[-1], "")
    return len(parts) >= 2 and kind not in ("", "person", "team") and not any(
        p in FUNCTION_WORDS or p in PREFIXES for p in parts)


# not a thing's number though shaped like one (closed classes): a telephone's extension ("x2210"), an
# identifier with a part held open for any value ("TX-xx", "DOL-xx-B": a pattern of names, not one), an
# offset from UTC ("UTC+5" of "UTC+5:30": a time zone)
_NOT_A_NUMBER = re.compile(r"^(?:x\d{3,5}|(?:[A-Za-z0-9]+-)+(?:xx+|XX+)(?:-[A-Za-z0-9]+)*|(?:UTC|GMT)[+-]\d{1,2})$")


@lru_cache(maxsize=65536)
def clean_title(name: str, common_ok: bool = False) -> bool:
    """Could this be the title of an entity page? Not a common word, a placeholder, "<common word> team",
    an English word written short, a period of the year or an English compound.
    `common_ok`: the document's usage made this one frequent word a name (`usage.usage_need`)."""
    if TICKET_NUMBER.match(name):
        return True  # a ticket's number alone (no letters, yet no placeholder)
    words = name.split()
    if not words or placeholder(name) or code_identifier(name) or role_phrase(words) or holds_reading(name) \
            or _NOT_A_NUMBER.match(name):
        return False  # (a reading: "FrostLine CRITICAL FRZ-04 -58 °C" is an alert's text)
    if len(words) == 1 and common_word(words[0]) and not (common_ok and words[0].casefold() not in FUNCTION_WORDS) \
            and not typed_compound(words[0]):
        return False
    if len(words) == 1 and (shorthand(words[0]) or period(words[0]) or closed_up(words[0])
                            or (english_compound(words[0]) and not typed_compound(words[0]))):
        return False  # an English word written short ("recvd", "Bldg"), a period ("FY27", "wk47"), an English
        # compound ("dial-up") or a word English writes closed up ("Wi-Fi")
    return not (words[-1].casefold() == "team" and all(common_word(w) for w in words[:-1]))
