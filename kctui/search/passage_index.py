"""The raw layer of a context packet: every passage of a knowledge base's text sources (kctui.search.passages)
in an FTS5 table of its own (porter stemming), beside the compiled pages' table in the search index.

Refreshed at each query from `sources/` itself (walked without following any symlink, bounded in files
and bytes like the raw-evidence fallback): a file whose size, modification time and inode are the ones
recorded keeps its passages; a new or changed file is split again; a file gone loses its passages. Only
text sources are split (Markdown, plain text and the like; a file holding a NUL byte is skipped).
A passage is matched on its text, its heading, its neighbours' text, its file's name and title and (a turn)
the turns two places away, each weighed (`rank_passages`). Derived data: it can be dropped at any time.
"""

from __future__ import annotations

import os
import re
import sqlite3
import stat
from collections.abc import Iterable
from dataclasses import dataclass

from kctui.core.source_text import decode_source
from kctui.search.asked_for import frame_words
from kctui.search.index import SearchIndex
from kctui.search.index_memo import kept
from kctui.search.passages import document_title, further_turns, split_passages, surroundings
from kctui.search.query import FUNCTION_WORDS, ParsedQuery, tokens

MAX_SOURCE_FILES = 5000  # files split at most
MAX_SOURCE_BYTES = 512 * 1024  # read at most this much of one file
MAX_SCAN_BYTES = 64 * 1024 * 1024  # and of all files together, per refresh
TEXT_SUFFIXES = frozenset({".md", ".markdown", ".txt", ".text", ".rst", ".org", ".adoc", ".csv", ".tsv", ".yaml",
                           ".yml", ".json", ".toml", ".log", ""})
TOKENIZER = "porter unicode61 remove_diacritics 2"  # stems: a query's "removed" finds "remove"
HEADING_WEIGHT = 0.3  # bm25 weight of a passage's heading against its text (1.0)
CONTEXT_WEIGHT = 0.5  # and of its neighbours' text (kctui.search.passages.surroundings)
SOURCE_WEIGHT = 0.3  # and of its file's name and title (`source_words`), as a heading of the whole source
FURTHER_WEIGHT = 0.25  # and, for a conversation's turn, of the turns further away (`further_turns`): with two
# places each way 0.15 / 0.25 / 0.5 / 0.7 gave 475 / 478 / 486 / 485 of 674 chat questions against 484 at 0.35; with
# five before and three after (session 23) 0.2 / 0.25: 831 / 834 of 1,124; four before 0.25 / 0.35 / 0.5: 834 / 834 / 832
COLUMNS = ("text", "heading", "context", "source", "further", "path", "start", "end")
LAYOUT = 3  # how a file's passages and their columns are made (kctui.search.passages): part of each file's
# signature, so a table an older version filled is split again once (2: the further turns five before, three after;
# 3: a chat export's turn heads in any order, kctui.search.turn_head)


@dataclass(frozen=True)
class RankedPassage:
    rowid: int  # passages of one file have consecutive rowids, in line order
    path: str  # relative to sources/
    start: int
    end: int
    text: str
    heading: str
    title: str  # the source's own title
    score: float  # bm25 (lower is better)


def _table(key: str) -> str:
    assert key.startswith("b") and key[1:].isalnum()
    return f"psg_{key}"


def _ensure(conn: sqlite3.Connection, key: str) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS passage_sources (key TEXT NOT NULL, path TEXT NOT NULL, sig TEXT NOT NULL, "
                 "title TEXT NOT NULL, PRIMARY KEY (key, path))")
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {_table(key)} USING fts5(text, heading, context, source, further, path UNINDEXED, "
                 f"start UNINDEXED, end UNINDEXED, tokenize = '{TOKENIZER}')")


def _current(conn: sqlite3.Connection, key: str) -> bool:
    """Whether the base's passage table has today's columns (a table an older version wrote is dropped
    with its records and built again: the passages are derived data)."""
    try:
        cols = tuple(d[0] for d in conn.execute(f"SELECT * FROM {_table(key)} LIMIT 0").description)
    except sqlite3.OperationalError:
        return False
    return cols == COLUMNS


def _text_sources(root: os.PathLike[str] | str) -> dict[str, tuple[str, str]]:
    """relative path -> (path, signature: size, mtime and inode) of every regular text file under `root`,
    in one walk of directory listings: no symlink followed or read (a link to a folder or a file is
    skipped, as is a hidden name), at most MAX_SOURCE_FILES files."""
    out: dict[str, tuple[str, str]] = {}
    try:
        if not stat.S_ISDIR(os.lstat(root).st_mode):
            return out
    except OSError:
        return out
    stack = [(os.fspath(root), "")]
    while stack and len(out) < MAX_SOURCE_FILES:
        folder, rel = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            if e.name.startswith(".") or e.is_symlink():
                continue
            name = f"{rel}{e.name}"
            if e.is_dir(follow_symlinks=False):
                stack.append((e.path, name + "/"))
            elif os.path.splitext(e.name)[1].lower() in TEXT_SUFFIXES:
                try:
                    st = e.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode):
                    out[name] = (e.path, f"{LAYOUT}:{st.st_size}:{st.st_mtime_ns}:{st.st_ino}")
    return out


