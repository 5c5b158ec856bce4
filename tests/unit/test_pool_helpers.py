"""s31 G: inside the app `sys.stderr` is Textual's print capture (`fileno()` is -1); the first forkserver
pool of a pass then failed to start multiprocessing's resource tracker (`ValueError: bad value(s) in
fds_to_keep`), so every compile big enough to extract in parallel crashed in the app. The app starts the
tracker before Textual takes the streams (kctui.ui.pool_helpers)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import io, multiprocessing, sys
    {hook}
    class Capture(io.StringIO):  # as Textual's _PrintCapture
        def fileno(self):
            return -1
    sys.stderr = Capture()
    try:
        multiprocessing.get_context("forkserver").Lock()
    except ValueError as exc:
        print("failed:", exc)
    else:
        print("ok")
""")


def _run(hook: str) -> str:
    proc = subprocess.run([sys.executable, "-c", SCRIPT.format(hook=hook)], capture_output=True, text=True, timeout=60)
    return proc.stdout.strip()


def test_a_pool_starts_under_a_capture_once_the_helpers_run_first() -> None:
    assert _run("pass").startswith("failed: bad value(s) in fds_to_keep")  # the failure the app met
    assert _run("from kctui.ui.pool_helpers import start_pool_helpers; start_pool_helpers()") == "ok"


def test_the_app_starts_the_helpers_before_textual() -> None:
    import inspect

    from kctui.ui import app

    source = inspect.getsource(app.run_app)
    assert source.index("start_pool_helpers()") < source.index("app.run()")
