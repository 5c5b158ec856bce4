"""Errors the services raise. Each has an HTTP status for the API, one line of text for a person, and a
code from a closed set (`CODES`) for a tool client (MCP)."""

from __future__ import annotations


class ServiceError(Exception):
    status = 500
    reason = "Internal Server Error"
    code = "internal_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidInput(ServiceError):
    status = 400
    reason = "Bad Request"
    code = "invalid_input"


class NotFound(ServiceError):
    status = 404
    reason = "Not Found"
    code = "not_found"


class Conflict(ServiceError):
    status = 409
    reason = "Conflict"
    code = "conflict"


class IOFailure(ServiceError):
    status = 500
    reason = "Internal Server Error"
    code = "io_failure"


class DiskFull(IOFailure):
    """A write was refused for lack of space; nothing was changed (the failure code `disk_full`)."""

    code = "disk_full"


class ReadOnly(IOFailure):
    """A write was refused by a read-only filesystem; nothing was changed (the failure code `read_only`)."""

    code = "read_only"


def io_failure(doing: str, exc: BaseException, *, kept: str = "") -> IOFailure:
    """"<doing> failed[; <kept>]: <exc>" as an IOFailure — a DiskFull or ReadOnly, its code leading the
    one line, when a full or read-only disk is what `exc` comes down to."""
    from kctui.core.failures import storage_error_of, storage_message  # noqa: PLC0415

    tail = f"; {kept}" if kept else ""
    storage = storage_error_of(exc)
    if storage is None:
        return IOFailure(f"{doing} failed{tail}: {exc}")
    code, error = storage
    kind = DiskFull if code == DiskFull.code else ReadOnly
    return kind(f"[{code}] {storage_message(code, error, doing)}{tail}")


class Refused(Conflict):
    """The trust boundary declined a direct page edit; `code` is the hold reason of `classify_update`
    (`supersede`, `human_confirmed`, `never_auto`, `autonomy_ceiling`, …)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


# The service errors' codes (the trust boundary's hold reasons are the codes of `Refused`).
CODES = ("invalid_input", "not_found", "conflict", "io_failure", "internal_error")
