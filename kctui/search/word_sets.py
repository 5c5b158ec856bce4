"""A text's words as a set, and whether it names a word or one sharing its stem (`typed_word`), looked up rather
than compared word by word: the ranking, the quoting and the weights of a context packet ask it of the same
passages and sentences again and again, and the next query asks it of most of them again. Each is kept for the
texts met last (tests/unit/test_context_speed.py holds `names_word` against `typed_word`)."""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache

from kctui.search.query import _TOKEN, fold


@lru_cache(maxsize=4096)
def word_set(text: str) -> frozenset[str]:
    """The set of the text's `tokens`, kept for the texts met last: a passage's words are asked for by
    several steps of one context packet (its weight, its place among the others, the claims it stands for),
    and again by the next query that ranks it."""
    return frozenset(_TOKEN.findall(fold(text)))


@lru_cache(maxsize=4096)
def _stem_index(text: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """The first four letters of the text's words of four letters or more, and its words sorted."""
    words = word_set(text)
    return frozenset(w[:4] for w in words if len(w) >= 4), tuple(sorted(words))


@lru_cache(maxsize=32768)
def names_word(word: str, text: str) -> bool:
    """`typed_word(word, word_set(text))`: whether the text holds the word or one sharing its stem, looked up
    rather than compared with each of the text's words: a word it begins with (four letters or more) is one
    of the word's prefixes, and the words that begin with it follow it in the text's words sorted."""
    words = word_set(text)
    if word in words:
        return True
    if len(word) < 4:
        return False
    heads, ordered = _stem_index(text)
    if word[:4] not in heads:  # (a word sharing its stem shares its first four letters)
        return False
    if any(word[:k] in words for k in range(4, len(word))):
        return True
    i = bisect_left(ordered, word)
    return i < len(ordered) and ordered[i].startswith(word)
