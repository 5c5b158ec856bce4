"""Events: each pass emits `knowledge.compiled`, each new conflict `knowledge.conflict_detected`.
A user may configure a command (config `[events] command = "…"` or `KCTUI_EVENT_COMMAND`) that receives
the event as JSON on standard input. A failing or slow command is logged and never breaks a pass."""

from __future__ import annotations

import json
import logging
import os
import shlex
import subprocess
import threading
import tomllib
from typing import Any

from kctui import paths

log = logging.getLogger(__name__)
TIMEOUT_S = 10.0


def event_command() -> list[str] | None:
    cmd = os.environ.get("KCTUI_EVENT_COMMAND")
    if not cmd:
        try:
            data = tomllib.loads(paths.config_file().read_text(encoding="utf-8"))
            cmd = (data.get("events") or {}).get("command")
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
            cmd = None
    if not cmd or not isinstance(cmd, str):
        return None
    try:
        return shlex.split(cmd)
    except ValueError as exc:
        log.warning("event command %r is not a valid command line: %s", cmd, exc)
        return None


def _run(argv: list[str], payload: bytes, name: str) -> None:
    try:
        proc = subprocess.run(argv, input=payload, capture_output=True, timeout=TIMEOUT_S, check=False)
        if proc.returncode != 0:
            log.warning("event command for %s exited %s: %s", name, proc.returncode,
                        proc.stderr.decode("utf-8", "replace")[:500])
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("event command for %s failed: %s", name, exc)


def emit(name: str, data: dict[str, Any], *, wait: bool = False) -> threading.Thread | None:
    argv = event_command()
    if not argv:
        return None
    payload = json.dumps({"event": name, "data": data}, sort_keys=True).encode("utf-8")
    t = threading.Thread(target=_run, args=(argv, payload, name), name=f"kctui-event-{name}", daemon=True)
    t.start()
    if wait:
        t.join(TIMEOUT_S + 1)
    return t
