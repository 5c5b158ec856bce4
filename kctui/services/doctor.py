"""`kctui doctor`: what a crash or a lost terminal left behind, and how big each base's state is.

It reports, without changing anything: the leftovers no live job or promotion owns (`services/gc.py`:
staged folders, review folders, parked old generations, temporary files, a stale host lock), an
interrupted promotion still waiting for recovery, stuck locks (held by a process that is stopped or
gone), a host that holds the lock but no longer answers, orphaned kctui processes (their parent gone,
and not the host), and the size of each base's state. `fix` cleans what is safe to clean: with no
host running it takes the host lock and runs start-up recovery (which collects the leftovers);
with a host running it collects the leftovers only (each owner checked again). It never kills a
process: an orphan or a host that does not answer is named, with its pid, for a person to end.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from kctui import paths
from kctui.publish.promote import promotion_pending
from kctui.services.context import ServiceContext
from kctui.services.gc import GcReport, collect_garbage, find_leftovers, lock_holder_text, pid_alive, tree_size

PROBE_TIMEOUT_S = 1.0
STOPPED_STATES = {"T", "t"}  # stopped by a signal, or by a debugger


def _fields(text: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in text.split() if "=" in part)


def process_state(pid: int) -> str | None:
    """The one-letter state of /proc/<pid>/stat (R, S, D, T, Z, …); None when it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def answers(url: str, timeout: float = PROBE_TIMEOUT_S) -> bool:
    """Whether an HTTP server at `url` sends back any status line within `timeout`."""
    parts = urlsplit(url)
    if not parts.hostname or not parts.port:
        return False
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            sock.sendall(b"GET / HTTP/1.0\r\nHost: localhost\r\n\r\n")
            return sock.recv(12).startswith(b"HTTP/")
    except OSError:
        return False


def host_check() -> dict[str, Any]:
    """The host lock's holder: `stopped` (no one holds it), `running`, or `not_answering` (it holds the
    lock, but its process is stopped, or its API does not answer)."""
    held, text = lock_holder_text(paths.host_lock_file())
    if not held:
        return {"state": "stopped", "pid": None, "url": None, "detail": None}
    fields = _fields(text)
    pid = int(fields["pid"]) if fields.get("pid", "").isdigit() else None
    url = fields.get("url")
    state = process_state(pid) if pid else None
    problem = None
    if pid is not None and state in STOPPED_STATES:
        problem = f"its process {pid} is stopped (state {state})"
    elif url and not answers(url):
        problem = f"its API at {url} does not answer"
    return {"state": "not_answering" if problem else "running", "pid": pid, "url": url,
            "detail": problem or f"pid {pid}" + (f", {url}" if url else "")}


def _flock_holders() -> dict[int, int]:
    """inode -> pid of every FLOCK in /proc/locks (the kernel's own record of who holds what)."""
    out: dict[int, int] = {}
    try:
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return out
    for line in lines:
        cols = line.split()
        if len(cols) >= 6 and cols[1] == "FLOCK" and cols[4].isdigit():
            try:
                out[int(cols[5].rsplit(":", 1)[1])] = int(cols[4])
            except (ValueError, IndexError):
                continue
    return out


def lock_files(ctx: ServiceContext) -> list[Path]:
    found = [paths.host_lock_file()]
    for row in ctx.store.query("SELECT workspace, id FROM bases ORDER BY workspace, id"):
        a3s = paths.kb_path(Path(row["workspace"]), row["id"]) / ".a3s"
        found += [a3s / "page-promotion.lock", a3s / "dry-run.lock"]
    return [p for p in found if p.is_file()]


def locks_check(ctx: ServiceContext) -> list[dict[str, Any]]:
    """Each lock file: held or free, by whom, and `stuck` when its holder is stopped or gone."""
    holders = _flock_holders()
    out = []
    for path in lock_files(ctx):
        held, _text = lock_holder_text(path)
        try:
            pid = holders.get(os.stat(path).st_ino) if held else None
        except OSError:
            pid = None
        state = process_state(pid) if pid else None
        stuck = held and pid is not None and (state in STOPPED_STATES or not pid_alive(pid))
        out.append({"path": str(path), "held": held, "pid": pid, "stuck": bool(stuck),
                    "detail": (f"held by pid {pid}, which is stopped" if stuck and state in STOPPED_STATES
                               else f"held by pid {pid}, which is gone" if stuck
                               else f"held by pid {pid}" if held else "free")})
    return out


