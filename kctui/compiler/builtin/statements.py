"""A source's statements: every sentence, list item, table row, and title or heading that holds a value,
as the source page's own cited statements (`line_statements`) and as what the mention step
(kctui.compiler.steps.mentions) attaches to the pages each is about (`all_statements`), with the
section each stands in (`section_leads`) and whether it continues the sentence before it."""

from __future__ import annotations

import re

from kctui.compiler.builtin.recall import ASIDE
from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, block_lines, ev, line_block
from kctui.compiler.builtin.stated_values import value_spans
from kctui.compiler.extraction import Statement
from kctui.compiler.readers import Document
from kctui.compiler.readers.base import Block
from kctui.core.claims import Claim
from kctui.core.values import cited_lines_contain

LINE_ORIGIN = "line"  # a source's own statement: cited on its source page, routed to no other page


def line_statements(doc: Document, us: list[Unit], claims: list[Claim]) -> list[Claim]:
    """Every sentence, list item, table row, and title or heading that holds a value ("# IT steering —
    wed 14/10/26") no claim cites yet, as a statement of the source page (attribute "note" of the
    document, origin LINE_ORIGIN): nothing the source says is dropped."""
    covered: set[int] = set()
    for c in claims:
        covered.update(range(c.evidence.start, c.evidence.end + 1))
    return _sentence_statements(doc, us, covered) + _row_statements(doc, covered) + [
        Claim(doc.title, "note", s.value, "", "fact", LINE_ORIGIN, ev(doc, s.start, s.end))
        for s in _heading_statements(doc, "line") if s.start not in covered]


def all_statements(doc: Document, us: list[Unit]) -> list[Statement]:
    """Every sentence, list item and table row as a statement of the source, whether or not a claim
    cites it, its scope the section it stands in (`section_leads`): what the mention step attaches to the
    pages of the names each contains. (Its lines are not yet checked to contain it.)"""
    leads = section_leads(doc)
    unit = "page" if doc.citation_unit == "page" else "line"
    kept = [u for u in _whole_items(us) if _stated(u, set())]
    out = [Statement(u.plain, leads.get(u.first, ""), u.first, u.first if unit == "page" else u.last, unit,
                     k > 0 and _continues(kept[k - 1], u)) for k, u in enumerate(kept)]
    return out + [Statement(text, leads.get(first, ""), first, first if unit == "page" else last, unit)
                  for text, first, last in _row_texts(doc, set())] + _heading_statements(doc, unit)


def _heading_statements(doc: Document, unit: str) -> list[Statement]:
    """The title and headings that hold a value ("Atlas cutover (14–15 Mar)", "Onboarding — Ravi Menon
    (starts Mon 16 Nov 2026)"), each its own scope: it states a fact of what it names first."""
    out = []
    for block in doc.blocks:
        if block.kind != "heading":
            continue  # (the text of a heading only: most blocks are paragraphs, items and rows)
        text = " ".join(block.text.split())
        if 3 <= len(text) <= MAX_STATEMENT_CHARS * 2 and value_spans(text) \
                and not markup(text):
            out.append(Statement(text, text, block.start, block.start, unit))
    return out


def _continues(before: Unit, u: Unit) -> bool:
    """A later sentence of the same paragraph that begins on the line where the one before it ends (a
    new line of a block may be a new speaker's turn or a new entry); a list item that holds a value,
    right after an item of the same list at its level ("- PermitTrack upgrade slipped" / "- new date
    thurs 15 oct"): where it names nothing of its own (the mention step asks), the writer goes on with
    the item before's topic, one entry of a list per topic being no rule of notes. Not a field ("-
    release date: 2010-07-21"): a list of `label: value` items gives each a field of one thing; not an
    entry of a log, both items opening with a time of day ("- 13:31 limit raised to 1Gi, pods roll")."""
    if u.kind == before.kind == "paragraph":
        return u.block == before.block and u.first == before.last
    return u.kind == before.kind == "item" and u.level == before.level and u.block == before.block + 1 \
        and u.first == before.last + 1 and bool(value_spans(u.plain)) and not _FIELD.match(u.plain) \
        and not (_CLOCK.match(u.plain) and _CLOCK.match(before.plain))


