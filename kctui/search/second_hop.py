"""A second hop for a context packet's raw passages: the rare words of the best hits that the question does not
hold, asked for in a second BM25 query whose hits join the ranking at a share of their score there.

A question about how something changed or about two things cites turns that need not share its words: the
first statement names the thing, the change names it again by its own words ("When is Kuba getting
married?": "Kuba's wedding has a date. 16 September, in Gdańsk." … sessions later "The hotel in Gdańsk
double-booked them, so it's now 14 October"), and the second hop of a multi-hop question is found by what the
first says ("the Genesis" → "I cancelled the Genesis"). Of the evidence turns missing from the 2 KB packet
of the chats' knowledge-update and multi-hop questions, half were not among the ranked passages at all; a
fifth share a word held by at most 1 % of the passages with one of the three best hits.

Unlike pseudo-relevance feedback over the best hits' frequent words (tried in session 25: ±2 questions, no
direction), only words rare in the knowledge base (at most HOP_RARE of its passages: a name, a place, a
model, not "week" or "think") and only a turn's own words (not its speaker's label, not a word of the
question, whose passages the first query found already) are asked for, and a hit the second query finds
scores HOP of its place there (below the first query's best: it fills the packet's tail, where the first
query's hits at places 50–100 share nothing with what was asked). Pure but for `rank` and `share`
(tests/unit/test_second_hop.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kctui.search.passages import speaker_prefix
from kctui.search.query import FUNCTION_WORDS, same_stem, tokens

SEEDS = 3  # the best hits whose rare words are asked for (5: chats 1,413 of 1,754 questions, 3: 1,419, none: 1,408)
HOP_RARE = 0.01  # a word held by at most this share of the passages (0.02: 1,419 too)
HOP_WORDS = 12  # at most this many words asked for (the rarest first)
HOP_HITS = 30  # the second query's hits kept
HOP = 0.3  # a second-hop hit's score: this share of the score its place in the second query gives it (0.15 / 0.5:
# 1,416 / 1,419)


def hop_words(seeds: list[str], typed: set[str], share: Callable[[str], float]) -> list[str]:
    """The words of the `seeds`' own text (a turn's speaker label left out) of three letters or more, no
    function word nor a form of a word of the question (`typed`), held by at most HOP_RARE of the passages
    (`share`), rarest first (then in the order met), at most HOP_WORDS."""
    seen: dict[str, float] = {}
    for text in seeds:
        for w in tokens(text[len(speaker_prefix(text)):]):
            if w in seen or len(w) < 3 or not w.isalnum() or w in FUNCTION_WORDS or any(same_stem(t, w) for t in typed):
                continue
            seen[w] = share(w)
    rare = [w for w, s in seen.items() if 0.0 < s <= HOP_RARE]
    return sorted(rare, key=lambda w: seen[w])[:HOP_WORDS]


def second_hop(rank: Callable[[str, int], list[Any]], share: Callable[[str], float], hits: list[Any],
               typed: set[str]) -> list[tuple[float, Any]]:
    """(score, passage) of the passages a query of the SEEDS best `hits`' rare words finds (`rank(expression,
    limit)`: best first, BM25 `score` lower better): HOP of the geometric mean of its BM25 against the best
    one's and its reciprocal rank (kctui.search.passage_scores.relevance's scale). Empty when the seeds hold
    no rare word."""
    words = hop_words([p.text for p in hits[:SEEDS]], typed, share)
    if not words:
        return []
    found = rank("text : (" + " OR ".join(f'"{w}"' for w in words) + ")", HOP_HITS)
    if not found:
        return []
    top = float(found[0].score)
    out = []
    for j, p in enumerate(found):
        ratio = float(p.score) / top if top < 0.0 else 1.0
        out.append((HOP * math.sqrt(max(0.0, ratio) / (1.0 + j)), p))
    return out


def with_hops(scored: list[tuple[float, Any]], hops: list[tuple[float, Any]]) -> list[tuple[float, Any]]:
    """The (score, passage) list with the second hop's: a passage in both keeps the better score; best first."""
    if not hops:
        return scored
    best = {p.rowid: (s, p) for s, p in scored}
    for s, p in hops:
        if p.rowid not in best or best[p.rowid][0] < s:
            best[p.rowid] = (s, p)
    return sorted(best.values(), key=lambda sp: -sp[0])
