"""What one reply must look like, as the server is told: the JSON schema of the reply (generated from
the pydantic model that parses it, `parse.ReplyIn`), the `response_format` of each output mode, and the
output-token cap of one chunk's reply, derived from the chunk's size.

Output modes, tried in this order until a server accepts one (the pass remembers the answer per
server URL and model):
  json_schema — `response_format: {"type": "json_schema", "json_schema": {...}}` (llama.cpp, Ollama,
                vLLM, LM Studio and hosted APIs constrain decoding to it)
  json_object — `response_format: {"type": "json_object", "schema": {...}}`: a JSON object; servers that
                know the `schema` key (llama.cpp's llama-server, llama-cpp-python's server) constrain
                decoding to it, the others take any JSON object
  prompt      — no `response_format`: the prompt alone asks for the JSON object
Whatever the mode, the reply is parsed fail-closed by `parse.parse_reply`.
"""

from __future__ import annotations

import copy
import math
from functools import lru_cache
from typing import Any

from kctui.compiler.llm.parse import ReplyIn
from kctui.compiler.llm.prompt import Chunk, estimate_tokens

MODES = ("json_schema", "json_object", "prompt")
SCHEMA_NAME = "kctui_extraction"
# The order a model writes an item's fields in (constrained decoding follows the schema's order):
# what the fact is, then where it stands.
_ORDER = ("subject", "attribute", "value", "unit", "scope", "name", "type", "aliases", "page", "confidence",
          "start", "end")
# not sent: names and defaults say nothing a model needs, and a list's `maxItems` (400) would make
# grammar-constrained servers build a 400-fold repetition (the parser caps the lists itself)
_DROP = ("title", "default", "description", "maxItems")

# the cap: a reply never needs more than this per numbered line plus this per token of source text
CAP_BASE = 256
CAP_PER_LINE = 48
CAP_PER_TOKEN = 1.0
CAP_MIN = 256


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        return _inline_object(node, defs)
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


_RANK = {k: i for i, k in enumerate(_ORDER)}


def _inline_object(node: dict[str, Any], defs: dict[str, Any]) -> Any:
    """One schema object with its `$ref`s resolved, the fields not sent dropped, `X | None` asked as X,
    and an object's properties all required, in writing order, and no others allowed."""
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return _inline(copy.deepcopy(defs[ref.rsplit("/", 1)[1]]), defs)
    out = {k: _inline(v, defs) for k, v in node.items() if k not in _DROP and k != "$defs"}
    if "anyOf" in out:  # `int | None`: the server is asked for the integer
        kinds = [a for a in out["anyOf"] if a.get("type") != "null"]
        if len(kinds) == 1:
            rest = {k: v for k, v in out.items() if k != "anyOf"}
            out = {**kinds[0], **rest}
    if out.get("type") == "object" and isinstance(out.get("properties"), dict):
        ordered = dict(sorted(out["properties"].items(), key=_rank))
        out["properties"] = ordered
        out["required"] = list(ordered)
        out["additionalProperties"] = False
    return out


def _rank(kv: tuple[str, Any]) -> int:
    return _RANK.get(kv[0], len(_ORDER))


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    raw = ReplyIn.model_json_schema(mode="validation")
    return _inline(raw, raw.get("$defs", {}))


def reply_schema() -> dict[str, Any]:
    """The reply's JSON schema: self-contained (no `$ref`), every field required and in writing order,
    no other fields allowed, the limits the parser checks on each field (list lengths it caps itself)."""
    return copy.deepcopy(_schema())


def response_format(mode: str) -> dict[str, Any] | None:
    if mode == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": SCHEMA_NAME, "schema": reply_schema()}}
    if mode == "json_object":
        return {"type": "json_object", "schema": reply_schema()}
    return None


def reply_cap(chunk: Chunk, max_tokens: int) -> int:
    """The output tokens one chunk's reply may use: about what the schema needs for every line of the
    chunk to carry a fact or two, and never more than `max_tokens`. A reply past it is cut and reported
    truncated (its complete items are kept)."""
    text = f"{chunk.context}\n{chunk.body}" if chunk.context else chunk.body
    lines = sum(1 for ln in text.split("\n") if ln.split("| ", 1)[-1].strip())
    need = CAP_BASE + CAP_PER_LINE * lines + math.ceil(CAP_PER_TOKEN * estimate_tokens(text))
    return max(1, min(max_tokens, max(CAP_MIN, need)))


def names_field(body: str, mode: str) -> bool:
    """Whether a 400/422 refusal's body names the output-mode field: the server does not take this mode."""
    text = body.casefold()
    words = ("response_format", "response format", "json_schema", "json schema", "json_object", "grammar",
             "structured output", "guided_json")
    return any(w in text for w in words) or (mode == "json_schema" and "schema" in text)
