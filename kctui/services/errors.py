"""Errors the services raise. Each has an HTTP status for the API and one line of text for a person."""

from __future__ import annotations


class ServiceError(Exception):
    status = 500
    reason = "Internal Server Error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidInput(ServiceError):
    status = 400
    reason = "Bad Request"


class NotFound(ServiceError):
    status = 404
    reason = "Not Found"


class Conflict(ServiceError):
    status = 409
    reason = "Conflict"


class IOFailure(ServiceError):
    status = 500
    reason = "Internal Server Error"
