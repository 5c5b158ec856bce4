"""Glossaries: terms a document defines by its layout rather than by a sentence's grammar.

Two layouts define: an item or paragraph that opens with a term in bold or in a code span and a colon
("**Term**: what it is", "- `matcher`: the left-hand side of a rule"), and a heading naming a term over
a section that opens by defining it ("## Auto-inference" over "An optional step that …"). The same
layouts also hold what is no term — a record's fields ("**Status:** Accepted", "**Reviewers:** Ana
Ruiz"), a lone option label, a section every document has ("## Alternatives") — so each rule asks what
the text around the term does, never which words the term is.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import people_signals
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.definitions import BOLD_LEAD, defines_itself
from kctui.compiler.builtin.sentences import CHECKBOX, MAX_STATEMENT_CHARS, Unit, bare, ev
from kctui.compiler.builtin.terms import Defined, defined, good_term, marked_as_name, one_common_word
from kctui.compiler.readers import Block, Document
from kctui.core.claims import Claim
from kctui.core.values import strip_inline

# a list item that opens with a term in a code span and a colon: "- `matcher`: the left-hand side of …"
_CODE_LEAD = re.compile(r"^`(?P<term>[^`\n]{1,60})`\s*:\s+(?P<rest>\S.*)$", re.S)
_INDEFINITE = re.compile(r"^(?:A|An)\s+[a-z]")
# a glossary entry may open with a bare noun phrase instead: "The process of …", "Shorthand for …",
# "Recursive acronym for …", "Data that describes …" (a noun, then a preposition or relative word)
# a time said from the day the note is written (closed class): what holds today, not what a term means
_NOW = re.compile(r"\b(?:today|tonight|yesterday|tomorrow|tmrw|(?:this|last|next)\s+(?:morning|afternoon|evening|"
                  r"night|week|sprint)|so\s+far|right\s+now)\b", re.I)
# a status said of the term, not what it is: the rest opens on a participle or a word of state (closed class)
# ("**Rui**: still on the Keycloak migration", "**CKF**: nothing live yet", "**PRTG**: added sensors …")
_STATUS = re.compile(r"^(?:[a-z]+(?:ed|ing)|still|now|back|out|off|away|done|wip|blocked|ooo|pto|sick|nothing)\b")
_GLOSS_OPEN = re.compile(r"^(?:The\s+[a-z]+\s+(?:of|for)\s|[A-Z][a-z]+(?:\s+[a-z]+)?\s+(?:for|of|that|which|used\s+to)\s)")


def glossary_lead(doc: Document, u: Unit) -> tuple[Defined, Claim] | None:
    """A list item or paragraph that opens with a term in bold or in a code span and a colon:
    "**Term**: what it is", "- `matcher`: the left-hand side of a rule". A code span marks the term
    itself, so a common word in one is a term too."""
    code = u.plain[:1] == "`"
    m = (_CODE_LEAD if code else BOLD_LEAD).match(u.plain)
    if not m or "\\" in u.plain or people_signals.chat_quote(doc.blocks[u.block]):
        return None  # ("> **tomek:** 70 on mobile?": a quoted chat's speaker, no term)
    if code and not _code_run(doc, u.block):
        return None  # one `x`: … line is a label or an option; a glossary lists its terms in a row
    term = good_term(f"`{m.group('term')}`" if code else m.group("term"))
    if not term or one_common_word(term):
        return None  # "`read`: allowed to read …", "**Documentation**: confirm …": a value or a label
    rest = m.group("rest").strip().rstrip(".")
    if not code and defines_itself(rest):
        return None  # "**Unsafe traits:** An *unsafe trait* is …": the sentence defines its own term
    if not _gloss_rest(rest) or any(ch.isdigit() for ch in term) or _field_value(rest):
        return None  # "Day 5: Monthly release", "**Reviewers:** Ana Ruiz, Bo Li": a label and its value
    if _NOW.search(rest):
        return None  # "**Priya**: purge notice went out this morning": the day's news of the term, no definition
    if not code and _among_fields(doc, u.block):
        return None  # "**Supersedes:** ADR-003 (…)" under "**Status:** Accepted", "**Date:** 2 Nov": a record's field
    e = ev(doc, u.first, u.last)
    d = defined(term, (), e, u, bare(rest), "glossary")
    if _STATUS.match(rest):  # "**PRTG**: added sensors …", "**Rui**: still on …": the term's news, not what it is
        return d, Claim(d.term, "note", u.plain, "", "fact", "statement", e)
    return d, Claim(d.term, "definition", rest, "", "fact", "definition", e)


def _among_fields(doc: Document, position: int) -> bool:
    """Is the item at `position` one of a run of `**Label:** value` items of which two others or more
    hold a field's value (names, a status, a date: `_field_value`, or a number first)? A record's header
    of fields ("Status", "Date", "Deciders", "Supersedes", "Severity"), not a glossary: its labels are
    no terms, whatever their values say."""
    fields = 0
    for step in (-1, 1):
        k = position + step
        while 0 <= k < len(doc.blocks) and doc.blocks[k].kind == "item" and \
                (m := BOLD_LEAD.match(" ".join(doc.blocks[k].text.split()))):
            rest = bare(m.group("rest"))
            fields += _field_value(rest) or rest[:1].isdigit()
            k += step
    return fields >= 2


def _field_value(rest: str) -> bool:
    """A field's value, not a definition: names or values, most of its words capitalised or with a digit."""
    words = wd.WORD.findall(bare(rest))
    marked = sum(1 for w in words if w[:1].isupper() or any(ch.isdigit() for ch in w))
    return bool(words) and words[0][:1].isupper() and words[0] not in ("A", "An", "The") and marked * 2 > len(words)


