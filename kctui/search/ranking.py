"""One ranking over both layers of a knowledge base for a context packet: the compiled pages' claims and
the raw source passages, fused into one ordered list of statements.

Inputs are the two rankings the search already makes: the pages that match the query (best first,
each with its claims that name the query's terms, most relevant first) and the raw passages by BM25
(kctui.search.passage_index). They are fused on one scale: the page at rank i scores 1/(K + i) when the
query names the page (its title's words typed), the best passage 1.0 and another the geometric mean of
its BM25 against the best one's and its reciprocal rank 1/(K + j), its neighbours a share of it
(kctui.search.passage_scores); another page's claims rank after the passages (the passage a claim cites is
ranked with the others, and the claim stands in for it, see below), each further claim of a page a little
less than the one before. A passage is also weighed by its form (kctui.search.passage_weight): a heading comes
after what it heads; a passage of a document whose own words name nothing the query asks about and hold no
number was found by the words around it, and counts less (OWN_WORDS): a line that holds a number ("- went
live Sun 22 Nov, done by 09:20") may be the answer its neighbours ask for, filler does not.

A compiled claim and the passage it was lifted from are never both kept: a passage a kept claim
cites is dropped; a passage reached first stands for the claims that cite it (`compiled`: the pages
that compile it), and those claims are dropped, unless a claim holds nearly all of the passage's words
(`CLAIM_COVERS`) and its page is one the query names, in which case the claim stands in for it, so the
compiled layer is preferred wherever it says what the passage says about what was asked. A claim of another
page does not (the passage stays, listing that page in `compiled`): under its page's header, with a
citation, it would cost a second header for the same words; nor does a claim of the passage's own source
page that restates it, nor a claim of a flagged page (its flag, about any of the page's facts, would come
with it), nor any claim of a conversation's turn (`speaker_of`): the turn is its speaker's words on a line
under its session's header, which the packet's other turns of that session share, where the claim costs
its page's header and a citation and drops the speaker ("Carol (2024-06-24) — plan: I'll hold you to
that. x" under `## Carol` against "L601: Carol: I'll hold you to that. x" under its session's date). A
named page's description is a statement of its own when it says something: it defines what was typed
(`defines`: "X is …"), names a query word beyond the page's title, or the query is the page's name alone.
Pure: a function of its inputs (tests/unit/test_ranking.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from kctui.core.decided_values import decided_rank
from kctui.core.record_tables import AGAINST_MARK
from kctui.search.asked_for import states
from kctui.search.decided_lines import AGAINST_SHARE, Spans, passage_flag
from kctui.search.echoes import with_echoes
from kctui.search.named_values import NAMED_VALUE, in_named_stretch
from kctui.search.passage_scores import K, with_neighbours
from kctui.search.passage_weight import content_word, moved_words, passage_weight
from kctui.search.query import tokens, typed_word
from kctui.search.second_hop import with_hops
from kctui.search.turn_form import said_text, turn_form
from kctui.search.turns_read import speaker_of
from kctui.search.word_sets import names_word, word_set

PAGE_WEIGHT = 0.6  # a page the query does not name: its claims against the passages
NAMED = 0.5  # the share of a page's title words the query must hold for the page to count in full
STRONG = 1.0  # a claim naming a query term in its subject, scope or attribute (not only in its value)
DESCRIBED_PAGES = 3  # the best pages whose description may lead when it holds most of the query's words
NEXT_CLAIM = 0.85  # each further claim of one page, against the one before
CLAIM_COVERS = 0.8  # a claim holding this share of a passage's words stands in for the passage
DIVERSE = 1.0  # how far a statement naming query words not yet named moves up
DIVERSE_WINDOW = 40  # how far down the ranking it may come from
WHEN = 4.0  # a question that asks for a duration, a count, an amount, a weight, a distance or an age: a statement
# that states one, against one that does not (2.0 before session 28; 3.0: chats 81.1 %, 4.0: 81.4 % text)
WHEN_TIME = 3.0  # and one that asks for a time: a weekday or "last night" is in far more turns than a sum (4.0 lost
# three "when" questions that 3.0 kept)

_COPULA = frozenset(["is", "are", "means", "refers"])
_ARTICLES = frozenset(["a", "an", "the"])
_CITATION = re.compile(r"\^\[((?:\\.|[^\]\\])+):L(\d+)(?:-L(\d+))?\]")


@dataclass(frozen=True)
class Statement:
    """One line of a packet: a compiled claim or description of a page, or a raw passage of a source."""

    group: tuple[str, ...]  # ("page", page path) or ("source", path, heading)
    kind: str  # "claim" | "description" | "passage"
    text: str
    score: float
    source: str = ""  # the cited (or quoted) source path; "" for a description
    lines: tuple[int, int] = (0, 0)
    citation: str = ""
    compiled: tuple[str, ...] = field(default=())  # a passage: the pages whose claims cite it


def cited(citation: str) -> tuple[str, int, int] | None:
    m = _CITATION.search(citation or "")
    if not m:
        return None
    return m.group(1).replace("\\", ""), int(m.group(2)), int(m.group(3) or m.group(2))


def _overlaps(a: tuple[str, int, int], path: str, start: int, end: int) -> bool:
    return a[0] == path and a[1] <= end and start <= a[2]


_DATED = re.compile(r" \((?:19|20)\d\d-\d\d-\d\d[;)]")  # "Lena (2024-06-30) — said: …", not "Python (3.12) — …"
_NOTE = re.compile(r"^[^\n]{1,160}? — note: ")


def claim_text(claim_text: str, title: str) -> str:
    """What a claim says, without what the group header already says: the page title it repeats in front
    ("Title — revenue: …" → "revenue: …", "Title (2024-06-30) — said: …" → "(2024-06-30) — said: …"), and a
    note's subject and label ("Source — note: …" → "…")."""
    text = claim_text
    m = _NOTE.match(text)
    if m:
        return text[m.end():]
    for head in (f"{title} — ", f"{title}: "):
        if title and text.startswith(head):
            return text[len(head):]
    if title and _DATED.match(text, len(title)) and text.startswith(title):  # a dated statement of its subject
        return text[len(title) + 1:]
    return text


