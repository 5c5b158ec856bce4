"""People by the place a note gives them, not by the look of the word: standups, minutes and to-do
lists name people by their given name alone ("Sam", "ben"), often in lower case, in a few places a
note keeps for people:

- a **roster**: two or more lines in a row that each open with one word and a separator, then what
  that person did or will do ("nadia - brewing …", "Dev: book the slot …"), with two
  words or more, at least half of them words English does not know (a list of steps, of fields or of
  levels opens with ordinary words: "check - …", "Status: accepted"; after a colon, what follows starts in
  lower case: "Status: Accepted" is a field);
- a **list of names** after a label ("Present: Moira, Dev, Aisling, Tomasz"): three or more single
  capitalised words;
- a line that is only a name in bold ("**Dev**"): the heading of that person's part of a standup.

A word a roster opens with, or one the note puts in two of these places on different lines, is a
name of that note (most often a person's; a roster of vendors names things), declared like a name of the base's profile (recognised wherever the
note writes it, in any case: kctui.compiler.builtin.profile), as typed fields declare theirs
(kctui.compiler.builtin.fields).
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.profile import KnownName, Profile
from kctui.compiler.readers import Document

ROSTER_MIN = 2  # lines in a row that open with a name
ROSTER_RARE_ZIPF = 3.5  # half the roster's words rarer than this: people's names, not steps or levels
_OPENER = re.compile(r"^(?:[-*+]\s+(?:\[[ xX]\]\s+)?|\d{1,2}[.)]\s+)?(?P<name>[A-Za-z][a-z'’]+)"
                     r"(?P<sep>\s*:|\s+[-—–]|\s*[—–])\s+(?P<rest>\S.*)$")  # (a term in bold opens a glossary's line)
_LIST = re.compile(r"^(?:[-*+]\s+)?\**[A-Za-z][\w ]{1,24}?\**\s*:\**\s+(?P<items>[A-Z].*)$")
_BOLD = re.compile(r"^\*\*(?P<name>[A-Z][a-z'’]+)\*\*:?\s*$")
_ASIDE = re.compile(r"\s*\([^()]*\)")
# (closed class, like the calendar's words: a roster's "me - …" line is the writer's own)
_CLOSED = frozenset({"yesterday", "today", "tomorrow", "tonight", "me", "us", "him"})
_ITEM_GAP = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*")


def roster_names(doc: Document) -> tuple[KnownName, ...]:
    """The people the note's places for people name (see the module's docstring), each once, spelled
    as the note first writes them capitalised (else as written)."""
    slots: dict[str, set[int]] = {}  # casefolded word -> the lines that give it a place
    named: set[str] = set()  # words a roster opens with
    spelled: dict[str, str] = {}
    places: dict[str, set[int]] = {}  # casefolded word -> the lines of a list of names or a bold line
    runs: list[list[tuple[str, int]]] = []
    run: list[tuple[str, int]] = []
    last = -1
    for line, text in _lines(doc):
        opener = _opener(text)
        if not opener or line != last + 1:
            runs.append(run)
            run = []
        if opener:
            run.append((opener, line))
            _spell(spelled, opener)
        last = line
        for word in _listed(text) + _bold(text):
            places.setdefault(word.casefold(), set()).add(line)
            _spell(spelled, word)
    runs.append(run)
    for r in runs:
        _close(r, named, slots)
    found = named | {w for w, lines in places.items() if len(lines | slots.get(w, set())) >= 2
                     and wd.zipf(w) < wd.COMMON_ZIPF}  # ("**Yes**" and "Yes: …" lines are no name's places)
    first = {w: min(places.get(w, set()) | slots.get(w, set()) or {0}) for w in found}
    return tuple(KnownName(spelled[w]) for w in sorted(found, key=lambda w: (first[w], w)))


def _lines(doc: Document) -> list[tuple[int, str]]:
    """(source line, text) of every line of the note's paragraphs and list items, in order."""
    out: list[tuple[int, str]] = []
    for block in doc.blocks:
        if block.kind in ("paragraph", "item"):
            out += [(block.lines[k] if k < len(block.lines) else block.start + k, t)
                    for k, t in enumerate(block.text.split("\n"))]
    return out


def with_roster_names(profile: Profile, doc: Document) -> Profile:
    """The profile plus the people the note's places for people name (the profile's entries win)."""
    declared = [n for n in roster_names(doc) if profile.known(n.name) is None]
    if not declared:
        return profile
    return Profile(profile.names + tuple(declared), profile.ignore_headings)


def _opener(text: str) -> str:
    """The one word a line opens with before a separator, when what follows is said in lower case."""
    m = _OPENER.match(text.strip())
    if not m or not (m.group("rest")[:1].islower() or m.group("rest")[:1].isdigit() or m.group("sep").strip() != ":"):
        return ""  # ("Status: Accepted" is a field; "Jules — Zapier flow …" a task)
    word = m.group("name")
    low = word.casefold()
    return "" if low in wd.FUNCTION_WORDS or low in wd.CALENDAR or low in _CLOSED else word


def _close(run: list[tuple[str, int]], named: set[str], slots: dict[str, set[int]]) -> None:
    """A run of lines opening with a word: a roster when its words differ and one is no English word."""
    words = {w.casefold() for w, _ in run}
    if len(words) >= ROSTER_MIN and 2 * sum(wd.zipf(w) < ROSTER_RARE_ZIPF for w in words) >= len(words):
        named.update(words)
    for word, line in run:
        slots.setdefault(word.casefold(), set()).add(line)


def _listed(text: str) -> list[str]:
    """The single capitalised words of a `Label: A, B, C` line (three or more)."""
    m = _LIST.match(text.strip())
    if not m:
        return []
    items = [i.strip(" .*_") for i in _ITEM_GAP.split(_ASIDE.sub("", m.group("items")))]
    if len(items) < 3 or not all(re.fullmatch(r"[A-Z][a-z'’]+", i) for i in items):
        return []
    return [i for i in items if i.casefold() not in wd.FUNCTION_WORDS and i.casefold() not in wd.CALENDAR]


def _bold(text: str) -> list[str]:
    m = _BOLD.match(text.strip())
    return [m.group("name")] if m else []


def _spell(spelled: dict[str, str], word: str) -> None:
    key = word.casefold()
    if key not in spelled or (word[:1].isupper() and not spelled[key][:1].isupper()):
        spelled[key] = word
