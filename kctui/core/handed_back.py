"""A compile a signal stopped and handed back for a retry is not a crash (QA session 30 #12): the job is
recorded failed (transient, `compiler_crashed`, with one of the two messages below) so the queue retries
it, and every view says "stopped (handed back, retry queued)" instead of "✘ failed"."""

from __future__ import annotations

# the two errors of a hand-back: the worker's (its stop event was set) and the host's (its signal handler)
BY_WORKER = "interrupted: the compiler was stopped while compiling; it will be retried"
BY_HOST = "interrupted: the host was stopped while compiling; it will be retried"
CODE = "compiler_crashed"


def handed_back(phase: str | None, code: str | None, error: str | None) -> bool:
    """Whether a failed job (or a base whose last job failed) was a stop handed back, not a crash."""
    return phase == "failed" and code == CODE and (error or "") in (BY_WORKER, BY_HOST)


def stopped_words(retry_queued: bool) -> str:
    return "stopped (handed back, retry queued)" if retry_queued else "stopped (handed back)"
