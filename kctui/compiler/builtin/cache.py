"""The extraction cache: `Extraction`s stored under the source file's digest (and path, which the
evidence names). Extraction is a pure function of those, so a hit can never change a result; any
unreadable or foreign entry is a miss."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from kctui.atomic_write import write_atomically
from kctui.compiler.extraction import EXTRACTOR_VERSION, Extraction


def cache_form(ex: Extraction) -> dict:
    """`ex.to_json()` (which walks no claim with `dataclasses.asdict`: each claim is a row of its own)."""
    return ex.to_json()


def default_cache_dir(source_path: Path) -> Path:
    return Path(source_path).parent / ".a3s" / "cache" / "extract"


class ExtractionCache:
    """`salt` names whatever else the extraction depends on (the digest of the base's profile), so an
    entry made under other settings is a miss."""

    def __init__(self, folder: Path | None, salt: str = "") -> None:
        self.folder = folder
        self.salt = salt
        self.hits = 0
        self.misses = 0

    def _file(self, path: str, digest: str) -> Path | None:
        if self.folder is None:
            return None
        salt = f"\0{self.salt}" if self.salt else ""  # no salt: the keys of earlier releases still hit
        key = hashlib.sha256(f"{EXTRACTOR_VERSION}\0{digest}\0{path}{salt}".encode("utf-8", "surrogateescape")).hexdigest()
        return self.folder / key[:2] / f"{key}.json"

    def get(self, path: str, digest: str) -> Extraction | None:
        target = self._file(path, digest)
        if target is None:
            return None
        try:
            data = json.loads(target.read_text(encoding="utf-8"))
            ex = Extraction.from_json(data)
        except (OSError, ValueError, KeyError, TypeError):
            self.misses += 1
            return None
        if ex.path != path or ex.digest != digest:
            self.misses += 1
            return None
        self.hits += 1
        return ex

    def put(self, ex: Extraction) -> None:
        target = self._file(ex.path, ex.digest)
        if target is None:
            return
        try:
            # (keys in the order the form makes them: a cache entry is read back, never compared as bytes)
            write_atomically(target, json.dumps(cache_form(ex), ensure_ascii=False), durable=False)
        except (OSError, ValueError):
            pass  # a cache that cannot be written is only slower