def _gloss_rest(rest: str) -> bool:
    """What a glossary item says of its term: a sentence of three words or more, not a lead-in ("…:")."""
    return bool(rest) and len(rest) <= MAX_STATEMENT_CHARS and not rest.endswith(":") and len(bare(rest).split()) >= 3


def _code_run(doc: Document, position: int) -> bool:
    """Is the block at `position` a list item in a run of at least two consecutive items that each open
    with a code span and a colon?"""
    def code_item(k: int) -> bool:
        if not 0 <= k < len(doc.blocks):
            return False
        b = doc.blocks[k]
        return b.kind == "item" and bool(_CODE_LEAD.match(CHECKBOX.sub("", " ".join(b.text.split()))))

    return code_item(position) and (code_item(position - 1) or code_item(position + 1))


def heading_definitions(doc: Document, us: list[Unit], defined_before: list[Defined]) -> tuple[list[Defined], list[Claim]]:
    """A glossary entry: a heading naming a term, and a section that opens by defining it — with the
    term ("Auto-inference is an optional step …") or with an indefinite noun phrase ("A tool that is used
    to transform code …"). A heading alone, or over any other opening, makes nothing."""
    found: list[Defined] = []
    claims: list[Claim] = []
    opening: dict[int, Unit] = {}
    for u in us:
        if u.index == 0 and u.kind == "paragraph":
            opening.setdefault(u.block, u)
    taken = {(d.evidence.start, d.term.casefold()) for d in defined_before}
    for position, block in enumerate(doc.blocks[:-1]):
        if block.kind != "heading" or block.level < 2:
            continue
        u = opening.get(position + 1)
        term = _heading_term(block, u, taken)
        if term is None or not _opens_definition(u.text, term):  # (u is set where term is)
            continue
        text = u.text
        e = ev(doc, u.first, u.last)
        d = defined(term, (), e, u, text)
        d = Defined(d.term, d.aliases, marked_as_name(d.term, True), d.entity_type, d.evidence, u, d.rest)
        found.append(Defined(d.term, d.aliases, d.is_name, d.entity_type, ev(doc, block.start, block.start), u,
                             d.rest, "glossary"))
        claims.append(Claim(d.term, "definition", text.rstrip("."), "", "fact", "definition", e))
    return found, claims


def _heading_term(block: Block, u: Unit | None, taken: set[tuple[int, str]]) -> str | None:
    """The term a heading names, when a paragraph follows it and no definition there has it already: a
    term a glossary writes ("build system"), not a section every document has ("Alternatives")."""
    term = good_term(strip_inline(block.text).strip("`"))
    if u is None or term is None or len(term.split()) > 4 or (u.first, term.casefold()) in taken:
        return None
    if not term[:1].islower() and not marked_as_name(term, True):
        return None  # "Alternatives", "Drawbacks": a section every document has; a glossary writes "build system"
    return term


def _opens_definition(text: str, term: str) -> bool:
    """Does a section's first sentence define the heading's term: an indefinite noun phrase, a bare
    glossary opening, or "…, the X is …" (not "X is …", whose own definition already holds)?"""
    if text.casefold().startswith(term.casefold() + " "):
        return False  # "X is …" under "## X": the sentence's own definition already holds
    if text.endswith(":") or not 20 <= len(text) <= MAX_STATEMENT_CHARS or _GLOSS_OPEN.match(term + " "):
        return False
    if _INDEFINITE.match(text) or _GLOSS_OPEN.match(text):
        return True
    # "…, the X is …" (a pattern made for the term: only where a comma comes early enough for it)
    return 0 < text.find(",") <= 30 and bool(
        re.match(rf"^[^,]{{1,30}},\s+(?:the\s+)?{re.escape(term)}\s+(?:is|are|means)\s", text, re.I))
