"""Events and projects a note names by a thing's name and a common noun (issue 31): "CKF cutover moved - was
Sat 21 Nov, now Sat 28 Nov", "Subject: RE: Fastly renewal 2027", "## 2. Historian migration", "- [ ] Citrix
Workspace rollout". Teams name what they schedule after the thing it is done to; a user asking "when is the
CKF cutover?" wants one page for the event, with its dates and owner, beside CKF's.

The phrase is a name the document gives (a page of its own), a release number it may carry ("Flutter
3.27 migration"), and one lower-case word that English makes of a verb, a noun that names a doing:
  - a verb and an adverb particle run together ("cutover", "rollout", "failover", "kickoff"),
  - a verb's noun by its ending ("migration", "renewal", "replacement"), its stem of four letters or
    more a verb, as English's own past form shows ("migrated", "renewed": `wordfreq`; not "final", and
    not "central" or "portal", words English uses more than the verb's past).
The verb itself used as a noun ("upgrade", "pilot", "audit") is left out: English uses most verbs so
("Greg rang", "Enercon price", "Dell quote" were titled with it; notes a–al: 11 more labelled things for
about 30 titles that name nothing). It is an event's name only where the text puts it where a subject or
a title goes: opening its line or a table's cell (after a list's mark, a checkbox, bold, a heading's
hashes or a short label such as "Subject: RE:" or "Postmortem:"). Never a list of a corpus's words:
English is `wordfreq`'s word list and the closed classes of particles and endings.

The page is titled as the text writes the phrase. Its statements name the thing too, so they reach the
thing's page as well (kctui.compiler.steps.mentions), and a section or a source the phrase titles is
about both (kctui.compiler.steps.event_pages): the renewal's quote is the vendor's fact too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from kctui.compiler.builtin import words as wd

# the particles a doing's noun ends with ("cutover", "rollout", "kickoff", "rollback"); "up", "in", "on"
# end as many things as doings ("backup", "login", "setup", "plugin"): left out
_PARTICLES = ("over", "out", "off", "back", "down")
_VERB_ZIPF = 2.5  # a stem's past at least this frequent: the stem is a verb ("migrated", "renewed")
# "-al" makes adjectives and nouns of nouns too ("central", "portal"): a verb's noun in "-al" is no more
# frequent than the verb's past, give or take this ("renewal" 3.8 / "renewed" 4.0; "portal" 4.0 / "ported" 3.0)
_AL_MARGIN = 0.3
# endings English makes a verb's noun with, and what the verb's stem ends in before them (closed class)
_NOUN_OF_VERB = (("ation", ("ate", "e", "")), ("tion", ("te", "")), ("sion", ("de", "d")), ("al", ("", "e")),
                 ("ment", ("",)))
# what may stand before the phrase on its line: a list's mark, a checkbox, bold, a heading's hashes, a
# numbered item, and a short label ("Subject: RE:", "Postmortem:")
_LEAD = re.compile(r"^(?:\s*(?:[-*+>#|]+|\d+[.)]|\[[ xX]\]|\*\*|__)\s*)*(?:[A-Za-z]{2,12}:\s*(?:(?:RE|FW|Fwd):\s*)*)?")
_RELEASE = r"(?:\s+v?\d+(?:\.\d+)+)?"


@lru_cache(maxsize=4096)
def _past(verb: str) -> float:
    """How frequent English's past of `verb` is (its "e" dropped or its last consonant doubled)."""
    forms = [verb + "ed", verb + "d" if verb.endswith("e") else ""]
    if len(verb) >= 3 and verb[-1] not in "aeiouwy":
        forms.append(verb + verb[-1] + "ed")
    return max(wd.zipf(f) for f in forms if f)


@lru_cache(maxsize=4096)
def event_noun(word: str) -> bool:
    """Does English make `word` (lower case, singular) of a verb: a verb and an adverb particle run together
    ("cutover": "cutting" is English), or a verb's noun by its ending, its stem a verb of four letters or
    more ("migration": "migrated"; not "usage", "final")?"""
    if not word.isalpha() or not word.islower() or len(word) < 5 or word.endswith(("s", "ed", "ing")) \
            or word in wd.FUNCTION_WORDS:
        return False
    for particle in _PARTICLES:
        stem = word[: -len(particle)]
        if word.endswith(particle) and len(stem) >= 3 and max(
                wd.zipf(stem + "ing"), wd.zipf(stem + stem[-1] + "ing")) >= wd.RARE_ZIPF:  # ("cutting")
            return True
    for ending, stems in _NOUN_OF_VERB:
        stem = word[: -len(ending)]
        if not word.endswith(ending) or len(stem) < 4:
            continue
        past = max(_past(stem + s) for s in stems)
        if past >= _VERB_ZIPF and (ending != "al" or wd.zipf(word) <= past + _AL_MARGIN):
            return True
    return False