_FIELD = re.compile(r"[*_]*\w[\w /()'-]{0,40}[*_]*:[*_]*\s")  # "release date: …", "**Owner:** …"
# a time of day opening an item: in a list whose items open so, each is an entry of a log, an event of its
# own ("- 13:20 Bruno finds envoy OOMKilled" / "- 13:31 limit raised to 1Gi": the second is not Bruno's);
# the day may stand before the time ("- Tue 01:12 — …", "- Dec 3 06:50 …", "- 11/12 02:10 …")
_CLOCK = re.compile(r"[^\w]*(?:(?:[A-Za-z]{3,9}\.?|\d{1,2}(?:[/.-]\d{1,2}){0,2}),?\s+){0,2}\d{1,2}:\d{2}\b")


def _whole_items(us: list[Unit]) -> list[Unit]:
    """The units with each list item's sentences joined into one (a list item is one statement: "Leeds
    upgrade is off for Sunday. New date Sun 10 Jan." says both of Leeds), unless it is too long to be one."""
    out: list[Unit] = []
    for u in us:
        last = out[-1] if out else None
        if u.kind == "item" and u.index and last is not None and last.block == u.block \
                and len(last.plain) + len(u.plain) < MAX_STATEMENT_CHARS * 2:
            out[-1] = Unit(f"{last.raw} {u.raw}", f"{last.plain} {u.plain}", f"{last.text} {u.text}", last.first,
                           u.last, last.block, last.index, last.kind, last.level)
        else:
            out.append(u)
    return out


_BARE_LEAD = re.compile(r"[A-Z][\w'’-]{1,30}(?: [A-Z][\w'’-]{1,30}|\s*[/&+]\s*[A-Z][\w'’-]{1,30})?")
_LEAD = re.compile(r"\*\*([^*\n]{1,60})\*\*:?|([^\s:|#>*][^:|\n]{0,38}):")  # "**Tom**", "**Tom**:", "Tom:" alone on a line


_NAME_LINE = re.compile(r"[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,3}")  # "Dan Okafor", "Hetzner Online GmbH"


def section_leads(doc: Document) -> dict[int, str]:
    """Source line -> what the section holding it is headed by: the text of the heading above it (a
    heading below the title), or of a lead line since that heading (a paragraph that is only bold
    text or a short `Label:` — a standup's "**Tom**" over Tom's items) while its own block lasts
    (`_led`: "Decisions: …" after Tom's list and a blank line is the heading's again). A lead's
    parenthesised aside is no part of it; a heading's is kept, for the thing it may name alone
    (kctui.compiler.steps.heading_aside: "## Cloud backup (Project Tidewater)")."""
    out: dict[int, str] = {}
    heading = lead = ""
    led: Block | None = None  # the last block so far of the block a lead line leads
    fresh = False  # a lead line stands right before this block
    blocks = doc.blocks
    for n, block in enumerate(blocks):
        if block.kind == "heading":
            heading = lead = block.text.strip() if block.level >= 2 else ""
            led, fresh = None, False
            continue
        m = _LEAD.fullmatch(block.text.strip()) if block.kind == "paragraph" else None
        bare = ASIDE.sub("", block.text).strip()
        if m or (block.kind == "paragraph" and n + 1 < len(blocks) and blocks[n + 1].kind == "item"
                 and blocks[n + 1].start == block.end + 1 and _BARE_LEAD.fullmatch(bare)):
            # (or a line of one capitalised word or two right over its list: "Callum (wk2)", "Rosa / LibCal")
            lead, led, fresh = ASIDE.sub("", m.group(1) or m.group(2)).strip() if m else bare, None, True
            continue
        if fresh or (led is not None and _led(led, block)):
            led, fresh = block, False
        elif led is not None:
            lead, led = heading, None
        if lead:
            for line in range(block.start, block.end + 1):
                out[line] = lead
        if line_block(block):  # (a signature's lines are its first line's: "Dan Okafor" over his role)
            head, *rest = block_lines(block)
            if _NAME_LINE.fullmatch(head[0]):
                out.update((line, head[0]) for _text, line, _ in rest)
    return out