def _share_typed(text: str, typed: set[str]) -> float:
    return sum(1 for t in typed if names_word(t, text)) / len(typed) if typed else 0.0


def defines(description: str, typed: set[str]) -> bool:
    """Whether the description is a definition of something the person typed: it opens with "X is /
    are / means / refers …" (an article before X allowed) and every word of X was typed."""
    toks = tokens(description[:200])[:10]
    at = next((i for i, t in enumerate(toks) if t in _COPULA), None)
    if not at:
        return False
    subject = [t for t in toks[:at] if t not in _ARTICLES] if toks[0] in _ARTICLES else toks[:at]
    return bool(subject) and all(t in typed for t in subject)


def _holds_more(text: str, typed: set[str], title: set[str]) -> bool:
    """Whether the text names a word the query holds beyond the page title's own: a description that only
    names its page ("Lena, a person mentioned in 19 sources.") answers nothing the title does not."""
    return any(names_word(t, text) for t in typed if not typed_word(t, title) and content_word(t))


def _covers(claim: str, passage: str) -> bool:
    words = word_set(passage)
    return bool(words) and len(words & word_set(claim)) >= CLAIM_COVERS * len(words)


def _page_statements(pages: list[dict[str, Any]], typed: set[str], after: int,
                     owners: frozenset[str] = frozenset()) -> list[Statement]:
    """A page the query names (its title's words typed) leads with its description and the claims that
    name a query term in their subject, scope or attribute (`matches` ≥ STRONG); another page's claims,
    and a named page's claims that name one only in their value, come after the `after` passages (the
    passages they cite are ranked with the others)."""
    out: list[Statement] = []
    named_rank = 0
    for i, page in enumerate(pages):
        title = str(page.get("title") or "")
        words = tokens(title)
        named = _named(words, typed, owners)
        if named:
            score = 1.0 / (K + named_rank)
            named_rank += 1
        else:
            score = PAGE_WEIGHT / (K + after + i)
        group = ("page", str(page["page"]))
        desc = str(page.get("description") or "")
        says = defines(desc, typed) or _holds_more(desc, typed, set(words)) or all(typed_word(t, set(words)) for t in typed)
        if desc and says and (named or (i < DESCRIBED_PAGES and _share_typed(desc, typed) >= NAMED)):
            # a named page's own definition; one of the best pages' when it holds most of the query
            out.append(Statement(group, "description", desc, max(score, 1.0 / (K + i + 1)) * 1.01))
        weak = PAGE_WEIGHT / (K + after + i)
        claims = sorted(page.get("claims") or [], key=lambda c: decided_rank(str(c.get("text") or "")))  # decided first
        out += [_claim_statement(group, c, title, (score if c.get("matches", STRONG) >= STRONG else weak) * NEXT_CLAIM ** n)
                for n, c in enumerate(claims)]
        if named:  # what it states of the kind the query asks for, after the claims that name the query's words
            out += [_claim_statement(group, c, title, score * NEXT_CLAIM ** (len(claims) + n))
                    for n, c in enumerate(page.get("stating") or [])]
    return out