def event_names(lines: Iterable[tuple[int, str]], names: Iterable[str]) -> list[tuple[str, int]]:
    """(the phrase as written, its line) for each event or project the module's docstring reads on
    `lines` ((line number, text)), one per phrase (its first line), of the names `names` the document
    gives."""
    by_word = _by_first_word(names)
    out: dict[str, tuple[str, int]] = {}
    for number, raw in lines:
        for part in raw.replace("**", "").replace("`", "").split("|"):  # (a table row: each cell opens)
            cell = part.strip()
            lead = _LEAD.match(cell)
            found = _event_at(cell, lead.end() if lead else 0, by_word)
            if found is not None and event_noun(found[1]) and (found[2] or _name_shaped(found[3])):
                out.setdefault(found[0].casefold(), (found[0], number))
    return list(out.values())


# up to three capitalised words or words with a digit: a name where its shape says so (`_name_shaped`)
_SHAPED = r"(?P<shaped>[A-Z][\w&+.-]*(?: [A-Z0-9][\w&+.-]*){0,2})"
_SPACE = re.compile(r"\s")
_TAIL = re.compile(_RELEASE + r" (?P<noun>[a-z][a-z-]{3,24})(?![\w'’@/-])")  # after the name: the noun
_SHAPED_EVENT = re.compile(_SHAPED + _TAIL.pattern)


# a line that titles what follows it: a heading, or an email's subject
_TITLE_LINE = re.compile(r"^\s*(?:#{1,6}\s|(?:\*\*)?Subject:)", re.IGNORECASE)


def named_again(lines: Iterable[str], phrase: str, line: int) -> bool:
    """Does the document name the event `phrase` (first named on `line`, counted from 1) more than in
    passing: on a second line too, or on a line that titles what follows (a heading, an email's subject)?
    An event named in one line of a note, beside its other news ("SOTI renewal quote in, no change"), is a
    passing mention: a page of its own where another source names it too (kctui.compiler.steps.recurrence),
    as for any name; its line stays on its thing's page."""
    text = list(lines)
    if 0 < line <= len(text) and _TITLE_LINE.match(text[line - 1]):
        return True
    word = re.compile(r"(?<![\w-])" + re.escape(phrase.casefold()) + r"(?![\w-])")
    return sum(1 for t in text if word.search(t.replace("**", "").replace("`", "").casefold())) >= 2


def _first_word(text: str, pos: int = 0) -> str:
    space = _SPACE.search(text, pos)
    return text[pos:space.start()] if space else text[pos:]


def _by_first_word(names: Iterable[str]) -> dict[str, list[str]]:
    """The document's names by their first word, each word's longest first."""
    out: dict[str, list[str]] = {}
    for name in sorted({n for n in names if n.strip()}, key=len, reverse=True):
        out.setdefault(_first_word(name), []).append(name)
    return out


def _event_at(cell: str, pos: int, by_word: dict[str, list[str]]) -> tuple[str, str, str, str] | None:
    """(the phrase, its noun, the document's name it opens with or "", the name-shaped run or "") that
    opens `cell` at `pos`: the longest of the document's names there that a noun follows, else a run of
    capitalised words. (A name opens the cell where the cell's first word is the name's: the noun comes
    after a space. One pattern of all the names, compiled for each document, had cost more.)"""
    for name in by_word.get(_first_word(cell, pos), ()):
        if cell.startswith(name, pos) and (tail := _TAIL.match(cell, pos + len(name))):
            return cell[pos:tail.end()], tail.group("noun"), name, ""
    m = _SHAPED_EVENT.match(cell, pos)
    return (m.group(0), m.group("noun"), "", m.group("shaped")) if m else None


def _name_shaped(run: str) -> bool:
    """Is a run of capitalised words a name by its own shape, where capitals at a line's start say nothing:
    its first word has two capitals or more ("CKF", "PagerDuty"), a digit, or is one English does not
    have ("Houdini"); not "The Sectra", "So Multitone", "Keep USB" (an ordinary word opens the line)."""
    first = run.split()[0]
    return _shaped_word(first) and not wd.period(first)  # (not "Q1 replacement": a period of the year)


def _shaped_word(word: str) -> bool:
    """A word of two capitals or more, a digit, or one English does not have: a name by its shape."""
    return sum(c.isupper() for c in word) >= 2 or any(c.isdigit() for c in word) or wd.zipf(word) < wd.RARE_ZIPF
