"""The API bearer token: the file `api-token` in the state directory, mode 0600, owned by us.

A shared workstation's other users can reach loopback ports, so every request carries
`Authorization: Bearer <token>` (host.md §6). The token file is created atomically with its full
content (a temporary file opened with O_CREAT|O_EXCL and mode 0600, then hard-linked into place), and
a file that other users could read, or that someone else owns, is refused rather than used.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path

from kctui import paths

TOKEN_BYTES = 32  # random bytes; token_urlsafe makes 43 characters of them
MIN_TOKEN_CHARS = 32


class TokenError(Exception):
    """The token file cannot be used; the message is one line for a person."""


def _check(path: Path, st: os.stat_result) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise TokenError(f"the API token file {path} is not a regular file; remove it and start again")
    if st.st_uid != os.getuid():
        raise TokenError(
            f"the API token file {path} is owned by uid {st.st_uid}, not by you (uid {os.getuid()}); "
            "refusing to use it — remove it so a new one is made"
        )
    if st.st_mode & 0o077:
        raise TokenError(
            f"the API token file {path} is readable by other users (mode {stat.S_IMODE(st.st_mode):04o}); "
            f"refusing to use it — run `chmod 600 {path}` or remove it so a new one is made"
        )


def read_token(path: Path | None = None) -> str:
    """The token in `path` (default: the state directory's `api-token`), after checking its owner and mode."""
    path = Path(path) if path else paths.api_token_file()
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        raise TokenError(f"no API token file at {path} (`kctui serve` creates it; pass --token-file)") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise TokenError(f"the API token file {path} is a symlink; refusing to follow it") from None
        raise TokenError(f"cannot read the API token file {path}: {exc.strerror or exc}") from None
    try:
        _check(path, os.fstat(fd))
        raw = os.read(fd, 4096)
    finally:
        os.close(fd)
    token = raw.decode("ascii", errors="replace").strip()
    if len(token) < MIN_TOKEN_CHARS or not token.isprintable() or " " in token:
        raise TokenError(f"the API token file {path} does not hold a usable token; remove it so a new one is made")
    return token


def load_or_create_token(path: Path | None = None) -> str:
    """Read the token, creating the file (mode 0600, 32 random bytes) when there is none yet."""
    path = Path(path) if path else paths.api_token_file()
    try:
        return read_token(path)
    except TokenError:
        if os.path.lexists(path):
            raise
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, (token + "\n").encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)  # atomic and never replaces: a concurrent creator's token wins
    except FileExistsError:
        pass
    finally:
        os.unlink(tmp)
    return read_token(path)
