"""The sentences of a document's prose: each paragraph, list item and quote split into `Unit`s (as
written, plain, and bare of emphasis and code marks) with the lines each occupies, and the evidence
(`ev`) a claim cut from one cites. Every prose rule works on these units.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

from kctui.compiler.builtin import words as wd
from kctui.compiler.readers import Block, Document
from kctui.core.claims import Evidence
from kctui.core.values import strip_inline

PROSE_KINDS = ("paragraph", "item", "quote")
MAX_STATEMENT_CHARS = 300
# a pasted chat's turn head on a line of its own, its message on the lines below with no blank line between
# turns ("**Rav Sandhu** 10:02" / "morning all …" / "**Rav Sandhu** 10:03" / …): a speaker in bold, perhaps with
# a time of day or a bracketed stamp, or one to three capitalised words and such a stamp; each turn its own
# sentence, as where a blank line sets turns apart (not a line of a document's prose that runs on into it)
_STAMP_ALONE = r"(?:\[[^\]\n]*\d[^\]\n]*\]|\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?:[ \t]*[AaPp]\.?[Mm]\.?)?)"
_TURN_HEAD = (rf"(?:\*\*|__)[^*_\n]{{1,40}}(?:\*\*|__),?(?:[ \t]*{_STAMP_ALONE})?:?"
              rf"|[A-Z][\w.'’-]{{0,30}}(?:[ \t][A-Z][\w.'’-]{{0,30}}){{0,2}},?[ \t]+{_STAMP_ALONE}:?")
# a sentence ends at . ! ? before a capital; a line that opens with a `Label:` or a word and a dash
# ("ben - canning …", a roster's line) starts one of its own
_LEADING_SPACE = re.compile(r"\s*")  # (the regex's \s is str.isspace: what lstrip strips)
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z0-9`*_\[(\"])|\n(?=\**[A-Z][\w'’ /-]{0,30}\**:\**\s)"
                           r"|\n(?=\**[A-Za-z][\w'’]{1,30}\**\s+[-—–]\s)|\n(?=(?:{head})[ \t]*\n)".replace("{head}", _TURN_HEAD))
# a given name's initial in a list of people or after a label: "Present: T. Wierzbicki, A. Castellanos" (not
# a sentence's last word: "on rev B. MCUboot rejected …")
_INITIAL = re.compile(r"[(,;:]\**\s*[A-Z]\.$")
_SURNAME = re.compile(r"[A-Z][a-z'’-]+\b")


def _surname_at(text: str, pos: int) -> bool:
    """Does a capitalised word no ordinary English word stand at `pos` (an initial's surname: "Castellanos";
    not "Crate" of "crates C and D. Crate C defines …")?"""
    m = _SURNAME.match(text, pos)
    return m is not None and not wd.common_word(m.group(0))


_MS = re.compile(r"(?<![\w-])Ms\.$")  # "Ms. Castellanos" (not the end of "VMs.")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "Mr.", "Mrs.", "Dr.", "Prof.", "Capt.", "Col.", "Maj.", "Lt.", "Sgt.", "Cllr.", "St.", "No.", "Inc.", "Ltd.")
CHECKBOX = re.compile(r"^\[[ xX]\]\s+")


@dataclass(frozen=True, slots=True)
class Unit:
    """One sentence of prose: as written (inline markup kept), plain (links to their text), its lines."""

    raw: str
    plain: str
    text: str  # plain, emphasis and code marks dropped
    first: int
    last: int
    block: int  # index of its block in doc.blocks
    index: int  # its position in the block
    kind: str  # paragraph | item | quote | row (a table row: its cells joined by " | ")
    level: int = 0  # a list item's nesting (its block's level: 1 top, 2 nested in one), else 0


def ev(doc: Document, first: int, last: int) -> Evidence:
    if doc.citation_unit == "page":
        return Evidence(doc.path, first, first, doc.digest, "page")
    return Evidence(doc.path, first, last, doc.digest)


def as_written(doc: Document, u: Unit, value: str) -> bool:
    """The value stands letter for letter on the unit's lines (a sentence read without its escapes,
    "\\[2]" as "[2]", is no span of them: such a claim is not made)."""
    return value in joined(doc, u.first, u.last)


def joined(doc: Document, first: int, last: int) -> str:
    """The lines `first`..`last` (counted from 1) as one text, each stripped, joined by a space."""
    return " ".join(line.strip() for line in doc.lines[first - 1:last])


# a paragraph of short lines none of which ends a sentence or runs on into the next (a signature, an
# address, names without bullets): each line says its own thing ("Dan Okafor" / "Practice Systems Lead,
# Fernside Veterinary Group" / "07700 900 318"), no name runs on across a line's end
SHORT_LINE = 48
_RUNS_ON = re.compile(r"[,;:(&/-]$|\b(?:and|or|of|the|a|an|to|for|with|in|on|at|by|from|but)$", re.I)
_OPENS = re.compile(r"[A-Z0-9+(@*_`\[]")
_SPEAKER = re.compile(r"(?:\*\*|__)[^*_]+(?:\*\*|__)|.*\b\d{1,2}[:.]\d\d\b")  # a thread's "**Lena** 10:06" over her message


# a line that opens on a time stamp and a speaker ("[09:41] Tomasz Wren: heads up …", "14:02 - Ana: ok"): a
# pasted chat's message, each line its own whoever speaks and however long it is
_STAMPED_TURN = re.compile(r"(?:\[[^\]\n]{1,40}\]|\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?:\s*[AaPp]\.?[Mm]\.?)?)\s*(?:[-–—|]\s*)?"
                           r"[^\W\d_][\w'’.-]*(?: [^\W\d_][\w'’.-]*){0,2}:\s+\S")
# or the speaker first, perhaps in bold, then the time ("**Marta Kowalski** 09:14: INC-2291 again", "Tom 9:02 AM - ok")
_NAMED_STAMP = re.compile(r"(?:\*\*|__)?[^\W\d_][\w'’.-]*(?: [^\W\d_][\w'’.-]*){0,2}(?:\*\*|__)?\s+"
                          r"(?:\[[^\]\n]{1,40}\]|\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?:\s*[AaPp]\.?[Mm]\.?)?)\s*[:\-–—|]?\s+\S")


def line_block(block: Block) -> bool:
    """Is `block` a paragraph of two or more short lines, each its own: none longer than SHORT_LINE, none but
    the last ending on a sentence's end mark, none running on (a comma, a conjunction, an article) into a
    next line, each opening on a capital, a digit or a mark? Or of lines that each open on a time stamp and
    a speaker, or a speaker and a time stamp (a pasted chat: `_STAMPED_TURN`, `_NAMED_STAMP`)?"""
    if block.kind != "paragraph" or "\n" not in block.text:
        return False
    lines = [t.strip() for t in block.text.split("\n")]
    if len(lines) == len(block.lines) and (all(_STAMPED_TURN.match(t) for t in lines)
                                           or all(_NAMED_STAMP.match(t) for t in lines)):
        return True
    if len(lines) != len(block.lines) or any(not t or len(t) > SHORT_LINE for t in lines) or _SPEAKER.match(lines[0]):
        return False
    return not any(t.endswith((".", "!", "?")) or not _OPENS.match(nxt) or _RUNS_ON.search(t)
                   and any(c.isalpha() for c in t) for t, nxt in zip(lines, lines[1:], strict=False))


def block_lines(block: Block) -> Iterator[tuple[str, int, int]]:
    """(line, its number, its number) of a `line_block`'s lines that hold a letter or a digit."""
    for t, line in zip(block.text.split("\n"), block.lines, strict=False):
        if any(c.isalnum() for c in t):
            yield t.strip(), line, line


