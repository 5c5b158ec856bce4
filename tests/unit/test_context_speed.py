"""What makes a context packet cheaper without changing it (session 31, S): each memo or shortcut gives what
the plain computation gives — a lazily quoted statement list, an item's size kept across fills, a page's
claims scored from their prepared fields, a word looked up among a text's sorted words, the raw ranking read
scores first, the index's counts kept until a write."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from kctui.search.claim_match import PageClaims, best_claims, page_claims
from kctui.search.index import SearchIndex
from kctui.search.index_memo import kept
from kctui.search.pack_memo import Lazy, Sizes
from kctui.search.passage_counts import passage_shares
from kctui.search.passage_index import TIE_ROOM, _table, rank_passages, refresh_passages
from kctui.search.query import fold, matched_groups, parse_query, quick_needles, tokens, typed_word
from kctui.search.word_sets import names_word, word_set

KEY = "b0123456789abcdef01234567"


def test_a_lazy_list_makes_each_item_once_when_first_read_and_keeps_it() -> None:
    made: list[int] = []

    def make(n: int, x: str) -> str:
        made.append(n)
        return f"{n}:{x}"

    lazy = Lazy(["a", "b", "c"], make)
    assert len(lazy) == 3 and made == []
    first = lazy[1]
    assert first == "1:b" and made == [0, 1]
    assert lazy[1] is first and lazy[-1] == "2:c" and list(lazy) == ["0:a", "1:b", "2:c"] and made == [0, 1, 2]
    with pytest.raises(IndexError):
        lazy[3]


def test_an_items_size_is_measured_once_per_list_of_the_same_statements() -> None:
    calls: list[int] = []
    a, b = object(), object()
    sizes = Sizes(lambda members: calls.append(len(members)) or 10 * len(members))
    assert sizes.size([a]) == 10 and sizes.size([a, b]) == 20 and sizes.size([a]) == 10 and sizes.size([b, a]) == 20
    assert calls == [1, 2, 2]  # [b, a] is another list: measured


def _reference_best_claims(claims: list[dict], query: str, n: int, title: str) -> list[dict]:
    """The claim ranking as session 30 wrote it (services/search.py `_best_claims`), claim by claim."""
    groups = parse_query(query).groups
    needles = list(dict.fromkeys(nd for g in groups for nd in quick_needles(g)))
    words = {t for g in groups for a in g.alts for t in a.toks}
    title_key = fold(title).strip()

    def named(text: str) -> frozenset[int]:
        return frozenset(matched_groups(groups, text)) if any(nd in fold(text) for nd in needles) else frozenset()

    def score(c: dict) -> float:
        subject = str(c.get("subject") or "")
        by_subject = named(subject)
        strong = named(str(c.get("scope") or "")) | named(str(c.get("attribute") or ""))
        weak: frozenset[int] = frozenset()
        if fold(subject).strip() == title_key:
            weak = by_subject - strong
        else:
            strong |= by_subject
        s = float(len(strong)) + 0.25 * len(weak)
        if len(strong) < len(groups):
            s += 0.5 * len(named(str(c.get("value") or "")) - strong)
        return s + (0.25 if s > 0 and c.get("form") == "summary" else 0.0)

    def density(text: str) -> float:
        toks = tokens(text)
        tf = sum(1 for t in toks if t in words)
        return tf / (tf + 1.2 * (0.25 + 0.75 * len(toks) / 24)) if toks else 0.0

    found = [(s, i, c) for i, c in enumerate(claims) if not c.get("conflict") and (s := score(c)) > 0]
    if any(f[0] >= 0.5 for f in found):
        found = [f for f in found if f[0] >= 0.5]
    ranked = sorted(((s, -density(str(c.get("text") or "")), i, c) for s, i, c in found), key=lambda x: (-x[0], x[1], x[2]))
    return [dict(c, matches=s) for s, _d, _i, c in ranked[:n]]


CLAIMS = [
    {"subject": "Debian", "attribute": "releaseDate", "scope": "12", "value": "2023-06-10", "text": "Debian (12) — releaseDate: 2023-06-10"},
    {"subject": "Debian", "attribute": "releaseDate", "scope": "1.2", "value": "1996-12-12", "text": "Debian (1.2) — releaseDate: 1996-12-12"},
    {"subject": "Debian", "attribute": "eol", "scope": "12", "value": "2026-06-10", "text": "Debian (12) — eol: 2026-06-10"},
    {"subject": "Debian", "attribute": "lts", "scope": "11", "value": True, "text": "Debian (11) — lts: true", "conflict": True},
    {"subject": "Debian", "text": "Debian is a Linux distribution released 12 times.", "form": "summary"},
    {"subject": "Ubuntu", "attribute": "base", "value": "Debian 12", "text": "Ubuntu — base: Debian 12"},
    {"subject": "Debian", "attribute": "codename", "scope": "12", "value": "bookworm", "text": "Debian (12) — codename: bookworm"},
    {"subject": "Lena Ortiz", "attribute": "said", "value": "Debian twelve soon", "text": "Lena (2024-01-02) — said: Debian twelve soon"},
]


@pytest.mark.parametrize("query", ["debian 12 release date", "debian", "12", "eol", "release* date", "ubuntu base",
                                   '"lena ortiz"', "bookworm codename", "nothing here", "debian twelve lts"])
@pytest.mark.parametrize("n", [0, 1, 3, 8])
def test_claims_scored_from_their_prepared_fields_rank_as_scored_one_by_one(query: str, n: int) -> None:
    for title in ("Debian", "Ubuntu", ""):
        got = best_claims(PageClaims(CLAIMS, title), parse_query(query).groups, n)
        assert got == _reference_best_claims(CLAIMS, query, n, title), (query, n, title)


def test_a_pages_claims_are_read_again_when_their_json_changes_whatever_the_digest() -> None:
    one = page_claims("sha256:x", '[{"subject": "A", "text": "A"}]', "A")
    assert page_claims("sha256:x", '[{"subject": "A", "text": "A"}]', "A") is one
    other = page_claims("sha256:x", '[{"subject": "B", "text": "B"}]', "A")
    assert other is not one and other.claims == [{"subject": "B", "text": "B"}]
    assert page_claims("sha256:x", '[{"subject": "B", "text": "B"}]', "B") is not other  # (the title is part of it)


@pytest.mark.parametrize("word,text", [("backport", "We are backporting it"), ("backporting", "a backport of it"),
                                       ("back", "backport"), ("run", "running late"), ("eol", "EOL soon"),
                                       ("debi", "Debian"), ("debian", "deb"), ("deb", "deb"), ("café", "Café au lait"),
                                       ("lemon", "lemonade and lemons"), ("lemonade", "lemo lemon")])
def test_a_word_looked_up_among_a_texts_sorted_words_is_the_word_typed_word_finds(word: str, text: str) -> None:
    assert names_word(word, text) == typed_word(word, set(tokens(text)))


def test_names_word_agrees_with_typed_word_on_random_words() -> None:
    rnd = random.Random(31)
    letters = "abcde"
    for _ in range(3000):
        text = " ".join("".join(rnd.choice(letters) for _ in range(rnd.randint(1, 7))) for _ in range(rnd.randint(0, 8)))
        word = "".join(rnd.choice(letters) for _ in range(rnd.randint(1, 7)))
        assert names_word(word, text) == typed_word(word, word_set(text)), (word, text)


def _plain_ranking(index: SearchIndex, expression: str, limit: int) -> list[tuple[int, str, int, float]]:
    t = _table(KEY)
    rows = index.conn.execute(
        f"SELECT f.rowid, f.path, f.start, bm25({t}, 1.0, 0.3, 0.5, 0.3, 0.25) AS score FROM {t} f WHERE {t} MATCH ? "
        "ORDER BY score, f.path, f.start LIMIT ?", (expression, limit)).fetchall()
    return [(r[0], r[1], r[2], r[3]) for r in rows]


@pytest.mark.parametrize("copies", [3, 20, 20 + TIE_ROOM + 5])
@pytest.mark.parametrize("limit", [1, 5, 20])
def test_the_raw_ranking_read_scores_first_breaks_ties_by_path_and_line_as_before(tmp_path: Path, copies: int,
                                                                                  limit: int) -> None:
    """Files with the same text tie on BM25: the best `limit` are the same passages in the same order as one query
    ordering every match by score, path and line, also when the ties run past the TIE_ROOM scores read."""
    sources = tmp_path / "sources"
    sources.mkdir()
    for i in range(copies):
        (sources / f"note-{(i * 7) % copies:03d}.md").write_text("The boiler was serviced.\n\nThe boiler is fine.\n\n"
                                                                  "Unrelated line.\n", encoding="utf-8")
    (sources / "other.md").write_text("A boiler boiler boiler, serviced.\n", encoding="utf-8")
    index = SearchIndex.open(tmp_path / "index.db")
    refresh_passages(index, KEY, sources)
    for expression in ('"boiler"', '"boiler" OR "serviced"', '"fine"', '"missing"'):
        got = [(p.rowid, p.path, p.start, p.score) for p in rank_passages(index, KEY, expression, limit)]
        assert got == _plain_ranking(index, expression, limit)


def test_what_is_kept_with_the_index_is_dropped_by_a_write_from_this_or_another_connection(tmp_path: Path) -> None:
    index = SearchIndex.open(tmp_path / "index.db")
    kept(index, "x")["a"] = 1
    assert kept(index, "x") == {"a": 1}
    with index.write() as conn:
        conn.execute("CREATE TABLE t (x)")
    assert kept(index, "x") == {}
    kept(index, "x")["a"] = 2
    other = sqlite3.connect(tmp_path / "index.db", isolation_level=None)
    other.execute("INSERT INTO t VALUES (1)")
    other.close()
    assert kept(index, "x") == {}


def test_a_words_passage_count_is_read_again_after_the_sources_change(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "a.md").write_text("The boiler.\n\nThe roof.\n", encoding="utf-8")
    index = SearchIndex.open(tmp_path / "index.db")
    refresh_passages(index, KEY, sources)
    assert passage_shares(index, KEY)("boiler") == 0.5
    (sources / "b.md").write_text("Boiler again.\n\nAnd the boiler.\n", encoding="utf-8")
    refresh_passages(index, KEY, sources)
    assert passage_shares(index, KEY)("boiler") == 0.75
