"""Your editor and pager (issue 35): `e` runs `$EDITOR +LINE FILE`, `E` runs `$PAGER +LINE FILE` (less,
more and most take `+LINE`), with the app suspended the Textual way (`App.suspend`: the terminal is
theirs until they exit, then the app resumes where it was). Where suspending is not possible (a
headless run, a web terminal) the program runs all the same. A missing program is said in one line."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

from textual.app import App, SuspendNotSupported

DEFAULTS = {"editor": "vi", "pager": "less"}


def command(kind: str, path: Path, line: int, env: dict[str, str] | None = None) -> list[str]:
    """The argv: $EDITOR / $VISUAL (or $PAGER) split as a shell would, then +LINE and the file."""
    env = dict(os.environ if env is None else env)
    raw = (env.get("EDITOR") or env.get("VISUAL")) if kind == "editor" else env.get("PAGER")
    return [*shlex.split(raw or DEFAULTS[kind]), f"+{max(1, int(line))}", str(path)]


def open_outside(app: App, kind: str, path: Path, line: int) -> int | None:
    """Run the editor or pager on `path` at `line`; its exit status (None when it could not start)."""
    if not path.is_file():
        app.notify(f"{path} is not a file that can be opened", severity="warning", timeout=5)
        return None
    argv = command(kind, path, line)

    def run(**kw: object) -> int:
        return subprocess.run(argv, check=False, **kw).returncode  # type: ignore[call-overload]

    try:
        try:
            with app.suspend():
                code = run()
        except SuspendNotSupported:  # no terminal to hand over (headless): nothing to read from it either
            code = run(stdin=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        app.notify(f"cannot run {argv[0]}: {why}", severity="error", timeout=8)
        return None
    if code:
        app.notify(f"{argv[0]} exited with status {code}", severity="warning", timeout=5)
    app.refresh()
    return code
