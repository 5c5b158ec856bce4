"""Answers from a context packet (`kctui ask`): the packet's statements numbered by item, an extractive
answer ranked for the question, and a model's cited answer checked against the packet. Pure: functions
of the packet (its JSON form, kctui.search.context) and the text (tests/unit/test_answer.py).

- `statements(items)`: every statement of the packet with its item id (the item's 1-based position),
  the file it is in (`wiki/<page>` or `sources/<path>`), the source it cites and the lines.
- `extract(question, items)`: the best few statements for the question (an extractive answer: the
  packet's own text, never written anew).
- `verify(answer, citations, items)`: each citation checked — its item must be in the packet and the
  statements at its lines must hold a value the answer states (a date, a number, a version) or the
  words it quotes; an answer is verified only when every citation is and every value it states is held
  by one of them.
- `parse_reply(text)`: the model's structured reply, or `ReplyError` with one line.
- `partial_answer(text)`: the `answer` string of a reply still streaming in, as far as it has come.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from kctui.core.decided_values import decided_rank
from kctui.core.record_tables import mark_at
from kctui.search.asked_for import asked_for, states
from kctui.search.packet_items import full_item, kind_of, read_claim, read_passage
from kctui.search.query import ParsedQuery, QueryError, group_in, parse_query, tokens
from kctui.search.replies import asks, reply_scores

EXTRACT_SENTENCES = 3
KEEP_SHARE = 0.5  # a further sentence scores at least this share of the best one
CLAIM_BONUS = 1.1  # a compiled claim's score against a raw passage's
DATED_BONUS = 1.3  # a dated sentence's, when the question asks when; one stating the amount, count or duration asked for
HEAD_BONUS = 2.0  # the packet's first sentence's against its last: the packet is ranked
# a claim of a value a person decided for (✓, kept), an undecided one, one of a value they decided against (⚑)
DECIDED_WEIGHT = (2.0, 1.0, 0.5)
QUESTION_SHARE = 0.25  # a sentence asking a question ("When does it go to prod?"), against one stating;
# its reply, the next turn of another speaker, scores replies.REPLY_SHARE of what it would have
# (the conversations' 1,394 questions, a 16 KB packet: an evidence line among the three sentences 34.4 % with
# each term counting 1, a claim +0.5, the rest kept at 0.75 of the best; 41.7 % with the terms weighed by their
# rarity in the packet and the head bonus, 49.0 % with the rest kept at 0.5 of the best, 51.8 % at 0.3)
MAX_ANSWER_CHARS = 8_000
MAX_CITATIONS = 24

ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answer": {"type": "string"},
        "citations": {"type": "array", "items": {
            "type": "object",
            "properties": {"item": {"type": "string"},
                           "lines": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}},
            "required": ["item", "lines"], "additionalProperties": False}},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "unanswerable": {"type": "boolean"},
    },
    "required": ["answer", "citations", "confidence", "unanswerable"],
    "additionalProperties": False,
}

_CITATION = re.compile(r"\^\[((?:\\.|[^\]\\])+):(?:L(\d+)(?:-L(\d+))?|p(\d+))\]\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(])")
_ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,:]\d+)*(?![\w])")
_SAID = re.compile(r"^[^:—\n]{1,60}?(?: — said)?:\s+")  # a turn's speaker, as a passage ("Ann: …") or a claim ("Ann — said: …")
_ITEM_REF = re.compile(r"\[\d+(?:\s*[,;]\s*\d+)*\]")
_QUOTE = re.compile(r"[\"“]([^\"”]{2,200})[\"”]")
_MONTHS = {m: i for i, m in enumerate(["january", "february", "march", "april", "may", "june", "july", "august",
                                       "september", "october", "november", "december"], 1)}
_MONTH = "(" + "|".join(_MONTHS) + "|" + "|".join(m[:3] for m in _MONTHS) + r")\.?"
_DATE_MDY = re.compile(_MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", re.I)
_DATE_DMY = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\s+" + _MONTH + r",?\s+(\d{4})", re.I)


class ReplyError(ValueError):
    """The model's reply is not a usable answer; the message is one line."""


@dataclass(frozen=True)
class Cited:
    """One statement of the packet: what it says and where it is."""

    item: str  # the item's id: its 1-based position in the packet
    kind: str  # "claim" | "description" | "passage"
    text: str
    path: str  # the file the statement is in: wiki/<page> or sources/<source>
    source: str  # the source it cites or quotes (relative to sources/); "" for a description
    lines: tuple[int, int] | None  # the source lines; None for a description

    def where(self) -> str:
        at = "" if self.lines is None else f" L{self.lines[0]}" + (f"-L{self.lines[1]}" if self.lines[1] != self.lines[0] else "")
        return f"{self.path}{at}" if self.kind == "passage" or not self.source else f"{self.path} ← sources/{self.source}{at}"


