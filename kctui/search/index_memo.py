"""What a query reads of the search index that stays the same until the index is written: kept with the open
connection (kctui.search.index.SearchIndex) for as long as no write was committed to the index, by this
connection or another (SQLite's `data_version` moves when another connection commits, `total_changes` when
this one writes a row, `schema_version` when a table is made or dropped). A base's passage counts and its sources' signatures are read once, not at every query;
any write, whatever it touched, starts them afresh (tests/unit/test_index_memo.py)."""

from __future__ import annotations

import weakref
from typing import Any

_kept: weakref.WeakKeyDictionary[Any, tuple[tuple[int, int, int], dict[str, dict[Any, Any]]]] = weakref.WeakKeyDictionary()


def stamp(index: Any) -> tuple[int, int, int]:
    """Where the index stands: it moves whenever a write is committed to it."""
    data, schema = index.conn.execute("SELECT data_version, schema_version FROM pragma_data_version, "
                                      "pragma_schema_version").fetchone()
    return int(data), int(schema), int(index.conn.total_changes)


def kept(index: Any, name: str) -> dict[Any, Any]:
    """The dict `name` kept with `index` since its last write (empty after one)."""
    now = stamp(index)
    got = _kept.get(index)
    if got is None or got[0] != now:
        got = (now, {})
        _kept[index] = got
    return got[1].setdefault(name, {})
