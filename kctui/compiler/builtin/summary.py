"""A document at a glance: its summary and the questions it asks.

The summary is extractive, like every claim: the first paragraph under a Summary-like heading, else the
document's first paragraph that says something (a header of `Label: value` fields gives way to the prose
after it; a greeting or a bold lead line over someone's items is no summary), its sentences up to 400
characters (one longer sentence cut at a word), cited to the lines they came from. The questions are
the sentences that end in a question mark, in order, at most `MAX_QUESTIONS`.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, ev, line_of, split_plain, units
from kctui.compiler.readers import Block, Document
from kctui.core.claims import Evidence, Question
from kctui.core.values import strip_inline

MAX_QUESTIONS = 8
_SUMMARY_HEADINGS = frozenset({"summary", "abstract", "overview", "introduction", "tl;dr"})
_AUTOLINK = re.compile(r"(<(?:https?|mailto):[^>\s]+>)")  # kept as written in a summary


def summary(doc: Document) -> tuple[str, Evidence] | None:
    """The first paragraph under a Summary-like heading, else the document's first prose paragraph."""
    chosen = _summary_block(doc)
    if chosen is None:
        return None
    protected = _AUTOLINK.sub(_protect_autolink, chosen.text)
    parts = split_plain(strip_inline(protected).replace("\x00", "<").replace("\x01", ">"))
    text = ""
    for part in parts:
        if len(text) + len(part) + 1 > 400 and text:
            break
        text = f"{text} {part}".strip()
    if len(text) > 400:
        text = text[:400].rsplit(" ", 1)[0]
    if not text:
        return None
    return text, ev(doc, chosen.start, line_of(chosen, text))


def _protect_autolink(m: re.Match) -> str:
    return "\x00" + m.group(1)[1:-1] + "\x01"


def _summary_block(doc: Document) -> Block | None:
    """The first paragraph under a Summary-like heading, else the first prose paragraph, else (a list of
    links and nothing else) the first list item. A first paragraph of `Label: value` fields (a decision
    record's "Status: accepted", an email's header) gives way to the prose paragraph after it, unless a
    list or a table comes first (a handover's "From: Tom -> To: Priya" says more than its sign-off). A
    paragraph that is only a bold lead line ("**Priya**" over her standup items) or a label ("Decisions",
    "parking lot:", `_label_only`) is no summary."""
    chosen: Block | None = None
    fields: Block | None = None
    lead: Block | None = None
    under_summary = False
    for block in doc.blocks:
        if block.kind == "heading":
            under_summary = strip_inline(block.text).casefold() in _SUMMARY_HEADINGS
            continue
        if block.kind in ("paragraph", "quote") and block.text.strip() and not block.text.lstrip().startswith("*["):
            if under_summary:
                return block
            if chosen is not None:
                continue
            if _LEAD_ONLY.fullmatch(block.text.strip()) or _label_only(block.text):
                lead = lead or block  # a standup's "**Priya**" heads her items: it says nothing of the note
            elif fields is None and _field_lines(block.text):
                fields = block
            elif fields is None or _prose(block.text):
                chosen = block
        elif fields is not None and chosen is None and block.kind in ("item", "table", "code"):
            chosen = fields
    chosen = chosen or fields
    if chosen is None:  # a list of links and nothing else: its first item says what the document holds
        chosen = next((b for b in doc.blocks if b.kind == "item" and b.text.strip() and "\\" not in b.text), None)
    return chosen or lead


_LEAD_ONLY = re.compile(r"\*\*[^*\n]{1,60}\*\*(?:\s*\([^()\n]{0,60}\))?:?")  # "**Priya**", "**Priya** (back)"


def _label_only(text: str) -> bool:
    """A paragraph that only labels what follows: one or two words ("Decisions", "Follow-ups"), or up to
    three ending on a colon or a comma ("parking lot:", "Dear Helen,")."""
    words = text.split()
    return len(words) <= 2 and not text.rstrip().endswith((".", "!", "?")) or (
        len(words) <= 3 and text.rstrip(" *_").endswith((":", ",")))


def _prose(text: str) -> bool:
    """A paragraph that says something: four words or more, not a greeting ending on a comma ("Hi Rosa,")."""
    return len(text.split()) >= 4 and not text.rstrip().endswith(",")


# a line that is a field: a short label, a colon and its value ("Status: Accepted", "**Deciders:** …",
# "From: Tom -> To: Priya", "present: Aoife, Tom")
_FIELD_LINE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?[\w][\w /&'’.-]{0,30}?(?:\*\*|__)?\s*:(?:\*\*|__)?(?:\s|$)")


def _field_lines(text: str) -> bool:
    """Is every line of a paragraph a `Label: value` field (a note's header: status, deciders, an email's
    From/To/Date, a standup's attendees)? One line ending as a sentence ends ("Note: we moved it.") is prose."""
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) == 1 and lines[0].rstrip(" *_").endswith((".", "!", "?")):
        return False
    return bool(lines) and all(_FIELD_LINE.match(line) for line in lines)


def questions(doc: Document, us: list[Unit] | None = None) -> list[Question]:
    """The sentences that ask: ending in "?", 10 characters or more, in order, at most MAX_QUESTIONS."""
    out: list[Question] = []
    for u in us if us is not None else units(doc):
        text = u.plain if u.index or u.kind != "item" else strip_inline(u.raw)
        if text.endswith("?") and 10 <= len(text) <= MAX_STATEMENT_CHARS:
            out.append(Question(text, ev(doc, u.first, u.last)))
            if len(out) >= MAX_QUESTIONS:
                return out
    return out