def statements(items: list[dict[str, Any]]) -> list[Cited]:
    """Every statement of the packet's items, in packet order (item ids "1", "2", …)."""
    out: list[Cited] = []
    for n, item in enumerate(map(full_item, items), 1):
        ident = str(n)
        if kind_of(item) == "evidence":
            src = str(item.get("source", ""))
            for line in item.get("passages") or []:
                passage = read_passage(str(line))
                if passage:  # (not a `§ section` line)
                    out.append(Cited(ident, "passage", passage[1], f"sources/{src}", src, passage[0]))
            continue
        page = f"wiki/{item.get('page', '')}"
        if item.get("description"):
            out.append(Cited(ident, "description", str(item["description"]), page, "", None))
        disputed = (item.get("flag") or {}).get("conflicts") or []  # a flagged page's disputed claims, cited
        for claim in [*disputed, *(item.get("claims") or [])]:
            text, citation = read_claim(str(claim))
            source, lines = cited_lines(citation)
            out.append(Cited(ident, "claim", text, page, source, lines))
    return out


def cited_lines(citation: str) -> tuple[str, tuple[int, int] | None]:
    """`^[path:L3-L4]` -> ("path", (3, 4)); a page citation `^[doc.pdf:p2]` -> ("doc.pdf", (2, 2))."""
    m = _CITATION.search(citation)
    if not m:
        return "", None
    path = re.sub(r"\\(.)", r"\1", m.group(1))
    if m.group(4):
        return path, (int(m.group(4)), int(m.group(4)))
    start = int(m.group(2))
    return path, (start, int(m.group(3) or start))


def flags(items: list[dict[str, Any]], ids: set[str]) -> list[dict[str, Any]]:
    """The flags of the cited pages (contradicted, needs review, stale, archived): each with its page and why."""
    out = []
    for n, item in enumerate(map(full_item, items), 1):
        flag = item.get("flag")
        if str(n) in ids and item.get("kind") == "page" and flag:
            out.append({"item": str(n), "page": f"wiki/{item.get('page', '')}", "status": str(flag.get("status", "")),
                        "why": str(flag.get("why", ""))})
    return out


# -- the extractive answer ------------------------------------------------------------------------


def _query(question: str) -> ParsedQuery | None:
    try:
        return parse_query(question)
    except QueryError:
        return None


def sentences(stmt: Cited) -> list[Cited]:
    """A statement cut into sentences (a claim is one), each keeping the statement's place."""
    if stmt.kind == "claim" or mark_at(stmt.text) >= 0:  # (a flagged passage keeps its flag: one sentence)
        return [stmt]
    parts = [p.strip() for p in _SENTENCE_END.split(" ".join(stmt.text.split())) if p.strip()]
    return [Cited(stmt.item, stmt.kind, p, stmt.path, stmt.source, stmt.lines) for p in parts] or [stmt]


def _score(weights: list[float], groups: list[Any], toks: list[str], stmt: Cited, asks_when: bool, place: float,
           wants: str | None = None) -> float:
    """A sentence's score: the weights of the question's terms it holds (a number or version counting double),
    more for a compiled claim (the compiled layer says it once, cited) and, when the question asks when, a
    dated sentence, and more the nearer the packet's head it stands (`place`: 0 first, 1 last)."""
    score = sum(w * (2.0 if any(ch.isdigit() for ch in g.label) else 1.0)
                for w, g in zip(weights, groups) if group_in(g.with_prefix(), toks))  # (with_prefix: agree, agreed)
    if score == 0:
        return 0.0
    score *= DECIDED_WEIGHT[decided_rank(stmt.text)]
    if stmt.kind == "claim":
        score *= CLAIM_BONUS
    if asks_when and (_ISO_DATE.search(stmt.text) or _DATE_MDY.search(stmt.text)):
        score *= DATED_BONUS
    elif wants and wants != "time" and states(wants, stmt.text):
        score *= DATED_BONUS  # an amount, a count, a duration where the question asks for one
    return score * (1.0 + HEAD_BONUS * (1.0 - place))


