"""`kctui llm check`: probe the configured model server the way a pass would use it, and say in one line
whether compiling would work and what to change.

1. the server's models (GET …/v1/models) and whether the configured model is among them;
2. one tiny structured request through the same client a pass uses (streamed, output mode json_schema
   → json_object → prompt only), parsed fail-closed by the same parser: the reply must cite the one
   fact of a two-line document;
3. which output mode the server took, latency (to the first token and in all), tokens/s.

`ok` is False exactly when a compile would fail with these settings; a usable reply that had to be cut
at its cap is a warning (a compile keeps the complete items), not a failure.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import httpx

from kctui import __version__
from kctui.compiler.llm import prompt
from kctui.compiler.llm.client import ChatClient, ModelError, Reply, safe_url, scrub
from kctui.compiler.llm.parse import ReplyUnusable, parse_reply
from kctui.compiler.llm.schema import reply_cap
from kctui.compiler.llm.settings import LlmSettings
from kctui.compiler.readers import Document, read_source

PROBE_PATH = "kctui-check.md"
# a name and number the prompt's example does not use: a model that copies the example cites nothing
PROBE_TEXT = "# Harbor Gateway\n\nHarbor Gateway listens on port 7411.\n"
PROBE_VALUE = "7411"


@dataclass
class CheckResult:
    ok: bool
    verdict: str
    url: str = ""
    model: str = ""
    models: list[str] | None = None  # what the server lists; None when it lists nothing
    model_listed: bool | None = None
    mode: str = ""  # the output mode the server answered in
    refused_modes: list[str] = field(default_factory=list)
    latency_s: float | None = None  # to the first token (streamed) or the whole reply
    seconds: float | None = None
    tokens_per_s: float | None = None
    tokens_out: int | None = None
    cut: bool = False
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        out = [f"server: {self.url}", f"model: {self.model}"]
        if self.models is not None:
            shown = ", ".join(self.models[:10]) + (f" (+{len(self.models) - 10} more)" if len(self.models) > 10 else "")
            listed = "listed" if self.model_listed else "NOT listed"
            out.append(f"models on the server: {shown or '(none)'} — {self.model} is {listed}")
        if self.mode:
            refused = f" (refused: {', '.join(self.refused_modes)})" if self.refused_modes else ""
            out.append(f"output mode: {self.mode}{refused}")
        if self.seconds is not None:
            first = f"first token after {self.latency_s:.2f} s, " if self.latency_s is not None else ""
            rate = f", {self.tokens_per_s:.1f} tokens/s" if self.tokens_per_s else ""
            count = f"{self.tokens_out:,} tokens" if self.tokens_out is not None else "reply"
            out.append(f"latency: {first}{count} in {self.seconds:.2f} s{rate}")
        out += [f"note: {n}" for n in self.notes]
        out.append(("verdict: ok — " if self.ok else "verdict: FAILS — ") + self.verdict)
        return "\n".join(out)


def models_url(settings: LlmSettings) -> str:
    url = settings.url.strip().rstrip("/")
    url = url.removesuffix("/chat/completions")
    return f"{url}/models"


def list_models(settings: LlmSettings, timeout: float) -> tuple[list[str] | None, str]:
    """The model ids the server lists, or None and why not."""
    headers = {"Accept": "application/json", "User-Agent": f"kctui/{__version__}"}
    if settings.secret:
        headers["Authorization"] = f"Bearer {settings.secret}"
    where = safe_url(models_url(settings))
    try:
        resp = httpx.get(models_url(settings), headers=headers, timeout=timeout, follow_redirects=False)
    except httpx.TimeoutException:
        return None, f"no answer from {where} within {timeout:g} s"
    except httpx.HTTPError as exc:
        return None, f"could not reach {where} ({type(exc).__name__})"
    if resp.status_code in (401, 403):
        return None, f"{where} refused the key (HTTP {resp.status_code}); check KCTUI_LLM_KEY"
    if resp.status_code != 200:
        return None, f"{where} lists no models (HTTP {resp.status_code})"
    try:
        data = resp.json()
        items = data["data"] if isinstance(data, dict) else data
        ids = [str(m["id"] if isinstance(m, dict) else m) for m in items]
    except (ValueError, KeyError, TypeError):
        return None, f"{where} answered with something that is not a model list"
    return ids, ""


def _model_listed(model: str, ids: list[str]) -> bool:
    m = model.strip().casefold()
    for i in ids:
        k = i.casefold()
        if k == m or k.rsplit("/", 1)[-1] == m or k.removesuffix(":latest") == m or k.removesuffix(".gguf") == m:
            return True
    return False


def run_check(settings: LlmSettings, *, clock: Callable[[], float] = time.monotonic,
              sleep: Callable[[float], None] | None = None) -> CheckResult:
    secret = settings.secret
    res = CheckResult(ok=False, verdict="", url=safe_url(settings.endpoint) if settings.url else "",
                      model=settings.model)
    if not settings.configured:
        res.verdict = ("no model is configured: set KCTUI_LLM_URL and KCTUI_LLM_MODEL "
                       "(or url and model under [llm] in config.toml)")
        return res
    _listing(res, settings)
    probe = settings.model_copy(update={"max_retries": min(settings.max_retries, 2), "reasks": 0, "concurrency": 1})
    doc = read_source(PROBE_PATH, PROBE_TEXT.encode(), "sha256:kctui-check")
    assert isinstance(doc, Document)
    chunk = prompt.chunk_document(doc, settings.chunk_chars)[0]
    inventory = prompt.Inventory(None, 0)
    client = ChatClient(probe, sleep=sleep, clock=clock)
    try:
        reply = client.chat(prompt.messages(doc, chunk, []), "check", max_tokens=reply_cap(chunk, probe.max_tokens))
    except ModelError as exc:
        res.refused_modes = [m for m, _ in client.modes.refused.get(client.key, [])]
        res.verdict = scrub(_advice(exc, settings, res), secret)
        return res
    finally:
        client.close()
    res.refused_modes = [m for m, _ in client.modes.refused.get(client.key, [])]
    if client.retries:
        res.notes.append(f"the server asked to slow down or failed {client.retries} time(s) before answering")
    _timing(res, reply)
    try:
        part = parse_reply(reply.content, doc, chunk, inventory)
    except ReplyUnusable as exc:
        res.verdict = _unusable(exc.reason, reply, res)
        return res
    if not any(PROBE_VALUE in c.value for c in part.claims):
        res.verdict = (f"the model answered in {reply.mode} mode, but its reply does not cite the one fact of the probe "
                       f"(port {PROBE_VALUE} on line 3): a pass would compile little or nothing; try a larger or "
                       "instruction-tuned model")
        return res
    if res.model_listed is False:
        res.notes.append(f"the server does not list {settings.model!r} but answered anyway (a server that serves "
                         "one model takes any name)")
    res.ok = True
    res.verdict = _works(reply, part.truncated, reply_cap(chunk, probe.max_tokens))
    return res


_WORKS = {
    "json_schema": "compiling with this server works; replies follow the reply's JSON schema",
    "json_object": ("compiling works in json_object mode (the server refused json_schema); replies are checked "
                    "after the fact, so a server that takes a JSON schema would waste fewer re-asks"),
}
_WORKS_PROMPT = ("compiling works with the prompt alone (the server refused response_format): replies may be "
                 "prose now and then and are asked again; a server that takes a JSON schema is more reliable")


def _works(reply: Reply, truncated: bool, cap: int) -> str:
    """The verdict of a probe that worked: by the output mode the server took, or that the reply was cut."""
    if reply.cut or truncated:
        return (f"compiling works, but the reply ran past its cap of {cap:,} "
                "tokens and was cut (the model does not stop by itself): a pass keeps only complete items "
                "and reports each cut reply; a model or server that ends its JSON would be better")
    return _WORKS.get(reply.mode, _WORKS_PROMPT)


def _listing(res: CheckResult, settings: LlmSettings) -> None:
    """The server's models, and whether the configured one is among them (a note when it lists none)."""
    ids, why = list_models(settings, min(settings.timeout, settings.idle_timeout, 30.0))
    res.models = ids
    if ids is None:
        res.notes.append(why)
    else:
        res.model_listed = _model_listed(settings.model, ids)


