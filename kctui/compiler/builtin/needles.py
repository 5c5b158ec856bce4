"""Which groups of words a text holds, in one scan (speed only: what `any(w in text for w in group)` asked
of every group answers).

A rule with many patterns tries each only where a word it cannot match without stands (decided's markers:
34 groups, 106 words, asked of every sentence). Asking each word is ~100 substring tests a sentence; one
pattern of all the words, written as a tree of their letters so it tries a place's letters once, finds the
longest word at each place a word starts, and the words that begin it stand there too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence


def _tree(words: Iterable[str]) -> str:
    """A pattern matching each of `words`, the longest at a place (a word's letters, then its longer words')."""
    ends, rests = False, {}
    for w in words:
        if w:
            rests.setdefault(w[0], []).append(w[1:])
        else:
            ends = True
    branches = [re.escape(c) + _tree(rest) for c, rest in sorted(rests.items())]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return "(?:" + body + ")?" if ends else body


class Needles:
    """`held(text)`: the groups of `groups` with a word in `text`, as a bit mask (bit i: group i)."""

    def __init__(self, groups: Sequence[Iterable[str]]) -> None:
        groups = [tuple(g) for g in groups]
        words = sorted({w for g in groups for w in g if w})
        self._search = re.compile(_tree(words)).search if words else None
        # a word found at a place: its groups, and those of every word it begins with
        self._groups = {w: sum(1 << i for i, g in enumerate(groups) if any(x and w.startswith(x) for x in g))
                        for w in words}
        self._always = sum(1 << i for i, g in enumerate(groups) if "" in g)  # ("" is in every text)

    def any(self, text: str) -> bool:
        """Does `text` hold a word of any group?"""
        return bool(self._always) or (self._search is not None and self._search(text) is not None)

    def held(self, text: str) -> int:
        found, pos, search = self._always, 0, self._search
        if search is None:
            return found
        while (m := search(text, pos)) is not None:
            found |= self._groups[m.group()]
            pos = m.start() + 1
        return found
