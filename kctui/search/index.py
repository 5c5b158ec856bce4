"""The search index: SQLite FTS5 over a knowledge base's promoted `wiki/**/*.md`, nothing else.

One database file beside the host's (`<state>/search.sqlite3`, WAL), holding derived data only: it can
be deleted at any time and is rebuilt on the next query. Per knowledge base it keeps one FTS5 table
(so one base's pages never change another's bm25 statistics) and a row per page with its digest,
trust status and claims.

What is indexed: the live `wiki/` of a base that has a successful compile (`last_compiled_digest`
set), walked through a directory descriptor without following any symlink, `index.md`/`log.md` and
hidden folders skipped. Never `.a3s/compilation-output/` (staged or failed output), never a base that
has not compiled. (The raw layer, the passages of `sources/`, has tables of its own in the same file:
kctui.search.passage_index.)

Freshness: the index records a *generation signature* per base — the wiki folder's device, inode and
mtime (a promotion swaps in a new folder), the base's `last_compiled_digest` and its latest page
revision id. Every query compares the current signature first (one `fstat` and one small query) and
refreshes when it moved, so correctness never depends on the promotion hook. A refresh is
incremental by page digest: only new, changed and removed pages are touched.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kctui import paths
from kctui.core.outputs import OUTPUTS_DIR
from kctui.store.db import immediate_transaction

if TYPE_CHECKING:
    import sqlite_utils

    from kctui.search.extract import PageDoc

log = logging.getLogger(__name__)

INDEX_FILE = "search.sqlite3"
SCHEMA_VERSION = 1
WEIGHTS = (10.0, 6.0, 3.0, 1.0)  # bm25 column weights: title, aliases, tags, body
RESERVED = frozenset({"index.md", "log.md"})
MAX_PAGE_BYTES = 4 * 1024 * 1024
MAX_PAGES = 100_000
MAX_DEPTH = 32
BUSY_TIMEOUT_S = 30.0
PAGE_COLUMNS = "id, path, digest, slug, kind, title, description, compile_status, stale_after, notice_json, claims_json"

_TEXT_COLUMNS = ("digest", "slug", "kind", "title", "description", "compile_status", "stale_after", "notice_json",
                 "claims_json")


def _create_tables(db: sqlite_utils.Database) -> None:
    """The two plain tables (a base's FTS5 table is made by its first refresh, `_apply`)."""
    db["bases"].create({"key": str, "workspace": str, "base_id": str, "signature": str, "pages": int,
                        "refreshed_at": float}, pk="key", defaults={"pages": 0},
                       not_null={"workspace", "base_id", "signature", "pages", "refreshed_at"})
    db["pages"].create({"id": int, "key": str, "path": str, **dict.fromkeys(_TEXT_COLUMNS, str)}, pk="id",
                       not_null={"key", "path", *_TEXT_COLUMNS})
    db["pages"].create_index(["key", "path"], unique=True)


def _database(conn: sqlite3.Connection) -> sqlite_utils.Database:
    # imported here: sqlite-utils and what it pulls in (dateutil, pluggy) cost every CLI command ~0.1 s
    # of start-up, and only a search opens the index
    import sqlite_utils  # noqa: PLC0415

    return sqlite_utils.Database(conn, recursive_triggers=False, execute_plugins=False)


class SearchIndexError(Exception):
    """The index cannot be used (no FTS5, unwritable state directory); one line for a person."""


@dataclass(frozen=True)
class RefreshStats:
    signature: str
    refreshed: bool  # False when the recorded generation was already current
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    pages: int = 0


def index_file(state: Path | None = None) -> Path:
    return (state or paths.state_dir()) / INDEX_FILE


def base_key(workspace: str, kb_id: str) -> str:
    return "b" + hashlib.sha256(f"{workspace}\0{kb_id}".encode()).hexdigest()[:24]


def _fts(key: str) -> str:
    assert key.startswith("b") and key[1:].isalnum()
    return f"fts_{key}"


class SearchIndex:
    """A connection to the index database. One per thread. `db` (sqlite-utils) over the same connection
    sets up tables, inserts in bulk and introspects; inside `write()` it joins the open
    `BEGIN IMMEDIATE` transaction (savepoints, never a BEGIN or COMMIT of its own)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self._lock = threading.RLock()

    @functools.cached_property
    def db(self) -> sqlite_utils.Database:
        """sqlite-utils over the connection, made when the index is first written: a query of an index
        that is already current reads with plain SQL and never imports it (nor what it pulls in)."""
        return _database(self.conn)

    @classmethod
    def open(cls, path: Path) -> SearchIndex:
        path = Path(path)
        try:
            return cls._open(path)
        except sqlite3.DatabaseError as exc:
            if "not a database" not in str(exc) and "malformed" not in str(exc):
                raise SearchIndexError(f"cannot open the search index {path}: {exc}") from exc
            aside = path.with_name(f"{path.name}.corrupt-{int(time.time())}")
            log.warning("search index %s is corrupt (%s); moved aside to %s and rebuilt", path, exc, aside)
            with contextlib.suppress(OSError):
                os.replace(path, aside)
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(OSError):
                    os.unlink(f"{path}{suffix}")
            return cls._open(path)

    @classmethod
    def _open(cls, path: Path) -> SearchIndex:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), isolation_level=None, timeout=BUSY_TIMEOUT_S, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")  # derived data: rebuilt if ever lost
            conn.row_factory = sqlite3.Row
            index = cls(conn, path)
            index._migrate()
        except sqlite3.OperationalError as exc:
            conn.close()
            if "fts5" in str(exc).lower():
                raise SearchIndexError(f"this Python's SQLite has no FTS5 ({sqlite3.sqlite_version}); search needs it") from exc
            raise
        except BaseException:
            conn.close()
            raise
        return index

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()

    def write(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        return immediate_transaction(self.conn, self._lock)

    def _migrate(self) -> None:
        if int(self.conn.execute("PRAGMA user_version").fetchone()[0]) != SCHEMA_VERSION:
            with self.write() as conn:
                if int(conn.execute("PRAGMA user_version").fetchone()[0]) != SCHEMA_VERSION:
                    # Derived data: start afresh rather than convert.
                    names = [n for n in ("bases", "pages") if self.db[n].exists()]
                    names += [n for n in self.db.table_names(fts5=True) if n.startswith("fts_")]
                    for name in names:
                        conn.execute(f'DROP TABLE IF EXISTS "{name}"')
                    _create_tables(self.db)
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        self.conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts5_probe USING fts5(x)")
        self.conn.execute("DROP TABLE temp.fts5_probe")

    # -- reading ---------------------------------------------------------------------------------

    def stored(self, key: str) -> sqlite3.Row | None:
        with self._lock:
            return self.conn.execute("SELECT signature, pages FROM bases WHERE key = ?", (key,)).fetchone()

    def _has_table(self, key: str) -> bool:
        return self.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                 (_fts(key),)).fetchone() is not None

    def rank(self, key: str, expression: str, limit: int) -> list[sqlite3.Row]:
        """(id, path, title, description, score) of the pages matching the FTS5 expression, best
        first: bm25 with column weights, ties broken by path."""
        t = _fts(key)
        with self._lock:
            if not self._has_table(key):
                return []
            weights = ", ".join(str(w) for w in WEIGHTS)
            return self.conn.execute(
                f"SELECT p.id, p.path, p.title, p.description, bm25({t}, {weights}) AS score FROM {t} JOIN pages p "
                f"ON p.id = {t}.rowid WHERE {t} MATCH ? ORDER BY score, p.path LIMIT ?",
                (expression, int(limit)),
            ).fetchall()

    def details(self, key: str, ids: list[int], body: bool = True) -> dict[int, sqlite3.Row]:
        """The stored page rows of `ids`, each with its indexed body text (`body`)."""
        t = _fts(key)
        if not ids:
            return {}
        with self._lock:
            rows = self.conn.execute(
                f"SELECT p.{PAGE_COLUMNS.replace(', ', ', p.')}{', f.body AS body' if body else ''} FROM pages p "
                f"JOIN {t} f ON f.rowid = p.id WHERE p.id IN ({', '.join('?' for _ in ids)})", tuple(ids),
            ).fetchall()
        return {r["id"]: r for r in rows}

    def names(self, key: str, words: list[str]) -> list[tuple[str, list[str]]]:
        """(title, aliases) of the pages whose title or an alias is one of `words` (casefolded, whole):
        the other names of what a query names ("Len" → Lena)."""
        t = _fts(key)
        wanted = {w.casefold() for w in words if w.isalnum()}
        if not wanted:
            return []
        expression = "{title aliases} : (" + " OR ".join(f'"{w}"' for w in sorted(wanted)) + ")"
        with self._lock:
            if not self._has_table(key):
                return []
            rows = self.conn.execute(f"SELECT title, aliases FROM {t} WHERE {t} MATCH ? LIMIT 200", (expression,)).fetchall()
        out = []
        for title, aliases in rows:
            names = [title, *[a for a in str(aliases or "").split("\n") if a]]
            if any(n.casefold() in wanted for n in names):
                out.append((title, names[1:]))
        return out

    def count(self, key: str, expression: str) -> int:
        t = _fts(key)
        with self._lock:
            if not self._has_table(key):
                return 0
            return int(self.conn.execute(f"SELECT count(*) FROM {t} WHERE {t} MATCH ?", (expression,)).fetchone()[0])

    def _rows(self, sql: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(row) for row in self.conn.execute(sql, params)]

    def page(self, key: str, path: str) -> dict[str, Any] | None:
        rows = self._rows(f"SELECT {PAGE_COLUMNS} FROM pages WHERE key = ? AND path = ?", (key, path))
        return rows[0] if rows else None

    def all_pages(self, key: str) -> list[dict[str, Any]]:
        """Every indexed page of a base, by path: what a listing shows (no bodies, no claims)."""
        return self._rows("SELECT id, path, slug, kind, title, description, compile_status, stale_after, notice_json "
                          "FROM pages WHERE key = ? ORDER BY path", (key,))

    def claims_holding(self, key: str, words: str) -> list[str]:
        """The claims (JSON) of a base's pages whose claims hold `words` (letters and spaces only)."""
        return [str(r["claims_json"]) for r in self._rows("SELECT claims_json FROM pages WHERE key = ? AND "
                                                          "instr(claims_json, ?) > 0", (key, words))]

    def pages_named(self, key: str, name: str) -> list[dict[str, Any]]:
        return self._rows(f"SELECT {PAGE_COLUMNS} FROM pages WHERE key = ? AND (path = ? OR slug = ?) ORDER BY path",
                          (key, name, name))

    # -- refreshing ------------------------------------------------------------------------------

    def refresh(self, workspace: str, kb_id: str, wiki: Path | None, db_generation: str) -> RefreshStats:
        """Bring the base's pages in line with `wiki` (None: the base has no successful wiki, so its
        pages are removed). `db_generation` is the host's part of the signature."""
        key = base_key(workspace, kb_id)
        fd = _open_dir(wiki) if wiki is not None else None
        try:
            if fd is None:
                signature = f"v{SCHEMA_VERSION}|none|{db_generation}"
            else:
                st = os.fstat(fd)
                signature = f"v{SCHEMA_VERSION}|{st.st_dev}:{st.st_ino}:{st.st_mtime_ns}|{db_generation}"
            row = self.stored(key)
            if row is not None and row["signature"] == signature:
                return RefreshStats(signature, False, unchanged=row["pages"], pages=row["pages"])
            with self.write() as conn:
                row = conn.execute("SELECT signature, pages FROM bases WHERE key = ?", (key,)).fetchone()
                if row is not None and row["signature"] == signature:  # another process just did it
                    return RefreshStats(signature, False, unchanged=row["pages"], pages=row["pages"])
                files = dict(_walk(fd)) if fd is not None else {}
                stats = _apply(self.db, key, files)
                conn.execute(
                    "INSERT INTO bases(key, workspace, base_id, signature, pages, refreshed_at) VALUES (?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET signature = excluded.signature, pages = excluded.pages, "
                    "refreshed_at = excluded.refreshed_at",
                    (key, workspace, kb_id, signature, len(files), time.time()),
                )
            return RefreshStats(signature, True, *stats, pages=len(files))
        finally:
            if fd is not None:
                os.close(fd)


def _open_dir(path: Path) -> int | None:
    """The wiki folder as a descriptor, never through a symlink; None when it is absent."""
    try:
        return os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        if os.path.islink(path):
            return None
        raise SearchIndexError(f"cannot read the wiki {path}: {exc.strerror or exc}") from exc


def _walk(top_fd: int) -> Iterator[tuple[str, bytes]]:
    """(path relative to wiki/, bytes) of every page: regular `.md` files only, no symlink followed, none of
    `outputs/`."""
    count = 0
    for dirpath, dirnames, filenames, dirfd in os.fwalk(".", dir_fd=top_fd, follow_symlinks=False):
        depth = 0 if dirpath == "." else dirpath.count(os.sep)
        # kept answers (wiki/outputs/) are outputs, never evidence: not searched, never in a packet
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and depth < MAX_DEPTH
                             and not (dirpath == "." and d == OUTPUTS_DIR))
        for name in sorted(filenames):
            if not name.endswith(".md") or name in RESERVED or name.startswith("."):
                continue
            try:
                st = os.stat(name, dir_fd=dirfd, follow_symlinks=False)
                if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_PAGE_BYTES:
                    continue
                fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dirfd)
                with os.fdopen(fd, "rb") as fh:
                    data = fh.read(MAX_PAGE_BYTES + 1)
            except OSError:
                continue  # vanished (an old generation being cleaned up) or unreadable: skip
            if len(data) > MAX_PAGE_BYTES:
                continue
            rel = os.path.normpath(os.path.join(dirpath, name)).replace(os.sep, "/")
            yield rel, data
            count += 1
            if count >= MAX_PAGES:
                return


