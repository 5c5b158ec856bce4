"""Model-backed extraction over an OpenAI-compatible API (issue 8).

settings  — `[llm]` in config.toml and `KCTUI_LLM_*` (the key is a SecretStr)
client    — httpx chat completions: retries, Retry-After, concurrency limit, key scrubbing
prompt    — PROMPT_VERSION, paragraph chunking with real line numbers, the wiki inventory
parse     — fail-closed reply parsing into Claim/Concept/Entity
cache     — replies on disk by (model, prompt version, chunk digest)
extractor — LlmPass: the pipeline's extract step for `extractor = "llm"`; tokens, budget, loss guard
estimate  — `estimate_pass`: a pass's cost before spending
source    — reading a changed source as the built-in extract step does
"""