def _named(words: list[str], typed: set[str], owners: frozenset[str]) -> bool:
    """Whether the query names a page with these title words (NAMED of them typed, not only as an owner)."""
    return bool(words) and sum(1 for w in words if typed_word(w, typed - owners)) >= NAMED * len(words)


def _claim_statement(group: tuple[str, ...], claim: dict[str, Any], title: str, score: float) -> Statement:
    citation = str(claim.get("citation") or "")
    where = cited(citation)
    return Statement(group, "claim", claim_text(str(claim.get("text") or ""), title), score,
                     where[0] if where else "", (where[1], where[2]) if where else (0, 0), citation)


def _diverse(ranked: list[Statement], typed: set[str]) -> list[Statement]:
    """The raw passages re-ordered among themselves (the compiled statements keep their places) so that one
    naming a query word the passages before it did not name moves up (by DIVERSE per such word, against
    the share of the query it holds): a question about two things gets both, not ten passages about the
    first."""
    slots = [i for i, s in enumerate(ranked) if s.kind == "passage"]
    if not typed or DIVERSE == 0 or len(slots) < 2:
        return ranked
    def names(text: str) -> frozenset[str]:  # the query words the text names (or a word sharing their stem)
        return frozenset(t for t in typed if names_word(t, text))

    passages = [ranked[i] for i in slots]
    words = [names(s.text) for s in passages]
    every = frozenset().union(*words)
    seen: set[str] = set()
    order: list[Statement] = []
    left = list(range(len(passages)))
    while left:
        if seen >= every:  # no passage left names a word not named yet: the rest keep their order (best first)
            order += [passages[i] for i in left]
            break
        best = max(left[:DIVERSE_WINDOW],
                   key=lambda i: passages[i].score * (1 + DIVERSE * len(words[i] - seen) / len(typed)))
        left.remove(best)
        order.append(passages[best])
        seen |= words[best]
    out = list(ranked)
    for i, s in zip(slots, order):
        out[i] = s
    return out