def extract(question: str, items: list[dict[str, Any]], limit: int = EXTRACT_SENTENCES) -> list[Cited]:
    """The `limit` sentences of the packet that best answer `question`: the most of its terms, each weighed
    by how few of the packet's sentences hold it (a name every turn of a chat says counts for little, the
    rare word that names the answer's topic for much; a number or version counting double, a spelling of
    the glossary counting as the term), a compiled claim before a raw passage (a person's decided value
    before an undecided one, one they decided against after: DECIDED_WEIGHT), a dated one first when the
    question asks when, and a sentence near the packet's head (the packet is ranked) before one near its
    end; ties in packet order. Only sentences holding at least one term of the question, and after the
    first only those scoring at least KEEP_SHARE of it. A page's claim holds its page's title too (a claim on
    Backblaze's page is of Backblaze though it does not say the name). A sentence that asks a question scores
    QUESTION_SHARE of it, and the chat's reply to it (kctui.search.replies) scores a share of what it had."""
    parsed = _query(question)
    if parsed is None or not parsed.groups:
        return []
    asks_when = "when" in tokens(question) or "date" in tokens(question)
    wants = asked_for(question)
    found: list[tuple[Cited, list[str]]] = []
    seen: dict[str, int] = {}  # what a sentence says, its speaker's label aside -> its place in `found`
    titles = {str(n): tokens(str(item.get("title") or "")) for n, item in enumerate(map(full_item, items), 1)
              if kind_of(item) != "evidence"}
    for stmt in (s for st in statements(items) for s in sentences(st)):
        toks = tokens(stmt.text) + (titles.get(stmt.item, []) if stmt.kind != "passage" else [])  # (a page's claim is of its title)
        said = " ".join(tokens(_SAID.sub("", stmt.text)))  # (a turn as a claim, a passage, a page's description)
        if said not in seen:
            seen[said] = len(found)
            found.append((stmt, toks))
        elif found[seen[said]][0].lines is None and stmt.lines is not None:
            found[seen[said]] = (stmt, toks)  # (the same words, cited: a description's turn as its claim)
    n = len(found)
    weights = [math.log(1.0 + n / max(1, sum(1 for _, toks in found if group_in(g.with_prefix(), toks))))
               for g in parsed.groups]
    scores = [_score(weights, parsed.groups, toks, stmt, asks_when, order / n, wants) for order, (stmt, toks) in enumerate(found)]
    asking = {i: score for i, score in enumerate(scores) if score > 0 and asks(found[i][0].text)}
    replied = reply_scores([stmt for stmt, _ in found], asking)
    for i in asking:  # (a turn asking the question shares its words because it asks; the reply states)
        scores[i] *= QUESTION_SHARE
    for i, score in replied.items():
        scores[i] = max(scores[i], score)
    ranked = [(-score, order, stmt) for order, ((stmt, _toks), score) in enumerate(zip(found, scores, strict=True)) if score > 0]
    ranked.sort(key=lambda r: (r[0], r[1]))
    best = -ranked[0][0] if ranked else 0.0
    return [stmt for score, _, stmt in ranked[:limit] if -score >= KEEP_SHARE * best]


# -- the model's answer checked ------------------------------------------------------------------


@dataclass(frozen=True)
class Reply:
    answer: str
    citations: tuple[tuple[str, tuple[int, int] | None], ...]  # (item id, lines or None for the whole item)
    confidence: float
    unanswerable: bool


def parse_reply(text: str) -> Reply:
    """The structured reply (ANSWER_SCHEMA), checked; `ReplyError` (one line) for anything else."""
    try:
        data = json.loads(text)
    except ValueError:
        raise ReplyError("the model's reply is not JSON") from None
    if not isinstance(data, dict):
        raise ReplyError("the model's reply is not a JSON object")
    answer = data.get("answer")
    if not isinstance(answer, str):
        raise ReplyError("the model's reply has no answer text")
    raw = data.get("citations", [])
    if not isinstance(raw, list) or len(raw) > MAX_CITATIONS:
        raise ReplyError(f"the model's citations are not a list of at most {MAX_CITATIONS}")
    cites: list[tuple[str, tuple[int, int] | None]] = []
    for c in raw:
        if not isinstance(c, dict) or not isinstance(c.get("item"), (str, int)) or isinstance(c.get("item"), bool):
            raise ReplyError("a citation of the model's reply has no item id")
        lines = c.get("lines")
        if lines in (None, []):
            cites.append((str(c["item"]).strip(), None))
            continue
        if (not isinstance(lines, list) or len(lines) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in lines)
                or lines[0] < 0 or lines[1] < lines[0]):
            raise ReplyError(f"a citation of the model's reply has bad lines {lines!r} (want [start, end])")
        cites.append((str(c["item"]).strip(), (lines[0], lines[1])))
    confidence = data.get("confidence", 0.0)
    if not isinstance(confidence, (int, float)) or isinstance(confidence, bool) or not 0 <= confidence <= 1:
        raise ReplyError("the model's confidence is not a number from 0 to 1")
    unanswerable = data.get("unanswerable", False)
    if not isinstance(unanswerable, bool):
        raise ReplyError("the model's unanswerable is not true or false")
    return Reply(answer.strip()[:MAX_ANSWER_CHARS], tuple(cites), float(confidence), unanswerable)


