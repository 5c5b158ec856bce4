"""The host's vocabulary: phases, triggers, failure codes and the protocol constants (host.md §5–§6)."""

from __future__ import annotations

from enum import StrEnum

CONTRACT_VERSION = "1"


class BasePhase(StrEnum):
    SOURCE_READY = "source_ready"
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    PAUSED = "paused"


class JobPhase(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"


TERMINAL_JOB_PHASES = frozenset({JobPhase.SUCCEEDED, JobPhase.FAILED, JobPhase.CANCELLED})


class Trigger(StrEnum):
    MANUAL = "manual"
    RETRY = "retry"
    SMART_AUTO = "smart_auto"
    SCHEDULED = "scheduled"


class Policy(StrEnum):
    MANUAL = "manual"
    SMART_AUTO = "smart_auto"


class FailureCode(StrEnum):
    """The closed set of failure codes; every failed job carries one."""

    SOURCE_UNREADABLE = "source_unreadable"
    SOURCE_LIMIT_EXCEEDED = "source_limit_exceeded"
    INVALID_OUTPUT = "invalid_output"
    PROMOTION_FAILED = "promotion_failed"
    COMPILER_CRASHED = "compiler_crashed"
    MODEL_UNAVAILABLE = "model_unavailable"
    MODEL_OUTPUT_INVALID = "model_output_invalid"
    BUDGET_EXHAUSTED = "budget_exhausted"
    CANCELLED = "cancelled"
    LEASE_EXPIRED = "lease_expired"
    COMPILER_REPORTED = "compiler_reported"
    DISK_FULL = "disk_full"
    READ_ONLY = "read_only"


FAILURE_WORDS: dict[str, str] = {
    FailureCode.SOURCE_UNREADABLE: "the sources could not be read",
    FailureCode.SOURCE_LIMIT_EXCEEDED: "the sources exceed the size or file-count limit",
    FailureCode.INVALID_OUTPUT: "the compiler's output was rejected by validation",
    FailureCode.PROMOTION_FAILED: "publishing the new wiki failed; the previous wiki was kept",
    FailureCode.COMPILER_CRASHED: "the compiler stopped without reporting (crash or restart)",
    FailureCode.MODEL_UNAVAILABLE: "the model could not be reached",
    FailureCode.MODEL_OUTPUT_INVALID: "the model's replies could not be used",
    FailureCode.BUDGET_EXHAUSTED: "the token budget for a pass ran out",
    FailureCode.CANCELLED: "the job was cancelled",
    FailureCode.LEASE_EXPIRED: "the external compiler did not report before its lease expired",
    FailureCode.COMPILER_REPORTED: "the compiler reported a failure",
    FailureCode.DISK_FULL: "the disk is full; nothing was published, and the next attempt runs once space is freed",
    FailureCode.READ_ONLY: "the disk is read-only; nothing was published",
}

# Priority used in the claim order: manual before retry before smart_auto and scheduled (equal).
TRIGGER_PRIORITY: dict[str, int] = {Trigger.MANUAL: 0, Trigger.RETRY: 1, Trigger.SMART_AUTO: 2, Trigger.SCHEDULED: 2}

# Claimants of a running job.
CLAIMED_BY_BUILTIN = "builtin"
CLAIMED_BY_EXTERNAL = "external"
