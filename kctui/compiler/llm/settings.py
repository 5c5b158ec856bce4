"""Settings of the model-backed extractor: defaults, then the `[llm]` table of `config.toml`, then
`KCTUI_LLM_*` variables.

    [llm]
    url = "http://127.0.0.1:8080/v1"      # OpenAI-compatible base URL (…/v1) or the full …/chat/completions
    model = "qwen2.5-7b-instruct"
    timeout = 600                          # seconds one request may take in all (a streamed reply included)
    idle_timeout = 60                      # seconds without a token (or any answer) before a request gives up
    max_tokens = 4096                      # the most output tokens one chunk's reply may use (capped lower by its size)
    output_mode = "auto"                   # auto | json_schema | json_object | prompt
    stream = true                          # stream replies (server-sent events) and show tokens/s
    concurrency = 4
    chunk_chars = 6000
    budget_tokens = 0                      # per pass; 0 = no budget
    [llm.prices."qwen2.5-7b-instruct"]
    input_per_mtok = 0.15
    output_per_mtok = 0.60

The key (`KCTUI_LLM_KEY`, or `key` in the file) is a `SecretStr`: its repr is masked, and no error
message of this module ever contains a value.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

from kctui import paths
from kctui.config import ConfigError


class Price(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    input_per_mtok: float = Field(0.0, ge=0)
    output_per_mtok: float = Field(0.0, ge=0)


class LlmSettings(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, protected_namespaces=())

    url: str = ""
    model: str = ""
    key: SecretStr = SecretStr("")
    timeout: float = Field(600.0, gt=0, le=86_400)  # a whole request, streamed reply included
    idle_timeout: float = Field(60.0, gt=0, le=86_400)  # no token (or no answer) for this long: the request gives up
    max_tokens: int = Field(4096, gt=0, le=1_000_000)  # the most output tokens of one reply; a chunk's size caps it lower
    output_mode: Literal["auto", "json_schema", "json_object", "prompt"] = "auto"
    stream: bool = True
    temperature: float = Field(0.2, ge=0, le=2)
    concurrency: int = Field(4, ge=1, le=64)
    chunk_chars: int = Field(6000, ge=200, le=1_000_000)
    budget_tokens: int = Field(0, ge=0)  # per pass; 0 = unlimited
    max_retries: int = Field(4, ge=0, le=20)  # per request, on 429, 5xx, timeouts and dropped connections
    backoff_base: float = Field(1.0, ge=0, le=600)  # first wait; doubles each retry
    backoff_max: float = Field(30.0, ge=0, le=3600)  # longest single wait (a longer Retry-After gives up)
    retry_total: float = Field(180.0, ge=0, le=86_400)  # most time one request may spend waiting to retry
    reasks: int = Field(2, ge=0, le=5)  # asks again when a reply is unusable, then the pass fails
    inventory_max: int = Field(80, ge=0, le=2000)  # existing pages named in one prompt
    loss_threshold: float = Field(0.5, ge=0, le=1)  # share of a chunk's facts reaching no claim
    output_ratio: float = Field(0.5, gt=0, le=10)  # --estimate: expected output tokens per input token
    prices: dict[str, Price] = Field(default_factory=dict)

    @field_validator("url")
    @classmethod
    def _http_url(cls, v: str) -> str:
        v = v.strip()
        if v and not v.lower().startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL")
        return v

    @property
    def configured(self) -> bool:
        return bool(self.url.strip() and self.model.strip())

    @property
    def endpoint(self) -> str:
        url = self.url.strip().rstrip("/")
        return url if url.endswith("/chat/completions") else f"{url}/chat/completions"

    @property
    def secret(self) -> str:
        return self.key.get_secret_value()

    def price(self) -> Price | None:
        return self.prices.get(self.model)

    def cost(self, tokens_in: int, tokens_out: int) -> float | None:
        p = self.price()
        if p is None:
            return None
        return (tokens_in * p.input_per_mtok + tokens_out * p.output_per_mtok) / 1_000_000


ENV_VARS: dict[str, str] = {
    "KCTUI_LLM_URL": "url",
    "KCTUI_LLM_MODEL": "model",
    "KCTUI_LLM_KEY": "key",
    "KCTUI_LLM_TIMEOUT": "timeout",
    "KCTUI_LLM_IDLE_TIMEOUT": "idle_timeout",
    "KCTUI_LLM_OUTPUT_MODE": "output_mode",
    "KCTUI_LLM_STREAM": "stream",
    "KCTUI_LLM_MAX_TOKENS": "max_tokens",
    "KCTUI_LLM_CONCURRENCY": "concurrency",
    "KCTUI_LLM_CHUNK_CHARS": "chunk_chars",
    "KCTUI_LLM_BUDGET_TOKENS": "budget_tokens",
}
_FIELD_VARS = {v: k for k, v in ENV_VARS.items()}


def _file_section(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        # tomllib's messages name a position, never a value
        raise ConfigError(f"cannot read the config file {path}: {type(exc).__name__}: {exc}") from None
    section = data.get("llm", {})
    if not isinstance(section, dict):
        raise ConfigError(f"invalid config file {path}: [llm] must be a table")
    return dict(section)


def load_llm_settings(config_path: Path | None = None, environ: dict[str, str] | None = None) -> LlmSettings:
    env = os.environ if environ is None else environ
    values = _file_section(config_path or paths.config_file())
    for var, name in ENV_VARS.items():
        raw = env.get(var)
        if raw is not None and raw.strip() != "":
            values[name] = raw.strip()
    try:
        return LlmSettings(**values)
    except ValidationError as exc:
        err = exc.errors(include_input=False, include_url=False)[0]
        loc = ".".join(str(p) for p in err["loc"])
        where = _FIELD_VARS.get(loc, f"[llm] {loc}")
        raise ConfigError(f"invalid setting {where}: {err['msg']}") from None
