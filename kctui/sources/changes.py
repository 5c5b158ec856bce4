"""Change classes between the last accepted snapshot and a new scan (host.md §2 and §4). Pure.

- `added` / `deleted`: paths present on one side only, *net of renames*;
- `modified`: the same path with another digest;
- `renamed`: an added path whose content digest equals a deleted path's, counted with multiplicity
  (two deleted copies of one file and one added copy make one rename and one deletion);
- `total_changed` = added + deleted + modified + renamed;
- `vanished`: the raw number of paths that disappeared, renames included — the count the bulk-change
  pause uses, so that a mass "rename" (a sync client moving a tree away and back) still pauses.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

FileStates = Mapping[str, tuple[str, int]]  # path -> (digest, size): an accepted snapshot


@dataclass(frozen=True)
class SourceChanges:
    added: int
    deleted: int
    modified: int
    renamed: int
    vanished: int  # raw count of paths gone since the previous snapshot (renames included)
    previous_files: int
    current_files: int
    added_paths: tuple[str, ...] = ()
    deleted_paths: tuple[str, ...] = ()
    modified_paths: tuple[str, ...] = ()
    renamed_paths: tuple[tuple[str, str], ...] = ()  # (from, to)

    @property
    def total_changed(self) -> int:
        return self.added + self.deleted + self.modified + self.renamed

    @property
    def changed(self) -> bool:
        return self.total_changed > 0

    def counts(self) -> dict[str, int]:
        """The counts in the protocol's `source-changes` shape (camelCase keys)."""
        return {
            "added": self.added,
            "modified": self.modified,
            "deleted": self.deleted,
            "renamed": self.renamed,
            "totalChanged": self.total_changed,
            "previousFiles": self.previous_files,
            "currentFiles": self.current_files,
        }


def file_states(current: Any) -> dict[str, tuple[str, int]]:
    """{path: (digest, size)} from a ScanResult (anything with `.files` of entries) or such a mapping."""
    files = getattr(current, "files", None)
    if files is None:
        return dict(current)
    return {p: (e.digest, e.size) for p, e in files.items()}


def classify_changes(previous: FileStates | None, current: Any) -> SourceChanges:
    """Compare an accepted snapshot with a new one (a ScanResult or a {path: (digest, size)} mapping)."""
    prev = previous or {}
    cur = file_states(current)
    gone = sorted(p for p in prev if p not in cur)
    new = sorted(p for p in cur if p not in prev)
    modified = tuple(sorted(p for p in cur if p in prev and prev[p][0] != cur[p][0]))

    gone_by_digest: dict[str, deque[str]] = defaultdict(deque)
    for p in gone:
        gone_by_digest[prev[p][0]].append(p)
    renamed: list[tuple[str, str]] = []
    added: list[str] = []
    for p in new:  # paths in order; each added path takes the first unmatched deleted copy
        sources = gone_by_digest.get(cur[p][0])
        if sources:
            renamed.append((sources.popleft(), p))
        else:
            added.append(p)
    matched = {src for src, _ in renamed}
    deleted = [p for p in gone if p not in matched]
    return SourceChanges(
        added=len(added),
        deleted=len(deleted),
        modified=len(modified),
        renamed=len(renamed),
        vanished=len(gone),
        previous_files=len(prev),
        current_files=len(cur),
        added_paths=tuple(added),
        deleted_paths=tuple(deleted),
        modified_paths=modified,
        renamed_paths=tuple(renamed),
    )
