"""Names a text writes the way code and notes coin them, not as English capitalises names: a word in
lower case English does not use ("pgbouncer 1.21", "receiptd restarts nightly"), an identifier with
underscores one of whose words is no English word ("telvane_sup"), a model's edition or revision after
its name ("SQL Server 2019", "Burrow rev C": `with_edition`, for kctui.compiler.builtin.candidates). The
first two are names only where the sentence states a fact of them — right before a value, or as its
subject — read by kctui.compiler.builtin.recall, which adds them as candidates only a fact vouches for.
Never a list of a corpus's words: English is `wordfreq`'s word lists (kctui.compiler.builtin.words) and
its closed classes.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kctui.compiler.builtin import models
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin import words as wd

_VERSIONED_WORD = re.compile(r"(?<![\w./@#-])([a-z][a-z]{2,20})(?=\s+v?\d+\.\d+(?:\.\d+)*\b)")


_DOTTED_NUMBER = re.compile(r"\d\.\d")


def versioned_words(plain: str) -> list[nm.Span]:
    """A word in lower case English does not have (`wd.unknown_word`), right before a dotted release
    number: a product written in lower case ("slurm 23.11", "restic 0.17"), named by the value that
    stands next to it (not "hotfix 9.4.0", two English words run together)."""
    if not _DOTTED_NUMBER.search(plain):
        return []
    return [nm.Span(m.group(1), m.start(1), m.end(1), m.start(1) == 0, "versioned", (m.group(1),))
            for m in _VERSIONED_WORD.finditer(plain) if wd.unknown_word(m.group(1))
            and not m.group(1).endswith(ENGLISH_ENDING)]  # ("3.4.0 stays yanked", "we yanked 3.4.0")


_LOWER_WORD = re.compile(r"([a-z][a-z0-9]{3,24})(?![\w'’@/(-]|[.:]\w)")  # (not a call: "repr(")
# endings English words are made with: a word ending so is English however rare ("idempotency", "dedupe" not)
ENGLISH_ENDING = ("ing", "ed", "ly", "able", "ible", "less", "ful", "ness", "ment", "tion", "sion", "ity", "ency",
                   "ancy", "ism", "ize", "ise", "ous", "ive", "ry")


def unknown_words(plain: str, start: int, lower: ug.Lower) -> list[nm.Span]:
    """A lower-case word English does not have (`wd.unknown_word`, and no English ending: "pgbouncer",
    "receiptd"; not "idempotency", "expiry") where a fact is stated of it — right before a value
    ("receiptd 0.9.3"), or opening the sentence (at `start`, after a `Label:`) when the document writes it
    in another place too — and that the document never writes as a common noun (heading a phrase after
    an article or a determiner, or in the plural: "the runbook.", "runbooks") nor calls ("repr(…)")."""
    found = [m for m in _BEFORE_VALUE.finditer(plain)] if _DIGIT.search(plain) else []
    if found and not_english(plain):
        found = []  # ("el lunes 08 a tirar cable": English's word list says nothing of a word there)
    if (m := _LOWER_WORD.match(plain, start)) and not any(f.start() == start for f in found) \
            and (not start or plain[start - 1] == " "):
        found.insert(0, m)
    out = []
    for m in found:
        w = m.group(1)
        if w.endswith(ENGLISH_ENDING) or not wd.unknown_word(w):
            continue
        if (m.start() == start and not _VALUE_AFTER.match(plain, m.end(1)) and not _recurs(w, lower)) \
                or common_noun(w, lower):
            continue
        out.append(nm.Span(w, m.start(), m.end(1), m.start() == 0, "lower", (w,)))
    return out


_DIGIT = re.compile(r"\d")
_PLAIN_WORD = re.compile(r"(?<![\w'’./@#-])[a-z]{3,}(?![\w'’@/-])")
FOREIGN_WORDS = 4  # the words English does not have that make a sentence one in another language


def not_english(plain: str) -> bool:
    """Is the sentence written in another language: four lower-case words or more English does not
    have (`wd.unknown_word`), half its lower-case words or more ("Pablo una pregunta, el electricista
    dice que puede venir el lunes 08 …"; not a row of coined names, "GKE + postgres 14 on db-prod-01 via
    pgbouncer")? A word English lacks is a coined name only in English prose; a team's chat in Spanish
    is full of them."""
    words = _PLAIN_WORD.findall(plain)
    unknown = sum(1 for w in words if wd.unknown_word(w))
    return unknown >= FOREIGN_WORDS and unknown * 2 >= len(words)
# a word right before a value: "receiptd 0.9.3", "restic (v0.17)"
_BEFORE_VALUE = re.compile(r"(?<![\w'’./@#:/-])([a-z][a-z0-9]{3,24}) \(?v?\d")


_SNAKE_TOKEN = re.compile(r"(?<![\w./@#:/`-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w@/`(-]|[.:=]\w)")


def snake_names(plain: str, start: int) -> list[nm.Span]:
    """An identifier with underscores shaped as a name (`wd.snake_name`: "telvane_sup"), written in prose
    where a fact is stated of it: opening the sentence (at `start`, after a `Label:`) or right before a
    value."""
    if "_" not in plain:
        return []
    return [nm.Span(m.group(0), m.start(), m.end(), m.start() == 0, "snake", (m.group(0),))
            for m in _SNAKE_TOKEN.finditer(plain) if wd.snake_name(m.group(0))
            and (m.start() == start or _VALUE_AFTER.match(plain, m.end()))]


_VALUE_AFTER = re.compile(r" \(?v?\d")  # a value right after the word: "receiptd 0.9.3", "restic (v0.17)"


def _recurs(word: str, lower: ug.Lower) -> bool:
    """Does the document write this word in two places or more?"""
    return len(re.findall(rf"(?<![\w./@#-]){word}(?![\w/@-])", lower.text)) >= 2


def common_noun(word: str, lower: ug.Lower) -> bool:
    """Does the document write the word as a common noun: heading a noun phrase after an article or a
    determiner ("the runbook.", "a runbook for …"; not "the pitcrew bot", where it names what the noun
    is), or in the plural ("runbooks")?"""
    if re.search(rf"\b{word}e?s\b", lower.text):
        return True
    for m in re.finditer(rf"\b(?:the|a|an|this|that|these|those|our|your|their|each|every) {word}\b", lower.text):
        after = _NEXT_WORD.match(lower.text, m.end())
        if not after or after.group(1) in wd.FUNCTION_WORDS or after.group(1) in nm.AUXILIARIES:
            return True
    return False


_NEXT_WORD = re.compile(r" ([a-z]+)\b")


# a model's edition or revision right after its name is part of it ("SQL Server 2019", "Burrow rev C"): a
# year, or "rev"/"revision" and a short capital or number ("Rev C" is a run of capitals already); not a
# dotted release ("Postgres 16.2" is a name and its version)
_EDITION_AFTER = re.compile(r" (?:(?:rev|revision)\.? [A-Z0-9]{1,2}|(?:19|20)\d\d)(?![\w.,:/-]\w|[\w/-])")


# a model's designation right after a capitalised name is part of it ("ThinkPad T14", "Aurelia X8",
# "Unifi U6 Mesh"): one or two capitals and a number, and a capitalised word after it; not a quarter, a
# priority, a half or a week ("Q3", "P1", "H2", "W7": business shorthand, a closed class like the calendar)
_MODEL_AFTER = re.compile(r" (?![QPHW][1-4](?!\w))[A-Z]{1,2}\d{1,3}(?: [A-Z][a-z]{2,}(?! [A-Z]))?(?![\w.,:/-]\w|[\w/-])")


# a model's number right after a capitalised word is part of its name ("Latitude 7450", "Dell Chromebook
# 3120", "Precision 3680 tower", "Xeon Platinum 8568Y+"): three or four digits, a letter or two and a plus
# after them at most, no year ("the Mosaic 2024 crop"), no leading zero, no least release ("Chrome OS 120+")
_MODEL_NUMBER_AFTER = re.compile(models.NUMBER_AFTER.pattern + r"(?: [A-Z][a-z]{2,} [1-9]\d?(?![\w.,:/-]\w|[\w/%-]))?")  # (a generation: "Lenovo 100e Gen 3")
_PLURAL_AFTER = re.compile(r" [a-z]+s\b")  # a count of a plural noun: "PowerSchool 2500 students"


def _model_number(plain: str, span: nm.Span) -> re.Match | None:
    """A model's number after a name (`_MODEL_NUMBER_AFTER`) whose last word is a capitalised word, or
    a name of two words or more ending in a shaped word ("APC Smart-UPS 1500"; not an acronym: "UPS
    1500" is a unit's rating, "Chrome OS 131" a release)."""
    last = span.tokens[-1] if span.tokens else ""
    if last[1:].islower() or (len(span.tokens) >= 2 and wd.shaped(last) and not wd.ACRONYM.match(last)):
        return _MODEL_NUMBER_AFTER.match(plain, span.end)
    if len(span.tokens) == 1 and wd.shaped(last) and last.isalpha() and not wd.ACRONYM.match(last):
        m = _MODEL_NUMBER_AFTER.match(plain, span.end)  # one word of inner capitals: "FortiGate 200F"
        return None if m is None or _PLURAL_AFTER.match(plain, m.end()) else m  # (not "PowerSchool 2500 students")
    return None


# a model's generation right after a name of two words or more ending in a capitalised word is part of it
# ("ThinkPad T14 Gen 5", "Group Room 4", "Rocky Linux 8"): one or two digits, no dotted release, no count
# of a plural noun or a day of a month after it ("Skyvane Pro 3 units", "Ana Ruiz 2 Mar")
_GENERATION_AFTER = re.compile(r" [1-9]\d?(?![\w.,:/-]\w|[\w/%-])(?! [a-z]+s\b)")


def _generation(plain: str, span: nm.Span) -> re.Match | None:
    """The generation after a name (`_GENERATION_AFTER`) when its last word is a capitalised word."""
    last = span.tokens[-1] if span.tokens else ""
    if len(span.tokens) < 2 or not (last[:1].isupper() and last[1:].isalpha() and last[1:].islower()):
        return None
    m = _GENERATION_AFTER.match(plain, span.end)
    after = _NEXT_WORD.match(plain.casefold(), m.end()) if m else None
    return None if not m or after and after.group(1) in wd.CALENDAR else m


def with_edition(plain: str, span: nm.Span) -> tuple[nm.Span, str]:
    """The span with the edition or revision right after it (`_EDITION_AFTER`), when the span is a
    capitalised name away from a sentence start or shaped, a year only after a name of two words or more
    ("Windows Server 2022", "Burrow rev C"; not "In 2019", "May 2024", "the Mosaic 2024 crop"); and the
    other spelling the text uses for it: a revision alone ("rev C")."""
    if span.kind not in ("caps", "shaped", "link"):
        return span, ""
    opening = span.at_start and span.kind == "caps"  # (a model's designation names it there too: "Dell Latitude 7450")
    m = (None if opening else _EDITION_AFTER.match(plain, span.end)) or _MODEL_AFTER.match(plain, span.end) or (
        _model_number(plain, span)) or (None if opening else _generation(plain, span))
    if not m or any(t.casefold() in wd.CALENDAR for t in span.tokens):
        return span, ""
    edition = m.group(0).strip()
    if m.re in (_MODEL_AFTER, _MODEL_NUMBER_AFTER, _GENERATION_AFTER):
        text = plain[span.start:m.end()]
        model = replace(span, text=text, end=m.end(), tokens=tuple(text.split()))
        g = _generation(plain, model)  # "ThinkPad" + " T14 Gen" + " 5"
        return (model if g is None else replace(model, text=plain[span.start:g.end()], end=g.end(),
                                                 tokens=tuple(plain[span.start:g.end()].split()))), ""
    if edition[:1].isdigit() and len(span.tokens) < 2:
        return span, ""  # a year after one word dates it ("the Mosaic 2024 crop"); after a longer name
        # ("Windows Server 2022") it names the edition
    text = plain[span.start:m.end()]
    # (the bare name is no alias: "SQL Server 2017" and "SQL Server 2019" are two things, and the bare
    # name would land a page of the one on the other's)
    return replace(span, text=text, end=m.end(), tokens=tuple(text.split())), \
        ("" if edition[:1].isdigit() else edition)
