"""`--estimate`: what a model-backed pass would send and cost, computed without sending anything.

The same selection as a pass (sources added or modified since the previous wiki; every source with
`full`), the same chunks and prompts, and the same reply cache: a cached chunk costs nothing. Input
tokens are counted at ~4 characters per token; output tokens are guessed as `output_ratio` times the
chunk's own tokens, capped at `max_tokens` per request.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kctui.compiler.llm import prompt
from kctui.compiler.llm.cache import ReplyCache, llm_cache_dir
from kctui.compiler.llm.settings import LlmSettings
from kctui.compiler.previous.wiki import PreviousWiki, load_previous
from kctui.compiler.readers import Document, Skipped
from kctui.compiler.readers.source import SourceFile, digest_file, read_document
from kctui.compiler.schema import Schema, load_schema
from kctui.compiler.steps import gather as g
from kctui.compiler.steps.results import SourceChanges


def estimate_pass(source_path: Path, previous_wiki_path: Path | None, settings: LlmSettings, *,
                  full: bool = False) -> dict[str, Any]:
    source_path = Path(source_path)
    if not source_path.is_dir():
        raise FileNotFoundError(f"sources folder {source_path} is missing")
    files, skipped = g.scan_sources(source_path, lambda: False)
    readable = _digested(files, skipped)
    prev = (load_previous(Path(previous_wiki_path), None, lambda: False)
            if previous_wiki_path is not None and Path(previous_wiki_path).is_dir() else PreviousWiki())
    by_path = {f.path: f for f in readable}
    changes = g.classify({f.path: f.digest for f in readable}, prev.source_digests())
    to_send = changes.added + changes.modified + (changes.unchanged if full else [])
    prompts = _Prompts(settings, ReplyCache(llm_cache_dir(source_path)), prompt.Inventory(prev, settings.inventory_max),
                       load_schema(source_path.parent))  # the schema's text is in every prompt and in the cache key
    counts = _Counts()
    for path in to_send:
        doc = read_document(by_path[path])
        if isinstance(doc, Skipped):
            skipped.append(doc)
            continue
        _count_document(counts, prompts, doc)
    return _estimate(settings, counts, changes, skipped, full)


def _digested(files: list[SourceFile], skipped: list[Skipped]) -> list[SourceFile]:
    """The files whose digest could be taken; the others skipped as unreadable."""
    readable: list[SourceFile] = []
    for f in files:
        try:
            digest_file(f)
            readable.append(f)
        except OSError as exc:
            skipped.append(Skipped(f.path, "unreadable", exc.strerror or str(exc)))
    return readable


@dataclass(frozen=True)
class _Prompts:
    """What a pass would build its requests with: the model's settings, its reply cache, the inventory of
    the previous wiki's pages and the schema."""

    settings: LlmSettings
    cache: ReplyCache
    inventory: prompt.Inventory
    schema: Schema


@dataclass
class _Counts:
    """The estimate's running counts."""

    documents: int = 0
    chunks: int = 0
    cached: int = 0
    tokens_in: int = 0
    tokens_out: int = 0


def _count_document(counts: _Counts, prompts: _Prompts, doc: Document) -> None:
    """One document's chunks: a cached one costs nothing, the others their prompt and a guessed reply."""
    settings = prompts.settings
    counts.documents += 1
    schema_text = prompts.schema.text_for(doc.path)
    for chunk in prompt.chunk_document(doc, settings.chunk_chars):
        counts.chunks += 1
        if prompts.cache.contains(prompt.cache_key(settings.model, prompt.chunk_digest(doc, chunk, schema_text))):
            counts.cached += 1
            continue
        pages = prompts.inventory.relevant(f"{chunk.context}\n{chunk.body}")
        counts.tokens_in += prompt.messages_tokens(prompt.messages(doc, chunk, pages, schema_text, "0000-00-00",
                                                                   prompts.schema.name))
        own = prompt.estimate_tokens(chunk.body)
        counts.tokens_out += min(settings.max_tokens, int(own * settings.output_ratio) + 16)


def _estimate(settings: LlmSettings, counts: _Counts, changes: SourceChanges, skipped: list[Skipped],
              full: bool) -> dict[str, Any]:
    cost = settings.cost(counts.tokens_in, counts.tokens_out)
    total = counts.tokens_in + counts.tokens_out
    return {
        "model": settings.model,
        "documents_to_send": counts.documents,
        "documents_unchanged": len(changes.unchanged) if not full else 0,
        "documents_deleted": len(changes.deleted),
        "chunks": counts.chunks,
        "cached_chunks": counts.cached,
        "requests": counts.chunks - counts.cached,
        "estimated_input_tokens": counts.tokens_in,
        "estimated_output_tokens": counts.tokens_out,
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