def _apply(db: sqlite_utils.Database, key: str, files: dict[str, bytes]) -> tuple[int, int, int, int]:
    """Inside the caller's write transaction: bring the base's rows in line with `files`. New pages are
    inserted in bulk, changed ones updated in place, and every new or changed page's text is indexed
    again in one bulk insert into the base's FTS5 table (rowid = the page's id)."""
    conn, t = db.conn, _fts(key)
    # FTS5 setup stays SQL: sqlite-utils' enable_fts indexes an existing table's columns and has no
    # `prefix` option; this table holds the text the pages table does not, with prefix indexes.
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {t} USING fts5(title, aliases, tags, body, "
                 "tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')")
    existing = {r[0]: (r[1], r[2]) for r in conn.execute("SELECT path, id, digest FROM pages WHERE key = ?", (key,))}
    unchanged = 0
    new: list[tuple[str, PageDoc, tuple[Any, ...]]] = []
    texts: list[tuple[int, PageDoc]] = []  # (page id, its text) to index
    for rel, data in files.items():
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        prev = existing.get(rel)
        if prev is not None and prev[1] == digest:
            unchanged += 1
            continue
        doc = extract_page(rel, data.decode("utf-8", errors="replace"))
        values = _row(doc, digest)
        if prev is None:
            new.append((rel, doc, values))
            continue
        conn.execute(
            "UPDATE pages SET digest = ?, slug = ?, kind = ?, title = ?, description = ?, compile_status = ?, "
            "stale_after = ?, notice_json = ?, claims_json = ? WHERE id = ?", (*values, prev[0]))
        conn.execute(f"DELETE FROM {t} WHERE rowid = ?", (prev[0],))
        texts.append((prev[0], doc))
    updated = len(texts)
    if new:
        db["pages"].insert_all([("key", "path", *_TEXT_COLUMNS), *((key, rel, *values) for rel, _doc, values in new)])
        ids = dict(conn.execute("SELECT path, id FROM pages WHERE key = ?", (key,)).fetchall())
        texts += [(ids[rel], doc) for rel, doc, _values in new]
    db[t].insert_all([("rowid", "title", "aliases", "tags", "body"),
                      *((page_id, doc.title, "\n".join(doc.aliases), "\n".join(doc.tags), doc.body_text)
                        for page_id, doc in texts)])
    removed = 0
    for rel, (page_id, _digest) in existing.items():
        if rel not in files:
            conn.execute(f"DELETE FROM {t} WHERE rowid = ?", (page_id,))
            conn.execute("DELETE FROM pages WHERE id = ?", (page_id,))
            removed += 1
    return len(new), updated, removed, unchanged


def extract_page(rel: str, text: str) -> PageDoc:
    # the page reader (YAML, the page grammar) loads when a page is indexed, not for every query
    from kctui.search import extract  # noqa: PLC0415

    return extract.extract_page(rel, text)


def _row(doc: PageDoc, digest: str) -> tuple[Any, ...]:
    return (digest, doc.slug, doc.kind, doc.title, doc.description, doc.compile_status, doc.stale_after,
            json.dumps(doc.notice, ensure_ascii=False), json.dumps(doc.claims, ensure_ascii=False))
