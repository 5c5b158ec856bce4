"""What a context packet quotes of a source: a section's heading less what its path says, a long
passage as the sentences that name the query's words, and a conversation's turn below the packet's first
statements as its sentences that name a query word or hold a value (kctui.search.context). Pure functions
of their inputs (tests/unit/test_packet_envelope.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from kctui.search.passages import speaker_prefix
from kctui.search.query import FUNCTION_WORDS, tokens, typed_word

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
    words = frozenset(t for w in words for t in tokens(w) if len(t) > 1 and t not in FUNCTION_WORDS)
    if len(flat.encode("utf-8")) <= limit or not words:
        return text
    lead = speaker_prefix(flat)
    parts = _SENTENCE.split(flat[len(lead):])
    hold = [keep(p, any(typed_word(t, words) for t in tokens(p))) for p in parts]
    if all(hold) or not any(hold):
        return text
    out: list[str] = []
    for part, keep in zip(parts, hold):
        if keep:
            out.append(part)
        elif not out or out[-1] != "…":
            out.append("…")
    return lead + " ".join(out)
