"""Prose: the terms a document's sentences define, and what else its sentences say of them.

Every claim is extractive: its value is a span of the sentence it came from, and its evidence is the
line range that sentence occupies. A sentence defines by its layout (a glossary's `**Term**: …` item,
kctui.compiler.builtin.glossary, asked first) or by its grammar ("X is a …", "X refers to …", "… called
*X*": kctui.compiler.builtin.definitions); the defined thing is an entity when the text marks it as a
name, else a concept (kctui.compiler.builtin.terms). Then the sentence right after a definition that
goes on about the same thing, and the sentences that use a concept, are claims of the term too. A
heading never makes a concept by itself. The summary and the questions: kctui.compiler.builtin.summary.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin.definitions import sentence_definition
from kctui.compiler.builtin.glossary import glossary_lead
from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, ev
from kctui.compiler.builtin.terms import Defined
from kctui.compiler.extraction import Concept
from kctui.compiler.readers import Document
from kctui.core.claims import Claim

_PRONOUN_LEAD = re.compile(r"^(?:It|They|This|These|Its|Their|Each)\b")


def definitions(doc: Document, us: list[Unit]) -> tuple[list[Defined], list[Claim]]:
    """Defined terms and their definitional claims. Values are spans of the sentence as written (code
    and emphasis marks kept), so that they are found in the cited lines."""
    found: list[Defined] = []
    claims: list[Claim] = []
    for u in us:
        got = _definition(doc, u)
        if got is not None:
            found.append(got[0])
            claims.append(got[1])
    return found, claims


def _definition(doc: Document, u: Unit) -> tuple[Defined, Claim] | None:
    """The term one sentence defines and its claim: a glossary item's lead, else the sentence's grammar."""
    if u.index == 0 and u.plain[:1] in "*_`":
        got = glossary_lead(doc, u)
        if got is not None:
            return got
    return sentence_definition(doc, u)


def follow_ups(doc: Document, us: list[Unit], defined: list[Defined]) -> list[Claim]:
    """The sentence right after a definition, when it goes on about the same thing ("It …", "They …")."""
    out: list[Claim] = []
    by_pos = {(u.block, u.index): u for u in us}
    for d in defined:
        if d.unit is None:
            continue
        nxt = by_pos.get((d.unit.block, d.unit.index + 1))
        # the next sentence goes on about it when it says "it"/"they", or when the definition opens its
        # paragraph or list item (whose topic the defined term then is)
        if nxt and (_PRONOUN_LEAD.match(nxt.plain) or d.unit.index == 0) and 20 <= len(nxt.plain) <= MAX_STATEMENT_CHARS \
                and not nxt.plain.endswith(":"):
            out.append(Claim(d.term, "context", nxt.plain, "", "fact", "statement", ev(doc, nxt.first, nxt.last)))
    return out


def concepts_of(defined: list[Defined]) -> list[Concept]:
    return [Concept(d.term, d.aliases, d.evidence, d.origin) for d in defined if not d.is_name]


def concept_notes(doc: Document, us: list[Unit], concepts: list[Concept], claims: list[Claim]) -> list[Claim]:
    """The sentences that use a defined term, each cited (up to three per term per document)."""
    out: list[Claim] = []
    used = {(c.subject.casefold(), c.evidence.start) for c in claims}
    for concept in concepts:
        spellings = [concept.name, *concept.aliases]
        pattern = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(s) for s in spellings) + r")(?:s|es)?(?![\w-])", re.I)
        n = 0
        for u in us:
            if n >= 3:
                break
            if (concept.name.casefold(), u.first) in used or not 20 <= len(u.plain) <= MAX_STATEMENT_CHARS or "\\" in u.plain:
                continue
            if u.plain.endswith(":") or not pattern.search(u.plain):
                continue
            out.append(Claim(concept.name, "note", u.plain, "", "fact", "statement", ev(doc, u.first, u.last)))
            used.add((concept.name.casefold(), u.first))
            n += 1
    return out
