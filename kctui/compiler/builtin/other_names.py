"""Another name of a defined term: a sentence with no subject of its own that only says what else its
section's term is called ("Also sometimes referred to as "code intelligence data."" under "### code graph
data", "Shorthand for documentation comment, sometimes called a "docstring."" under "### doc comment").

The quoted words name the term the section defines, not a term of their own: they are an alias of that
term's page, and the sentence is cited there, instead of a concept page whose one statement is its own
naming (issue 31: a stub). Where the section defines no term (a heading that is not one, "## Restarting
pods"), or the sentence sits in a list item of its own ("- Concrete syntax tree (CST): … Sometimes called a
"Lossless syntax tree"" under "### syntax tree"), nothing changes: the owner is not known.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kctui.compiler.builtin.terms import Defined
from kctui.compiler.readers import Document
from kctui.core.claims import Claim

_ADVERBS = r"(?:(?:also|sometimes|often|commonly|usually|occasionally|informally)\s+)*"
_NAMING = r"(?:called|known as|referred to as|termed|dubbed)\b"
# no subject of its own: the naming opens the sentence ("Also sometimes referred to as …"), after a
# demonstrative at most ("This action is also referred to as …"), or after a noun phrase and a comma
# ("Shorthand for documentation comment, sometimes called …")
_NO_SUBJECT = re.compile(
    rf"^(?:(?:this|it|these|they)(?:\s+[a-z]+)?\s+(?:is|are)\s+)?{_ADVERBS}{_NAMING}"
    rf"|^[^,\"“]{{3,60}},\s+{_ADVERBS}{_NAMING}", re.I)


def other_name(text: str) -> bool:
    """Does the sentence only say what else something is called, with no subject of its own?"""
    return bool(_NO_SUBJECT.match(text))


def as_aliases(doc: Document, defined: list[Defined], claims: list[Claim]) -> tuple[list[Defined], list[Claim]]:
    """The defined terms and their claims, with each term a sentence names as another name of its
    section's term (`other_name`, a "called" definition: no `rest`) made an alias of that term: the
    section's heading term for a paragraph right in the section, or a term the same paragraph defines."""
    heading_of: list[int] | None = None  # (read only where a sentence names another name: most documents have none)
    out = list(defined)
    moved: dict[tuple[str, int], str] = {}  # (term, line) -> the owner's term
    for d in defined:
        if d.unit is None or d.rest or d.origin != "definition" or not other_name(d.unit.plain):
            continue
        heading_of = _headings(doc) if heading_of is None else heading_of
        owner = _owner(doc, d, out, heading_of)
        if owner is None:
            continue
        k = next(i for i, o in enumerate(out) if o is owner)
        out[k] = replace(owner, aliases=tuple(dict.fromkeys((*owner.aliases, d.term))))
        out = [o for o in out if o is not d]
        moved[(d.term, d.evidence.start)] = owner.term
    if not moved:
        return defined, claims
    said = {(c.subject, c.evidence.start, c.evidence.end) for c in claims}
    kept: list[Claim] = []
    for c in claims:
        owner_term = moved.get((c.subject, c.evidence.start))
        if owner_term is None:
            kept.append(c)
        elif (owner_term, c.evidence.start, c.evidence.end) not in said:  # (the owner cites the lines once)
            kept.append(Claim(owner_term, "context", c.value, "", "fact", "statement", c.evidence))
    return out, kept


def _headings(doc: Document) -> list[int]:
    """For each block, the index of the last heading at or before it (-1 for none)."""
    last, out = -1, []
    for i, b in enumerate(doc.blocks):
        if b.kind == "heading":
            last = i
        out.append(last)
    return out


def _owner(doc: Document, d: Defined, defined: list[Defined], heading_of: list[int]) -> Defined | None:
    """The term the other name belongs to: one the same paragraph defines before it, else the term its
    section's heading defines (for a paragraph right under that heading's section, not a list item)."""
    u = d.unit
    assert u is not None
    same = [o for o in defined if o is not d and not o.is_name and o.unit is not None
            and o.unit.block == u.block and o.unit.index <= u.index]
    if same:
        return same[-1]
    h = heading_of[u.block] if 0 <= u.block < len(heading_of) else -1
    if h < 0 or u.kind != "paragraph":
        return None
    start = doc.blocks[h].start
    return next((o for o in defined if o is not d and not o.is_name and o.origin == "glossary"
                 and o.evidence.start == start), None)
