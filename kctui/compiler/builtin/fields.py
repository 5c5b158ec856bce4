"""Typed fields: a `Key: value` line whose key is a kind of thing ("Service: sluice (Go 1.22, …)",
"**Tool:** restic 0.17") names a thing of that kind — the value's head, however it is written, lower
case included. The document declares it as a name, so it is recognised wherever that document writes
it, as a name the base's profile lists is (kctui.compiler.builtin.profile): the field is the document's
own glossary entry.

Which keys are kinds of thing is the generic nouns of kctui.compiler.builtin.name_types, nothing else.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.profile import KnownName, Profile
from kctui.compiler.readers import Document

_FIELD = re.compile(r"^[-*+>\s]*\**(?P<key>[A-Za-z][A-Za-z ]{1,30}?)\**\s*:\**\s+(?P<value>\S.*)$")
# the value's head: one to three words (an identifier or capitalised), before an aside, a list or the end
_HEAD = re.compile(r"^`?(?P<head>[A-Za-z][\w.+-]*(?:\s[A-Z][\w.+-]*){0,2})`?(?=\s*(?:$|\(|,|;|—|–|·|\s-\s))")


def typed_names(doc: Document) -> tuple[KnownName, ...]:
    """The things the document's typed fields name, each once."""
    found: dict[str, KnownName] = {}
    for block in doc.blocks:
        if block.kind not in ("paragraph", "item"):
            continue
        for text in block.text.split("\n"):
            m = _FIELD.match(text)
            if not m:
                continue
            etype = nt.type_from_noun(m.group("key").split()[-1])
            head = _HEAD.match(m.group("value").strip())
            if not etype or etype == "person" or head is None:
                continue
            name = head.group("head").rstrip(".")
            if wd.placeholder(name) or all(wd.common_word(w) for w in name.split()):
                continue
            found.setdefault(name.casefold(), KnownName(name, etype))
    return tuple(found.values())


def with_typed_names(profile: Profile, doc: Document) -> Profile:
    """The base's profile plus the names the document's typed fields declare (the profile's entries win)."""
    declared = [n for n in typed_names(doc) if profile.known(n.name) is None]
    if not declared:
        return profile
    return Profile(profile.names + tuple(declared), profile.ignore_headings)
