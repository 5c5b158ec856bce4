"""A turn that states a value of the kind a question asks for, in talk about what the question names, in the
one ranking of a context packet (kctui.search.ranking.fuse): the answer comes in its own words, not the
question's, right after the thing was named ("How heavy was Nell when she was born?": "Nell arrived last
Tuesday, 4:51am" … "congratulations!!! how are you all???" … "we're all ok. Knackered. She was 7lb 2oz").
A turn that states such a value (kctui.search.asked_for.states) and names one of the question's names
(kctui.search.query.people_in) in its own words (its speaker's label left out: that says who speaks, not what
the talk is about), or follows within NAMED_BEFORE turns of its section one that does, counts NAMED_VALUE
times its score (then WHEN, as any statement of the kind asked for). Pure (tests/unit/test_named_values.py).
"""

from __future__ import annotations

from typing import Any

from kctui.search.turns_read import speaker_of, speaker_prefix
from kctui.search.word_sets import word_set

NAMED_VALUE = 2.0  # a value turn in talk naming what the question names, against another value turn (1.5 with
# NAMED_BEFORE 3: 2 questions fewer)
NAMED_BEFORE = 5  # how many turns before it may name it


def names_in_words(text: str, names: frozenset[str]) -> bool:
    """Whether a turn's own words (its speaker's label left out) hold one of the names (casefolded words;
    a possessive's 's counts: "Nell's")."""
    if not names:
        return False
    words = word_set(text[len(speaker_prefix(text)):])
    return any(n in words for n in names)


def in_named_stretch(p: Any, rows: dict[int, Any], names: frozenset[str]) -> bool:
    """Whether turn `p` or one of the NAMED_BEFORE turns before it in its section (`rows`: passages by
    rowid, consecutive in a file; one not among them is passed over) names one of `names` in its own words."""
    if not names or not speaker_of(p.text):
        return False
    for d in range(NAMED_BEFORE + 1):
        q = p if d == 0 else rows.get(p.rowid - d)
        if q is None:
            continue  # not fetched: the turns before it may still be
        if q.path != p.path or q.heading != p.heading:
            return False
        if names_in_words(q.text, names):
            return True
    return False
