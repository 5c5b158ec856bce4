"""Raw source passages: the units of a source's text a context packet can quote with their line range.

`split_passages(text)` cuts one source's text into passages by its form, never by its words:

- a paragraph (a run of non-blank lines) is a passage;
- inside a run, each list item, each table row and each turn of a conversation (a line that opens with
  a turn's head, `Name: text`, `[18:02] Name: text`, a chat export's `01/10/2024, 09:10 - Name: text`
  or a head on a line of its own above the message, kctui.search.turn_head; when the run holds two or more
  such lines) is a passage of its own, with the lines that continue it;
- a heading is a passage of its own (a decision record's title, a meeting's date: its words can be the
  fact), and the context of the passages below it (`heading`: the nearest heading above, itself for a
  heading, so a session's title and date travel with its turns); a document's first heading or
  front-matter `title:` is its `title`;
- a front-matter block is cut at its top-level keys;
- a passage longer than `MAX_PASSAGE_CHARS` is cut at sentence ends into passages no longer than that.

`surroundings(passages)` gives each passage the text of the passages next to it in its section (the one
before and the one after), and a table row its table's header row: what a turn answers, what a list item
belongs to, what a cell's column is. The search weighs those words
below the passage's own, so an answer that does not repeat the question's words ("Lemon drizzle, three
layers." after "What cake are you baking?") is still found.

`speaker_of(text)`: who speaks in a turn (its label, or a chat export's bold name line above the
message), for ranking what a person the question names said first (kctui.search.ranking).

Pure: a function of the text alone (table-tested in tests/unit/test_passages.py and test_speakers.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kctui.search.turn_head import is_turn_line, turn_head

MAX_PASSAGE_CHARS = 700

_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+\S")
_ROW = re.compile(r"^\s*\|.*\|\s*$")
_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
_TOP_KEY = re.compile(r"^[A-Za-z_][\w-]*:")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


@dataclass(frozen=True)
class Passage:
    start: int  # first line, 1-based
    end: int  # last line
    text: str  # the lines as written, joined by newlines
    heading: str  # the nearest heading above ("" before any)


def document_title(text: str) -> str:
    """The source's own title: front matter's `title:`, else its first heading ("" when it has none)."""
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":
        for line in lines[1:200]:
            if line.strip() in ("---", "..."):
                break
            m = re.match(r"^title:\s*['\"]?(.*?)['\"]?\s*$", line)
            if m and m.group(1):
                return m.group(1)
    for line in lines[:400]:
        m = _HEADING.match(line)
        if m and m.group(1):
            return m.group(1)
    return ""


def split_passages(text: str) -> list[Passage]:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[Passage] = []
    heading = ""
    i = _front_matter(lines, out)
    run: list[int] = []
    for n in range(i, len(lines) + 1):
        line = lines[n] if n < len(lines) else ""
        m = _HEADING.match(line) if n < len(lines) else None
        if m or not line.strip():
            if run:
                out += _run_passages(lines, run, heading)
                run = []
            if m:
                heading = m.group(1)
                if heading:
                    out.append(Passage(n + 1, n + 1, line.strip(), heading))
            continue
        run.append(n)
    return out


def speaker_of(text: str) -> str:
    """The first name of who speaks in a turn ("Lena: …", "[18:02] Lena Park: …", "**Marta Kowalski** 09:20: …",
    a chat export's "**Dev Patel** 10:07" line above the message: kctui.search.turn_head), casefolded; "" for
    anything else."""
    head = turn_head(text)
    return head.name.split()[0].casefold() if head else ""


def speaker_prefix(text: str) -> str:
    """A turn's head as written (`Name: ` with its time stamp, or a head's own line), "" for anything else."""
    head = turn_head(text)
    return head.prefix if head else ""


def is_heading(text: str, heading: str) -> bool:
    """Whether a passage (its text, the heading it sits under) is that heading's own line."""
    m = _HEADING.match(text)
    return bool(m) and m.group(1) == heading


def surroundings(passages: list[Passage]) -> list[str]:
    """For each passage, the text of its neighbours in the same section (before, after), joined by a
    newline ("" for a passage alone in its section, and for a heading: the text under it is not what it
    says); a table row's begins with its table's first row
    (the header) when that is not a neighbour already."""
    out: list[str] = []
    header: Passage | None = None
    for i, p in enumerate(passages):
        near = [passages[j].text for j in (i - 1, i + 1)
                if 0 <= j < len(passages) and passages[j].heading == p.heading and not is_heading(p.text, p.heading)]
        if not _ROW.match(p.text):
            header = None
        elif header is None or not _same_table(passages[i - 1], p, passages[i - 1] is header):
            header = p  # the table's first row
        elif passages[i - 1] is not header:
            near.insert(0, header.text)
        out.append("\n".join(near))
    return out


