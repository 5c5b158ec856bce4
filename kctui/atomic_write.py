"""Replace a file in one step: write a temporary file beside it, optionally fsync it, rename it over
the target. A reader sees the old file or the new one, never half of one. Shared by the stat cache, the
compiler's caches and memos, the model reply cache and the brief."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def _stage(target: Path, payload: bytes, *, fsync: bool) -> Path:
    """A hidden temporary file beside `target` holding `payload` (fsynced when asked); nothing is left
    behind on an error."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            if fsync:
                f.flush()
                os.fsync(f.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return Path(tmp)


def write_atomically(target: Path, data: bytes | str, *, durable: bool = True) -> None:
    """Raises OSError (the temporary file is removed). `durable` fsyncs the data before the rename;
    caches that only make the next run faster may skip it."""
    target = Path(target)
    tmp = _stage(target, data.encode("utf-8") if isinstance(data, str) else data, fsync=durable)
    try:
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:  # make the rename itself durable too
        with contextlib.suppress(OSError):
            dir_fd = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)


def stage_beside(target: Path, data: bytes) -> Path:
    """Write `data` to a hidden temporary file beside `target` (not synced, not yet in place); the
    caller syncs a batch of them (`sync_all`) and moves each with `place_staged`. Raises OSError
    (nothing left behind)."""
    return _stage(Path(target), data, fsync=False)


def sync_all() -> None:
    """Make every written file and rename durable at once (one sync for a batch instead of an fsync
    per file and folder: adding a folder of sources is bound by fsyncs otherwise)."""
    os.sync()


def place_staged(tmp: Path, target: Path, *, overwrite: bool) -> bool:
    """Move a staged file into place in one step. Without `overwrite` an existing name is never
    replaced (a hard link fails on it atomically) and False is returned, the staged file removed."""
    try:
        if overwrite:
            os.replace(tmp, target)
            return True
        try:
            os.link(tmp, target, follow_symlinks=False)
        except FileExistsError:
            return False
        except OSError:  # no hard links on this file system: check, then rename
            if os.path.lexists(target):
                return False
            os.replace(tmp, target)
            return True
        return True
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
