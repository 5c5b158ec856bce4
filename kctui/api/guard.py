"""The middleware in front of every route: 401 without the right bearer token (compared in constant
time, before anything else), 413 for a body over `max_body` bytes (on Content-Length and while streaming)."""

from __future__ import annotations

import hmac

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kctui.api.envelope import BodyTooLarge, error_response


class GuardMiddleware:
    """401 without the right bearer token (every route, before anything else); 413 over `max_body`."""

    def __init__(self, app: ASGIApp, token: str, max_body: int) -> None:
        self.app = app
        self.expected = token.encode("latin-1")
        self.max_body = max_body

    def _authorised(self, header: bytes) -> bool:
        scheme, _, given = header.partition(b" ")
        ok_scheme = scheme.lower() == b"bearer"  # the scheme is case-insensitive (RFC 9110 §11.1)
        return hmac.compare_digest(given.strip(), self.expected) and ok_scheme

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        given = headers.get(b"authorization", b"")
        if not self._authorised(given):
            words = "a bearer token is required" if not given else "the bearer token is wrong"
            await error_response(401, f"{words} (see the api-token file in kctui's state directory)",
                                 {"WWW-Authenticate": "Bearer"})(scope, receive, send)
            return
        length = headers.get(b"content-length")
        if length is not None:
            if not length.isdigit():
                await error_response(400, "the Content-Length header is not a number")(scope, receive, send)
                return
            if int(length) > self.max_body:
                await error_response(413, str(BodyTooLarge(self.max_body)))(scope, receive, send)
                return
        await self.app(scope, self._limited(receive), send)

    def _limited(self, receive: Receive) -> Receive:
        seen = 0

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge(self.max_body)
            return message

        return limited_receive
