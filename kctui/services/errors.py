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


class Refused(Conflict):
    """The trust boundary declined a direct page edit; `code` is the hold reason of `classify_update`
    (`supersede`, `human_confirmed`, `never_auto`, `autonomy_ceiling`, …)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


# The service errors' codes (the trust boundary's hold reasons are the codes of `Refused`).
CODES = ("invalid_input", "not_found", "conflict", "io_failure", "internal_error")
