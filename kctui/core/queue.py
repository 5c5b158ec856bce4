"""The queue rules of host.md §5 as pure functions of their inputs and `now_us`.

Nothing here touches the store or the clock; the services apply these decisions inside one
transaction each.
"""

from __future__ import annotations

from dataclasses import dataclass

from kctui.core.models import TRIGGER_PRIORITY, BasePhase, FailureCode, Trigger

US = 1_000_000
RETRY_DELAYS_S: tuple[int, ...] = (300, 1800, 7200)  # after transient failures 1, 2, 3
MAX_ERROR_CHARS = 1000
DEFAULT_FAILURE_MESSAGE = "knowledge compiler reported a failure"
DEFAULT_LEASE_S = 3600


def trim_error(error: str | None) -> str:
    """Trim and cut to 1,000 characters; empty → the default message."""
    text = (error or "").strip()
    if not text:
        return DEFAULT_FAILURE_MESSAGE
    return text[:MAX_ERROR_CHARS]


def compiler_version_or_default(version: str | None) -> str:
    v = (version or "").strip()
    return v[:200] if v else "1"


def claim_order_key(trigger: str, created_at_us: int, job_id: str) -> tuple[int, int, str]:
    """Manual before retry before smart_auto; then createdAt; then job id."""
    return (TRIGGER_PRIORITY[trigger], created_at_us, job_id)


def priority_of(trigger: str) -> int:
    return TRIGGER_PRIORITY[trigger]


@dataclass(frozen=True)
class FailureDecision:
    retry: bool
    retry_at_us: int | None
    attempts: int  # consecutive transient failures after this one (0 after a permanent failure)


def decide_after_failure(transient: bool, attempts_before: int, now_us: int) -> FailureDecision:
    """Transient failures 1–3 retry after 5 min / 30 min / 2 h; the fourth stays failed.
    A permanent failure never retries and ends the series."""
    if not transient:
        return FailureDecision(retry=False, retry_at_us=None, attempts=0)
    attempt = attempts_before + 1
    if attempt <= len(RETRY_DELAYS_S):
        return FailureDecision(True, now_us + RETRY_DELAYS_S[attempt - 1] * US, attempt)
    return FailureDecision(retry=False, retry_at_us=None, attempts=attempt)


def fallback_phase(source_digest: str | None, last_compiled_digest: str | None) -> BasePhase:
    """After a cancel: `source_ready` if a digest is pending, else `succeeded` if ever compiled,
    else `source_ready`."""
    if source_digest and source_digest != last_compiled_digest:
        return BasePhase.SOURCE_READY
    if last_compiled_digest:
        return BasePhase.SUCCEEDED
    return BasePhase.SOURCE_READY


def phase_after_success(job_digest: str, current_digest: str | None) -> BasePhase:
    """If a newer digest arrived while the job ran, the base returns to `source_ready`."""
    if current_digest and current_digest != job_digest:
        return BasePhase.SOURCE_READY
    return BasePhase.SUCCEEDED


@dataclass(frozen=True)
class RequestDecision:
    """What a manual request does, given what the base has queued or running."""

    action: str  # "enqueue" | "promote_queued" | "follow_up" | "nothing"
    reason: str


def decide_manual_request(
    queued_trigger: str | None,
    running_digest: str | None,
    new_digest: str,
) -> RequestDecision:
    """Manual request rules: a queued job becomes manual and takes the newest digest; while one runs,
    remember a follow-up (only if the sources differ from what is being compiled)."""
    if queued_trigger is not None:
        return RequestDecision("promote_queued", "a queued job becomes manual with the newest digest")
    if running_digest is not None:
        if running_digest == new_digest:
            return RequestDecision("nothing", "this generation is already being compiled")
        return RequestDecision("follow_up", "a manual follow-up runs after the current job succeeds")
    return RequestDecision("enqueue", "queued")


def should_queue_follow_up(follow_up_requested: bool, job_digest: str, current_digest: str | None) -> bool:
    """After a success: queue the remembered manual follow-up at once if the run saw new changes."""
    return bool(follow_up_requested and current_digest and current_digest != job_digest)


def lease_expires_at(claimed_at_us: int, lease_s: float = DEFAULT_LEASE_S) -> int:
    return claimed_at_us + int(lease_s * US)


def lease_expired(lease_expires_at_us: int | None, now_us: int) -> bool:
    return lease_expires_at_us is not None and now_us >= lease_expires_at_us


def failure_code_for_external(code: str | None) -> str:
    """An external compiler's failure without a (known) code is `compiler_reported`."""
    if code and code in {c.value for c in FailureCode}:
        return code
    return FailureCode.COMPILER_REPORTED


def retry_trigger() -> str:
    return Trigger.RETRY
