"""What a model-backed pass spends: the tokens, chunks, re-asks and cut-off replies it counted, the
per-pass budget's message when it runs out, and the brief's model-usage line."""

from __future__ import annotations

from dataclasses import dataclass

from kctui.compiler.llm.client import ChatClient
from kctui.compiler.llm.settings import LlmSettings


@dataclass
class Usage:
    chunks: int = 0
    cached_chunks: int = 0
    reasks: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    estimated: bool = False  # some counts were estimated at ~4 characters per token
    truncated: int = 0  # replies cut off at the token limit (complete items kept)
    streamed_tokens: int = 0  # output tokens of streamed replies, counted as they came
    streamed_seconds: float = 0.0  # the time those tokens took (first token to last)


def budget_text(budget: int, spent: int, need: int) -> str:
    return (f"the per-pass token budget of {budget:,} is spent ({spent:,} used, about {need:,} more needed); "
            "nothing was written, and the replies received so far are cached, so the next pass continues "
            "from here (raise [llm] budget_tokens or KCTUI_LLM_BUDGET_TOKENS to do more per pass)")


def brief_line(u: Usage, s: LlmSettings | None, client: ChatClient | None) -> str:
    """The brief's model-usage line."""
    if s is None:
        return "none (no document needed the model this pass)"
    cost = s.cost(u.tokens_in, u.tokens_out)
    money = f"estimated cost ${cost:.4f}" if cost is not None else f"cost not estimated (no price for {s.model} under [llm.prices])"
    approx = " (partly estimated at ~4 characters per token)" if u.estimated else ""
    requests = client.requests if client else 0
    retries = client.retries if client else 0
    cut = f"; {u.truncated} replies cut off at the token limit" if u.truncated else ""
    mode = f"; output mode: {client.modes.describe(client.key)}" if client and requests else ""
    rate = (f"; streamed at {u.streamed_tokens / u.streamed_seconds:.1f} tokens/s"
            if u.streamed_seconds > 0 else "")
    return (f"model {s.model}: {u.tokens_in:,} tokens in, {u.tokens_out:,} out{approx}; {money}; "
            f"{requests} requests ({retries} retries, {u.reasks} re-asks) for {u.chunks} chunks, "
            f"{u.cached_chunks} answered from the reply cache{cut}{mode}{rate}")