def _text_of(full: str) -> str | None:
    try:
        with open(full, "rb") as fh:
            data = fh.read(MAX_SOURCE_BYTES)
    except OSError:
        return None
    if b"\x00" in data[:8192]:
        return None
    if len(data) < MAX_SOURCE_BYTES:  # read whole: decoded as the compiler reads it (a Latin-1 file too)
        return decode_source(data)[0]
    return data.decode("utf-8", "replace")  # cut: its last character may be cut in two


def refresh_passages(index: SearchIndex, key: str, sources_root: os.PathLike[str] | str) -> int:
    """Bring the base's passages in line with `sources/`; returns how many files were split again."""
    current = _text_sources(sources_root)
    with index._lock:
        memo = kept(index, f"passage sources:{key}")  # (read again after any write to the index)
        if "stored" not in memo:
            conn = index.conn
            tables = conn.execute("SELECT name FROM sqlite_master WHERE name IN ('passage_sources', ?)",
                                  (_table(key),)).fetchall()
            memo["stored"] = ({r[0]: r[1] for r in conn.execute("SELECT path, sig FROM passage_sources WHERE key = ?",
                                                                 (key,))} if len(tables) == 2 else {})
            memo["fresh"] = len(tables) == 2 and _current(conn, key)
        stored, fresh = memo["stored"], memo["fresh"]
    if not fresh:
        stored = {}
    changed = [rel for rel, (_full, sig) in current.items() if stored.get(rel) != sig]
    gone = [rel for rel in stored if rel not in current]
    if not changed and not gone and fresh:
        return 0
    t = _table(key)
    scanned = 0
    with index.write() as conn:
        if not fresh:
            conn.execute(f"DROP TABLE IF EXISTS {t}")
        _ensure(conn, key)
        if not fresh:
            conn.execute("DELETE FROM passage_sources WHERE key = ?", (key,))
        for rel in gone + changed:
            conn.execute(f"DELETE FROM {t} WHERE path = ?", (rel,))
            conn.execute("DELETE FROM passage_sources WHERE key = ? AND path = ?", (key, rel))
        for rel in sorted(changed):
            full, sig = current[rel]
            text = _text_of(full) if scanned < MAX_SCAN_BYTES else None
            if text is None:
                continue
            scanned += len(text)
            passages = split_passages(text)
            title = document_title(text)
            conn.executemany(f"INSERT INTO {t}(text, heading, context, source, further, path, start, end) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             [(p.text, p.heading, near, source_words(rel, "" if p.heading == title else title), far, rel,
                               p.start, p.end)
                              for p, near, far in zip(passages, surroundings(passages), further_turns(passages))])
            conn.execute("INSERT INTO passage_sources(key, path, sig, title) VALUES (?, ?, ?, ?)",
                         (key, rel, sig, title))
    return len(changed)


def source_words(rel: str, title: str) -> str:
    """The words that name a source, for every passage of it: its file's name (its folders and suffix
    left out, its dashes, dots and underscores read as spaces) and its own title. People name and title a
    note for what it is about (`email-huaxin-dfm-review.md`), and its lines need not repeat it (an
    email's reply, a table's rows, the steps under a runbook's title). The title is left out
    ("") for a passage whose heading is the title: its heading column holds it already."""
    stem = rel.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return " ".join([re.sub(r"[-_.]+", " ", stem), title]).strip()


def passage_expression(parsed: ParsedQuery, other_names: Iterable[str] = ()) -> str:
    """The query as a bag of words for BM25: every token of every term as typed (not the glossary's other
    spellings: "latest price" looks for no "version"), each on its own (one-letter tokens
    such as a possessive's `s`, and the function words of English, dropped), and the words of the other
    names of what it names (`other_names`), OR-joined; FTS5's porter stemmer takes each to its stem."""
    frame = frame_words(parsed.text)
    toks = dict.fromkeys(t for g in parsed.groups for t in tokens(g.label)
                         if len(t) > 1 and t not in FUNCTION_WORDS and t not in frame)
    toks.update(dict.fromkeys(t for t in other_names if len(t) > 1 and t not in FUNCTION_WORDS and t.isalnum()))
    return " OR ".join(f'"{t}"' for t in toks) or " OR ".join(g.fts() for g in parsed.groups)


