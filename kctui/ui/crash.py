"""An unexpected exception in the app: its traceback appended to `crash.log` in the state directory,
and the one line a person sees on the terminal once the app has closed."""

from __future__ import annotations

import logging
import time
import traceback

from kctui import paths

log = logging.getLogger(__name__)

CRASH_LOG = "crash.log"


def record_crash(error: BaseException) -> str:
    """Append the traceback of an unexpected exception to `crash.log` in the state directory; return
    the one line a person sees on the terminal after the app closed."""
    where = paths.state_dir() / CRASH_LOG
    what = f"{type(error).__name__}: {error}".splitlines()[0][:200] if str(error) else type(error).__name__
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        with open(where, "a", encoding="utf-8") as f:
            f.write(f"--- {time.strftime('%Y-%m-%dT%H:%M:%S%z')} kctui app crashed\n")
            f.write("".join(traceback.format_exception(type(error), error, error.__traceback__)))
        log.error("the app crashed: %s (traceback in %s)", what, where)
        return f"kctui: error: the app stopped on an unexpected error ({what}); the details are in {where}"
    except OSError as exc:
        return f"kctui: error: the app stopped on an unexpected error ({what}); the crash log could not be written: {exc}"
