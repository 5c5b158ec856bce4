"""The raw passages' scores in the one ranking of a context packet (kctui.search.ranking.fuse), before their
weight for their form (kctui.search.passage_weight): the passage at BM25 rank j scores the geometric mean of
its BM25 against the best one's and its reciprocal rank 1/(K + j) (`relevance`), and the passages next to a
hit in its section score a share of the hit's (`with_neighbours`). A question asking for a value (a time, a
count, an amount) reaches past a best hit's neighbours: a passage a few places on in its section that states
one (VALUE_REACH, VALUE_NEAR) is where the talk the hit opened came to it ("How's the bathroom?" … "What did
it come to in the end" / "£6,400."). A turn's speaker going on two places after it, another's word between,
scores GOES_ON of it (`_goes_on`): the news a turn announces comes after the other asks for it. For a question
asking for a value, the value reach starts from every hit that names one of the question's names in its own
words too (kctui.search.named_values.names_in_words), not only from the VALUE_HITS best; and a turn of a best
hit's section (SECTION_HITS, SECTION_REACH) that states a value of the kind scores SECTION_VALUE of the hit's
(`_values_in_section`). Pure (tests/unit/test_ranking.py, test_asked_for.py, test_goes_on.py,
test_named_values.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kctui.search.asked_for import states
from kctui.search.named_values import names_in_words
from kctui.search.turns_read import is_heading, speaker_of

K = 1.0
REPLY = 0.25  # the passage after a hit (a reply, the rest of a thought), against the hit's score
ANSWER = 0.7  # the passage after a hit that asks a question: its answer
LEAD_IN = 0.1  # the passage before a hit
UNDER_HEADING = 0.6  # the passage right after a heading hit, against the heading's score: what its section opens
# with ("## 1. StockPilot 9.4.0 at Doncaster" / "- went live Sun 22 Nov as planned"), not a reply (REPLY)
GOES_ON = 0.5  # the hit's speaker's next turn after another's word between ("landlord news — he finally answered!" /
# "And?" / "He's agreed to £1,550 instead of £1,600!"): chats 78.8 → 79.2 % with turn_form.said_text (after the 20
# best hits only: 79.1 %; there 0.25 / 0.7: 79.0 / 79.0 %)
VALUE_HITS = 10  # a question asking for a value: the best hits whose next VALUE_REACH passages are looked at, where
VALUE_REACH = 6  # one stating a value of the kind asked for scores VALUE_NEAR of the hit's (then WHEN): chats 756 →
SECTION_HITS = 3  # a question asking for a value: the best hits whose section's turns stating one (up to
SECTION_REACH = 30  # this many places away) score SECTION_VALUE of the hit's
SECTION_VALUE = 0.15
VALUE_NEAR = 0.3  # 771 of 1,034 (reach 4 / 8: 766 / 772; share 0.2 / 0.4: 766 / 767), notes 912 → 914 of 1,140


def with_neighbours(passages: list[Any], around: dict[int, Any], wants: str | None = None,
                    names: frozenset[str] = frozenset()) -> list[tuple[float, Any]]:
    """(score, passage) of the ranked passages and of the passages next to them in the same section. A hit
    scores by its BM25 and its rank (`relevance`); the one after a hit is its reply or continuation
    (REPLY of the hit's score, ANSWER when the hit asks a question), the one before it its lead-in
    (LEAD_IN), unless it is the section's heading (the group's header says it already); a passage keeps
    the best score it is given, a ranked one too (a weak hit right after a strong one is its reply, and
    counts as that). Ties keep the order of the ranking. When the question asks for a value (`wants`),
    a passage up to VALUE_REACH after one of the VALUE_HITS best hits, in its section, that states one of
    that kind is where the talk the hit opened comes to it (`_values_after`); so from any hit naming one of
    `names` (the question's names) in its own words; and a turn of a SECTION_HITS best hit's section that
    states one scores SECTION_VALUE of the hit's (`_values_in_section`)."""
    best: dict[int, tuple[float, Any]] = {}

    def give(score: float, p: Any) -> None:
        if p.rowid not in best or best[p.rowid][0] < score:
            best[p.rowid] = (score, p)

    rows = {**around, **{p.rowid: p for p in passages}}  # `around` holds no ranked passage

    def next_to(p: Any, d: int) -> Any:
        q = rows.get(p.rowid + d)
        if q is not None and q.path == p.path and q.heading == p.heading and not is_heading(q.text, q.heading):
            return q
        return None

    for j, p in enumerate(passages):
        score = relevance(passages, j)
        give(score, p)
        after = ANSWER if p.text.rstrip().endswith("?") else UNDER_HEADING if is_heading(p.text, p.heading) else REPLY
        for d, share in ((1, after), (-1, LEAD_IN)):
            q = next_to(p, d)
            if q is not None:
                give(score * share, q)
        q = _goes_on(p, next_to)
        if q is not None:
            give(score * GOES_ON, q)
        if wants and (j < VALUE_HITS or names_in_words(p.text, names)):
            for q in _values_after(p, next_to, wants):
                give(score * VALUE_NEAR, q)
        if wants and j < SECTION_HITS:
            for q in _values_in_section(p, rows, wants):
                give(score * SECTION_VALUE, q)
    return sorted(best.values(), key=lambda sp: -sp[0])


def _goes_on(p: Any, next_to: Callable[[Any, int], Any]) -> Any:
    """The turn two places after turn `p` in its section when its speaker speaks it and another speaker the
    turn between (a word the other put in: "And?", "By how much?"), else None."""
    who = speaker_of(p.text)
    between = next_to(p, 1) if who else None
    then = next_to(between, 1) if between is not None else None
    if then is None or speaker_of(then.text) != who or speaker_of(between.text) in ("", who):
        return None
    return then


def _values_after(p: Any, next_to: Callable[[Any, int], Any], wants: str) -> list[Any]:
    """The passages 2 to VALUE_REACH places after `p` in its section (`next_to` steps one place, None past
    its end) that state a value of the kind `wants` (a chat's answer, turns after its topic is named)."""
    out = []
    q = next_to(p, 1)
    for _ in range(2, VALUE_REACH + 1):
        q = next_to(q, 1) if q is not None else None
        if q is None:
            break
        if states(wants, q.text):
            out.append(q)
    return out


def _values_in_section(p: Any, rows: dict[int, Any], wants: str) -> list[Any]:
    """The turns of `p`'s section among `rows` (up to SECTION_REACH places either way) that state a value of
    the kind `wants`: in a session a best hit is in, the value asked for is often said turns away from the
    words the question shares ("What salary did Callum end up accepting?": "I handed my notice in last
    Monday" … four turns before it, "They came back at £32,500. I said yes")."""
    return [q for q in rows.values()
            if q is not p and abs(q.rowid - p.rowid) <= SECTION_REACH and q.path == p.path and q.heading == p.heading
            and speaker_of(q.text) and states(wants, q.text)]


def relevance(passages: list[Any], j: int) -> float:
    """The score of the `j`th ranked passage: the geometric mean of its BM25 over the best one's (FTS5's
    bm25 is negative, better lower) and its reciprocal rank 1/(K + j). A passage that matches nearly as
    well as the best keeps more of its score than its rank alone gives it (0.69 at the second place for
    95 % of the best's BM25, where the rank alone halves it), while a page the query names still leads the
    passages (its claims score by rank). Passages ranked without scores (all 0) score by rank alone."""
    rank = 1.0 / (K + j)
    top = float(passages[0].score) if passages else 0.0
    if top < 0.0:
        return math.sqrt(max(0.0, float(passages[j].score) / top) * rank)
    return rank
