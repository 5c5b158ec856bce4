"""The words a key's outcome is told in, shared by the screens that offer the key: what a compile
request did, and what clearing a paused base's pause would accept."""

from __future__ import annotations

from typing import Any

STARTING = "starting…"  # what each pane says until the first read of the store arrives


def compile_text(result: Any) -> str:
    changed, base, job = result
    if job is None:
        return f"{base.name}: nothing to compile"
    if not changed:
        return f"{base.name}: these sources are already being compiled (#{job.id.rsplit('-', 1)[-1]})"
    if job.phase == "running":
        return f"{base.name}: another compile follows the running one"
    return f"{base.name}: compile #{job.id.rsplit('-', 1)[-1]} queued"


def changes_body(base_name: str, reason: str | None, counts: dict[str, Any] | None) -> str:
    lines = [f"{base_name} is paused: {reason or 'a bulk change was detected'}.", ""]
    if counts is None:
        lines.append("The change counts are not available in this build.")
    else:
        lines.append(f"Since the last accepted snapshot: {counts.get('added', 0)} added, "
                     f"{counts.get('modified', 0)} modified, {counts.get('deleted', 0)} deleted, "
                     f"{counts.get('renamed', 0)} renamed — {counts.get('totalChanged', 0)} of "
                     f"{counts.get('previousFiles', 0)} files changed; {counts.get('currentFiles', 0)} files now.")
        if counts.get("unstablePaths"):
            lines.append(f"{len(counts['unstablePaths'])} file(s) are still being written.")
    lines += ["", "Clearing the pause accepts the sources as they are now and queues a compile."]
    return "\n".join(lines)