def fuse(pages: list[dict[str, Any]], passages: Iterable[Any], typed: set[str],
         around: dict[int, Any] | None = None, wants: str | None = None,
         owners: frozenset[str] = frozenset(), speakers: frozenset[str] = frozenset(),
         latest: bool = False, hops: list[tuple[float, Any]] | None = None,
         against: Spans | None = None) -> list[Statement]:
    """The statements of both layers, best first, each cited passage once (see the module's text).
    `pages`: page hits best first (`page`, `title`, `description`, `claims` with `text` and `citation`);
    `passages`: ranked passages (`path`, `start`, `end`, `text`, `heading`); `typed`: the query's tokens;
    `wants`: what the query asks for (kctui.search.asked_for: "time", "duration", "count", "amount", …): a
    statement that states such a value counts WHEN (a time: WHEN_TIME) times its score; `speakers`: the people the query names
    (kctui.search.query.people_in): a turn one of them speaks counts SPEAKER times its score (what a
    person says is most often about them); `latest`: the query asks how things stand in the end
    (kctui.search.time_words.asks_latest): a turn of a conversation that says something changed or settled
    (tells_change) counts SETTLED times its score (in a conversation the news comes as it happens, "we're
    going to Porto instead!"; a document's "now" is most often how it stands when written, not news). Each
    passage's weight for its form: kctui.search.passage_weight. `hops`: (score, passage) of a second query
    (kctui.search.second_hop), joined to the passages' scores. `against`: the lines a person decided on
    (kctui.search.decided_lines): a passage stating the value decided there carries the flag, one decided
    against at AGAINST_SHARE."""
    passages = list(passages)
    candidates = _page_statements(pages, typed, len(passages), owners)
    content = {t for t in typed if content_word(t)}
    rows = {**(around or {}), **{p.rowid: p for p in passages}}
    # the things asked about that a passage or a page's claim tells a change of (passage_weight.SUPERSEDED)
    moved = moved_words([*passages, *candidates], content, wants) if latest and wants else frozenset()
    for score, p in with_echoes(with_hops(with_neighbours(passages, around or {}, wants, speakers), hops or []), typed):
        score *= passage_weight(p, content, speakers, latest, moved, wants) * turn_form(p.text, content)
        if wants and speakers and states(wants, p.text) and in_named_stretch(p, rows, speakers):
            score *= NAMED_VALUE  # a value in talk naming what was asked about (kctui.search.named_values)
        flag = passage_flag(against, p.path, p.start, p.end, p.text) if against else ""
        candidates.append(Statement(("source", p.path, p.heading), "passage", p.text + flag,
                                    score * AGAINST_SHARE if AGAINST_MARK in flag else score, p.path,
                                    (p.start, p.end), f"^[{p.path}:L{p.start}-L{p.end}]"))
    if wants:
        candidates = [_wanted(s, wants) for s in candidates]
    candidates = _diverse(sorted(candidates, key=lambda s: -s.score), typed)
    unnamed = frozenset(str(p["page"]) for p in pages
                        if p.get("flag") or not _named(tokens(str(p.get("title") or "")), typed, owners))
    kept = _Once([s for s in candidates if s.kind == "claim" and s.source], typed, unnamed).keep(candidates)
    cited = [k.text for k in kept if k.source]  # a page's description that one of them says already goes
    return [s for s in kept if s.kind != "description" or not any(s.text in text for text in cited)]


def _wanted(s: Statement, wants: str) -> Statement:
    if s.kind == "description" or not states(wants, said_text(s.text) if s.kind == "claim" else s.text):
        return s
    return Statement(s.group, s.kind, s.text, s.score * (WHEN_TIME if wants == "time" else WHEN), s.source, s.lines,
                     s.citation, s.compiled)  # (dataclasses.replace, written out: it runs for every statement)


def _restates(claim: Statement, passage: Statement) -> bool:
    """A claim of the source page of the passage's own file: the passage itself, compiled as it stands.
    The passage is kept in its place (its page named in `compiled`): one group header per source section
    and a line number, not a second header and a citation, for the same words."""
    return claim.group[1].startswith("sources/") and claim.source == passage.source


