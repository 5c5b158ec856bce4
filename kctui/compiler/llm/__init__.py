"""Model-backed extraction over an OpenAI-compatible API (issues 8 and 17). It may import the seam
modules, readers and builtin (the rules it shares), never steps, previous or trust.

settings  — `[llm]` in config.toml and `KCTUI_LLM_*` (the key is a SecretStr)
client    — httpx chat completions: streamed, output modes with fallback, retries, Retry-After, key scrubbing
stream    — server-sent events: the decoder, live token counts, idle timeout, the output cap
schema    — the reply's JSON schema (from parse.ReplyIn), response_format per mode, the per-chunk output cap
live      — the replies in flight, as the extract step's live progress line
check     — `kctui llm check`: models, one tiny structured request, the verdict
prompt    — PROMPT_VERSION, paragraph chunking with real line numbers, the wiki inventory
parse     — fail-closed reply parsing into Claim/Concept/Entity
cache     — replies on disk by (model, prompt version, chunk digest)
extractor — LlmPass: the pipeline's extract step for `extractor = "llm"`: chunks in flight, re-asks, the budget
merge     — a document's chunk replies as one Extraction, and the compile-loss guard
usage     — tokens and requests a pass spends, the budget message, the brief's usage line
"""