def _timing(res: CheckResult, reply: Reply) -> None:
    res.mode = reply.mode
    res.seconds = reply.seconds
    res.latency_s = reply.first_token
    res.tokens_per_s = reply.tokens_per_s
    res.tokens_out = reply.completion_tokens if reply.completion_tokens is not None else reply.counted
    res.cut = reply.cut


def _unusable(reason: str, reply: Reply, res: CheckResult) -> str:
    if reply.mode == "prompt":
        refused = " and ".join(res.refused_modes) or "response_format"
        return (f"the server refused {refused}, and the model's prompt-only reply is unusable ({reason}): a pass "
                "would fail with model_output_invalid; use a server that takes response_format json_schema "
                "(llama.cpp's llama-server, Ollama, vLLM, LM Studio) or a stronger model")
    cut = " and was cut at its cap" if reply.cut else ""
    return (f"the model's reply in {reply.mode} mode is unusable ({reason}){cut}: a pass would fail with "
            "model_output_invalid; try another model")


def _advice(exc: ModelError, settings: LlmSettings, res: CheckResult) -> str:
    msg = exc.message
    if "no token for" in msg:
        return (f"{msg} — the server stalled while streaming; check its load, or raise KCTUI_LLM_IDLE_TIMEOUT "
                f"(now {settings.idle_timeout:g} s) for a slow machine")
    if "refused the key" in msg:
        return msg
    if "HTTP 404" in msg or (res.model_listed is False and not exc.transient):
        listed = f"; the server has: {', '.join(res.models[:10])}" if res.models else ""
        return f"{msg} — set KCTUI_LLM_MODEL to a model the server serves{listed}"
    if "could not reach" in msg or "no answer within" in msg:
        return f"{msg} — is the server running at {safe_url(settings.url)}? (KCTUI_LLM_URL)"
    if "whole-request time" in msg:
        return msg
    return msg
