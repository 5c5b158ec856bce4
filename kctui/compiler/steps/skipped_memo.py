"""Files skipped (empty, binary, unreadable, a symlink…) are reported once, then not again until they change.

A skipped file has no source page, so the previous wiki's digests never list it and, left alone, every
pass would call it "added" and skip it again. The brief and the dry run therefore never count a skipped
file as added (it is listed under "Files skipped", with why), and a pass remembers what it reported in
its cache folder (`skipped-sources.json`: the job and, per file, its digest and reason). The next pass
takes that record only when the job's entry stands in the previous wiki's `log.md` (the pass was
promoted); a file skipped again with the same digest and reason is then counted, not listed.

`split_reported` and `not_added` are pure; `read_reported` and `write_reported` the small I/O around them.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from kctui.atomic_write import write_atomically

if TYPE_CHECKING:
    from kctui.compiler.readers.base import Skipped
    from kctui.compiler.steps.results import SourceChanges

NAME = "skipped-sources.json"

Key = tuple[str, str]  # (digest or "", reason)


def keys_of(skipped: list[Skipped], digests: dict[str, str]) -> dict[str, Key]:
    """path -> (digest, reason) of each skipped file (digest "" when it could not be read)."""
    return {s.path: (digests.get(s.path, ""), s.reason) for s in skipped}


def split_reported(skipped: list[Skipped], keys: dict[str, Key], before: dict[str, Key]) -> tuple[list[Skipped], int]:
    """(the files to report: new, or changed since they were reported; how many were reported before)."""
    new = [s for s in skipped if before.get(s.path) != keys.get(s.path)]
    return new, len(skipped) - len(new)


def not_added(changes: SourceChanges, skipped: list[Skipped]) -> SourceChanges:
    """The changes with the skipped files taken out of `added`: a file the pass did not compile was not
    added to the knowledge base."""
    gone = {s.path for s in skipped}
    if not gone.intersection(changes.added):
        return changes
    return replace(changes, added=[p for p in changes.added if p not in gone])


def read_reported(folder: Path | None, log_text: str) -> dict[str, Key]:
    """What the last promoted pass reported as skipped; {} when there is no record, it is damaged, or the
    pass that wrote it is not in the previous wiki's log (it was not promoted)."""
    if folder is None:
        return {}
    try:
        data = json.loads((folder / NAME).read_text(encoding="utf-8"))
        job = data["job"]
        files = {str(p): (str(d), str(r)) for p, d, r in data["files"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    if not isinstance(job, str) or f"job `{job}`" not in log_text:
        return {}
    return files


def write_reported(folder: Path | None, job_id: str, keys: dict[str, Key]) -> None:
    """Record this pass's skipped files (best effort: without the record they are only reported again)."""
    if folder is None:
        return
    body = json.dumps({"job": job_id, "files": [[p, d, r] for p, (d, r) in sorted(keys.items())]},
                      ensure_ascii=False)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(folder / NAME, body.encode("utf-8"))
    except OSError:
        pass
