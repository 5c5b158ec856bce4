"""Killing a child process at a named step of a page promotion (kctui.publish.promote's CRASH_ENV), for
the review decision crash tests."""

from __future__ import annotations

import os
import signal

from kctui.publish.promote import CRASH_ENV

# a decision is published by the page promotion: killed before its journal is written (rolled back) /
# after the first page was renamed into place (recovery rolls every page forward)
SWAP = "page_renamed"
ROLLED_BACK = ("page_journal_temp_written", "page_journal_written")  # no page renamed yet
STEPS = (*ROLLED_BACK, SWAP, "page_folders_fsynced")


def in_child_killed_at(step: str, fn) -> None:  # noqa: ANN001
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            from kctui.config import Settings
            from kctui.core.clock import FakeClock
            from kctui.services.context import ServiceContext

            os.environ[CRASH_ENV] = step
            fn(ServiceContext.open(clock=FakeClock(1_790_000_000_000_000), settings=Settings()))
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, f"child ended with {status}"
