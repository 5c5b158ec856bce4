"""What a context packet quotes of a source: a section's heading less what its path says, a long
passage as the sentences that name the query's words, and a conversation's turn below the packet's first
statements as its sentences that name a query word or hold a value (kctui.search.context). Pure functions
of their inputs (tests/unit/test_packet_envelope.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from kctui.search.query import FUNCTION_WORDS, tokens
from kctui.search.turns_read import speaker_prefix
from kctui.search.word_sets import names_word

_PART = re.compile(r"\s+[—–]\s+")


@lru_cache(maxsize=1024)
def section(source: str, heading: str | None) -> str:
    """A source section's heading without the parts (between dashes) its path says already
    (`chat/session-12.md` with "Session 12 — Saturday 15 June 2024" → "Saturday 15 June 2024"): a header
    names the path once. A heading the path says whole stays as it is (a further section's `§` line)."""
    if not heading:
        return ""
    said = {_number(t) for t in tokens(source)}
    parts = [p for p in _PART.split(heading) if not {_number(t) for t in tokens(p)} <= said]
    return " — ".join(parts) or heading


_CLOCK = r"\d{1,2}[:.]\d{2}(?:\s*[ap]\.?m\.?)?"
_TIME = re.compile(rf",?\s+(?:at\s+)?{_CLOCK}$|^(?:at\s+)?{_CLOCK}(?:\s+on\s+|\s*,\s*)"
                   r"|^\d{1,2}[:.]\d{2}\s*[ap]\.?m\.?\s+", re.I)  # (a time that opens a label: "on" or a comma
# after it, or its am / pm: "10.15 Release notes" is no time)


def untimed(label: str) -> str:
    """A section's label without the time of day that ends or opens it when the rest holds a date ("Sunday
    21 January 2024, 11:05 am" → "Sunday 21 January 2024", "12:30 pm on 7 September, 2024" → "7
    September, 2024"): the tersest packet dates a chat's sessions by the day (a question asks which day, not
    which minute; the source's heading has the time)."""
    rest = _TIME.sub("", label, count=1)
    return rest if rest != label and re.search(r"\d", rest) else label


def _number(token: str) -> str:
    return token.lstrip("0") or token if token.isdigit() else token


GIST_BYTES = 320  # a passage longer than this keeps the sentences that name a query word (a long paragraph, an email)
_SENTENCE = re.compile(r"(?<=[.!?…])\s+(?=\S)")


def gist(text: str, words: frozenset[str]) -> str:
    """A long passage as its sentences that name a query word or share its stem (ranking.typed_word; a
    turn's speaker kept in front, not counted as one), the sentences left out marked `…`; the passage as it
    is when none or all of them do. Its line citation stays: the packet quotes part of the passage, and the
    reader can open the rest."""
    return _kept(text, words, GIST_BYTES, lambda part, named: named)


TURN_GIST_BYTES = 60  # a turn longer than this, below the packet's first statements, keeps what can answer
_VALUE = re.compile(r"\d|(?<=[a-z,] )[A-Z][a-z]")  # a number, or a capitalised word after a word: a name


def turn_gist(text: str, words: frozenset[str]) -> str:
    """A conversation's turn (a passage that opens with its speaker) longer than TURN_GIST_BYTES as its
    sentences that name a query word or hold a value (a number, a date, a name: a capitalised word after
    the sentence's first), the rest marked `…`; any other passage as `gist` quotes it. A turn is mostly talk
    ("Ha, you're right. Anyway, …") around the one sentence that says something: the packet ranks the turns
    of many sessions, and the second hop of a question (the earlier value, the other session) sits below
    its first statements, where a whole turn costs the next turn's place. The value keeps the answer that
    does not repeat the question's words ("So we're going to Madeira instead.")."""
    flat = " ".join(text.split())
    if not speaker_prefix(flat):
        return gist(text, words)
    return _kept(text, words, TURN_GIST_BYTES, lambda part, named: named or bool(_VALUE.search(part)))


def _kept(text: str, words: frozenset[str], limit: int, keep: Callable[[str, bool], bool]) -> str:
    """`text` longer than `limit` bytes as its sentences `keep` (the sentence, whether it names a query
    word) holds, the rest marked `…`, its speaker in front; as it is when none or all are kept."""
    flat = " ".join(text.split())
    words = _query_words(words)
    if len(flat.encode("utf-8")) <= limit or not words:
        return text
    lead = speaker_prefix(flat)
    parts = _SENTENCE.split(flat[len(lead):])
    hold = [keep(p, any(names_word(w, p) for w in words)) for p in parts]
    if all(hold) or not any(hold):
        return text
    return _with_gaps(lead, parts, lambda i: hold[i])


def _query_words(words: frozenset[str]) -> frozenset[str]:
    """The query's words as a passage's sentences are matched on: their tokens, no function word."""
    return frozenset(t for w in words for t in tokens(w) if len(t) > 1 and t not in FUNCTION_WORDS)


def _with_gaps(lead: str, parts: list[str], kept: Callable[[int], bool]) -> str:
    """The speaker `lead` and the parts `kept` (by index) holds, in their order, each run of the others one `…`."""
    out: list[str] = []
    for i, part in enumerate(parts):
        if kept(i):
            out.append(part)
        elif not out or out[-1] != "…":
            out.append("…")
    return lead + " ".join(out)


TURN_BYTES = 45  # a turn below the packet's FULL_GISTS best statements: at most this many bytes, its speaker's name in them


def turn_line(text: str, words: frozenset[str]) -> str:
    """A conversation's turn below the packet's best statements as `fitted` to TURN_BYTES (its speaker in
    front); any other passage as it is. Its line citation is whole: the reader opens the turn
    for the rest, and a question's second hop (the earlier value, the other session) fits where a long turn
    would cost its place."""
    return fitted(text, words, TURN_BYTES) if speaker_prefix(" ".join(text.split())) else text


def fitted(text: str, words: frozenset[str], limit: int) -> str:
    """`text` in at most `limit` UTF-8 bytes: its sentences that name a query word first, then those that
    hold a value, then the others, each whole while it fits, kept in their order, the rest marked `…`; the
    first of them cut short (`… …`) when none fits whole. A speaker in front stays."""
    flat = " ".join(text.split())
    if len(flat.encode("utf-8")) <= limit:
        return flat
    words = _query_words(words)
    lead = speaker_prefix(flat)
    parts = _SENTENCE.split(flat[len(lead):])
    rank = [(0 if any(names_word(w, p) for w in words) else 1 if _VALUE.search(p) else 2, i)
            for i, p in enumerate(parts) if p != "…"]  # (a gap a gist marked stays a gap)
    if not rank:
        return _clipped(flat, limit)
    room = limit - len(lead.encode("utf-8"))
    taken: set[int] = set()
    for _r, i in sorted(rank):
        cost = len(parts[i].encode("utf-8")) + 4  # the space and a `… ` it may bring
        if cost <= room:
            taken.add(i)
            room -= cost
    if not taken:  # the first of them cut short, the gaps around it marked
        best = min(rank)[1]
        pre, post = "… " if best else "", " …" if best < len(parts) - 1 else ""
        cut = _clipped(parts[best], limit - len((lead + pre + post).encode("utf-8")))
        return lead + pre + cut + ("" if cut.endswith(" …") else post)
    return _with_gaps(lead, parts, taken.__contains__)


def _clipped(text: str, limit: int) -> str:
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    cut = data[: max(0, limit - 4)].decode("utf-8", "ignore")
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip() + " …"  # on a word's end


def tight_gaps(text: str) -> str:
    """A quote's gap marks at its ends without their space ("Lena: … Picked him up …" → "Lena: …Picked him
    up…"): a packet's turn lines mostly open or close on a gap, and the mark says as much without it."""
    lead = speaker_prefix(text)
    body = text[len(lead):]
    if body.startswith("… "):
        body = "…" + body[2:]
    if body.endswith(" …") and body[-3:-2].isalnum():  # ("amazing. …" stays: a sentence's end)
        body = body[:-2] + "…"
    return lead + body
