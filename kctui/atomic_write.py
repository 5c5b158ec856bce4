"""Replace a file in one step: write a temporary file beside it, optionally fsync it, rename it over
the target. A reader sees the old file or the new one, never half of one. Shared by the stat cache, the
compiler's caches and memos, the model reply cache and the brief."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(target: Path, data: bytes | str, *, durable: bool = True) -> None:
    """Raises OSError (the temporary file is removed). `durable` fsyncs the data before the rename;
    caches that only make the next run faster may skip it."""
    target = Path(target)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            if durable:
                f.flush()
                os.fsync(f.fileno())
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
