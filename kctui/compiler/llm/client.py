"""An OpenAI-compatible chat-completions client (httpx): retries with bounded exponential backoff on
429, 5xx, timeouts and dropped connections, honouring `Retry-After` (seconds or an HTTP date); a
semaphore bounds the requests in flight. The key is only ever put in the `Authorization` header: every
message this module produces or logs is scrubbed of it (and of any long run of its characters)."""

from __future__ import annotations

import email.utils
import logging
import math
import re
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable
from urllib.parse import urlsplit

import httpx

from kctui import __version__
from kctui.compiler.llm.settings import LlmSettings

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
            when = when.replace(tzinfo=timezone.utc)
        seconds = (when - (now or datetime.now(timezone.utc))).total_seconds()
    if not math.isfinite(seconds):
        return None
    return max(0.0, seconds)


def _retryable(status: int) -> bool:
    return status in (408, 425, 429) or status >= 500


class ChatClient:
    def __init__(self, settings: LlmSettings, *, sleep: Callable[[float], None] = time.sleep,
                 stopped: Callable[[], bool] = lambda: False) -> None:
        self.settings = settings
        self._secret = settings.secret
        self._sleep = sleep
        self._stopped = stopped
        self._slots = threading.BoundedSemaphore(settings.concurrency)
        self._lock = threading.Lock()
        self.requests = 0  # HTTP requests sent, retries included
        self.retries = 0
        headers = {"Accept": "application/json", "User-Agent": f"kctui/{__version__}"}
        if self._secret:
            headers["Authorization"] = f"Bearer {self._secret}"
        self._http = httpx.Client(
            timeout=httpx.Timeout(settings.timeout),
            headers=headers,
            limits=httpx.Limits(max_connections=settings.concurrency, max_keepalive_connections=settings.concurrency),
            follow_redirects=False,
        )
        self._where = safe_url(settings.endpoint)

    def close(self) -> None:
        self._http.close()

    def _clean(self, text: str) -> str:
        return scrub(_CONTROL.sub(" ", text), self._secret)

    def chat(self, messages: list[dict[str, str]], label: str = "") -> Reply:
        """One completion. Raises `ModelError`: transient when the server could not be reached or kept
        failing within the retry bounds, permanent when it refused the request (4xx)."""
        s = self.settings
        body = {"model": s.model, "messages": messages, "temperature": s.temperature, "max_tokens": s.max_tokens,
                "stream": False}
        started = time.monotonic()
        attempt = 0
        while True:
            attempt += 1
            if self._stopped():
                raise ModelError("the pass stopped before the model answered", transient=True)
            wait: float | None = None
            with self._slots:
                with self._lock:
                    self.requests += 1
                log.info("model request %s (attempt %d) to %s", label, attempt, self._where)
                try:
                    resp = self._http.post(s.endpoint, json=body)
                except httpx.TimeoutException:
                    cause = f"no answer within {s.timeout:g} s"
                except httpx.TransportError as exc:
                    cause = f"could not reach {self._where} ({type(exc).__name__})"
                except httpx.HTTPError as exc:  # invalid URL and the like: no retry helps
                    raise ModelError(self._clean(f"cannot send to {self._where}: {type(exc).__name__}: {exc}"),
                                     transient=False) from None
                else:
                    if resp.status_code == 200:
                        reply, problem = self._reply(resp)
                        if reply is not None:
                            return reply
                        cause = problem
                    elif _retryable(resp.status_code):
                        cause = f"HTTP {resp.status_code}"
                        wait = retry_after_seconds(resp.headers.get("retry-after"))
                    else:
                        raise ModelError(self._refusal(resp), transient=False)
            cause = self._clean(cause)
            delay = wait if wait is not None else min(s.backoff_max, s.backoff_base * 2 ** (attempt - 1))
            spent = time.monotonic() - started
            if attempt > s.max_retries or delay > s.backoff_max or spent + delay > s.retry_total:
                why = f"asked to wait {delay:g} s" if wait is not None and delay > s.backoff_max else f"{attempt} attempts"
                raise ModelError(f"the model at {self._where} did not answer ({cause}; gave up after {why})",
                                 transient=True)
            with self._lock:
                self.retries += 1
            log.warning("model request %s failed (%s); retrying in %.2f s", label, cause, delay)
            self._sleep(delay)

    def _reply(self, resp: httpx.Response) -> tuple[Reply | None, str]:
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
                     _int(usage.get("completion_tokens"))), ""

    def _refusal(self, resp: httpx.Response) -> str:
        status = resp.status_code
        if status in (401, 403):
            return f"the model server at {self._where} refused the key (HTTP {status}); check KCTUI_LLM_KEY"
        if status == 404:
            return f"no chat-completions endpoint or model {self.settings.model!r} at {self._where} (HTTP 404)"
        try:
            detail = " ".join(resp.text.split())[:200]
        except (UnicodeDecodeError, httpx.HTTPError):
            detail = ""
        return self._clean(f"the model server at {self._where} refused the request (HTTP {status})"
                           + (f": {detail}" if detail else ""))


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
