"""What a turn of a conversation is worth for its form, beside its words (kctui.search.passage_weight), in
the one ranking of a context packet (kctui.search.ranking.fuse): a short turn that names nothing the
question asks about and holds no number is talk ("Legend.", "Living the dream.", "Ha. I'd have paid money
to see that.") and counts TALK. It reaches the ranking as a hit's reply or lead-in, or by a word of the
question it shares with the chat's small talk, and at a 2 KB budget it takes a place the turn that answers
needs: the evidence a packet missed was a short turn in 22 % of the cases, the turns ranked first that were
not evidence in 42 %. A turn with a number ("Still 1:55.") or a word of the question ("Thursday as usual.")
is not talk, nor a question (it says what the talk turns to: "How's the boiler?"; 0.5 on a question turn
cost more than it won), nor a longer turn (SHORT characters or more), nor a line of a document (`speaker_of`).
A turn's claim ("Maddie (2024-01-08) — said: I did 6 miles on Saturday") states a value asked for by its
words (`said_text`), not by the date of its session in front: that date made every claim of a person the
question names "state a time" (and a count: it holds digits), and at WHEN times their score a person's
passing remarks led the packet ("What finish time was Maddie aiming for?" → "I've signed up for a
marathon."). Pure (tests/unit/test_turn_form.py).
"""

from __future__ import annotations

import re

from kctui.search.passage_weight import names_any
from kctui.search.turns_read import speaker_of

TALK = 0.4  # a short turn naming no content word of the question and holding no number: conversations 1,090 →
# 1,096 of 1,394 at 0.5 (0.25 with SHORT 80: 1,096), with FUSED_PASSAGES 100 1,105 at 0.4 (0.5: 1,102)
SHORT = 60  # characters of a turn, its speaker's label with them (80: the same 1,105 at 0.5)
_DIGIT = re.compile(r"\d")
SAID = frozenset(["said", "plan"])  # the attributes of a turn's claims (kctui.compiler.builtin.conversation)
_SAID_HEAD = re.compile(r"^\([^)]{1,120}\) — (?:said|plan): ")  # "(2024-01-08) — said: " as the ranking shows it


def turn_form(text: str, content: set[str]) -> float:
    """The factor of a passage's score for its form as a turn: TALK for talk (see the module's text), else 1.
    `content`: the question's content words (kctui.search.passage_weight.content_word)."""
    body = text.strip()
    if len(body) >= SHORT or body.endswith("?") or _DIGIT.search(body) or not speaker_of(body):
        return 1.0
    return 1.0 if names_any(body, content) else TALK


def said_text(text: str) -> str:
    """A claim's text as the ranking shows it, without the dated scope and attribute of a turn's claim in
    front ("(2024-01-08) — said: I ran." → "I ran."); any other claim's text as it is."""
    return _SAID_HEAD.sub("", text, count=1)
