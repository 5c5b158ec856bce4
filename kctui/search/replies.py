"""A chat's reply to a question its packet holds: "Maya: What's the storage cost?" is answered by the next turn,
another speaker's ("Raj: About $90 a month on S3 at that volume."), which shares none of the question's words.
The no-model answer (kctui.search.answer.extract) scores a turn that asks a question low (it shares the words
because it asks) and gives the reply a share of what the asking turn scored.
"""

from __future__ import annotations

from typing import Protocol

from kctui.search.turns_read import speaker_of

REPLY_SHARE = 1.0  # a reply's score: this share of the score of the turn that asked it (0.6: 53.1 %, 0.8: 53.5 %, 1.0: 54.0 % on the chats)
REPLY_GAP = 3  # at most this many lines from the asking turn's last line to the reply's first (a blank between)


class Statement(Protocol):
    item: str
    kind: str
    text: str
    lines: tuple[int, int] | None


def asks(text: str) -> bool:
    """Does the sentence ask a question (it ends on a question mark)?"""
    return text.rstrip().rstrip("…").rstrip().endswith("?")


def speaker(text: str) -> str | None:
    """Who speaks in a turn (kctui.search.passages.speaker_of: its first name, its stamp aside), None for no turn."""
    return speaker_of(text) or None


def reply_scores(found: list[Statement], asked: dict[int, float]) -> dict[int, float]:
    """{index in `found`: score} of the replies to the questions `asked` ({index: the asking turn's score}): the
    first passage after it in its item that opens within REPLY_GAP lines of it, by another speaker."""
    speakers: dict[tuple[str, tuple[int, int]], str] = {}
    for st in found:
        if st.kind == "passage" and st.lines is not None and (who := speaker(st.text)):
            speakers.setdefault((st.item, st.lines), who)
    out: dict[int, float] = {}
    for i, score in asked.items():
        q = found[i]
        if q.kind != "passage" or q.lines is None or score <= 0:
            continue
        asker = speakers.get((q.item, q.lines))
        for j, st in enumerate(found):
            if st.item != q.item or st.kind != "passage" or st.lines is None:
                continue
            if q.lines[1] < st.lines[0] <= q.lines[1] + REPLY_GAP:
                who = speakers.get((st.item, st.lines))
                if who and who != asker:
                    out[j] = max(out.get(j, 0.0), REPLY_SHARE * score)
                break
    return out
