"""The other names a source's title gives its page.

A note is often a named thing of its own: "Postmortem: Hangar 3 Wi-Fi outage (28 Oct 2026)" is the
postmortem of *the Hangar 3 Wi-Fi outage*, "RCS Operations Meeting — Tuesday 20 January 2026" is a
meeting of *the RCS Operations Meeting*, "Decision 003: Brewery management system" is *Decision 003*.
People call the note by the parts of its title, so the source page carries them as aliases (the search
finds the page by them). A pure function of the title and the names the source gives pages of their
own: a part that is one of those is that page's name, not this one's.

- A title is cut at its separators (": ", " — ", " – ", " - ", " | ", ", "); a part in brackets is a
  remark ("(28 Oct 2026)", "(junior sysadmin)"), never a name, and so is a part that is only a date, a
  day or a period ("Tuesday 20 January 2026", "Q4 2026").
- The note's own name is its first part, or the second after a one-word kind ("Postmortem: Hangar 3
  Wi-Fi outage", "Onboarding - Joel Achterberg"; not the "Castlebrook University" after "LibCal renewal
  2027"): a name when it has two words or more, or one word shaped as a name (a digit, an inner capital
  or a hyphen: "gcs01").
- The title without its remarks and trailing dates ("Postmortem: paywall blocked logged-in subscribers —
  9 Nov 2026" → "Postmortem: paywall blocked logged-in subscribers") is a name too.
- The file's name is the note's name where notes point to each other ("see oncall-handover-bf-weekend.md",
  "the todo-s3-launch list"; session 25 N, `file_aliases`): the source page carries it, and its stem where
  the stem is a slug of several words ("runbook-release"; not "vendors", a word) that is no name the source
  gives a page of its own. On the 50 writers' notes 13 labelled things were a note by its file name or stem,
  10 of them with their facts on the note's own page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kctui.compiler.builtin.words import CALENDAR
from kctui.core.slugs import identity_key

MAX_ALIASES = 4
_BRACKETS = re.compile(r"\s*[(\[][^()\[\]]*[)\]]")
_SEPARATOR = re.compile(r"\s*(?::\s|\s[—–-]\s|\s\|\s|,\s)\s*|\s*[—–]\s*(?=\S)")
# a date's other words (its days and months, full and short, are words.CALENDAR's)
_DATE_WORD = re.compile(r"^(?:\d[\d/.:-]*(?:st|nd|rd|th|h|am|pm)?|[qh][1-4]|fy\d{2,4}|w/[ce]|wk\d*|week|"
                        r"of|the|on|at|from|to|till|until|updated|last|starts?|started)$", re.I)
_NAME_SHAPED = re.compile(r"\d|[a-z][A-Z]|\w-\w")
_SLUG = re.compile(r"^[\w]+(?:[-_][\w]+)+$")  # a file's stem of several words joined ("todo-s3-launch")


def title_aliases(title: str, own_names: Iterable[str] = ()) -> list[str]:
    """The other names `title` gives its source page (at most MAX_ALIASES); `own_names`: the names the
    source gives pages of their own."""
    taken = {identity_key(title)} | {identity_key(n) for n in own_names}
    plain = " ".join(_BRACKETS.sub(" ", title).replace('"', "").split())
    parts = [p.strip(" .#*_`'") for p in _SEPARATOR.split(plain)]
    main = parts[1] if len(parts) > 1 and len(parts[0].split()) == 1 else parts[0]
    found = [main] if _named(main) else []
    undated = _without_trailing_dates(parts, plain) or plain
    if " " in undated and not _dated(undated.split()):
        found.append(undated)
    out: list[str] = []
    for name in found:
        key = identity_key(name)
        if key not in taken:
            taken.add(key)
            out.append(name)
    return out[:MAX_ALIASES]


def source_aliases(title: str, own_names: Iterable[str], path: str) -> list[str]:
    """A source page's aliases: its title's (`title_aliases`), then its file's (`file_aliases`)."""
    own = list(own_names)
    titled = title_aliases(title, own)
    return titled + file_aliases(path, title, [*own, *titled])


def file_aliases(path: str, title: str, own_names: Iterable[str] = ()) -> list[str]:
    """The names a source's file gives its page besides `title` (`path`: the source's path): its file name,
    and its stem where that is a slug of several words ("runbook-release.md", "runbook-release")."""
    name = path.rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else ""
    taken = {identity_key(title)} | {identity_key(n) for n in own_names}
    out = []
    for alias in (name, stem if _SLUG.match(stem) else ""):
        if alias and identity_key(alias) not in taken:
            taken.add(identity_key(alias))
            out.append(alias)
    return out


def _named(part: str) -> bool:
    words = part.split()
    if not words or _dated(words) or not any(ch.isalpha() for ch in part):
        return False
    return len(words) >= 2 or bool(_NAME_SHAPED.search(part))


def _dated(words: list[str]) -> bool:
    """Is every word of the part a date's: numbers, days, months, quarters ("Tuesday 20 January 2026")?"""
    return all(_DATE_WORD.match(w.strip(".,;")) or w.strip(".,;").casefold() in CALENDAR for w in words)


def _without_trailing_dates(parts: list[str], plain: str) -> str:
    """The title with its trailing date parts cut ("" when it has none, or nothing else)."""
    keep = list(parts)
    while keep and (not keep[-1] or _dated(keep[-1].split())):
        keep.pop()
    if len(keep) == len(parts) or not keep:
        return ""
    cut = plain
    for part in reversed(parts[len(keep):]):
        at = cut.rfind(part) if part else len(cut)
        cut = cut[:at]
    return cut.strip(" :—–-|,")
