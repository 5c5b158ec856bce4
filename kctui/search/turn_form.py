"""What a turn of a conversation is worth for its form, beside its words (kctui.search.passage_weight), in
the one ranking of a context packet (kctui.search.ranking.fuse): a short turn that names nothing the
question asks about and holds no number is talk ("Legend.", "Living the dream.", "Ha. I'd have paid money
to see that.") and counts TALK. It reaches the ranking as a hit's reply or lead-in, or by a word of the
question it shares with the chat's small talk, and at a 2 KB budget it takes a place the turn that answers
needs: the evidence a packet missed was a short turn in 22 % of the cases, the turns ranked first that were
not evidence in 42 %. A turn with a number ("Still 1:55.") or a word of the question ("Thursday as usual.")
is not talk, nor a question (it says what the talk turns to: "How's the boiler?"; 0.5 on a question turn
cost more than it won), nor a longer turn (SHORT characters or more), nor a line of a document (`speaker_of`).
Pure (tests/unit/test_turn_form.py).
"""

from __future__ import annotations

import re

from kctui.search.passage_weight import names_any
from kctui.search.passages import speaker_of

TALK = 0.4  # a short turn naming no content word of the question and holding no number: conversations 1,090 →
# 1,096 of 1,394 at 0.5 (0.25 with SHORT 80: 1,096), with FUSED_PASSAGES 100 1,105 at 0.4 (0.5: 1,102)
SHORT = 60  # characters of a turn, its speaker's label with them (80: the same 1,105 at 0.5)
_DIGIT = re.compile(r"\d")


def turn_form(text: str, content: set[str]) -> float:
    """The factor of a passage's score for its form as a turn: TALK for talk (see the module's text), else 1.
    `content`: the question's content words (kctui.search.passage_weight.content_word)."""
    body = text.strip()
    if len(body) >= SHORT or body.endswith("?") or _DIGIT.search(body) or not speaker_of(body):
        return 1.0
    return 1.0 if names_any(body, content) else TALK