TURN_REACH_BEFORE = 5  # a conversation's turn is also read with the turns this far before it (2 places on)
TURN_REACH_AFTER = 3  # and this far after it: a chat names its topic and comes to the news turns later. Chats
# (1,124 questions) 826 → 834 against 2 / 2 (4 / 3: 834, 3 / 2: 830, 6 / 3: 828, 5 / 4: 825), with the column
# at 0.25 (kctui.search.passage_index.FURTHER_WEIGHT)


def further_turns(passages: list[Passage]) -> list[str]:
    """For each conversation's turn (`speaker_of`), the turns of its section two to TURN_REACH_BEFORE places
    before it and two to TURN_REACH_AFTER places after it, joined by a newline ("" for any other passage): a
    chat names its topic once and answers it turns later ("Any news from the letting agent?" — "Yes!" — "Go
    on…" — "We settled on £1,095"; "Oakley Barn flooded" … "so we've moved it. new date SATURDAY 6TH
    SEPTEMBER"), so the turn that answers is also found by the words of the turns that opened its topic, more
    of them before it than after (the news follows its topic), weighed below its next neighbours'
    (kctui.search.passage_index.FURTHER_WEIGHT)."""
    out: list[str] = []
    for i, p in enumerate(passages):
        if not speaker_of(p.text):
            out.append("")
            continue
        span = (*range(i - TURN_REACH_BEFORE, i - 1), *range(i + 2, i + TURN_REACH_AFTER + 1))
        out.append("\n".join(passages[j].text for j in span if 0 <= j < len(passages)
                             and passages[j].heading == p.heading and not is_heading(passages[j].text, p.heading)))
    return out


def _same_table(a: Passage, b: Passage, a_first: bool) -> bool:
    """Two row passages of one table: the same section, `b` on the line after `a`, or the one after the
    rule under the header (`a_first`)."""
    return bool(_ROW.match(a.text)) and a.heading == b.heading and b.start - a.end <= (2 if a_first else 1)


def _front_matter(lines: list[str], out: list[Passage]) -> int:
    """The front-matter block's passages (one per top-level key); the index of the line after it."""
    if not lines or lines[0].strip() != "---":
        return 0
    end = next((n for n in range(1, len(lines)) if lines[n].strip() in ("---", "...")), None)
    if end is None:
        return 0
    starts = [n for n in range(1, end) if _TOP_KEY.match(lines[n])] or ([1] if end > 1 else [])
    for a, b in zip(starts, [*starts[1:], end]):
        out += _sized(lines, a, b - 1, "")
    return end + 1


def _run_passages(lines: list[str], run: list[int], heading: str) -> list[Passage]:
    """One run of non-blank lines: its items, rows and turns each a passage, else the whole run."""
    heads = {n for n in run if is_turn_line(lines[n])}
    starts = [n for n in run if _ITEM.match(lines[n]) or (_ROW.match(lines[n]) and not _RULE.match(lines[n]))
              or (len(heads) >= 2 and n in heads)]
    if not starts or starts[0] != run[0]:
        starts = [run[0], *starts]
    out: list[Passage] = []
    for a, b in zip(starts, [*starts[1:], run[-1] + 1]):
        body = [n for n in range(a, b) if not _RULE.match(lines[n])]
        if body:
            out += _sized(lines, body[0], body[-1], heading)
    return out


def _sized(lines: list[str], a: int, b: int, heading: str) -> list[Passage]:
    """Lines a..b (0-based, inclusive) as passages of at most MAX_PASSAGE_CHARS: cut between lines, and
    a longer line at its sentence ends (its pieces cite that line; one longer sentence stays whole)."""
    text = "\n".join(lines[a:b + 1])
    if len(text) <= MAX_PASSAGE_CHARS:
        return [Passage(a + 1, b + 1, text, heading)]
    out: list[Passage] = []
    chunk: list[str] = []
    first = a
    for n in range(a, b + 1):
        line = lines[n]
        if chunk and (len(line) > MAX_PASSAGE_CHARS or sum(len(c) + 1 for c in chunk) + len(line) > MAX_PASSAGE_CHARS):
            out.append(Passage(first + 1, n, "\n".join(chunk), heading))
            chunk = []
        if len(line) > MAX_PASSAGE_CHARS:
            out += [Passage(n + 1, n + 1, piece, heading) for piece in _pieces(line)]
            continue
        if not chunk:
            first = n
        chunk.append(line)
    if chunk:
        out.append(Passage(first + 1, b + 1, "\n".join(chunk), heading))
    return out


def _pieces(line: str) -> list[str]:
    """A long line cut at sentence ends into pieces of at most MAX_PASSAGE_CHARS (a longer sentence whole)."""
    pieces: list[str] = []
    buf = ""
    for part in _SENTENCE_END.split(line):
        if buf and len(buf) + 1 + len(part) > MAX_PASSAGE_CHARS:
            pieces.append(buf)
            buf = part
        else:
            buf = f"{buf} {part}" if buf else part
    if buf:
        pieces.append(buf)
    return pieces
