"""Carrying the unchanged pages ahead of time: the staged wiki starts as hard links to the previous
generation's page folders, made by `cp -al` in a process of its own while the pass reads, matches and
builds (linking the files of a large wiki one by one is a tenth of an incremental pass, and it needs
nothing the pass computes).

`PageWriter.write_all` then treats the folders as a proposal, never as truth: each carried page's link
must be the very file the pass read (its staged entry a regular file with the inode the pass recorded,
whose size and modification time the pass checked when it read the previous wiki; a page replaced since
is another inode), a page it
rewrites has its link removed first (a linked file is never written through: it is the live wiki's),
and whatever the new wiki does not hold — a page removed, a page the previous wiki had but this pass
dropped, anything that is not a regular `.md` file — is deleted. A previous page folder that is a
symlink is never given to `cp`; a staged folder that is not a real directory afterwards fails the
prelink. When `cp` is missing, fails (another filesystem, links not allowed) or the pass is a dry run
(a link would change the live files' ctime), nothing is prelinked and pages are carried one by one.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

from kctui.core.pages import KIND_DIRS


def clear_output(out: Path) -> None:
    """Make `out` a fresh, empty folder (whatever stood there before is removed; a symlink is unlinked,
    never followed)."""
    if out.is_symlink():
        out.unlink()
    elif out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)


class Prelink:
    """A `cp -al` of the previous generation's page folders into the staged output, running."""

    def __init__(self, out: Path, process: subprocess.Popen) -> None:
        self.out = out
        self._process: subprocess.Popen | None = process
        self._ok: bool | None = None

    @classmethod
    def start(cls, previous: Path | None, out: Path) -> Prelink | None:
        """Start linking, or None when nothing can be prelinked here (then `out` is untouched)."""
        if previous is None or os.name != "posix" or not previous.is_dir() or previous.is_symlink():
            return None
        cp = _cp()
        folders = [previous / f for f in KIND_DIRS.values() if (previous / f).is_dir() and not (previous / f).is_symlink()]
        if cp is None or not folders:
            return None
        clear_output(out)
        try:
            process = subprocess.Popen([cp, "-al", "--", *map(str, folders), str(out) + "/"],
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       close_fds=True)
        except OSError:
            return None
        return cls(out, process)

    def wait(self) -> bool:
        """Whether the staged folders are there, made by a `cp` that succeeded; after a failure the
        staged folders are removed (the pages are then carried one by one)."""
        if self._ok is None:
            code = self._process.wait() if self._process is not None else 1
            self._process = None
            self._ok = code == 0 and all(_real_dir_or_absent(self.out / f) for f in KIND_DIRS.values())
            if not self._ok:
                for folder in KIND_DIRS.values():
                    remove_entry(self.out / folder)
        return self._ok

    def discard(self) -> None:
        """End the `cp` and remove the staged output it was linking into (the pass failed or was
        cancelled: as without a prelink, a failed pass leaves no staged wiki)."""
        self.close()
        remove_entry(self.out)

    def close(self) -> None:
        """End the `cp` if it still runs (a pass that failed or was cancelled)."""
        if self._process is not None:
            if self._process.poll() is None:
                self._process.kill()
            self._process.wait()
            self._process = None
            self._ok = False


_CP: list[str | None] = []


def _cp() -> str | None:
    """`cp` on the PATH, looked up once per process (a lookup stats every PATH folder: every pass)."""
    if not _CP:
        _CP.append(shutil.which("cp"))
    return _CP[0]


def _real_dir_or_absent(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except FileNotFoundError:
        return True


def remove_entry(name: str | Path, dir_fd: int | None = None) -> None:
    """Remove whatever stands at `name` (in the folder `dir_fd`, if given): a folder with what it holds,
    a file, a symlink (never followed); nothing there is nothing to do."""
    try:
        mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(name, dir_fd=dir_fd)
    else:
        os.unlink(name, dir_fd=dir_fd)

