"""The answer envelope of the loopback protocol (host.md §6) and the error a handler raises to answer one:

    success  {"code": <status>, "message": "...", "data": ...}
    error    {"code": <status>, "error": "<reason phrase>", "message": "<what went wrong>"}
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from starlette.responses import JSONResponse

PREFIX = "/api/v1/knowledge"
MAX_BODY = 1 << 20


def reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def ok(data: Any, message: str = "ok", status: int = 200) -> JSONResponse:
    return JSONResponse({"code": status, "message": message, "data": data}, status_code=status)


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"code": status, "error": reason(status), "message": message},
                        status_code=status, headers=headers)


class ApiError(Exception):
    """A request the protocol refuses: answered as the error envelope with `status` and `message`."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class BodyTooLarge(ApiError):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {limit} bytes")
