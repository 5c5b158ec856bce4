"""A pure function of the pages' names, remembered for the same names (speed only, the same answers).

The mention step asks the forms of the standing pages' names and of the previous pass's pages' names
(kctui.compiler.steps.name_forms, first_words) on every pass; a long-lived worker's next pass, after one
source changed, asks them of the same names again. `remembered` keeps a function's answers for its last
few distinct inputs (the names as given, slug by slug in order), and hands out a copy: a caller may
change the mapping it gets.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping

KEPT = 6  # answers kept per function (the standing and the previous pass's names, a pass or two apart)

Forms = dict[str, list[str]]


def remembered(fn: Callable[[Mapping[str, Iterable[str]]], Forms]) -> Callable[[Mapping[str, Iterable[str]]], Forms]:
    """`fn` (page slug -> names, to slug -> forms) answering the same names from memory."""
    memo: dict[tuple, Forms] = {}

    @functools.wraps(fn)
    def wrapper(names: Mapping[str, Iterable[str]]) -> Forms:
        key = tuple((slug, tuple(ns)) for slug, ns in names.items())
        found = memo.pop(key, None)
        if found is None:
            found = fn(dict(key))
            while len(memo) >= KEPT:
                del memo[next(iter(memo))]  # (the oldest)
        memo[key] = found  # (the newest last)
        return {slug: list(forms) for slug, forms in found.items()}

    return wrapper
