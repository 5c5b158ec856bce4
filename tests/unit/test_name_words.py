"""The words of a page's names a query's raw passages are ranked by (kctui.services.search `name_words`): a
firm's short form leaves its long name's ordinary tail out; a surname or another spelling joins."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(("typed", "names", "words"), [
    ({"kestrel"}, ["Kestrel Discovery", "Kestrel"], ["kestrel", "kestrel"]),  # a firm's ordinary tail: no name
    ({"lena"}, ["Lena Vogel", "Len"], ["lena", "vogel", "len"]),  # a surname is another way to call her
    ({"benedict"}, ["Benedict", "Ben"], ["benedict", "ben"]),
    ({"ben"}, ["Benedict", "Ben"], ["benedict", "ben"]),
])
def test_the_raw_passages_are_not_ranked_by_a_firms_tail(typed: set[str], names: list[str], words: list[str]) -> None:
    from kctui.services.search import name_words

    assert name_words(typed, names) == words
