"""A page's claims that name a query's terms, the most relevant first (a search hit's claims and a context
packet's, kctui.services.search), and what of a page's claims does not depend on the query, read once.

`best_claims(claims, groups, n, title)`: a claim earns one point per term named in its subject, scope or
attribute and a half per term only its value names (so `Debian (12) — releaseDate` beats `Debian (1.2) —
releaseDate: 1996-12-12`); a subject that is just the page's own title earns a quarter per term (every claim of
the page has it, so it tells them apart by nothing), and such claims are kept only when no claim of the page
names a term itself; a matching summary sentence earns a quarter more. Among equals, the claim where the
query's words are densest (occurrences per word, BM25-style saturation) comes first, then page order. A
contradicted page's disputed claims are left to its flag, which lists them all.

`PageClaims` is a page's claims as parsed, with their fields' distinct texts folded and their tokens, kept
per page (`page_claims`: by the page's digest, the claims' JSON compared whole) so the next query over the
same page reads none of it again: a context packet scores ~900 claims of its twelve best pages, most of them
the same pages query after query. The claims it holds are shared: read them, never change them.
"""

from __future__ import annotations

import json
import threading
from bisect import bisect_right
from collections import Counter, OrderedDict
from itertools import accumulate
from typing import Any

from kctui.search.query import Group, fold, group_in, quick_needles, tokens

TITLE_SUBJECT = 0.25  # a term named only by a subject that is the page's own title
SUMMARY_BONUS = 0.25  # a matching sentence of the page's summary leads its equals
KEPT_PAGES = 512  # pages whose parsed claims are kept

SEPARATOR = "\x00"  # between a page's folded field texts (a query's needle is letters and digits)
_EMPTY: frozenset[int] = frozenset()


class PageClaims:
    """A page's claims (`claims`) and, for each, the indexes of its subject, scope, attribute and value among
    the page's distinct field texts (`texts`, folded and joined into one string to look for a word in all of
    them at once), whether its subject is the page's title, and whether it is a summary sentence; tokens are
    made when first asked for."""

    def __init__(self, claims: list[dict[str, Any]], title: str) -> None:
        self.claims = claims
        at: dict[str, int] = {}
        title_key = fold(title).strip()

        def index(value: Any) -> int:
            text = str(value or "")
            got = at.get(text)
            if got is None:
                got = at[text] = len(at)
            return got

        self.fields = [(bool(c.get("conflict")), index(c.get("subject")), index(c.get("scope")),
                        index(c.get("attribute")), index(c.get("value")), c.get("form") == "summary") for c in claims]
        self.texts = list(at)
        folded = [fold(t) for t in self.texts]
        self.titled = [f.strip() == title_key for f in folded]  # (a subject that is the page's title)
        self.joined = SEPARATOR.join(folded)
        self.starts = list(accumulate((len(f) + 1 for f in folded[:-1]), initial=0))
        self._tokens: list[list[str] | None] = [None] * len(self.texts)
        self._claim_words: list[tuple[dict[str, int], int] | None] = [None] * len(claims)

    def holding(self, needle: str) -> list[int]:
        """The field texts whose folded form holds `needle` (no SEPARATOR in it), in order."""
        out: list[int] = []
        at = self.joined.find(needle)
        while at >= 0:
            i = bisect_right(self.starts, at) - 1
            out.append(i)
            if i + 1 >= len(self.starts):
                break
            at = self.joined.find(needle, self.starts[i + 1])
        return out

    def tokens(self, i: int) -> list[str]:
        got = self._tokens[i]
        if got is None:
            got = self._tokens[i] = tokens(self.texts[i])
        return got

    def density(self, i: int, words: set[str]) -> float:
        """How densely claim `i`'s text holds `words`: occurrences per word, BM25's tf saturation,
        length-normalised."""
        got = self._claim_words[i]
        if got is None:
            toks = tokens(str(self.claims[i].get("text") or ""))
            got = self._claim_words[i] = (Counter(toks), len(toks))
        counts, n = got
        if not n:
            return 0.0
        tf = sum(counts.get(w, 0) for w in words)
        return tf / (tf + 1.2 * (0.25 + 0.75 * n / 24))


_kept: OrderedDict[tuple[str, str], tuple[str, PageClaims]] = OrderedDict()
_lock = threading.Lock()  # (the API serves queries from several threads)


def page_claims(digest: str, claims_json: str, title: str) -> PageClaims:
    """The page's claims, parsed once per page and title (by `digest`; the JSON is compared whole, so a
    changed page is parsed again whatever its digest says)."""
    key = (digest, title)
    with _lock:
        got = _kept.get(key)
        if got is not None and got[0] == claims_json:
            _kept.move_to_end(key)
            return got[1]
    page = PageClaims(json.loads(claims_json), title)
    with _lock:
        _kept[key] = (claims_json, page)
        while len(_kept) > KEPT_PAGES:
            _kept.popitem(last=False)
    return page


def best_claims(page: PageClaims, groups: tuple[Group, ...], n: int) -> list[dict[str, Any]]:
    """The page's `n` best claims for the query's `groups` (see the module's text), each a copy with its
    score as `matches`."""
    named = [_EMPTY] * len(page.texts)  # the groups each field text names
    for i in sorted({i for g in groups for nd in quick_needles(g) for i in page.holding(nd)}):
        toks = page.tokens(i)
        named[i] = frozenset(k for k, g in enumerate(groups) if group_in(g, toks))
    n_groups = len(groups)
    found = []
    for i, (conflict, subject, scope, attribute, value, summary) in enumerate(page.fields):
        by_subject, by_scope, by_attribute, by_value = named[subject], named[scope], named[attribute], named[value]
        if conflict or not (by_subject or by_scope or by_attribute or by_value):
            continue
        strong = by_scope | by_attribute
        weak = _EMPTY
        if page.titled[subject]:
            weak = by_subject - strong
        else:
            strong |= by_subject
        score = float(len(strong)) + TITLE_SUBJECT * len(weak)
        if len(strong) < n_groups:
            score += 0.5 * len(by_value - strong)
        if score > 0 and summary:
            score += SUMMARY_BONUS
        if score > 0:
            found.append((score, i))
    if any(f[0] >= 0.5 for f in found):  # claims that name the query's terms themselves: only those
        found = [f for f in found if f[0] >= 0.5]
    if len(found) > n:  # (only a claim that scores as well as the nth can be among the n: their density decides)
        least = sorted((f[0] for f in found), reverse=True)[n - 1] if n > 0 else float("inf")
        found = [f for f in found if f[0] >= least]
    words = {t for g in groups for a in g.alts for t in a.toks}
    scored = [(score, -page.density(i, words), i) for score, i in found]
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    return [dict(page.claims[i], matches=score) for score, _d, i in scored[:n]]
