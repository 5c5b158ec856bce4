"""Reading one streamed chat completion (server-sent events, `stream: true`).

`SseDecoder` turns bytes, split anywhere (inside a line, a `\\r\\n`, a UTF-8 sequence), into the `data`
of complete events. `read_stream` consumes the events of one reply: it gathers the content deltas,
counts the tokens as they come (one delta is at least one token; a long delta counts ~4 characters a
token), reports them live, and stops the reply when

- it reaches the output cap: the reply is cut there and marked `cut` (the parser keeps its complete items);
- no token came for `idle` seconds although the server kept the connection busy (keep-alive comments);
- the whole request ran past its deadline;
- the server sent an error event in the middle of the stream (a 429 with its `retry_after`, a 5xx, …).

The caller's HTTP read timeout covers a server that sends nothing at all.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

LiveFn = Callable[[int, float], None]  # (tokens so far, tokens per second)


class SseDecoder:
    """Incremental server-sent-events decoder: `feed(bytes)` returns the events completed by them,
    each as (event name, data). Comments (`:` lines) are skipped; multi-line data is joined by `\\n`."""

    def __init__(self) -> None:
        self._buf = b""
        self._data: list[str] = []
        self._event = ""
        self.comments = 0

    def feed(self, chunk: bytes) -> list[tuple[str, str]]:
        self._buf += chunk
        out: list[tuple[str, str]] = []
        while True:
            cut = _line_end(self._buf)
            if cut is None:
                break
            end, skip = cut
            raw, self._buf = self._buf[:end], self._buf[end + skip :]
            self._line(raw.decode("utf-8", "replace"), out)
        return out

    def close(self) -> list[tuple[str, str]]:
        """The event a stream ended without its blank line (some servers do)."""
        out: list[tuple[str, str]] = []
        if self._buf:
            self._line(self._buf.decode("utf-8", "replace"), out)
            self._buf = b""
        self._line("", out)
        return out

    def _line(self, line: str, out: list[tuple[str, str]]) -> None:
        if line == "":
            if self._data:
                out.append((self._event or "message", "\n".join(self._data)))
            self._data, self._event = [], ""
            return
        if line.startswith(":"):
            self.comments += 1
            return
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value


def _line_end(buf: bytes) -> tuple[int, int] | None:
    """(index, length of the line break) of the first complete line break; a `\\r` at the very end may
    be the first half of `\\r\\n`, so it waits for the next byte."""
    n = buf.find(b"\n")
    r = buf.find(b"\r")
    if r == -1 and n == -1:
        return None
    if r == -1 or (n != -1 and n < r):
        return n, 1
    if r + 1 < len(buf):
        return r, 2 if buf[r + 1 : r + 2] == b"\n" else 1
    return None


class StreamError(Exception):
    """The stream ended without a usable reply. `retry`: worth asking again; `wait`: the server's
    `retry_after` in seconds, when it gave one."""

    def __init__(self, message: str, *, retry: bool, wait: float | None = None, final: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.retry = retry
        self.wait = wait
        self.final = final  # no retry can help within this request (the whole deadline passed)


@dataclass
class Streamed:
    content: str
    finish_reason: str
    prompt_tokens: int | None
    completion_tokens: int | None  # as the server counted them (its last usage object), when it did
    tokens: int  # as counted here, live
    seconds: float  # from the first token to the last
    cut: bool  # stopped here at the output cap
    first: float  # the clock's time of the first token
    sent: float  # the clock's time the request was sent

    @property
    def rate(self) -> float:
        return rate(self.tokens, self.sent, self.first, self.first + self.seconds)


RATE_SPAN = 1.0  # tokens/s over less than this since the first token is counted from the request instead


def rate(tokens: int, sent: float, first: float, now: float) -> float:
    """Tokens per second: since the first token once a second has passed, else since the request was
    sent (a burst of a few tokens within microseconds is no speed)."""
    if now - first >= RATE_SPAN:
        return tokens / (now - first)
    return tokens / (now - sent) if now > sent else 0.0


def count_tokens(deltas: int, chars: int) -> int:
    return max(deltas, math.ceil(chars / 4))


def read_stream(chunks: Iterable[bytes], *, cap: int, idle: float, deadline: float, clock: Callable[[], float],
                live: LiveFn | None = None, sent: float | None = None,
                stopped: Callable[[], bool] = lambda: False) -> Streamed:
    """Read one reply from the raw byte chunks of a streamed response (see the module doc)."""
    dec = SseDecoder()
    reply = _Reply(cap, clock, live, sent)
    for raw in chunks:
        if stopped():
            raise StreamError("the pass stopped while the model was answering", retry=False, final=True)
        now = clock()
        if now > deadline:
            raise StreamError(f"the reply was not complete when the whole-request time ran out "
                              f"({reply.tokens()} tokens received)", retry=False, final=True)
        if reply.take(dec.feed(raw)):
            break
        if now - reply.last_token > idle:
            what = f"after {reply.tokens()} tokens" if reply.started else "before the first token"
            raise StreamError(f"no token for {idle:g} s {what} (the server kept the connection open)", retry=True)
    else:
        reply.take(dec.close())
    return reply.result()


class _Reply:
    """One reply as its events come: the content so far, the tokens counted live, how it ended."""

    def __init__(self, cap: int, clock: Callable[[], float], live: LiveFn | None, sent: float | None) -> None:
        self.cap = cap
        self.clock = clock
        self.live = live
        self.parts: list[str] = []
        self.chars = self.deltas = 0
        self.finish = ""
        self.p_tok: int | None = None
        self.c_tok: int | None = None
        self.first = self.last_token = clock()
        self.sent = self.first if sent is None else sent
        self.started = False
        self.cut = False  # stopped at the output cap
        self.ended = False  # the server said `[DONE]`

    def tokens(self) -> int:
        return count_tokens(self.deltas, self.chars)

    def take(self, events: list[tuple[str, str]]) -> bool:
        """Handle these events in order; True at the one that ends the reply (the rest are not read)."""
        for event, data in events:
            if self.event(event, data):
                return True
        return False

    def event(self, event: str, data: str) -> bool:
        """Handle one event; True when it ends the reply (`[DONE]`, or the output cap reached)."""
        if data.strip() == "[DONE]":
            self.ended = True
            return True
        obj = _event_object(event, data)
        usage = obj.get("usage")
        if isinstance(usage, dict):
            self.p_tok = _int(usage.get("prompt_tokens"), self.p_tok)
            self.c_tok = _int(usage.get("completion_tokens"), self.c_tok)
        choices = obj.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            return False
        choice = choices[0]
        delta = choice.get("delta") if isinstance(choice.get("delta"), dict) else {}
        if self.delta(delta):
            self.cut = True
            return True
        if choice.get("finish_reason"):
            self.finish = str(choice["finish_reason"])
        return False

    def delta(self, delta: dict[str, Any]) -> bool:
        """Count the tokens of one delta (its content and its reasoning, which thinking models send as
        tokens that are not content) and report them; True when they reach the cap."""
        text = delta.get("content")
        thought = delta.get("reasoning_content") or delta.get("reasoning")
        got = 0
        if isinstance(text, str) and text:
            self.parts.append(text)
            got += len(text)
        if isinstance(thought, str) and thought:
            got += len(thought)
        if not got:
            return False
        now = self.clock()
        if not self.started:
            self.started, self.first = True, now
        self.deltas += 1
        self.chars += got
        self.last_token = now
        tokens = self.tokens()
        if self.live is not None:
            self.live(tokens, rate(tokens, self.sent, self.first, now))
        return tokens >= self.cap

    def result(self) -> Streamed:
        """The reply, once the stream is over; a StreamError when it gave none or broke off."""
        if not self.started and not self.finish and not self.cut:
            raise StreamError("the stream ended without a reply", retry=True)
        if not self.finish and not self.cut and not self.ended:
            raise StreamError(f"the stream broke off after {self.tokens()} tokens, before the reply ended",
                              retry=True)
        return Streamed("".join(self.parts), "length" if self.cut else (self.finish or "stop"), self.p_tok,
                        self.c_tok, self.tokens(), max(0.0, self.last_token - self.first), self.cut, self.first,
                        self.sent)


def _event_object(event: str, data: str) -> dict[str, Any]:
    """The JSON object of one event; a StreamError when it is none, or when it reports an error."""
    try:
        obj: Any = json.loads(data)
    except ValueError:
        raise StreamError("the server sent an event that is not JSON", retry=True) from None
    if not isinstance(obj, dict):
        raise StreamError("the server sent an event that is not a JSON object", retry=True)
    if event == "error" or "error" in obj:
        raise _error_event(obj.get("error", obj))
    return obj


def _int(value: Any, default: int | None) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else default


def _error_event(err: Any) -> StreamError:
    if not isinstance(err, dict):
        return StreamError(f"the server reported an error in the middle of the stream: {str(err)[:200]}", retry=True)
    code = err.get("code", err.get("status"))
    try:
        status = int(code)
    except (TypeError, ValueError):
        status = 0
    msg = " ".join(str(err.get("message", "")).split())[:200]
    wait = None
    for key in ("retry_after", "retry_after_seconds", "retryAfter"):
        v = err.get(key)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0:
            wait = float(v)
            break
    retry = status in (0, 408, 425, 429) or status >= 500
    label = f"HTTP {status}" if status else "an error"
    return StreamError(f"the server reported {label} in the middle of the stream" + (f": {msg}" if msg else ""),
                       retry=retry, wait=wait)
