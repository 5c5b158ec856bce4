"""A person named with a title before their full name ("Dr. Amir Sadeghi", "Prof Hana Ito") is the person
of that full name: the page is titled "Amir Sadeghi", the titled form one of its aliases, so a note that
writes the title and one that does not make one page, not two. A title before a surname alone ("Dr.
Okafor", "Ms. Adeyemi") stays as written: the surname alone names no one for sure. Pure: a function of the
extraction (`untitled`), table-tested in tests/unit/test_titled_people.py.
"""

from __future__ import annotations

from dataclasses import replace

from kctui.compiler.builtin.names import HONORIFICS
from kctui.compiler.extraction import Entity, Extraction
from kctui.core.slugs import identity_key


def full_name(name: str) -> str | None:
    """The full name after a person's title ("Dr. Amir Sadeghi" → "Amir Sadeghi"), None where `name` opens
    with no title or the rest is not two capitalised words or more."""
    first, _, rest = name.strip().partition(" ")
    if first.rstrip(".") not in HONORIFICS:
        return None
    words = rest.split()
    if len(words) < 2 or not all(w[:1].isupper() for w in words):
        return None
    return " ".join(words)


def _untitled_entity(e: Entity) -> Entity:
    plain = full_name(e.name)
    if plain is None:
        return e
    aliases = tuple(a for a in (e.name, *e.aliases) if identity_key(a) != identity_key(plain))
    return replace(e, name=plain, aliases=tuple(dict.fromkeys(aliases)))


def untitled(ex: Extraction) -> None:
    """Every entity, passing mention and claim subject of `ex` named with a title before a full name is
    named by the full name, the titled form kept as an alias."""
    renamed: dict[str, str] = {}
    for group in (ex.entities, ex.passing):
        for i, e in enumerate(group):
            new = _untitled_entity(e)
            if new is not e:
                renamed[e.name] = new.name
                group[i] = new
    if ex.subject is not None:
        ex.subject = _untitled_entity(ex.subject)
    if not renamed:
        return
    for group in (ex.claims, ex.passing_claims):
        for i, c in enumerate(group):
            if c.subject in renamed:
                group[i] = replace(c, subject=renamed[c.subject])
