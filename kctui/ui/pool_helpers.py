"""What the app starts before Textual takes over the process's standard streams.

multiprocessing's resource tracker is started by the first process pool of a pass that uses `forkserver`
or `spawn` (the app runs threads, so its passes do: `kctui.compiler.builtin.extractor`), and passes its
child `sys.stderr.fileno()`. Inside the app `sys.stderr` is Textual's print capture, whose `fileno()` is
-1, so that spawn failed with `ValueError: bad value(s) in fds_to_keep` and every compile big enough to
extract in parallel crashed in the app (`compiler_crashed`), while the same compile ran with `kctui
compile --wait` or `kctui serve`. Started here, while `sys.stderr` is the terminal, the tracker is
already running when a pool needs it.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def start_pool_helpers() -> None:
    """Start the resource tracker now (a no-op when it runs already)."""
    try:
        from multiprocessing import resource_tracker  # noqa: PLC0415

        resource_tracker.ensure_running()
    except Exception:  # noqa: BLE001 - the app opens anyway; a pass's pool reports its own failure
        log.exception("the resource tracker did not start")