def sentences(block: Block) -> Iterator[tuple[str, int, int]]:
    """(sentence, first line, last line) of a prose block, in order (a `line_block` line by line)."""
    if line_block(block):
        yield from block_lines(block)
        return
    texts = block.text.split("\n")
    starts: list[int] = []
    pos = 0
    for t in texts:
        starts.append(pos)
        pos += len(t) + 1
    flat = "\n".join(texts)

    def line_at(offset: int) -> int:
        idx = max(bisect_right(starts, offset) - 1, 0)
        return block.lines[idx] if idx < len(block.lines) else block.end

    begin = 0
    for m in _SENTENCE_END.finditer(flat):
        head = flat[begin : m.start()].rstrip()
        if head.endswith(_ABBREVIATIONS) or _MS.search(head) or (_INITIAL.search(head) and _surname_at(flat, m.end())):
            continue
        if head.strip():
            yield head.strip(), line_at(_LEADING_SPACE.match(flat, begin).end()), line_at(m.start() - 1)
        begin = m.end()
    tail = flat[begin:].strip()
    if tail:
        yield tail, line_at(_LEADING_SPACE.match(flat, begin).end()), line_at(len(flat) - 1)


def units(doc: Document) -> list[Unit]:
    out: list[Unit] = []
    for position, block in enumerate(doc.blocks):
        if block.kind not in PROSE_KINDS or not block.text.strip():
            continue
        for index, (sentence, first, last) in enumerate(sentences(block)):
            plain = strip_inline(sentence) if ("](" in sentence or "][" in sentence or "<http" in sentence
                                               or "<mailto" in sentence) else " ".join(sentence.split())
            if index == 0 and block.kind == "item":
                plain = CHECKBOX.sub("", plain)
            out.append(Unit(sentence, plain, bare(plain), first, last, position, index, block.kind,
                            block.level if block.kind == "item" else 0))
    return out