def _led(before: Block, block: Block) -> bool:
    """Does `block` go on with what a lead line leads, `before` its last block so far? Yes for an item of
    the list it opens and a block right on the next line; not for a new paragraph, table or list after a
    blank line: a lead ("**Tom**", "Blockers:") heads its own list or paragraph, and what the writer sets
    apart after it is the section's again."""
    return block.start == before.end + 1 or block.kind == before.kind == "item"


def _sentence_statements(doc: Document, us: list[Unit], covered: set[int]) -> list[Claim]:
    """The sentences and list items whose first line no claim cites."""
    return [Claim(doc.title, "note", text, "", "fact", LINE_ORIGIN, ev(doc, first, last))
            for text, first, last in _sentence_texts(us, covered)]


def _sentence_texts(us: list[Unit], covered: set[int]) -> list[tuple[str, int, int]]:
    return [(u.plain, u.first, u.last) for u in us if _stated(u, covered)]


def _stated(u: Unit, covered: set[int]) -> bool:
    return u.first not in covered and 3 <= len(u.plain) <= MAX_STATEMENT_CHARS * 2 and not markup(u.raw)


# an autolink, an HTML tag or comment, a Markdown escape: its text is not what the line says ("<20s",
# "<ver>"-free text and a Windows path "ops-fs-01\efb" are)
_MARKUP = re.compile(r"<(?:[A-Za-z][\w.+-]*:|/?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>|!--)|\\[!-/:-@\[-`{-~]")
# what shows as written: a code span (Markdown escapes nothing in it: "`\\\\fs01\\scans`"), and a Windows
# share's two backslashes before its host ("\\\\BOS-FS01\\Archive": a path, as the writer reads it)
_AS_WRITTEN = re.compile(r"`[^`\n]*`|\\\\(?=[\w$-])")


def markup(text: str) -> bool:
    """Does the text hold markup whose text is not what the line says: an autolink, an HTML tag or comment, a
    Markdown escape outside a code span (`_MARKUP`); not a code span's backslashes or a Windows share's?"""
    return bool(_MARKUP.search(_AS_WRITTEN.sub(" ", text) if "\\" in text else text))


def _row_statements(doc: Document, covered: set[int]) -> list[Claim]:
    """The table rows (below the header) no claim cites, their cells joined by " | "."""
    return [Claim(doc.title, "note", text, "", "fact", LINE_ORIGIN, ev(doc, line, line))
            for text, line, _ in _row_texts(doc, covered)]


def _row_texts(doc: Document, covered: set[int]) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    for block in doc.blocks:
        if block.kind != "table":
            continue
        for line, cells in block.rows[1:]:
            text = row_text(doc.lines[line - 1], cells)
            if line not in covered and text and len(text) <= MAX_STATEMENT_CHARS * 2 and not markup(text):
                out.append((text, line, line))
    return out


def row_text(written: str, cells: list[str]) -> str:
    """A table row as a statement: its cells joined by " | " ("Vaultline | $4,900 | 1 feb"), or, where the line
    does not write them so, the line between its outer pipes ("GST | | | $429.00" of a row with empty cells,
    "Bayview Dental| BVD-NAS01" of one without a space before a pipe): a row's statement is cited by its line,
    which must contain it, so no row is dropped for how its cells are spaced; "" for a row of empty cells."""
    text = " | ".join(c.strip() for c in cells if c.strip())
    if not text or cited_lines_contain([written], text):
        return text
    return " ".join(written.strip().strip("|").split())
