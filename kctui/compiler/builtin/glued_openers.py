"""A sentence's opening word glued to the name after it (issue 31 point 4, one page per thing): "Need Tappa
3.3.0 on all 248 validators", "**Renew Aspera.** £21,600/yr", "Today DeepL is the default", "- [ ] Unblock
BRI in Seaflow" — a verb, an adverb or a month that opens the sentence is capitalised only because it opens
it, and the name is the word after it ("Tappa", "Aspera", "DeepL", "BRI"), which the document writes alone
elsewhere.

The rule (`glued_openers`), a pure function of the document's candidate names and its sentences: a name of
two words, "W X", is the name X alone where

- every time the document writes "W X" it opens its sentence, list item, table cell or heading (after
  markup, a number or a checkbox only): mid-sentence its capital would be the text's own;
- W is a word English has (as frequent as an ordinary word's rarer end, `words.RARE_ZIPF`, or a word of the
  calendar) and X is not ("Freelancer Hub", "Project Relay", "Kinesys Vector": an ordinary word after a
  capitalised one is the second half of a name);
- W is no name of the document: not a candidate alone, opening no other of its names, never written with
  its capital mid-sentence ("Cisco" of "Cisco Meraki" where the document also writes "… from Cisco");
- X is a candidate of its own that the document writes without W before it somewhere.

A real full name whose first word is English and opens every sentence it stands in ("Open OnDemand") is
kept where the document never writes its second word alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping

from kctui.compiler.builtin import words as wd

_OPENER = re.compile(r"^[A-Z][a-z]+$")  # a capitalised word of letters (not an acronym, no digit)
# what may stand before a sentence's first word on its line: markup, a list's number, a checkbox, a cell bar
_LEAD = re.compile(r"(?:^|\|)(?:[\W\d_]|\[[ xX]\])*$")


def glued_openers(names: Mapping[str, str], texts: list[str], key_of: Callable[[str], str],
                  fixed: Collection[str] = ()) -> dict[str, str]:
    """Candidate key of "W X" -> candidate key of "X", for each name of two words whose first word is a
    sentence's opener glued to it (the module's rule). `names`: key -> name; `texts`: the document's
    sentences; `key_of`: a spelling's candidate key; `fixed`: the keys of names a table's name column, a
    field or the profile names (kept as written)."""
    out: dict[str, str] = {}
    firsts: dict[str, int] = {}  # a first word (case folded) -> how many names it opens
    for name in set(names.values()):
        firsts[name.split(" ", 1)[0].casefold()] = firsts.get(name.split(" ", 1)[0].casefold(), 0) + 1
    for key, name in sorted(names.items()):
        words = name.split()
        if len(words) != 2 or key_of(name) != key or key in fixed:
            continue
        opener, rest = words
        x_key = key_of(rest)
        if x_key not in names or x_key == key or not _english(opener) or _english(rest):
            continue
        if key_of(opener) in names or firsts.get(opener.casefold(), 0) > 1:
            continue
        seen = [t for t in texts if name in t]
        if not seen or not all(_opens_only(t, name) for t in seen):
            continue
        if any(_mid_capital(t, opener) for t in texts) or not any(_alone(t, rest, opener) for t in texts if rest in t):
            continue
        out[key] = x_key
    return out


def _english(word: str) -> bool:
    """A word English has: an ordinary word's frequency or more, or a word of the calendar."""
    w = word.casefold()
    return wd.zipf(w) >= wd.RARE_ZIPF or w in wd.CALENDAR or w in wd.CALENDAR_SHORT


def _opens_only(text: str, name: str) -> bool:
    """Does every occurrence of `name` in the sentence open it (or a cell of it)?"""
    found = False
    for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
        if not _LEAD.search(text[:m.start()]):
            return False
        found = True
    return found


def _mid_capital(text: str, word: str) -> bool:
    """Is `word` written with its capital mid-sentence (after a word, not at an opening)?"""
    return any(not _LEAD.search(text[:m.start()]) and re.search(r"[\w,;)]\s+$", text[:m.start()])
               for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text))


def _alone(text: str, word: str, opener: str) -> bool:
    """Does the sentence write `word` without `opener` right before it?"""
    return any(not text[:m.start()].rstrip().endswith(opener)
               for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text))