def row_units(doc: Document) -> list[Unit]:
    """Every table row below its header as a unit of its own (kind "row"): its cells, markup removed,
    joined by " | ", so the named things a row states facts about are found as in a sentence."""
    out: list[Unit] = []
    for position, block in enumerate(doc.blocks):
        if block.kind != "table":
            continue
        for index, (line, cells) in enumerate(block.rows[1:], 1):
            plain = " | ".join(c for c in (strip_inline(c).strip() for c in cells) if c)
            if plain and len(plain) <= 2 * MAX_STATEMENT_CHARS:
                raw = " | ".join(c.strip() for c in cells if c.strip())
                out.append(Unit(raw, plain, bare(plain), line, line, position, index, "row"))
    return out


def bare(text: str) -> str:
    """Plain text without emphasis and code marks."""
    if "`" in text:
        text = text.replace("`", "")
    if "**" in text or "__" in text:
        text = text.replace("**", "").replace("__", "")
    if "*" in text or "_" in text:
        text = _EMPHASIS.sub("", text)
    return text if "  " not in text and "\n" not in text else " ".join(text.split())


# an emphasis mark: a "*" or "_" opening (no word before it, text after) or closing one (text before, no
# word after); each way opens with its mark and looks behind it after (no word or star before a star), so
# the engine skips to the next "*" or "_" at once instead of trying four lookbehinds at every position
_EMPHASIS = re.compile(r"\*(?:(?<![\w*]\*)(?=\S)|(?<=\S\*)(?![\w*]))|_(?:(?<!\w_)(?=\S)|(?<=\S_)(?!\w))")


def split_plain(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(" ".join(text.split())) if s.strip()]


def line_of(block: Block, fragment: str) -> int:
    """The last line of `block` needed to contain `fragment` (a prefix of the block's text)."""
    needed = len(" ".join(fragment.split()))
    seen = 0
    for i, text in enumerate(block.text.split("\n")):
        seen += len(strip_inline(text)) + 1
        if seen >= needed:
            return block.lines[i] if i < len(block.lines) else block.end
    return block.end
