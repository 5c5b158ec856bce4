"""`--estimate`: what a model-backed pass would send and cost, computed without sending anything.

The same selection as a pass (sources added or modified since the previous wiki; every source with
`full`), the same chunks and prompts, and the same reply cache: a cached chunk costs nothing. Input
tokens are counted at ~4 characters per token; output tokens are guessed as `output_ratio` times the
chunk's own tokens, capped at `max_tokens` per request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kctui.compiler.llm import prompt
from kctui.compiler.llm.cache import ReplyCache, llm_cache_dir
from kctui.compiler.llm.settings import LlmSettings
from kctui.compiler.previous.wiki import PreviousWiki, load_previous
from kctui.compiler.readers import Skipped
from kctui.compiler.readers.source import SourceFile, digest_file, read_document
from kctui.compiler.schema import load_schema
from kctui.compiler.steps import gather as g


def estimate_pass(source_path: Path, previous_wiki_path: Path | None, settings: LlmSettings, *,
                  full: bool = False) -> dict[str, Any]:
    source_path = Path(source_path)
    if not source_path.is_dir():
        raise FileNotFoundError(f"sources folder {source_path} is missing")
    files, skipped = g.scan_sources(source_path, lambda: False)
    readable: list[SourceFile] = []
    for f in files:
        try:
            digest_file(f)
            readable.append(f)
        except OSError as exc:
            skipped.append(Skipped(f.path, "unreadable", exc.strerror or str(exc)))
    prev = (load_previous(Path(previous_wiki_path), None, lambda: False)
            if previous_wiki_path is not None and Path(previous_wiki_path).is_dir() else PreviousWiki())
    by_path = {f.path: f for f in readable}
    changes = g.classify({f.path: f.digest for f in readable}, prev.source_digests())
    to_send = changes.added + changes.modified + (changes.unchanged if full else [])
    cache = ReplyCache(llm_cache_dir(source_path))
    inventory = prompt.Inventory(prev, settings.inventory_max)
    schema = load_schema(source_path.parent)  # its text is in every prompt and in the cache key
    documents = chunks = cached = tokens_in = tokens_out = 0
    for path in to_send:
        doc = read_document(by_path[path])
        if isinstance(doc, Skipped):
            skipped.append(doc)
            continue
        documents += 1
        schema_text = schema.text_for(doc.path)
        for chunk in prompt.chunk_document(doc, settings.chunk_chars):
            chunks += 1
            if cache.contains(prompt.cache_key(settings.model, prompt.chunk_digest(doc, chunk, schema_text))):
                cached += 1
                continue
            pages = inventory.relevant(f"{chunk.context}\n{chunk.body}")
            tokens_in += prompt.messages_tokens(prompt.messages(doc, chunk, pages, schema_text, "0000-00-00",
                                                                schema.name))
            own = prompt.estimate_tokens(chunk.body)
            tokens_out += min(settings.max_tokens, int(own * settings.output_ratio) + 16)
    cost = settings.cost(tokens_in, tokens_out)
    total = tokens_in + tokens_out
    return {
        "model": settings.model,
        "documents_to_send": documents,
        "documents_unchanged": len(changes.unchanged) if not full else 0,
        "documents_deleted": len(changes.deleted),
        "chunks": chunks,
        "cached_chunks": cached,
        "requests": chunks - cached,
        "estimated_input_tokens": tokens_in,
        "estimated_output_tokens": tokens_out,
        "estimated_total_tokens": total,
        "estimated_cost": None if cost is None else round(cost, 6),
        "budget_tokens": settings.budget_tokens or None,
        "within_budget": None if not settings.budget_tokens else total <= settings.budget_tokens,
        "skipped": [{"path": s.path, "reason": s.reason} for s in sorted(skipped, key=lambda s: s.path)],
    }


def estimate_text(result: dict[str, Any]) -> str:
    r = result
    cost = "no price set under [llm.prices]" if r["estimated_cost"] is None else f"about ${r['estimated_cost']:.4f}"
    lines = [
        f"model {r['model']}: {r['documents_to_send']} documents to send ({r['documents_unchanged']} unchanged, "
        f"{r['documents_deleted']} deleted)",
        f"{r['chunks']} chunks, {r['cached_chunks']} answered from the reply cache: {r['requests']} requests",
        f"about {r['estimated_input_tokens']:,} tokens in and {r['estimated_output_tokens']:,} out; cost {cost}",
    ]
    if r["budget_tokens"]:
        verdict = "within" if r["within_budget"] else "OVER"
        lines.append(f"{verdict} the per-pass budget of {r['budget_tokens']:,} tokens")
    if r["skipped"]:
        lines.append(f"{len(r['skipped'])} files would be skipped")
    return "\n".join(lines)
