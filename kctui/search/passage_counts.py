"""How common a word is among a knowledge base's raw passages (kctui.search.passage_index): the share of them
whose own text holds it (FTS5's porter stem: "meet" counts "meets" and "meeting"), for the search to ask for
another form of a question's word only where the word is rare in what was written
(kctui.search.word_forms.with_forms)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from kctui.search.index import SearchIndex
from kctui.search.index_memo import kept
from kctui.search.passage_index import _table


def passage_share(index: SearchIndex, key: str, word: str) -> float:
    """The share of the base's passages whose text holds `word` (letters and digits only; 0.0 when the
    base has no passages)."""
    return passage_shares(index, key)(word)


def passage_shares(index: SearchIndex, key: str) -> Callable[[str], float]:
    """`passage_share` for many words of one query (a second hop asks for a dozen words or more,
    kctui.search.second_hop): the count of the base's passages and each word's, read once until the index
    is written (kctui.search.index_memo)."""
    t = _table(key)
    with index._lock:
        counts = kept(index, f"passages held:{key}")  # word -> passages holding it; None -> all passages

    def share(word: str) -> float:
        if not word.isalnum():
            return 0.0
        with index._lock:
            try:
                if None not in counts:
                    counts[None] = index.conn.execute(f"SELECT count(*) FROM {t}_docsize").fetchone()[0]
                if word not in counts:
                    counts[word] = index.conn.execute(f"SELECT count(*) FROM {t} WHERE {t} MATCH ?",
                                                      (f'text : "{word}"',)).fetchone()[0]
            except sqlite3.OperationalError as exc:
                if "no such table" in str(exc):
                    return 0.0
                raise
            total, held = counts[None], counts[word]
        return held / total if total else 0.0

    return share
