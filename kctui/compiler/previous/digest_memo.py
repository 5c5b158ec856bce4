"""The digests of the sources the last pass read, by path and stat (size, mtime, ctime, inode), as the
host's stat cache keeps them: a file whose stat is unchanged keeps its digest without being read, unless
its mtime is not older than the moment its record was written minus 2 s ("racily clean", as git: an edit
inside the same timestamp tick would leave the stat as it was).

Stored as a journal in the cache folder (one JSON array per line: path, size, mtime_ns, ctime_ns,
inode, digest, recorded_ns): a pass appends the records of the files it digested (a later record of a
path replaces an earlier one; the record of a file no longer listed is never consulted) and rewrites the
file whole before it holds a quarter more records than the sources need. An append cut short by a kill
leaves a last line without its newline, which is dropped; any other damage drops the memo (every file is
read again: only slower). A long-lived process keeps what it last saved in memory and takes it from
there while the file is still the one it left (same device, inode, size and modification time).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import NamedTuple, Protocol

from kctui.atomic_write import write_atomically
from kctui.compiler.previous.resident import keep_resident


class SourceFile(Protocol):  # kctui.compiler.readers.source.SourceFile, as listed and digested
    path: str
    stamp: tuple[int, int, int, int]
    digest: str

NAME = "source-digests-v2.jsonl"
_OLD_NAME = "source-digests-v1.json"  # the whole-file form of earlier releases: removed on the first rewrite
_HEADER = '{"kctui":"source-digests","v":2}'
RACY_NS = 2_000_000_000


class DigestRecord(NamedTuple):
    """What the memo keeps of one source file (a line is `[path, *these fields]`): its stat as listed, the
    digest of its bytes and the moment the record was written (for the racily-clean rule)."""

    size: int
    mtime_ns: int
    ctime_ns: int
    ino: int
    digest: str
    recorded_ns: int

    @property
    def stamp(self) -> tuple[int, int, int, int]:
        return self[:4]

    def vouches_for(self, stamp: tuple[int, int, int, int]) -> bool:
        """The file's stat is the one recorded, and was not racily clean when recorded."""
        return self[:4] == stamp and stamp[1] < self.recorded_ns - RACY_NS


# memo file -> (its stat key when left, records it holds, path -> its record)
_RESIDENT: dict[Path, tuple[tuple[int, int, int, int], int, dict[str, DigestRecord]]] = {}


def _key(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _parse(text: str) -> tuple[dict[str, DigestRecord], int]:
    """The records of a journal (the last of each path) and how many it holds; ValueError when damaged."""
    lines = text.split("\n")
    if lines[0] != _HEADER:
        raise ValueError("not a source digest memo")
    body = lines[1:-1]  # the last is "" after a newline, or a line cut short: dropped
    records = json.loads("[" + ",".join(body) + "]") if body else []
    files: dict[str, DigestRecord] = {}
    for r in records:
        if not (isinstance(r, list) and len(r) == 7 and isinstance(r[0], str) and isinstance(r[5], str)
                and all(type(v) is int for v in (r[1], r[2], r[3], r[4], r[6]))):
            raise ValueError("a damaged record")
        files[r[0]] = DigestRecord(*r[1:])
    return files, len(records)


class DigestMemo:
    def __init__(self, folder: Path | None) -> None:
        self.path = folder / NAME if folder else None
        self.files: dict[str, DigestRecord] = {}  # path -> its record
        self._records = 0  # records the file holds (with the ones later records replaced)
        self._stat: tuple[int, int, int, int] | None = None  # the file's stat key when read (None: rewrite it)
        if self.path is None:
            return
        try:
            key = _key(self.path.stat())
        except OSError:
            return
        resident = _RESIDENT.get(self.path)
        if resident is not None and resident[0] == key:
            self._stat, self._records, self.files = resident  # (never changed in place: `save` makes a new one)
            return
        try:
            text = self.path.read_text(encoding="utf-8")
            self.files, self._records = _parse(text)
            self._stat = key if text.endswith("\n") else None
        except (OSError, ValueError, TypeError, UnicodeDecodeError, RecursionError):
            self.files, self._records = {}, 0

    def lookup(self, source: SourceFile) -> str | None:
        """The digest recorded for the file, when its stat is the one recorded and was not racily clean."""
        e = self.files.get(source.path)
        return e.digest if e is not None and e.vouches_for(source.stamp) else None

    def save(self, files: list[SourceFile]) -> None:
        """Record the digests of `files` (the sources as listed): only the records that changed, or whose
        file was racily clean, are written; nothing when none did."""
        if not self.path:
            return
        now = time.time_ns()
        old = self.files
        new: dict[str, DigestRecord] = {}
        added: list[list] = []
        for f in files:
            e = old.get(f.path)
            if e is not None and e.digest == f.digest and e.vouches_for(f.stamp):
                new[f.path] = e  # the record stands
            else:
                e = new[f.path] = DigestRecord(*f.stamp, f.digest, now)
                added.append([f.path, *e])
        try:
            if not added and self._stat is not None:
                keep_resident(_RESIDENT, self.path, (self._stat, self._records, new))
                return
            records = self._append(added, len(new)) if self._stat is not None else None
            if records is None:  # no memo yet, one another process changed, or one to compact
                lines = [_HEADER, *(json.dumps([p, *e], ensure_ascii=False, separators=(",", ":")) for p, e in new.items())]
                write_atomically(self.path, "\n".join(lines) + "\n", durable=False)
                records = len(new)
                try:
                    (self.path.parent / _OLD_NAME).unlink()
                except OSError:
                    pass
            key = _key(self.path.stat())
        except OSError:
            _RESIDENT.pop(self.path, None)
            return  # a memo that cannot be written is only slower
        keep_resident(_RESIDENT, self.path, (key, records, new))
        self.files, self._records, self._stat = new, records, key

    def _append(self, records: list[list], needed: int) -> int | None:
        """Append `records` to the file read; how many it then holds, or None when it must be rewritten
        whole instead (it changed since it was read, or it would hold a quarter more than needed and 64)."""
        if self._records + len(records) > needed + needed // 4 + 64:
            return None
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            if _key(os.fstat(fd)) != self._stat:
                return None
            data = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)
            view = memoryview(data.encode("utf-8"))
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        return self._records + len(records)
