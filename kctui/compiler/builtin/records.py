"""Records: a document whose title opens with an identifier — letters, a hyphen and a number ("ADR-007:",
"INC-2041 —", "RFC-12.") — is a record of that name (a decision record, an incident, a request). The
record is a named thing of its own: the fields of its header (`Status: …`, `Date: …`, a header table)
and the sentences of the block right under its title ("_20 Feb 2026 · Accepted · supersedes ADR-009_")
are claims on its page, so its status, date, owner and the record it supersedes (or is superseded by,
a name on that line, which gets the line too) are cited where the record is.

By the title's form only: no word of any corpus is listed here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin.sentences import Unit, ev
from kctui.compiler.extraction import Entity
from kctui.compiler.readers import Document
from kctui.core.claims import Claim

# an identifier opening the title, then a separator: "ADR-007: …", "ADR-0019 — …", "INC-12. …"; or, in
# capitals with a number of three digits or more (a record's zero-padded number), a space and a capital:
# "ADR-011 Remote access via …" (not "COVID-19 Guidance")
_RECORD_ID = re.compile(r"^(?P<id>[A-Z][A-Za-z]{1,11}-\d{1,6})(?=\s*(?:[:.—–|-]\s|$))|^(?P<bare>[A-Z]{2,12}-\d{3,6})(?=\s+[A-Z(])")
HEADER_ORIGINS = ("kv", "table")
HEADER_LINES = 8  # how far under the title a record's header may reach  # the claims of a header's `key: value` lines and key/value table


def record_name(doc: Document) -> str:
    """The identifier the document's title opens with, or ""."""
    m = _RECORD_ID.match(doc.title.strip().lstrip("#").strip())
    return (m.group("id") or m.group("bare")) if m else ""


_TITLE_PARTS = re.compile(r"\s+[—–-]\s+|:\s+")
_CLAUSE_AFTER = re.compile(r",\s[^()]*$")  # a clause after a comma, outside brackets, ends the part
_ROLE = re.compile(r"^(?P<name>[^()]+?)\s*\((?P<role>[^()]{3,60})\)$")


def person_subject(doc: Document) -> tuple[str, str] | None:
    """(name, role) when the title names a person as a part after its first ("Onboarding — Sam Quist
    (data engineer)"): a person's name, with the role in parentheses after it ("" without one). The
    note is about them: its header is theirs."""
    if _title_block(doc) < 0 or record_name(doc):
        return None
    # (a later part, after the kind of note the first part says: a whole title in title case, "Cloud
    # Postgres", names a topic, not someone)
    for part in _TITLE_PARTS.split(doc.title.strip().lstrip("#").strip())[1:]:
        part = _CLAUSE_AFTER.sub("", part)  # ("Joel Achterberg (junior sysadmin), starts Mon 2 Nov")
        m = _ROLE.match(part.strip())
        name, role = (m.group("name").strip(), m.group("role").strip()) if m else (part.strip(), "")
        if nt.person_like(name):
            return name, "" if any(ch.isdigit() for ch in role) else role
    return None


def _title_block(doc: Document) -> int:
    """The index of the title's heading block, or -1."""
    for k, block in enumerate(doc.blocks[:2]):
        if block.kind == "heading" and block.level == 1:
            return k
    return -1


def person_claims(doc: Document, name: str, role: str, claims: list[Claim], us: list[Unit]) -> tuple[Entity, list[Claim]]:
    """The person a note's title names, and its claims: the role the title gives them, the header
    fields the note states of itself and the sentences right under the title (as a record's)."""
    title = _title_block(doc)
    line = doc.blocks[title].start
    out = [Claim(name, "role", role, "", "fact", "statement", ev(doc, line, line))] if role else []
    out += [Claim(name, c.attribute, c.value, c.scope, c.form, c.origin, c.evidence)
            for c in claims if c.subject == doc.title and c.origin in HEADER_ORIGINS]
    out += _header_claims(doc, name, title, line, us)
    return Entity(name, "person", name, (), ev(doc, line, line)), out


def _header_claims(doc: Document, name: str, title: int, line: int, us: list[Unit]) -> list[Claim]:
    """Each sentence of the prose blocks between the title and the next heading, near the title."""
    header: list[tuple[int, int]] = []
    for block in doc.blocks[title + 1:] if title >= 0 else ():
        if block.kind not in ("paragraph", "item", "quote") or block.start > line + HEADER_LINES:
            break
        header.append((block.start, block.end))
    return [Claim(name, "note", u.plain, "", "fact", "statement", ev(doc, u.first, u.last))
            for u in us if u.kind != "row" and len(u.plain) >= 8 and any(a <= u.first <= b for a, b in header)]


