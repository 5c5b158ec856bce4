"""A model's designation written after the name of its maker or its product line: part of the name.

Notes name hardware and products by a maker, a line and a model ("Dell PowerEdge T160", "Makito X4
decoder", "Huawei B535", "ThinkCentre M70q"). The designation is a capital or three and a number, with a
letter or two after it ("T160", "M70q", "H740P"); on its own such a token is no name (a line anchor, a
paper size, a key: "L12", "A4", "F10" — `name_tokens.JUNK_TOKEN`), but right after a capitalised word it names
which model of that name is meant, and the name stops short without it. Business shorthand stays out
(a quarter, a priority, a half, a week: "Q3", "P1", "H2", "W2", a closed class like the calendar).

Where such a run opens its sentence (a table's cell, a list item, after a colon), the maker's word
before the line is part of the name though English also has it as a word ("Dell", "Zebra", "Cisco":
rarer than a common word, `wd.COMMON_ZIPF`; a common word there is still a verb: "Replace Dell T140"): a
model's designation after the run's first word, or a model's number right after the run, says the run is
a product's name, whose capitals are its own (`names_a_model`). The line and model without the maker's
word is another form of the name (`line_and_model`, for kctui.compiler.steps.name_forms).

Never a list of a corpus's makers or models: the signal is the designation's form and its place.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import words as wd

# a capital or three and a number, a letter or two (and a plus) after it: T160, M70q, H740P, C5840, ST50
_DESIGNATION = re.compile(r"^[A-Z]{1,3}\d{1,5}[A-Za-z]{0,2}\+?$")
# business shorthand: a quarter, a priority, a half, a week (closed class, like the calendar)
_SHORTHAND = re.compile(r"^[QPHW][1-4](?!\d)")  # (not "P2PE" either)
# a model's number right after a run of capitals ("Dell Latitude 7450", "Lenovo 100e"): three or four
# digits, no year, a letter or two after it at most (kctui.compiler.builtin.coined reads a generation after it)
NUMBER_AFTER = re.compile(r" (?!(?:19|20)\d\d\b)[1-9]\d{2,3}(?:[A-Za-z]{1,2}\+?)?(?![\w.,:/-]\w|[\w/%+-])")


def designation(token: str) -> bool:
    """Is the token shaped as a model's designation ("T160", "X4", "M70q"), not business shorthand?"""
    return bool(_DESIGNATION.match(token)) and not _SHORTHAND.match(token)


def after_name(plain: str, start: int, previous: tuple[str, int, int] | None) -> bool:
    """Is the token at `start` a model's designation written right after a capitalised word of the
    sentence (`previous`, the token before it, one space away): "Makito X4", "Huawei B535"?"""
    if previous is None or previous[2] + 1 != start or plain[previous[2]] != " ":
        return False
    word = previous[0]
    return (word[:1].isupper() or wd.shaped(word)) and word.casefold() not in wd.FUNCTION_WORDS \
        and word.casefold() not in wd.CALENDAR


def names_a_model(plain: str, group: list[tuple[str, int, int]]) -> bool:
    """Does a run of capitals name a model: a designation after its first token ("Dell PowerEdge T160",
    "Huawei B535 EOL"), or a model's number right after it ("Dell Latitude 7450")?"""
    return any(designation(t) for t, _, _ in group[1:]) or bool(NUMBER_AFTER.match(plain, group[-1][2]))


_MODEL_NUMBER = re.compile(r"^(?!(?:19|20)\d\d$)[1-9]\d{2,3}[A-Za-z]{0,2}$")  # 7450, 1500, 3120 (no year)


def line_and_model(name: str) -> str:
    """The name less its maker's word, when what is left opens with a capitalised word or a designation
    and holds a model's designation or number: "PowerEdge T160" of "Dell PowerEdge T160", "U6 Mesh" of
    "Unifi U6 Mesh", "Latitude 7450" of "Dell Latitude 7450" (not "Server 2022" of "Windows Server 2022":
    a year; not "Linux 8": a generation), or ""."""
    words = name.split()
    if len(words) < 3 or not (words[0].isalpha() and words[0][:1].isupper()) or not words[1][:1].isupper():
        return ""
    rest = words[1:]
    return " ".join(rest) if any(designation(w) or _MODEL_NUMBER.match(w) for w in rest) else ""
