"""A person named by a common given name where no list of people says so (issue 31 point 3, session 27, D):
"Tom", "Hannah", "Marcus" are ordinary enough words that `agenda.given_name` passes them over; a document
that never writes the word in lower case, and writes it elsewhere where a name goes inside a sentence ("ask
Hannah", "w/ Tom", "Marcus's"), names a person by it. The test is the document's own writing, no list of
names (closed class: English's function words, a frequency)."""

from __future__ import annotations

import re
from typing import NamedTuple

from kctui.compiler.builtin import words as wd

NAME_ZIPF = 5.0  # a given name is rarer than this ("Tom" 4.8, "Hannah" 4.1; "Need" 6.0, "Legal" 5.1)
_GIVEN = re.compile(r"^[A-Z][a-z]{2,}(?:[-'’][A-Z][a-z]+)?$")


class Written(NamedTuple):
    """How a document writes its words: those it writes in lower case, the capitalised ones it writes
    where a name goes inside a sentence (after a lower-case word, "w/", "@", or before "'s"), and the
    lower-case ones it writes where a person goes (`named_lower`: "ask jess", "ping kofi", "kofi's", a
    line's label "- jess — founder", "dev: …", "**jules**" alone; session 30)."""
    lower: frozenset[str]
    placed: frozenset[str]
    named_lower: frozenset[str] = frozenset()


_PLACED = re.compile(r"(?:(?<=[a-z,(+&] )|(?<=w/ )|(?<=@))([A-Z][a-z]{2,})\b|\b([A-Z][a-z]{2,})(?=['’]s\b)")


class Lazy:
    """A document's Written, read the first time it is asked for (most documents never ask)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self._written: Written | None = None
        self._text: str | None = None
        self._placed: dict[str, bool] = {}

    def get(self) -> Written:
        if self._written is None:
            self._written = written_words(self.lines)
        return self._written

    def placed_lower(self, word: str) -> bool:
        """Whether the document writes a lower-case word where a person goes (Written.named_lower), looked
        for at the word's own places only (a scan of the whole text for every such place costs more)."""
        if self._written is not None:
            return word in self._written.named_lower
        if word not in self._placed:
            if self._text is None:
                self._text = "\n".join(self.lines)
            self._placed[word] = _placed_at(self._text, word)
        return self._placed[word]


# a lower-case word where a person goes: after a verb of asking or "w/", "@", before "'s", or a list item's, a
# heading's or a bold label (each way looked for from the words or marks it opens with)
_ASKED_LOWER = re.compile(r"\b(?:ask|ping|tell|told|cc|chase|thanks|thx)\s+([a-z]{2,15})\b|(?:w/\s*|@)([a-z]{2,15})\b")
_POSSESSIVE = re.compile(r"['’]s\b")
_WORD_BEFORE = re.compile(r"(?<![A-Za-z])([a-z]{2,15})$")
_LABEL_LOWER = re.compile(r"^[ \t]*(?:#+[ \t]+(?:\*\*)?|[-*+][ \t]+(?:\*\*)?|\*\*)([a-z]{2,15})(?:\*\*)?[ \t]*(?::|—|–|[ \t]-[ \t]|\(|$)", re.M)


def written_words(lines: list[str]) -> Written:
    """How the lines of a document write their words."""
    text = "\n".join(lines)
    return Written(frozenset(re.findall(r"\b[a-z][a-z'’-]+\b", text)), frozenset(a or b for a, b in _PLACED.findall(text)),
                   lower_placed(text))


_ASKING_BEFORE = re.compile(r"(?:\b(?:ask|ping|tell|told|cc|chase|thanks|thx)\s+|w/\s*|@)$")
_LABEL_BEFORE = re.compile(r"[ \t]*(?:#+[ \t]+(?:\*\*)?|[-*+][ \t]+(?:\*\*)?|\*\*)")
_LABEL_AFTER = re.compile(r"(?:\*\*)?[ \t]*(?::|—|–|[ \t]-[ \t]|\(|\n|$)")


def _placed_at(text: str, word: str) -> bool:
    """Whether a text writes a lower-case word where a person goes (as lower_placed reads it)."""
    start = text.find(word)
    while start >= 0:
        end = start + len(word)
        if (start == 0 or not text[start - 1].isalpha()) and (end == len(text) or not text[end].isalpha()):
            if text.startswith(("'s", "’s"), end) and not text[end + 2:end + 3].isalnum():
                return True
            if _ASKING_BEFORE.search(text, max(0, start - 12), start):
                return True
            line = text.rfind("\n", 0, start) + 1
            if _LABEL_BEFORE.fullmatch(text, line, start) and _LABEL_AFTER.match(text, end):
                return True
        start = text.find(word, start + 1)
    return False


def lower_placed(text: str) -> frozenset[str]:
    """The lower-case words a text writes where a person goes ("ask jess", "w/ kofi", "kofi's", "- jess — founder")."""
    found = {a or b for a, b in _ASKED_LOWER.findall(text)} | set(_LABEL_LOWER.findall(text))
    for m in _POSSESSIVE.finditer(text):
        if before := _WORD_BEFORE.search(text, max(0, m.start() - 16), m.start()):
            found.add(before.group(1))
    return frozenset(found)


def name_word(who: str, written: Written | Lazy) -> bool:
    """A word that reads as a person's in a subject's place: one capitalised word, rarer than the ordinary
    words that open a clause, that the document never writes in lower case and writes where a name goes
    elsewhere, no verb's form ("Hannah" of "ask Hannah"; not "Need", "Moving", "Ability")."""
    low = who.casefold()
    if not _GIVEN.match(who) or low in wd.FUNCTION_WORDS or low in wd.CALENDAR or low.endswith(("ed", "ing", "ly")):
        return False
    if wd.zipf(who) >= NAME_ZIPF:
        return False
    w = written.get() if isinstance(written, Lazy) else written
    return low not in w.lower and who in w.placed