TIE_ROOM = 32  # the scores fetched past a ranking's last place: a tie there is broken by path and line


def rank_passages(index: SearchIndex, key: str, expression: str, limit: int) -> list[RankedPassage]:
    """The passages matching the FTS5 `expression`, best first (bm25: the text weighted over the heading
    and the neighbours' text; ties by path and line). The scores first, then the rows of the best: a tie
    broken by path and line reads every match's row (three times the work on a common word's 3,000
    matches), so only the ties at the last place are, and when they run past the TIE_ROOM fetched, the
    ranking is asked for whole."""
    t = _table(key)
    bm25 = f"bm25({t}, 1.0, {HEADING_WEIGHT}, {CONTEXT_WEIGHT}, {SOURCE_WEIGHT}, {FURTHER_WEIGHT})"
    limit = int(limit)
    with index._lock:
        try:
            top = index.conn.execute(f"SELECT rowid, {bm25} AS score FROM {t} WHERE {t} MATCH ? ORDER BY score LIMIT ?",
                                     (expression, limit + TIE_ROOM)).fetchall()
            if len(top) == limit + TIE_ROOM and limit and top[limit - 1][1] == top[-1][1]:  # ties past the room
                rows = index.conn.execute(
                    f"SELECT f.rowid, f.text, f.heading, f.path, f.start, f.end, s.title, {bm25} AS score "
                    f"FROM {t} f LEFT JOIN passage_sources s ON s.key = ? AND s.path = f.path WHERE {t} MATCH ? "
                    "ORDER BY score, f.path, f.start LIMIT ?", (key, expression, limit)).fetchall()
                return [_ranked(r, float(r["score"])) for r in rows]
            scores = {int(r[0]): float(r[1]) for r in top}
            rows = _rows_by_id(index, key, list(scores)) if scores else []
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return []
            raise
    ranked = sorted(rows, key=lambda r: (scores[int(r["rowid"])], r["path"], r["start"]))[:limit]
    return [_ranked(r, scores[int(r["rowid"])]) for r in ranked]


def _rows_by_id(index: SearchIndex, key: str, ids: list[int]) -> list[sqlite3.Row]:
    """The passages' rows (with their source's title), by rowid, in rowid order: read from the FTS5 table's
    own content table (`_content`, its columns `c0`… in COLUMNS' order), a plain table, in a third of the time
    the virtual table takes; through the virtual table where that is not there."""
    t = _table(key)
    marks = ", ".join("?" for _ in ids)
    try:
        return index.conn.execute(
            f'SELECT f.id AS "rowid", f.c0 AS "text", f.c1 AS "heading", f.c5 AS "path", f.c6 AS "start", f.c7 AS "end", '
            f"s.title FROM {t}_content f LEFT JOIN passage_sources s ON s.key = ? AND s.path = f.c5 WHERE f.id IN ({marks}) "
            "ORDER BY f.id", (key, *ids)).fetchall()
    except sqlite3.OperationalError as exc:
        if "no such" not in str(exc):
            raise
    return index.conn.execute(
        f"SELECT f.rowid, f.text, f.heading, f.path, f.start, f.end, s.title FROM {t} f LEFT JOIN passage_sources s "
        f"ON s.key = ? AND s.path = f.path WHERE f.rowid IN ({marks}) ORDER BY f.rowid", (key, *ids)).fetchall()


def _ranked(r: sqlite3.Row, score: float) -> RankedPassage:
    return RankedPassage(int(r["rowid"]), r["path"], int(r["start"]), int(r["end"]), r["text"], r["heading"] or "",
                         r["title"] or "", score)


def neighbours(index: SearchIndex, key: str, hits: list[RankedPassage], reach: int = 0,
               first: int = 0, before: int = 1, span: tuple[int, int] = (0, 0)) -> dict[int, RankedPassage]:
    """The passages just before and the two after each hit in its file and section (by rowid), by rowid
    (the second after: the hit's speaker going on, kctui.search.passage_scores.GOES_ON), and the
    `reach` passages after each of the `first` hits (where a value asked for may be answered a few turns
    on: kctui.search.ranking.VALUE_REACH), and the `before` passages before each hit (whether the talk
    before a turn named what was asked about: kctui.search.named_values)."""
    want = sorted({h.rowid + d for h in hits for d in (*range(-max(1, before), 0), 1, 2)}
                  | {h.rowid + d for h in hits[:first] for d in range(2, reach + 1)}
                  | {h.rowid + d for h in hits[:span[0]] for d in range(-span[1], span[1] + 1)} - {h.rowid for h in hits})
    if not want:
        return {}
    with index._lock:
        rows = _rows_by_id(index, key, want)
    return {int(r["rowid"]): _ranked(r, 0.0) for r in rows}
