"""One chat completion for `ask`: httpx against the OpenAI-compatible API the extractor uses, the answer
schema as the response format, the reply streamed (server-sent events) with the answer text handed to
`on_text` as it grows. One line (IOFailure) for anything that goes wrong; the key never appears in it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx

from kctui import __version__
from kctui.compiler.llm.client import safe_url, scrub
from kctui.compiler.llm.stream import SseDecoder
from kctui.search.answer import partial_answer
from kctui.services.errors import IOFailure

SCHEMA_NAME = "kctui_answer"
MAX_REPLY_BYTES = 1 << 20


def _format(mode: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    if mode in ("auto", "json_schema"):
        return {"type": "json_schema", "json_schema": {"name": SCHEMA_NAME, "schema": schema}}
    if mode == "json_object":
        return {"type": "json_object"}
    return None


def chat(settings: Any, messages: list[dict[str, str]], schema: dict[str, Any], max_tokens: int,
         on_text: Callable[[str], None] | None = None) -> tuple[str, dict[str, Any] | None]:
    """(the reply's content, its usage or None). A server that refuses the response format (HTTP 400/422
    naming it) under `output_mode = auto` is asked once more without it."""
    secret = settings.secret
    where = safe_url(settings.endpoint)
    headers = {"Accept": "application/json, text/event-stream", "User-Agent": f"kctui/{__version__}"}
    if secret:
        headers["Authorization"] = f"Bearer {secret}"
    body: dict[str, Any] = {"model": settings.model, "messages": messages, "temperature": settings.temperature,
                            "max_tokens": min(max_tokens, settings.max_tokens), "stream": bool(settings.stream)}
    fmt = _format(settings.output_mode, schema)
    if fmt is not None:
        body["response_format"] = fmt
    timeout = httpx.Timeout(settings.timeout, read=min(settings.idle_timeout, settings.timeout))
    try:
        with httpx.Client(headers=headers, timeout=timeout, follow_redirects=False) as http:
            for _ in range(2):
                with http.stream("POST", settings.endpoint, json=body) as resp:
                    if resp.status_code == 200:
                        return _read(resp, on_text, where)
                    resp.read()
                    detail = scrub(resp.text[:300], secret)
                    if (resp.status_code in (400, 422) and "response_format" in body
                            and settings.output_mode == "auto" and "format" in detail.casefold()):
                        body.pop("response_format")
                        continue
                    raise IOFailure(f"the model at {where} answered HTTP {resp.status_code}: "
                                    f"{' '.join(detail.split())[:200] or resp.reason_phrase}")
    except httpx.TimeoutException:
        raise IOFailure(f"the model at {where} did not answer within {settings.idle_timeout:g} s") from None
    except httpx.HTTPError as exc:
        raise IOFailure(scrub(f"could not reach the model at {where} ({type(exc).__name__})", secret)) from None
    raise IOFailure(f"the model at {where} refused the request")


def _read(resp: httpx.Response, on_text: Callable[[str], None] | None, where: str) -> tuple[str, dict[str, Any] | None]:
    if "text/event-stream" not in resp.headers.get("content-type", "").lower():
        data = resp.read()
        try:
            whole = json.loads(data)
            content = whole["choices"][0]["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError):
            raise IOFailure(f"the model at {where} answered with something that is not a chat completion") from None
        if on_text is not None:
            on_text(partial_answer(content))
        return str(content), whole.get("usage") if isinstance(whole.get("usage"), dict) else None
    dec = SseDecoder()
    parts: list[str] = []
    size = 0
    usage: dict[str, Any] | None = None
    shown = ""
    for chunk in resp.iter_bytes():
        size += len(chunk)
        if size > MAX_REPLY_BYTES:
            raise IOFailure(f"the model at {where} sent a reply larger than {MAX_REPLY_BYTES:,} bytes")
        for _event, data in dec.feed(chunk):
            if data.strip() == "[DONE]":
                continue
            try:
                event = json.loads(data)
            except ValueError:
                raise IOFailure(f"the model at {where} streamed an event that is not JSON") from None
            if isinstance(event, dict) and isinstance(event.get("usage"), dict):
                usage = event["usage"]
            choices = event.get("choices") if isinstance(event, dict) else None
            if choices and isinstance(choices[0], dict):
                delta = (choices[0].get("delta") or {}).get("content")
                if isinstance(delta, str) and delta:
                    parts.append(delta)
        text = partial_answer("".join(parts))
        if on_text is not None and text != shown:
            shown = text
            on_text(text)
    return "".join(parts), usage
