"""An OpenAI-compatible chat-completions client (httpx): streamed replies (server-sent events, read by
`stream.read_stream`: live token counts, an idle timeout, the output cap), the output mode each server
takes (`response_format` json_schema → json_object → prompt only, remembered for the pass), retries
with bounded exponential backoff on 429 (before or in the middle of a stream), 5xx, timeouts and
dropped connections, honouring `Retry-After` (seconds or an HTTP date); a semaphore bounds the
requests in flight. The key is only ever put in the `Authorization` header: every
message this module produces or logs is scrubbed of it (and of any long run of its characters)."""

from __future__ import annotations

import email.utils
import logging
import math
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import httpx

from kctui import __version__
from kctui.compiler.llm.schema import MODES, names_field, response_format
from kctui.compiler.llm.settings import LlmSettings
from kctui.compiler.llm.stream import LiveFn, StreamError, read_stream

log = logging.getLogger("kctui.llm")

REDACTED = "[redacted]"
_MIN_RUN = 8  # a run of this many characters of the key is scrubbed too
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def scrub(text: str, secret: str) -> str:
    """`text` without `secret` and without any run of 8 or more of its consecutive characters."""
    if not secret or not text:
        return text
    text = text.replace(secret, REDACTED)
    if len(secret) < _MIN_RUN:
        return text
    windows = {secret[i : i + _MIN_RUN] for i in range(len(secret) - _MIN_RUN + 1)}
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i : i + _MIN_RUN] in windows:
            j = i + _MIN_RUN
            while j < len(text) and text[i : j + 1] in secret:
                j += 1
            out.append(REDACTED)
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def safe_url(url: str) -> str:
    """scheme://host[:port]/path, without credentials or a query."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "(invalid URL)"
    return f"{parts.scheme}://{host}{port}{parts.path}"


class ModelError(Exception):
    """A request that could not be completed. `transient`: worth retrying the pass later."""

    def __init__(self, message: str, *, transient: bool, code: str = "model_unavailable") -> None:
        super().__init__(message)
        self.message = message
        self.transient = transient
        self.code = code


@dataclass(frozen=True)
class Reply:
    content: str
    finish_reason: str
    prompt_tokens: int | None
    completion_tokens: int | None
    mode: str = "prompt"  # the output mode the server answered in (schema.MODES)
    cut: bool = False  # stopped here at the reply's output cap (reported truncated)
    tokens_per_s: float | None = None  # streamed replies: output tokens per second
    seconds: float = 0.0  # from sending the request to the last token
    first_token: float | None = None  # streamed replies: seconds from sending the request to the first token
    counted: int | None = None  # streamed replies: output tokens as counted here (when the server gave no usage)


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """`Retry-After` as seconds from now: a number of seconds or an HTTP date; None when absent or invalid."""
    if not value or not value.strip():
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
        if when is None:
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or datetime.now(UTC))).total_seconds()
    if not math.isfinite(seconds):
        return None
    return max(0.0, seconds)


def _retryable(status: int) -> bool:
    return status in (408, 425, 429) or status >= 500


def pause(seconds: float) -> None:
    """The wait between retries (tests replace it to record the waits instead of sleeping)."""
    time.sleep(seconds)


class OutputModes:
    """Which output mode each (server URL, model) takes, for the rest of the pass: `auto` starts at
    json_schema and falls back once per refusal (json_schema → json_object → prompt); a fixed setting
    never falls back. `refused` keeps (mode, why) per server for the brief and `kctui llm check`."""

    def __init__(self, setting: str = "auto") -> None:
        self.fixed = setting if setting in MODES else None
        self._current: dict[tuple[str, str], str] = {}
        self.accepted: dict[tuple[str, str], str] = {}
        self.refused: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self._lock = threading.Lock()

    def current(self, key: tuple[str, str]) -> str:
        with self._lock:
            return self.fixed or self._current.get(key, MODES[0])

    def refuse(self, key: tuple[str, str], mode: str, why: str) -> str | None:
        """The mode to ask in next after the server refused `mode`; None when there is none to try."""
        with self._lock:
            if self.fixed:
                return None
            now = self._current.get(key, MODES[0])
            if now != mode:  # another request already fell back
                return now
            i = MODES.index(mode)
            if i + 1 >= len(MODES):
                return None
            self._current[key] = MODES[i + 1]
            self.refused.setdefault(key, []).append((mode, why))
            return MODES[i + 1]

    def accept(self, key: tuple[str, str], mode: str) -> None:
        with self._lock:
            self.accepted[key] = mode

    def describe(self, key: tuple[str, str]) -> str:
        """The brief's words: which mode was used and what the server refused."""
        with self._lock:
            used = self.accepted.get(key) or self.fixed or self._current.get(key, MODES[0])
            refused = [m for m, _ in self.refused.get(key, [])]
        mode = "prompt only (no response_format)" if used == "prompt" else f"response_format {used}"
        return mode + (f" (the server refused {' and '.join(refused)})" if refused else "")


