"""The search index's tables are set up and filled through sqlite-utils inside the index's own
`BEGIN IMMEDIATE` transaction: a refresh is all or nothing, and the schema is what the queries need."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kctui.search import index as index_module
from kctui.search.index import SearchIndex, base_key

PAGE = "---\ntype: Concept\ntitle: {title}\n---\n# {title}\n\n{body}\n"


def _wiki(root: Path, pages: dict[str, str]) -> Path:
    for rel, text in pages.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def _paths(index: SearchIndex, key: str) -> list[str]:
    return [r["path"] for r in index.all_pages(key)]


def test_a_refresh_that_fails_midway_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wiki = _wiki(tmp_path / "wiki", {f"concepts/p{n}.md": PAGE.format(title=f"Page {n}", body="alpha beta")
                                     for n in range(5)})
    index = SearchIndex.open(tmp_path / "search.sqlite3")
    key = base_key("/ws", "kb")
    assert index.refresh("/ws", "kb", wiki, "g1").added == 5
    (wiki / "concepts/p0.md").write_text(PAGE.format(title="Page 0", body="gamma"), encoding="utf-8")
    for n in range(5, 9):
        (wiki / f"concepts/p{n}.md").write_text(PAGE.format(title=f"Page {n}", body="delta"), encoding="utf-8")
    real = index_module.extract_page

    def breaks_on_the_last(rel: str, text: str):  # the bulk inserts of the pages before it have run
        if rel == "concepts/p8.md":
            raise RuntimeError("disk on fire")
        return real(rel, text)

    monkeypatch.setattr(index_module, "extract_page", breaks_on_the_last)
    with pytest.raises(RuntimeError):
        index.refresh("/ws", "kb", wiki, "g2")
    assert not index.conn.in_transaction
    assert _paths(index, key) == [f"concepts/p{n}.md" for n in range(5)]  # the new pages were rolled back
    assert index.count(key, '"gamma"') == 0 and index.count(key, '"alpha"') == 5
    assert index.stored(key)["signature"].endswith("|g1")
    monkeypatch.undo()
    stats = index.refresh("/ws", "kb", wiki, "g2")
    assert (stats.added, stats.updated, stats.unchanged) == (4, 1, 4)
    assert index.count(key, '"gamma"') == 1 and index.count(key, '"delta"') == 4
    rows = index.rank(key, '"delta"', 10)
    assert [r["path"] for r in rows] == [f"concepts/p{n}.md" for n in range(5, 9)]
    assert {r["id"] for r in rows} == {index.page(key, r["path"])["id"] for r in rows}  # FTS rowid = page id
    index.close()


def test_the_schema_keeps_one_row_per_page_and_its_version(tmp_path: Path) -> None:
    index = SearchIndex.open(tmp_path / "search.sqlite3")
    conn = index.conn
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index_module.SCHEMA_VERSION
    with pytest.raises(sqlite3.IntegrityError):
        with index.write() as c:
            for _ in range(2):
                c.execute("INSERT INTO pages(key, path, digest, slug, kind, title, description, compile_status, "
                          "stale_after, notice_json, claims_json) VALUES ('b1', 'a.md', '', '', '', '', '', '', '', "
                          "'{}', '[]')")
    assert conn.execute("SELECT count(*) FROM pages").fetchone()[0] == 0
    columns = {r[1]: (r[2], r[3], r[5]) for r in conn.execute("PRAGMA table_info(pages)")}
    assert columns["id"] == ("INTEGER", 0, 1)  # the rowid itself: a page's FTS5 row shares its id
    assert all(notnull for name, (_t, notnull, _pk) in columns.items() if name != "id")
    index.close()
    conn2 = sqlite3.connect(tmp_path / "search.sqlite3")
    conn2.execute("PRAGMA user_version = 0")
    conn2.close()
    again = SearchIndex.open(tmp_path / "search.sqlite3")  # an old version is rebuilt, not converted
    assert again.conn.execute("PRAGMA user_version").fetchone()[0] == index_module.SCHEMA_VERSION
    assert again.db["pages"].exists() and again.db["bases"].exists()
    again.close()