def _ancestors() -> set[int]:
    seen, pid = set(), os.getpid()
    while pid > 1 and pid not in seen:
        seen.add(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            pid = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return seen


def state_dir_of(pid: int) -> Path | None:
    """The state dir process `pid` uses, read from its environment as `paths.state_dir` would."""
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return None
    env = dict(item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)
    if env.get(b"KCTUI_STATE_DIR"):
        return Path(os.fsdecode(env[b"KCTUI_STATE_DIR"])).expanduser()
    if env.get(b"XDG_STATE_HOME"):
        return Path(os.fsdecode(env[b"XDG_STATE_HOME"])) / paths.APP_NAME
    home = env.get(b"HOME")
    return Path(os.fsdecode(home)) / ".local" / "state" / paths.APP_NAME if home else None


# a pass's extractor pool's helpers: their command lines need not name kctui (the resource tracker's does not)
POOL_HELPERS = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")


def _processes(mine: int) -> dict[int, tuple[int, str, str]]:
    """pid → (parent pid, state letter, command line) of this user's processes."""
    out: dict[int, tuple[int, str, str]] = {}
    try:
        pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
    except OSError:
        return out
    for pid in pids:
        try:
            if os.stat(f"/proc/{pid}").st_uid != mine:
                continue
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        out[pid] = (int(stat[1]), stat[0], " ".join(a.decode("utf-8", "replace") for a in argv if a))
    return out


def orphans(host_pid: int | None) -> list[dict[str, Any]]:
    """kctui processes of this user and this state dir whose parent is gone (re-parented to pid 1),
    other than the host and this process — a pass's extractor of a killed host, its pool's forkserver and
    resource tracker, an app whose terminal went away — and every process under one (a forkserver's
    workers), all in one listing: ending the first would otherwise only re-parent the next."""
    mine, skip = os.getuid(), _ancestors() | {host_pid or 0}
    ours = os.path.realpath(paths.state_dir())
    procs = _processes(mine)
    roots: list[int] = []
    for pid, (ppid, state, command) in procs.items():
        if pid in skip or ppid != 1 or state in ("Z", "X"):
            continue
        if "kctui" not in command and not any(h in command for h in POOL_HELPERS):
            continue
        theirs = state_dir_of(pid)
        if theirs is None or os.path.realpath(theirs) != ours:
            continue  # another state dir's process (another person's, or a test's)
        roots.append(pid)
    children: dict[int, list[int]] = {}
    for pid, (ppid, state, _command) in procs.items():
        if state not in ("Z", "X"):
            children.setdefault(ppid, []).append(pid)
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for root in sorted(roots):
        stack = [(root, None)]
        while stack:
            pid, parent = stack.pop()
            if pid in seen or pid in skip:
                continue
            seen.add(pid)
            entry: dict[str, Any] = {"pid": pid, "command": procs[pid][2][:200]}
            if parent is not None:
                entry["parent"] = parent
            out.append(entry)
            stack.extend((c, pid) for c in sorted(children.get(pid, []), reverse=True))
    return out


def base_sizes(ctx: ServiceContext) -> list[dict[str, Any]]:
    out = []
    for row in ctx.store.query("SELECT workspace, id FROM bases ORDER BY workspace, id"):
        kb = paths.kb_path(Path(row["workspace"]), row["id"])
        a3s = kb / ".a3s"
        parts = {"stagedBytes": tree_size(a3s / "compilation-output"), "cacheBytes": tree_size(a3s / "cache")}
        out.append({"workspace": row["workspace"], "id": row["id"], "stateBytes": tree_size(a3s),
                    "wikiBytes": tree_size(kb / "wiki"), **parts,
                    "promotionPending": promotion_pending(kb)})
    return out


def examine(ctx: ServiceContext) -> dict[str, Any]:
    """The whole report (JSON-ready); nothing is changed."""
    host = host_check()
    leftovers = [{"kind": item.kind, "path": str(item.path), "bytes": item.size, "base": item.base,
                  "reason": item.reason} for item in find_leftovers(ctx)]
    sizes = base_sizes(ctx)
    for b in sizes:
        if b["promotionPending"] and host["state"] == "stopped":
            leftovers.append({"kind": "promotion_journal", "path": str(paths.kb_path(Path(b["workspace"]), b["id"]) / ".a3s"),
                              "bytes": 0, "base": b["id"], "reason": "an interrupted promotion waits for recovery"})
    locks = locks_check(ctx)
    found = {"stateDir": str(paths.state_dir()), "stateBytes": tree_size(paths.state_dir()), "host": host,
             "locks": locks, "leftovers": leftovers, "orphans": orphans(host["pid"]), "bases": sizes}
    found["ok"] = not (leftovers or found["orphans"] or host["state"] == "not_answering"
                       or any(lk["stuck"] for lk in locks))
    return found


def fix(ctx: ServiceContext) -> dict[str, Any]:
    """Clean what is safe: recovery and collection with no host running, collection only beside one."""
    from kctui.services.hostlock import HostLock  # noqa: PLC0415
    from kctui.services.recovery import recover_at_startup  # noqa: PLC0415

    lock = HostLock(role="kctui doctor --fix")
    recovered: str | None = None
    held, stale = lock_holder_text(lock.path)
    cleared = [] if held or not stale else [{"kind": "stale_lock", "path": str(lock.path), "bytes": len(stale)}]
    if lock.try_acquire():  # released with its content cleared
        try:
            report = recover_at_startup(ctx)
            collected: GcReport = report.collected
            recovered = report.summary()
        finally:
            lock.release()
    else:
        collected = collect_garbage(ctx)
    return {"recovery": recovered,
            "removed": cleared + [{"kind": i.kind, "path": str(i.path), "bytes": i.size} for i in collected.removed],
            "failed": [{"kind": i.kind, "path": str(i.path), "error": err} for i, err in collected.failed],
            "freedBytes": collected.freed}


__all__ = ["answers", "examine", "fix", "host_check", "locks_check", "orphans"]
