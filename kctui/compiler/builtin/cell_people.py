"""A person's full name alone in a table's cell (issue 31, session 30): a register of vendors, suppliers or
systems names each row's contact or owner in a later cell of its own ("| Bluewake Comms | Starlink reseller |
Rachel Amos | monthly rolling | £480/month |"), and that is the fact a reader looks for ("who is our contact at
Bluewake?"). A cell opens like a sentence, so the candidates' rules read the name's capitals as a sentence's
and keep it only where the surname is no English word ("Jo Whitlock", not "Rachel Amos", "Dave Kerr").

The cell's place sets it apart: not the row's first cell (what the row is about: a vendor, a product, "Vodafone
Business"), the whole cell the name (a role in brackets after it at most, "Priti Shah (Trace3)"), two
words (a title before them, a particle between them; not three: "Grafana Cloud Pro" is a plan) shaped as a
person's (`name_types.person_like`: none a function, type or role word, one at least no
ordinary word), none with an English ending ("Frameworks Digital"), the given name never written in lower case
by the document. The row is a fact stated of the person: a page on one mention
(kctui.compiler.builtin.recall). Never a list of names: only the place says it is a person's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin import words as wd

# a cell's whole text: two capitalised words (a title before them, a particle between them: "Dr Hannah Weiss",
# "Pieter de Vries"; not three, a product's plan: "Castlegate Care Plus", "Grafana Cloud Pro"), then at
# most an aside in brackets (a role, an organisation); the cells of a row unit are joined by " | "
_CELL = re.compile(r"(?<=\| )(?P<name>(?:(?:Dr|Prof|Mr|Mrs|Ms) )?[A-Z][a-zà-ÿ'’-]+(?: (?:de|van|von|da|di|le|la|del))? [A-Z][a-zà-ÿ'’-]+)"
                   r"(?: \([^()|]{1,40}\))?(?= \||$)")


def spans(plain: str, kind: str, lower: ug.Lower | frozenset[str]) -> list[nm.Span]:
    """The full names a table row's later cells hold alone (the module's docstring), as spans only this
    place vouches for."""
    if kind != "row" or "| " not in plain:
        return []
    out: list[nm.Span] = []
    for m in _CELL.finditer(plain):
        name = m.group("name")
        if person_cell(name, lower):
            out.append(nm.Span(name, m.start("name"), m.end("name"), False, "caps", tuple(name.split())))
    return out


def person_cell(name: str, lower: ug.Lower | frozenset[str]) -> bool:
    """Is a cell's whole name shaped as a person's full name (the module's docstring)?"""
    words = [w for w in name.split() if w[0].isupper() and w not in nm.HONORIFICS]  # (its title and particle aside)
    first = words[0].casefold()
    return nt.person_like(" ".join(words)) and not any(nm.english_ending(w) for w in words) and first not in lower \
        and first not in wd.FUNCTION_WORDS and first not in wd.CALENDAR


def keys(kind: str, plain: str, named: list[tuple[nm.Span, str]], cands: Mapping[str, Any],
         lower: ug.Lower | frozenset[str]) -> list[str]:
    """The keys of the names of `named` (spans and their candidates' keys) that fill a later cell of a
    table row as a person's full name: each a page on this one mention."""
    if kind != "row":
        return []
    starts = {s.start: s.end for s in spans(plain, kind, lower)}
    return [k for s, k in named if k in cands and starts.get(s.start) == s.end]
