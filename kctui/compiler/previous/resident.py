"""What a long-lived process keeps in memory of the memo files it last saved (the page memo, the source
digest memo), by the file's path: the bases compiled most recently, the others read from disk again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

RESIDENT_BASES = 8


def keep_resident(store: dict[Path, Any], path: Path, kept: Any, limit: int = RESIDENT_BASES) -> None:
    """`store[path] = kept` as the most recent entry, the least recent dropped past `limit`."""
    store.pop(path, None)
    store[path] = kept  # (insertion order: the most recent save last)
    while len(store) > limit:
        del store[next(iter(store))]