class _Once:
    """The statements kept, each source line once: a passage, or the claim that stands in for it."""

    def __init__(self, claims: list[Statement], typed: set[str] = frozenset(),
                 apart: frozenset[str] = frozenset()) -> None:
        self.claims: dict[str, list[Statement]] = {}  # by the source they cite, in their order
        for c in claims:
            self.claims.setdefault(c.source, []).append(c)
        self.typed = typed
        self.apart = apart  # pages whose claims do not stand in for a passage (see the module's text)
        self.kept: list[Statement] = []
        self.taken: dict[str, list[tuple[int, int]]] = {}  # what the kept statements cite or quote, by source
        self.said: dict[tuple[str, tuple[str, ...]], int] = {}  # the kept statements' (text, group), counted
        self.dropped: set[int] = set()  # claims a kept passage stands for (by identity)

    def keep(self, candidates: list[Statement]) -> list[Statement]:
        for s in candidates:
            if id(s) in self.dropped:
                continue
            got = self._passage(s) if s.kind == "passage" else self._claim(s)
            if got is not None:
                self.kept.append(got)
                self._said(got, 1)
                if got.source:
                    self.taken.setdefault(got.source, []).append(got.lines)
        return self.kept

    def _said(self, s: Statement, n: int) -> None:
        self.said[(s.text, s.group)] = self.said.get((s.text, s.group), 0) + n

    def _cited(self, path: str, start: int, end: int) -> bool:
        return any(a <= end and start <= b for a, b in self.taken.get(path, ()))

    def _passage(self, s: Statement) -> Statement | None:
        """The passage, or the claim that says what it says; None when a kept statement quotes its lines.
        Either way the claims citing it are not kept again."""
        if self._cited(s.source, *s.lines):
            self._widen(s)
            return None
        citing = [c for c in self.claims.get(s.source, ()) if id(c) not in self.dropped
                  and _overlaps((c.source, *c.lines), s.source, *s.lines)]
        self.dropped.update(id(c) for c in citing)
        whole = next((c for c in citing if _covers(c.text, s.text) and not _restates(c, s)
                      and c.group[1] not in self.apart), None)
        if whole is not None and not speaker_of(s.text):  # the compiled claim says what the passage (not a turn)
            # says: it stands in
            return Statement(whole.group, "claim", whole.text, s.score, whole.source, whole.lines, whole.citation)
        return Statement(s.group, s.kind, s.text, s.score, s.source, s.lines, s.citation,
                         tuple(dict.fromkeys(c.group[1] for c in citing)))

    def _widen(self, s: Statement) -> None:
        """A kept claim lifted from part of this passage that leaves most of it out, where the rest names a
        query word the claim does not (a paragraph's first sentence, and the query's words in its last line),
        gives its place to the whole passage."""
        holders = [i for i, k in enumerate(self.kept) if k.source and _overlaps((k.source, *k.lines), s.source, *s.lines)]
        if len(holders) != 1:
            return
        i = holders[0]
        k = self.kept[i]
        if k.kind != "claim" or _covers(k.text, s.text) or not (k.lines[0] >= s.lines[0] and k.lines[1] <= s.lines[1]):
            return
        page_name = k.group[1].rsplit("/", 1)[-1].removesuffix(".md")  # the header's: the claim names its page
        if not _holds_more(s.text, self.typed, word_set(k.text) | word_set(page_name)):
            return  # the rest of the passage names no query word the claim leaves out
        self._said(k, -1)
        self.kept[i] = replace(s, score=max(s.score, k.score), compiled=(k.group[1],))
        self._said(self.kept[i], 1)
        taken = self.taken[k.source]  # (the passage's source: they overlap)
        taken[taken.index(k.lines)] = s.lines

    def _claim(self, s: Statement) -> Statement | None:
        if s.kind == "claim" and s.source and (
                self._cited(s.source, *s.lines) or self.said.get((s.text, s.group), 0) > 0):
            return None
        return s