def record_claims(doc: Document, name: str, claims: list[Claim], us: list[Unit],
                  chosen: Callable[[str], str | None] | None = None) -> tuple[Entity, list[Claim]]:
    """The record as an entity and its claims: the decision its title states (also on the page of the
    first named thing of it, `chosen`), the header fields the document states of itself (its `key:
    value` lines and key/value table rows, moved to the record), and each sentence of the first block
    under the title."""
    title = _title_block(doc)
    line = doc.blocks[title].start if title >= 0 else 1
    entity = Entity(name, "record", name, (), ev(doc, line, line))
    out: list[Claim] = []
    decision = doc.title.strip().lstrip("#").strip()[len(name):].lstrip(" :.—–|-").strip()
    if title >= 0 and len(decision.split()) >= 2:  # the title states the decision: "ADR-7: Kafka for events"
        out.append(Claim(name, "decision", decision, "", "fact", "statement", ev(doc, line, line)))
        if chosen is not None and (what := chosen(decision)) and what != name:
            out.append(Claim(what, "decision", decision, "", "fact", "statement", ev(doc, line, line)))
    end = header_end(doc)
    for c in claims:
        if c.subject == doc.title and c.origin in HEADER_ORIGINS and c.evidence.start < end:
            out.append(Claim(name, c.attribute, c.value, c.scope, c.form, c.origin, c.evidence))
    out += _header_claims(doc, name, title, line, us)
    return entity, out


def header_end(doc: Document) -> int:
    """The first line of the first heading under the title (a record's header ends there: "## Context"),
    or past the last line. (A `key: value` line of a section, "cutover window: Sat 5 Dec", says something
    of what it names, not of the record: it stays the note's.)"""
    title = _title_block(doc)
    return next((b.start for b in doc.blocks[title + 1:] if b.kind == "heading"), len(doc.lines) + 1)


def moved(doc: Document, claims: list[Claim]) -> list[Claim]:
    """The claims without the header fields a record takes (see record_claims)."""
    end = header_end(doc)
    return [c for c in claims if not (c.subject == doc.title and c.origin in HEADER_ORIGINS and c.evidence.start < end)]


# the status words of a decision record's format (Nygard's ADRs): "Superseded by ADR-016", "Supersedes 0009"
# (or pointing to the newer record: "superseded, see ADR-011", "superseded in favour of ADR-011")
_SUPERSEDED_BY = re.compile(r"\bsuperseded\b\W*(?:on\s[^.;]{1,30}?\s)?(?:by|see|in\s+favou?r\s+of)\W*"
                            r"(?P<id>[A-Z][A-Za-z]{1,11}-\d{1,6}|\d{2,6})(?!\d)", re.I)
_SUPERSEDES = re.compile(r"\bsupersedes\b\W*(?P<id>[A-Z][A-Za-z]{1,11}-\d{1,6}|\d{2,6})(?!\d)", re.I)


def supersession(doc: Document, name: str, us: list[Unit]) -> tuple[list[Entity], list[Claim]]:
    """The records this one supersedes or is superseded by, each a named thing, and the links both ways:
    "superseded by" on the older record, "supersedes" on the newer, each citing the line that says so
    (from the title, which names this record, when the claim's value is this record's name)."""
    title = _title_block(doc)
    top = doc.blocks[title].start if title >= 0 else 1
    entities: list[Entity] = []
    claims: list[Claim] = []
    # (the title too: "# ADR-011 Remote access via jump-ot-01 (supersedes ADR-007)")
    said = [(doc.blocks[title].text, top, top)] if title >= 0 else []
    for text, first, last in said + [(u.plain, u.first, u.last) for u in us]:
        for pattern, mine, theirs in ((_SUPERSEDED_BY, "superseded by", "supersedes"),
                                      (_SUPERSEDES, "supersedes", "superseded by")):
            m = pattern.search(text)
            if not m or m.group("id") == name:
                continue
            other = m.group("id")
            here = ev(doc, first, last)
            claims.append(Claim(name, mine, other, "", "fact", "statement", here))
            # (its name from the line itself, else from the title across the header only: a line far below
            # it, "*Update: superseded, see ADR-011*", would cite the whole record for one name)
            named = re.search(rf"(?<![\w-]){re.escape(name)}(?!\d)", text) is not None
            if named or first - top <= HEADER_LINES:
                start = first if named else min(top, first)
                claims.append(Claim(other, theirs, name, "", "fact", "statement", ev(doc, start, last)))
            entities.append(Entity(other, "record", other, (), here))
    return entities, claims
