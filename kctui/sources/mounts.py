"""Which filesystem holds a path (Linux /proc/self/mountinfo), to poll folders on network mounts:
changes made on another machine never reach local inotify."""

from __future__ import annotations

import os
from pathlib import Path

# Filesystems whose changes made elsewhere never reach local inotify.
NETWORK_FILESYSTEMS = frozenset(
    {
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "ncpfs", "afs", "9p", "virtiofs", "ceph", "glusterfs",
        "lustre", "gpfs", "beegfs", "davfs", "fuse.sshfs", "fuse.rclone", "fuse.s3fs", "fuse.gcsfuse",
        "fuse.davfs2", "fuse.glusterfs", "fuse.cephfs",
    }
)  # fmt: skip


def filesystem_type(path: Path, mountinfo: str | None = None) -> str | None:
    """The filesystem type of the mount holding `path` (Linux /proc/self/mountinfo), None if unknown."""
    if mountinfo is None:
        try:
            with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as f:
                mountinfo = f.read()
        except OSError:
            return None
    try:
        target = os.path.realpath(path)
    except OSError:
        return None
    best: tuple[int, str] | None = None
    for line in mountinfo.splitlines():
        left, sep, right = line.partition(" - ")
        fields = left.split()
        if not sep or len(fields) < 5 or not right.split():
            continue
        mount_point = _unescape_mount(fields[4])
        if target == mount_point or target.startswith(mount_point.rstrip("/") + "/"):
            if best is None or len(mount_point) >= best[0]:
                best = (len(mount_point), right.split()[0])
    return best[1] if best else None


def _unescape_mount(field: str) -> str:
    """mountinfo escapes space, tab, newline and backslash as octal (`\\040`)."""
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and i + 4 <= len(field) and field[i + 1 : i + 4].isdigit():
            out.append(chr(int(field[i + 1 : i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)
