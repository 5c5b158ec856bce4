"""A section's thing named in its heading's brackets (issue 31, facts on their subject's page).

A heading often says what its section does in words that name nothing and puts the thing it does it to in
brackets after them:

    ## Cloud backup (Project Tidewater)
    ### C. Third-party (Railhead Analytics)
    ## 1. Router down (Teltonika RUT956)

The section's lines that name nothing ("- Seeding starts Mon 3/23, expect ~3 weeks at 1 Gbps shaped.") are
facts of the bracketed thing, as they are of a thing its heading names outside brackets ("## Fastly"). The
heading's words outside brackets come first (a heading that names a thing there is about it: "Onboarding —
Ravi Menon (starts Mon 16 Nov)" is Ravi's); an aside is the section's thing only when those words name
nothing and the aside is a name and nothing more, or names joined ("(Tom / Priya)": the first), not a name
with what is said of it ("## Thursday (Tom off)", "(see ADR-007)": a remark, no subject).

The aside stays out of what the heading is matched as (kctui.compiler.builtin.statements `section_leads`
keeps the heading whole; kctui.compiler.steps.statement_pages `_headed_by` reads it without its brackets first).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Protocol


class Finder(Protocol):  # (kctui.compiler.steps.name_finder NameFinder)
    people: Mapping[str, Collection[str]] | Collection[str]
    persons: Collection[str]

    def named(self, text: str) -> set[str]: ...

    def find(self, text: str) -> set[str]: ...


ASIDES = re.compile(r"\(([^()]*)\)")  # a parenthesised aside and its text
_JOINED = re.compile(r"\s*(?:[/&+,]|\band\b)\s*")  # names joined in an aside ("Tom / Priya", "Kelpie, Tarn")


def split_aside(heading: str) -> tuple[str, list[str]]:
    """(the heading without its asides, the texts of its asides in order): "Cloud backup (Project Tidewater)"
    -> ("Cloud backup", ["Project Tidewater"])."""
    return " ".join(ASIDES.sub(" ", heading).split()), [" ".join(m.group(1).split()) for m in ASIDES.finditer(heading)]


def aside_page(asides: list[str], finder: Finder, otherwise: str = "", people: Collection[str] | None = None) -> str:
    """The page of the thing the first aside that is a name alone names (`finder.named`: the pages one of whose
    names is the whole of a text), or of the first of names joined in it; `otherwise` when no aside is one. Not a
    person's (`people`: their pages, by default every page a one-word name or initials stand for, `finder.people`):
    a person in a heading's brackets is who does the section's work ("## Week 1 (Seun)", "## Budget (Dana)"), not
    what it is about. A section's heading asks only of the pages a given name stands for (`finder.persons`): its
    brackets name the option or vendor the section weighs ("### C. Third-party (Railhead Analytics)", initials "RA"
    or not); a note's title asks of all, its brackets often naming whose note it is ("Onboarding — Integration
    Analyst (Clinical Informatics)")."""
    people = finder.people if people is None else people
    for aside in asides:
        parts = [p for p in _JOINED.split(aside) if p]
        if parts and all(len(finder.named(p)) == 1 and finder.named(p).isdisjoint(people) for p in parts):
            return next(iter(finder.named(parts[0])))
    return otherwise


def title_aside(title: str, finder: Finder, body: Sequence[str]) -> str:
    """A note's title is about the thing its brackets name (`aside_page`) when the title names nothing outside them,
    the aside is one name (not names joined: "Runbook: dock label printers (Millbrook + Eastgate)" is no more one
    site's than the other's), and the note names it again in its `body` (its statements' texts other than the
    title): a note on that thing says its name ("Runbook: setting up a freelancer for remote editing (HP Anyware)"
    writes "HP Anyware" in its steps), a qualifier in brackets is said once ("Postmortem: tracking updates delayed
    up to 3h40m (SEV2)": the incident's level, not what its lines are about)."""
    asides, written = split_aside(title)[1], " ".join(title.split())
    body = [text for text in body if text != written]  # (the title's own statement)
    if len(asides) != 1 or len([p for p in _JOINED.split(asides[0]) if p]) != 1:
        return ""
    page = aside_page(asides, finder)
    return page if page and any(page in finder.find(text) for text in body) else ""
