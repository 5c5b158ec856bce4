"""A model's name written in the plural (issue 31): "both Furuno FMD-3200s", "BrightSign XT1144s for the
projection wall arrived", "acer c736s: 1,180 of 2,400 at the warehouse" count the thing the page "Furuno
FMD-3200" (or "Acer C736") is about. A name of two words or more whose last word ends in a digit (a
model's designation, a number) is found with an "s" after it; no other name is (English plurals of words
are other words: "Grafana Clouds" is no form of a page)."""

from __future__ import annotations

from collections.abc import Sequence


def same_words(name: Sequence[str], written: Sequence[str]) -> bool:
    """Are the case-folded words `written` the name's words, its last one perhaps with a plural "s" after
    its digit ("fmd-3200s" of "furuno fmd-3200")?"""
    if len(written) != len(name):
        return False
    if tuple(written) == tuple(name):
        return True
    last = name[-1]
    return len(name) > 1 and last[-1:].isdigit() and tuple(written[:-1]) == tuple(name[:-1]) \
        and written[-1] == last + "s"