def values(answer: str) -> list[str]:
    """What an answer states that its citations must hold: the words it quotes, its dates (a written-out
    date also as its ISO form, `2026-11-28`), numbers and versions — not the item ids it cites (`[1]`).
    Lower case."""
    answer = _ITEM_REF.sub(" ", answer)  # "[1]", "[2, 3]": the packet's item ids, not values
    out: list[str] = [q.casefold().strip() for q in _QUOTE.findall(answer)]
    rest = _QUOTE.sub(" ", answer)
    for m in _DATE_MDY.finditer(rest):
        out.append(_iso(m.group(3), m.group(1), m.group(2)))
    for m in _DATE_DMY.finditer(rest):
        out.append(_iso(m.group(3), m.group(2), m.group(1)))
    rest = _DATE_DMY.sub(" ", _DATE_MDY.sub(" ", rest))
    out += _ISO_DATE.findall(rest)
    out += [n for n in _NUMBER.findall(_ISO_DATE.sub(" ", rest)) if n.strip(".,:")]
    return list(dict.fromkeys(out))


def _iso(year: str, month: str, day: str) -> str:
    return f"{int(year):04d}-{_month_of(month):02d}-{int(day):02d}"


def _month_of(name: str) -> int:
    low = name.casefold().rstrip(".")
    return next((n for m, n in _MONTHS.items() if m.startswith(low[:3])), 0)


def holds(text: str, value: str) -> bool:
    """Whether `text` holds `value`: as the same tokens in a row (a number is never part of another)."""
    want = tokens(value)
    got = tokens(text)
    if not want:
        return False
    n = len(want)
    return any(got[i:i + n] == want for i in range(len(got) - n + 1))


def at_lines(stmts: list[Cited], item: str, lines: tuple[int, int] | None) -> list[Cited]:
    mine = [s for s in stmts if s.item == item]
    if lines is None:
        return mine
    return [s for s in mine if s.lines is not None and s.lines[0] <= lines[1] and lines[0] <= s.lines[1]]


def verify(answer: str, citations: list[tuple[str, tuple[int, int] | None]] | tuple,
           items: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    """Each citation as `{item, path, source, lines, verified, why}` and whether the answer as a whole is
    verified (every citation verifies, there is one, and every value the answer states is held by one)."""
    stmts = statements(items)
    stated = values(answer)
    words = [w for w in dict.fromkeys(tokens(answer)) if len(w) > 3][:12]
    out: list[dict[str, Any]] = []
    held_all: set[str] = set()
    for item, lines in citations:
        at = at_lines(stmts, item, lines)
        entry: dict[str, Any] = {"item": item, "path": "", "source": "", "lines": list(lines) if lines else None,
                                 "verified": False, "why": ""}
        if not any(s.item == item for s in stmts):
            entry["why"] = f"item {item} is not in the packet"
            out.append(entry)
            continue
        first = at[0] if at else next(s for s in stmts if s.item == item)
        entry["path"] = first.path
        entry["source"] = f"sources/{first.source}" if first.source else ""
        if not at:
            entry["why"] = f"item {item} has nothing at lines {lines[0]}-{lines[1]}" if lines else "empty item"
            out.append(entry)
            continue
        text = " ".join(s.text for s in at)
        held = [v for v in stated if holds(text, v)]
        held_all.update(held)
        if stated:
            entry["verified"] = bool(held)
            entry["why"] = (f"holds {', '.join(held[:3])}" if held
                            else f"the cited lines do not hold {', '.join(stated[:3])}")
        else:
            share = sum(1 for w in words if w in set(tokens(text))) / max(1, len(words))
            entry["verified"] = share >= 0.5
            entry["why"] = "holds the answer's words" if entry["verified"] else "the cited lines do not hold the answer's words"
        out.append(entry)
    whole = bool(out) and all(c["verified"] for c in out) and all(v in held_all for v in stated)
    return out, whole


# -- streaming -------------------------------------------------------------------------------------

_ANSWER_KEY = re.compile(r'"answer"\s*:\s*"')
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def partial_answer(text: str) -> str:
    """The `answer` string of a JSON reply that is still arriving, decoded as far as it is complete."""
    m = _ANSWER_KEY.search(text)
    if not m:
        return ""
    out: list[str] = []
    i = m.end()
    while i < len(text):
        ch = text[i]
        if ch == '"':
            break
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        if i + 1 >= len(text):
            break
        esc = text[i + 1]
        if esc == "u":
            if i + 6 > len(text):
                break
            try:
                out.append(chr(int(text[i + 2:i + 6], 16)))
            except ValueError:
                break
            i += 6
            continue
        out.append(_ESCAPES.get(esc, esc))
        i += 2
    return "".join(out)
