"""The one SQLite file of host state: connection settings, versioned migrations, write transactions.

Every write runs inside `BEGIN IMMEDIATE` (a deferred BEGIN double-claims or fails with "database is
locked" under contention) with WAL and `synchronous=FULL`, so a change is on disk before the call
returns. Reads use the same connection outside a transaction.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

from kctui.store.migrations import FOREIGN_KEYS_OFF, MIGRATIONS


@contextlib.contextmanager
def immediate_transaction(conn: sqlite3.Connection, lock: threading.RLock) -> Iterator[sqlite3.Connection]:
    """One write transaction on an autocommit connection: `BEGIN IMMEDIATE` (takes the write lock up
    front, so concurrent writers queue on the busy timeout instead of failing), `COMMIT`, or `ROLLBACK`
    on any exception. `lock` serialises threads sharing the connection."""
    with lock:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        else:
            conn.execute("COMMIT")


class StoreError(Exception):
    """The state directory or database cannot be used; the message is one line for a person."""


BUSY_TIMEOUT_MS = 60_000


class Store:
    """A connection to the host's database. One per thread (use `Store.open` in each thread)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self._lock = threading.RLock()

    @classmethod
    def open(cls, path: Path) -> Store:
        path = Path(path)
        state = path.parent
        try:
            state.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the state directory {state}: {exc.strerror or exc}") from exc
        if not os.access(state, os.W_OK | os.X_OK):
            raise StoreError(f"the state directory {state} is not writable (set KCTUI_STATE_DIR to a writable folder)")
        if path.exists() and not os.access(path, os.R_OK | os.W_OK):
            raise StoreError(f"the database {path} is not readable and writable")
        try:
            conn = sqlite3.connect(
                str(path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {path}: {exc}") from exc
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"the database {path} cannot use WAL mode (got {mode})")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.row_factory = sqlite3.Row
            store = cls(conn, path)
            store._migrate()
        except sqlite3.DatabaseError as exc:
            conn.close()
            msg = str(exc)
            if "not a database" in msg or "malformed" in msg:
                raise StoreError(
                    f"the database {path} is corrupt ({msg}); move it aside to start afresh — nothing was changed"
                ) from exc
            if "readonly" in msg or "read-only" in msg:
                raise StoreError(f"the database {path} is read-only ({msg})") from exc
            raise StoreError(f"cannot use the database {path}: {msg}") from exc
        return store

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()

    # -- transactions -------------------------------------------------------------------------

    def write(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """`BEGIN IMMEDIATE` … `COMMIT`; rolls back on any exception."""
        return immediate_transaction(self.conn, self._lock)

    def query(self, sql: str, params: tuple | dict = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self.conn.execute(sql, params).fetchall()

    def query_one(self, sql: str, params: tuple | dict = ()) -> sqlite3.Row | None:
        with self._lock:
            return self.conn.execute(sql, params).fetchone()

    # -- schema ---------------------------------------------------------------------------------

    def schema_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        current = self.schema_version()
        if current > len(MIGRATIONS):
            raise StoreError(
                f"the database {self.path} has schema version {current}, newer than this kctui knows "
                f"({len(MIGRATIONS)}); upgrade kctui"
            )
        for version in range(current + 1, len(MIGRATIONS) + 1):
            rebuild = version in FOREIGN_KEYS_OFF
            if rebuild:  # a table rebuild: cascades must not fire on its DROP (outside a transaction only)
                self.conn.execute("PRAGMA foreign_keys = OFF")
            try:
                with self.write() as conn:
                    # Re-check inside the write lock: another process may have migrated meanwhile.
                    if int(conn.execute("PRAGMA user_version").fetchone()[0]) >= version:
                        continue
                    for statement in MIGRATIONS[version - 1]:
                        conn.execute(statement)
                    if rebuild and conn.execute("PRAGMA foreign_key_check").fetchone() is not None:
                        raise StoreError(f"schema migration {version} broke a foreign key; nothing was changed")
                    conn.execute(f"PRAGMA user_version = {version}")
            finally:
                if rebuild:
                    self.conn.execute("PRAGMA foreign_keys = ON")

    def integrity_ok(self) -> bool:
        return self.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