class ChatClient:
    def __init__(self, settings: LlmSettings, *, sleep: Callable[[float], None] | None = None,
                 stopped: Callable[[], bool] = lambda: False, clock: Callable[[], float] = time.monotonic,
                 modes: OutputModes | None = None) -> None:
        self.settings = settings
        self._secret = settings.secret
        self._sleep = sleep
        self._stopped = stopped
        self._clock = clock
        self._slots = threading.BoundedSemaphore(settings.concurrency)
        self._lock = threading.Lock()
        self.requests = 0  # HTTP requests sent, retries and output-mode fallbacks included
        self.retries = 0
        self.modes = modes or OutputModes(settings.output_mode)
        self._stream_options = True  # `stream_options.include_usage`, dropped when a server refuses it
        headers = {"Accept": "application/json, text/event-stream", "User-Agent": f"kctui/{__version__}"}
        if self._secret:
            headers["Authorization"] = f"Bearer {self._secret}"
        self._http = httpx.Client(
            timeout=httpx.Timeout(settings.timeout),
            headers=headers,
            limits=httpx.Limits(max_connections=settings.concurrency, max_keepalive_connections=settings.concurrency),
            follow_redirects=False,
        )
        self._where = safe_url(settings.endpoint)
        self.key = (self._where, settings.model)

    def close(self) -> None:
        self._http.close()

    def _clean(self, text: str) -> str:
        return scrub(_CONTROL.sub(" ", text), self._secret)

    @property
    def _first_wait(self) -> float:
        """How long a request waits for the server's first answer (a streamed one: its first byte)."""
        s = self.settings
        return min(s.idle_timeout, s.timeout) if s.stream else s.timeout

    def _timeout(self) -> httpx.Timeout:
        s = self.settings
        return httpx.Timeout(connect=min(s.timeout, 30.0), read=self._first_wait, write=s.timeout, pool=s.timeout)

    def _body(self, messages: list[dict[str, str]], mode: str, max_tokens: int) -> dict[str, Any]:
        s = self.settings
        body: dict[str, Any] = {"model": s.model, "messages": messages, "temperature": s.temperature,
                                "max_tokens": max_tokens, "stream": s.stream}
        if s.stream and self._stream_options:
            body["stream_options"] = {"include_usage": True}
        fmt = response_format(mode)
        if fmt is not None:
            body["response_format"] = fmt
        return body

    def chat(self, messages: list[dict[str, str]], label: str = "", *, max_tokens: int | None = None,
             live: LiveFn | None = None) -> Reply:
        """One completion, streamed when the settings say so. Raises `ModelError`: transient when the
        server could not be reached, stalled or kept failing within the retry bounds, permanent when it
        refused the request (4xx) in every output mode it may fall back to."""
        s = self.settings
        cap = min(max_tokens or s.max_tokens, s.max_tokens)
        started = self._clock()
        attempt = 0
        while True:
            if self._stopped():
                raise ModelError("the pass stopped before the model answered", transient=True)
            mode = self.modes.current(self.key)
            reply, cause, wait, again = self._attempt(self._body(messages, mode, cap), mode, cap, label, attempt, live)
            if reply is not None:
                self.modes.accept(self.key, mode)
                return reply
            if again:  # the server refused an optional field: asked again without it, at once
                continue
            attempt += 1
            cause = self._clean(cause)
            delay = wait if wait is not None else min(s.backoff_max, s.backoff_base * 2 ** (attempt - 1))
            spent = self._clock() - started
            if attempt > s.max_retries or delay > s.backoff_max or spent + delay > s.retry_total:
                why = f"asked to wait {delay:g} s" if wait is not None and delay > s.backoff_max else f"{attempt} attempts"
                raise ModelError(f"the model at {self._where} did not answer ({cause}; gave up after {why})",
                                 transient=True)
            with self._lock:
                self.retries += 1
            log.warning("model request %s failed (%s); retrying in %.2f s", label, cause, delay)
            (self._sleep or pause)(delay)

    def _attempt(self, body: dict[str, Any], mode: str, cap: int, label: str, attempt: int,
                 live: LiveFn | None) -> tuple[Reply | None, str, float | None, bool]:
        """One request in one of the client's slots, as _send answers it; a timeout or a connection that
        fails is an answer to retry, any other HTTP error a permanent `ModelError`."""
        with self._slots:
            with self._lock:
                self.requests += 1
            log.info("model request %s (attempt %d, %s) to %s", label, attempt + 1, mode, self._where)
            try:
                return self._send(body, mode, cap, live)
            except httpx.TimeoutException:
                return None, f"no answer within {self._first_wait:g} s", None, False
            except httpx.TransportError as exc:
                return None, f"could not reach {self._where} ({type(exc).__name__})", None, False
            except httpx.HTTPError as exc:  # invalid URL and the like: no retry helps
                raise ModelError(self._clean(f"cannot send to {self._where}: {type(exc).__name__}: {exc}"),
                                 transient=False) from None

    def _send(self, body: dict[str, Any], mode: str, cap: int,
              live: LiveFn | None) -> tuple[Reply | None, str, float | None, bool]:
        """One HTTP request: (reply, why not, the server's Retry-After, ask again at once)."""
        s = self.settings
        t0 = self._clock()
        with self._http.stream("POST", s.endpoint, json=body, timeout=self._timeout()) as resp:
            if resp.status_code == 200:
                return self._read(resp, mode, cap, t0, live)
            resp.read()
            detail = _detail(resp)
            if resp.status_code == 500 and "response_format" in body and "response_format" in detail.casefold():
                # llama-cpp-python's server answers a response_format it cannot validate with a 500
                return self._fall_back(resp, mode, detail)
            if _retryable(resp.status_code):
                return None, f"HTTP {resp.status_code}", retry_after_seconds(resp.headers.get("retry-after")), False
            if resp.status_code in (400, 422) and "stream_options" in detail and "stream_options" in body:
                self._stream_options = False
                log.warning("the model server at %s refused stream_options; asking without it", self._where)
                return None, "", None, True
            if resp.status_code in (400, 422) and "response_format" in body and names_field(detail, mode):
                return self._fall_back(resp, mode, detail)
            raise ModelError(self._refusal(resp), transient=False)

    def _fall_back(self, resp: httpx.Response, mode: str,
                   detail: str) -> tuple[Reply | None, str, float | None, bool]:
        """The server refused the output mode: ask again at once in the next one, or fail with what to do."""
        nxt = self.modes.refuse(self.key, mode, self._clean(detail[:200]))
        if nxt is not None:
            log.warning("the model server at %s refused response_format %s (HTTP %d); asking in %s",
                        self._where, mode, resp.status_code, nxt)
            return None, "", None, True
        if self.modes.fixed:
            raise ModelError(self._refusal(resp) + f"; it does not take output mode {mode} "
                             "(set KCTUI_LLM_OUTPUT_MODE=auto to fall back)", transient=False)
        raise ModelError(self._refusal(resp), transient=False)

    def _read(self, resp: httpx.Response, mode: str, cap: int, t0: float,
              live: LiveFn | None) -> tuple[Reply | None, str, float | None, bool]:
        s = self.settings
        if "text/event-stream" not in resp.headers.get("content-type", "").lower():
            resp.read()  # a server that does not stream answers with the whole completion
            reply, problem = self._reply(resp, mode, cap)
            return reply, problem, None, False
        seen = [0]

        def counted(tokens: int, rate: float) -> None:
            seen[0] = tokens
            if live is not None:
                live(tokens, rate)

        try:
            got = read_stream(resp.iter_bytes(), cap=cap, idle=s.idle_timeout, deadline=t0 + s.timeout,
                              clock=self._clock, live=counted, sent=t0, stopped=self._stopped)
        except httpx.TimeoutException:
            what = f"after {seen[0]} tokens" if seen[0] else "before the first token"
            return None, f"no token for {self._first_wait:g} s {what}", None, False
        except httpx.TransportError as exc:
            return None, f"the connection dropped after {seen[0]} tokens ({type(exc).__name__})", None, False
        except StreamError as exc:
            if exc.final and self._stopped():
                raise ModelError(exc.message, transient=True) from None
            if exc.final:
                raise ModelError(self._clean(f"the model at {self._where}: {exc.message}; raise KCTUI_LLM_TIMEOUT "
                                             f"(now {s.timeout:g} s) or lower KCTUI_LLM_CHUNK_CHARS"),
                                 transient=True) from None
            if not exc.retry:
                raise ModelError(self._clean(f"the model at {self._where}: {exc.message}"), transient=False) from None
            wait = exc.wait if exc.wait is not None else retry_after_seconds(resp.headers.get("retry-after"))
            return None, exc.message, wait, False
        if got.cut:
            log.warning("model reply cut at its cap of %d output tokens", cap)
        return Reply(got.content, got.finish_reason, got.prompt_tokens, got.completion_tokens, mode, got.cut,
                     got.rate, self._clock() - t0, got.first - t0, got.tokens), "", None, False

    def _reply(self, resp: httpx.Response, mode: str, cap: int) -> tuple[Reply | None, str]:
        try:
            data: Any = resp.json()
            choice = data["choices"][0]
            content = choice["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            return None, "the server's answer was not a chat completion"
        if isinstance(content, list):  # content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        if not isinstance(content, str):
            content = ""
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        return Reply(content, str(choice.get("finish_reason") or ""), _int(usage.get("prompt_tokens")),
                     _int(usage.get("completion_tokens")), mode), ""

    def _refusal(self, resp: httpx.Response) -> str:
        status = resp.status_code
        if status in (401, 403):
            return f"the model server at {self._where} refused the key (HTTP {status}); check KCTUI_LLM_KEY"
        if status == 404:
            return f"no chat-completions endpoint or model {self.settings.model!r} at {self._where} (HTTP 404)"
        detail = _detail(resp)[:200]
        return self._clean(f"the model server at {self._where} refused the request (HTTP {status})"
                           + (f": {detail}" if detail else ""))


def _detail(resp: httpx.Response) -> str:
    try:
        return " ".join(resp.text.split())
    except (UnicodeDecodeError, httpx.HTTPError):
        return ""


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
