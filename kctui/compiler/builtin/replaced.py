"""Decisions that replace earlier ones (issue 31, point 3; session 32), in any note, by the structure of
the sentence that says so:

- a *record said to be superseded*: a record's identifier ("ADR-003", "RFC-0012"), then, at most a verb's
  worth of words later ("is", "was", "has been", "now", "marked", "marked as"), "superseded" with no
  newer record after it ("Google: ADR-003 is superseded.", "ADR-004 marked superseded on SharePoint"):
  the record, a named thing, gets the status "superseded" cited at that line (the newer record, where the
  line names one, is linked by kctui.compiler.builtin.records.supersession);
- a *decision replacing an earlier one named by its date*: a verb of replacing ("replaces", "reverses",
  "overrides", "supersedes", "changed from", "instead of" …), then within a few words a date (a number or
  a day's or month's name) and what was decided then, as a noun ("the 12 Feb decision", "the call on
  Tuesday", "the plan from 3 March") or as what was said ("what we agreed on 9/3"): the note's claim
  "supersedes" with that span, and the sentence a decision of the note where no rule typed it yet.

The words are English's (verbs of replacing, nouns and verbs of deciding, closed classes); no word of
any corpus. Each claim's value is a span of its cited line.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, as_written, ev
from kctui.compiler.extraction import Entity
from kctui.compiler.readers import Document
from kctui.core.claims import Claim

_ID = r"[A-Z][A-Za-z]{1,11}-\d{1,6}(?!\d)"
# the identifier, a verb's worth of words, "superseded", and no newer record after it (that is a link)
_SUPERSEDED = re.compile(rf"(?P<id>{_ID})\W{{0,3}}(?:(?:is|was|has\s+been|have\s+been|now|marked|marked\s+as|now\s+marked(?:\s+as)?)\s+)?"
                         r"(?:\*\*|__)?(?P<word>superseded)\b(?!\W*(?:on\s[^.;]{1,30}?\s)?(?:by|see|in\s+favou?r\s+of)\b)", re.I)
_REPLACING = r"replaces|replaced|supersedes|reverses|reversed|overrides|overrode|overturns|overturned|undoes|changed\s+from|instead\s+of|in\s+place\s+of"
_DECIDING_NOUN = r"decisions?|calls?|plans?|agreements?|choices?|ruling"
_SAID = r"what\s+(?:we|they|you|I|he|she)\s+(?:said|agreed|decided|planned|chose|settled)"
# the verb, then the earlier decision: "the 12 Feb decision", "the decision of 3 March", "what we said on 9/3"
_REPLACES = re.compile(rf"\b(?:{_REPLACING})\s+(?P<what>(?:(?:the|our|their|that|this|last)\s+[^.;:()!?]{{0,30}}?\b(?:{_DECIDING_NOUN})\b"
                       rf"(?:\s+(?:of|from|on|at|in)\s+[^.;:()!?,—–]{{1,25}})?|{_SAID}(?:\s+(?:on|at|in|last)\s+[^.;:()!?,—–]{{1,25}})?))", re.I)
_TOKEN = re.compile(r"[A-Za-z]+|\d")


def superseded_records(doc: Document, us: list[Unit]) -> tuple[list[Entity], list[Claim]]:
    """The records a line says are superseded, each a named thing with the status "superseded" cited there."""
    entities: list[Entity] = []
    claims: list[Claim] = []
    for u in us:
        for m in _SUPERSEDED.finditer(u.plain):
            here = ev(doc, u.first, u.last)
            claims.append(Claim(m.group("id"), "status", m.group("word"), "", "fact", "statement", here))
            entities.append(Entity(m.group("id"), "record", m.group("id"), (), here))
    return entities, claims


def _dated(span: str) -> bool:
    """A span that names a time: a digit, or a day's or month's name."""
    return any(t.isdigit() or t.casefold() in wd.CALENDAR or t.casefold() in wd.CALENDAR_SHORT for t in _TOKEN.findall(span))


def replaced_decisions(doc: Document, us: list[Unit], have: set[int]) -> list[Claim]:
    """For each sentence that replaces an earlier decision named by its date: the note's "supersedes"
    claim (the earlier decision as the sentence names it) and, unless a rule typed its line as a decision
    already (`have`, its first lines), the sentence as a decision of the note."""
    out: list[Claim] = []
    for u in us:
        if u.kind == "row" or len(u.plain) > MAX_STATEMENT_CHARS or u.plain.rstrip().endswith("?"):
            continue
        m = _REPLACES.search(u.plain)
        if not m or not _dated(m.group("what")):
            continue
        what = m.group("what").strip()
        if not as_written(doc, u, what):
            continue
        e = ev(doc, u.first, u.last)
        out.append(Claim(doc.title, "supersedes", what, "", "fact", "statement", e))
        if u.first not in have:
            out.append(Claim(doc.title, "decision", u.plain, "", "fact", "statement", e))
    return out
