"""A conversation's turn that names what the best hits name beyond the question's words, in the one ranking
of a context packet (kctui.search.ranking.fuse): the talk comes back to a thing by its own words, not the
question's ("Which songs are on the EP?": the best hit "Paper Lanterns is on the EP. Lemon Tree is out", later
"agreed. so its Tuesday's Ghost, Slow Weather, Paper Lanterns"; "Who filled in for Bez?": "My colleague Priya
used to play at uni" … "Priya got a hat-trick!!"). A turn ranked below the ECHO_OF best passages that shares
ECHO_WORDS content words with one of them (words of three letters or more, no function word, none the question
holds, its speaker's label left out) scores at least ECHO of that passage's score. Only turns, and only a turn's
words: a document's line that repeats a heading's words is most often the same section's. Of the evidence turns the fused ranking held
at places 20–100 without packing them, 14 % shared two such words with one of the five best statements, of the
other turns there 2.8 %. Pure (tests/unit/test_echoes.py).
"""

from __future__ import annotations

from typing import Any

from kctui.search.query import FUNCTION_WORDS, tokens
from kctui.search.turns_read import speaker_of, speaker_prefix

ECHO = 0.5  # of the best passage's score it echoes: conversations 79.2 → 79.5 % (0.3: 79.2 %)
ECHO_OF = 5  # the best passages whose words are echoed
ECHO_WORDS = 2  # content words beyond the question's a turn must share with one of them


def _words(text: str, typed: set[str]) -> set[str]:
    text = text[len(speaker_prefix(text)):]
    return {w for w in tokens(text) if len(w) > 2 and w not in FUNCTION_WORDS and w not in typed}


def with_echoes(ranked: list[tuple[float, Any]], typed: set[str]) -> list[tuple[float, Any]]:
    """(score, passage) best first, a turn below the ECHO_OF best that echoes one of them raised to ECHO of its
    score (see the module's text); `typed`: the question's tokens."""
    best = [(score, _words(p.text, typed)) for score, p in ranked[:ECHO_OF] if speaker_of(p.text)]
    out = list(ranked[:ECHO_OF])
    for score, p in ranked[ECHO_OF:]:
        if speaker_of(p.text):
            own = _words(p.text, typed)
            score = max([score, *(ECHO * s for s, words in best if len(own & words) >= ECHO_WORDS)])
        out.append((score, p))
    return sorted(out, key=lambda sp: -sp[0])
