"""Model-backed extraction for one pass: each changed document is chunked, each chunk answered from the
reply cache or by the model (with bounded re-asks when a reply is unusable), parsed fail-closed, and the
chunks merged into one `Extraction` — the same intermediate form `extract_document` produces, so match,
update, flag and brief are shared with the built-in compiler.

Document descriptors (title, type, domain, tags, the extractive summary, open questions and the
subject a data file is about) come from the reader, as in the built-in extractor: they are read, not
generated. Any failure stops the pass during the extract step, before anything is written: transient
(`model_unavailable`, `budget_exhausted`) when the server could not be reached or the budget ran out,
permanent (`model_output_invalid`) when the model kept answering garbage.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from kctui import __version__
from kctui.compiler import facts, prose
from kctui.compiler import gather as g
from kctui.compiler.extract import unreached_facts
from kctui.compiler.extraction import Concept, Entity, Extraction
from kctui.compiler.extractors import ExtractorContext
from kctui.compiler.llm import prompt
from kctui.compiler.llm.cache import ReplyCache, llm_cache_dir
from kctui.compiler.llm.client import ChatClient, ModelError, Reply
from kctui.compiler.llm.live import LiveReplies
from kctui.compiler.llm.parse import ChunkParse, ReplyUnusable, parse_reply
from kctui.compiler.llm.schema import reply_cap
from kctui.compiler.llm.settings import LlmSettings, load_llm_settings
from kctui.compiler.source_read import read_document
from kctui.compiler.readers import Document, Skipped
from kctui.compiler.contract import COMPILER_NAME, CompileCancelled, CompileFailure, CompileRequest, StopFn
from kctui.compiler.schema import Schema, load_schema, restrict_classes, schema_version
from kctui.compiler.values import fact_tokens
from kctui.compiler.wiki_state import PreviousWiki
from kctui.config import ConfigError
from kctui.core.slugs import identity_key

log = logging.getLogger("kctui.llm")

LOSS_MIN_FACTS = 3  # the loss guard judges a chunk with at least this many dates, versions and numbers
_POLL = 0.1


def llm_version(settings: LlmSettings) -> str:
    return f"{COMPILER_NAME}/{__version__} llm:{settings.model}"


def pass_version() -> str:
    """The actor a model-backed pass should write as `generated.by` (wiki.md §1): `kctui/<v> llm:<model>`."""
    try:
        model = load_llm_settings().model.strip()
    except ConfigError:
        model = ""
    return f"{COMPILER_NAME}/{__version__} llm:{model or 'unconfigured'}"


def configured_settings() -> LlmSettings:
    try:
        settings = load_llm_settings()
    except ConfigError as exc:
        raise CompileFailure("model_unavailable", f"the model settings are invalid: {exc}", transient=False) from None
    if not settings.configured:
        raise CompileFailure("model_unavailable", "no model is configured: set KCTUI_LLM_URL and KCTUI_LLM_MODEL "
                             "(or url and model under [llm] in config.toml)", transient=False)
    return settings


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


@dataclass
class _Doc:
    path: str
    doc: Document | None = None
    skipped: Skipped | None = None
    chunks: list[prompt.Chunk] = field(default_factory=list)
    futures: list[Future] = field(default_factory=list)


class LlmPass:
    """Created by the pipeline's extract step when the base's extractor is `llm`; `submit` the changed
    sources in order, then take each one's `result` in the same order."""

    def __init__(self, request: CompileRequest, prev: PreviousWiki | None, cache_folder: Path | None,
                 should_stop: StopFn, settings: LlmSettings | None = None,
                 progress: Callable[[str], None] | None = None, schema: Schema | None = None) -> None:
        self.request = request
        self.should_stop = should_stop
        self.live = LiveReplies(progress)
        self.settings = settings
        self.cache = ReplyCache(None if cache_folder is None else llm_cache_dir(request.source_path))
        self.prev = prev
        # in every prompt (seed 004); the pass has read it already when it opens the extractor
        self.schema: Schema = schema if schema is not None else load_schema(Path(request.source_path).parent)
        self.usage = Usage()
        self.lossy: dict[str, str] = {}  # path -> why the compile-loss guard would hold its pages
        self.client: ChatClient | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._order: list[g.SourceFile] = []
        self._index: dict[str, int] = {}
        self._work: dict[str, _Doc] = {}
        self._next = 0
        self._lock = threading.Lock()
        self._reserved = 0
        self._abort = threading.Event()
        self._failure: CompileFailure | None = None

    @property
    def version(self) -> str:
        return schema_version(llm_version(self.settings) if self.settings else pass_version(), self.schema)

    # -- scheduling (main thread) ---------------------------------------------------------------
    def submit(self, sources: list[g.SourceFile]) -> None:
        """Queue sources (may be called again with more: a source re-read for a page under review)."""
        new = [s for s in sources if s.path not in self._index]
        if not new:
            return
        if self.settings is None:
            self.settings = configured_settings()
        if self._pool is None:
            self.inventory = prompt.Inventory(self.prev, self.settings.inventory_max)
            self.client = ChatClient(self.settings, stopped=self._abort.is_set)
            self._pool = ThreadPoolExecutor(max_workers=self.settings.concurrency, thread_name_prefix="kctui-llm")
            # released when the pass drops this object, however the pass ends
            weakref.finalize(self, _release, self._pool, self.client)
        for source in new:
            self._index[source.path] = len(self._order)
            self._order.append(source)
        self._fill(self._index[new[0].path])

    def _pending(self) -> int:
        return sum(1 for w in self._work.values() for f in w.futures if not f.done())

    def _fill(self, upto: int) -> None:
        """Read and queue documents in order: at least up to `upto`, and beyond it while fewer than two
        chunks per connection wait (a bounded look-ahead keeps the model busy across documents)."""
        assert self.settings is not None and self._pool is not None
        while self._next < len(self._order) and (self._next <= upto or self._pending() < 2 * self.settings.concurrency):
            source = self._order[self._next]
            self._next += 1
            work = _Doc(source.path)
            read = read_document(source)
            if isinstance(read, Skipped):
                work.skipped = read
            else:
                work.doc = read
                work.chunks = prompt.chunk_document(read, self.settings.chunk_chars)
                work.futures = [self._pool.submit(self._task, read, c) for c in work.chunks]
            self._work[source.path] = work

    def result(self, path: str) -> Extraction | Skipped:
        try:
            self._fill(self._index[path])
            work = self._work.pop(path)
            if work.skipped is not None:
                return work.skipped
            parts: list[ChunkParse] = []
            for fut in work.futures:
                while True:
                    if self._failure is not None:
                        raise self._failure
                    if self.should_stop():
                        raise CompileCancelled()
                    self.live.show()
                    try:
                        part = fut.result(timeout=_POLL)
                        break
                    except FutureTimeout:
                        continue
                if part is None:
                    raise self._failure or CompileFailure("model_unavailable", "the model request stopped", transient=True)
                parts.append(part)
            self._check_budget()
            assert work.doc is not None
            ex = self._merge(work.doc, work.chunks, parts)
        except BaseException:
            self.close()
            raise
        return ex

    def close(self) -> None:
        """Stop: queued chunks are dropped, running requests give up at their next retry."""
        self._abort.set()
        if self._pool is not None and self.client is not None:
            _release(self._pool, self.client)

    # -- one chunk (worker threads) -------------------------------------------------------------
    def _task(self, doc: Document, chunk: prompt.Chunk) -> ChunkParse | None:
        if self._abort.is_set():
            return None
        try:
            return self._extract_chunk(doc, chunk)
        except ModelError as exc:
            with self._lock:
                if self._failure is None:
                    self._failure = CompileFailure(exc.code, exc.message, transient=exc.transient)
            self._abort.set()
            return None

    def _extract_chunk(self, doc: Document, chunk: prompt.Chunk) -> ChunkParse:
        assert self.settings is not None and self.client is not None
        schema_text = self.schema.text_for(doc.path)
        key = prompt.cache_key(self.settings.model, prompt.chunk_digest(doc, chunk, schema_text))
        cached = self.cache.get(key)
        if cached is not None:
            try:
                part = parse_reply(cached.content, doc, chunk, self.inventory)
            except ReplyUnusable:
                pass  # an entry this parser no longer accepts: ask again
            else:
                self._count(part, cached=True)
                return part
        msgs = prompt.messages(doc, chunk, self.inventory.relevant(f"{chunk.context}\n{chunk.body}"), schema_text,
                               self.request.created_at[:10], self.schema.name)
        reason = ""
        reasons: list[str] = []
        for ask in range(self.settings.reasks + 1):
            if ask:
                with self._lock:
                    self.usage.reasks += 1
            reply = self._ask(msgs, f"{doc.path} {chunk.label}", reply_cap(chunk, self.settings.max_tokens))
            try:
                part = parse_reply(reply.content, doc, chunk, self.inventory)
                if reply.cut and not part.truncated:  # cut at the cap right after an item: still cut
                    part.truncated = True
                    part.kept_after_cut = len(part.claims) + len(part.concepts) + len(part.entities)
                if part.truncated and not (part.kept_after_cut or part.dropped or part.unplaced or part.invalid):
                    raise ReplyUnusable("the reply was cut off before one item was complete")
            except ReplyUnusable as exc:
                reason = exc.reason
                if reply.cut or reply.finish_reason == "length":  # cut here, or by the server at max_tokens
                    reason += f" (cut at its cap of {reply_cap(chunk, self.settings.max_tokens):,} output tokens)"
                reasons.append(reason)
                log.warning("model reply for %s %s unusable: %s", doc.path, chunk.label, reason)
                msgs = prompt.reask(msgs, reply.content, reason)
                continue
            self.cache.put(key, reply)
            self._count(part, cached=False)
            return part
        tries = self.settings.reasks + 1
        earlier = list(dict.fromkeys(r for r in reasons[:-1] if r != reason))
        before = f" (before that: {'; '.join(earlier)})" if earlier else ""
        raise ModelError(f"the model's replies for {doc.path} ({chunk.label}) could not be used after {tries} "
                         f"{'try' if tries == 1 else 'tries'}: {reason}{before}", transient=False,
                         code="model_output_invalid")

    def _ask(self, msgs: list[dict[str, str]], label: str, cap: int) -> Reply:
        assert self.settings is not None and self.client is not None
        need = prompt.messages_tokens(msgs)
        budget = self.settings.budget_tokens
        with self._lock:
            spent = self.usage.tokens_in + self.usage.tokens_out
            if budget and spent + self._reserved + need > budget:
                raise ModelError(self._budget_text(spent, need), transient=True, code="budget_exhausted")
            self._reserved += need
        try:
            reply = self.client.chat(msgs, label, max_tokens=cap, live=self.live.tracker(label))
        finally:
            self.live.end(label)
            with self._lock:
                self._reserved -= need
        t_in, t_out = reply.prompt_tokens, reply.completion_tokens
        if t_out is None and reply.counted is not None:  # a streamed reply without usage: as counted live
            with self._lock:
                self.usage.estimated = True
            t_out = reply.counted
        with self._lock:
            self.usage.estimated |= t_in is None or t_out is None
            self.usage.tokens_in += need if t_in is None else t_in
            self.usage.tokens_out += prompt.estimate_tokens(reply.content) if t_out is None else t_out
            if reply.counted and reply.tokens_per_s:
                self.usage.streamed_tokens += reply.counted
                self.usage.streamed_seconds += reply.counted / reply.tokens_per_s
        return reply

    def _budget_text(self, spent: int, need: int) -> str:
        budget = self.settings.budget_tokens if self.settings else 0
        return (f"the per-pass token budget of {budget:,} is spent ({spent:,} used, about {need:,} more needed); "
                "nothing was written, and the replies received so far are cached, so the next pass continues "
                "from here (raise [llm] budget_tokens or KCTUI_LLM_BUDGET_TOKENS to do more per pass)")

    def _check_budget(self) -> None:
        budget = self.settings.budget_tokens if self.settings else 0
        spent = self.usage.tokens_in + self.usage.tokens_out
        if budget and spent > budget:
            raise CompileFailure("budget_exhausted", self._budget_text(spent, 0), transient=True)

    def _count(self, part: ChunkParse, *, cached: bool) -> None:
        with self._lock:
            self.usage.chunks += 1
            self.usage.cached_chunks += 1 if cached else 0
            self.usage.truncated += 1 if part.truncated else 0

    # -- merge (main thread) --------------------------------------------------------------------
    def _merge(self, doc: Document, chunks: list[prompt.Chunk], parts: list[ChunkParse]) -> Extraction:
        ex = Extraction(path=doc.path, digest=doc.digest, kind=doc.kind, title=doc.title,
                        source_type=facts.source_type(doc), domain=facts.domain(doc), tags=facts.tags(doc),
                        warnings=list(doc.warnings))
        seen: set[tuple[str, int, int]] = set()
        concepts: dict[str, Concept] = {}
        entities: dict[str, Entity] = {}
        for part in parts:
            for c in part.claims:
                ident = (c.claim_id, c.evidence.start, c.evidence.end)
                if ident not in seen:
                    seen.add(ident)
                    ex.claims.append(c)
            for k in part.concepts:
                old = concepts.get(identity_key(k.name))
                concepts[identity_key(k.name)] = k if old is None else Concept(
                    old.name, _union(old.aliases, k.aliases), old.evidence, old.origin)
            for e in part.entities:
                prior = entities.get(identity_key(e.name))
                entities[identity_key(e.name)] = e if prior is None else Entity(
                    prior.name, prior.entity_type or e.entity_type, prior.surface, _union(prior.aliases, e.aliases),
                    prior.evidence)
        ex.concepts = list(concepts.values())
        ex.entities = list(entities.values())
        ex.subject = facts.document_subject(doc, has_facts=bool(ex.claims))
        ex.summary = prose.summary(doc)
        ex.questions = prose.questions(doc)
        ex.dropped = sum(p.dropped for p in parts)
        ex.unreached = tuple(sorted(unreached_facts(doc, ex)))
        ex.warnings += self._part_warnings(chunks, parts)
        ex.warnings += self._loss_guard(doc, ex, chunks)
        return ex

    def _part_warnings(self, chunks: list[prompt.Chunk], parts: list[ChunkParse]) -> list[str]:
        out: list[str] = []
        max_tokens = self.settings.max_tokens if self.settings else 0
        for chunk, part in zip(chunks, parts):
            if part.truncated:
                cap = reply_cap(chunk, max_tokens) if max_tokens else 0
                hint = ("raise [llm] max_tokens or lower chunk_chars" if not cap or cap >= max_tokens else
                        f"its cap was {cap:,} output tokens, more than the schema needs for this chunk: the model "
                        "ran on (a smaller chunk_chars or another model may help)")
                out.append(f"the model's reply for {chunk.label} was cut off at the token limit; its "
                           f"{part.kept_after_cut} complete items were kept ({hint})")
        refused = [r for p in parts for r in p.refused]
        if refused:
            shown = ", ".join(ascii(r[:60]) for r in refused[:5])
            out.append(f"refused {len(refused)} items whose path, slug or name would escape the wiki: {shown}")
        invalid = sum(p.invalid for p in parts)
        if invalid:
            out.append(f"{invalid} items of the model's replies failed validation and were dropped")
        unplaced = sum(p.unplaced for p in parts)
        if unplaced:
            out.append(f"{unplaced} concepts or entities were dropped: their cited lines do not contain the name")
        return out

    def _loss_guard(self, doc: Document, ex: Extraction, chunks: list[prompt.Chunk]) -> list[str]:
        """Per chunk: the dates, versions and numbers that reach no claim; past the threshold the source
        is recorded in `lossy` (its pages should be held for review) and the brief says so."""
        reached: set[str] = set(fact_tokens(ex.title))
        for c in ex.claims:
            reached |= fact_tokens(c.value) | fact_tokens(c.scope) | fact_tokens(c.subject)
        code = {n for b in doc.blocks if b.kind == "code" for n in range(b.start, b.end + 1)}
        threshold = self.settings.loss_threshold if self.settings else 0.5
        out: list[str] = []
        for chunk in chunks:
            present: set[str] = set()
            for n in range(chunk.first, chunk.last + 1):
                if n not in code and n <= len(doc.lines):
                    present |= fact_tokens(doc.lines[n - 1])
            lost = present - reached
            if len(present) >= LOSS_MIN_FACTS and len(lost) / len(present) > threshold:
                why = (f"compile-loss guard: {len(lost)} of {len(present)} dates, versions and numbers of "
                       f"{chunk.label} reached no claim (over the {threshold:.0%} threshold), e.g. "
                       f"{', '.join(sorted(lost)[:5])}; the pages this source feeds need a review")
                self.lossy.setdefault(doc.path, why)
                out.append(why)
        return out

    # -- the brief's line -----------------------------------------------------------------------
    def usage_line(self) -> str:
        u = self.usage
        s = self.settings
        if s is None:
            return "none (no document needed the model this pass)"
        cost = s.cost(u.tokens_in, u.tokens_out)
        money = f"estimated cost ${cost:.4f}" if cost is not None else f"cost not estimated (no price for {s.model} under [llm.prices])"
        approx = " (partly estimated at ~4 characters per token)" if u.estimated else ""
        requests = self.client.requests if self.client else 0
        retries = self.client.retries if self.client else 0
        cut = f"; {u.truncated} replies cut off at the token limit" if u.truncated else ""
        mode = f"; output mode: {self.client.modes.describe(self.client.key)}" if self.client and requests else ""
        rate = (f"; streamed at {u.streamed_tokens / u.streamed_seconds:.1f} tokens/s"
                if u.streamed_seconds > 0 else "")
        line = (f"model {s.model}: {u.tokens_in:,} tokens in, {u.tokens_out:,} out{approx}; {money}; "
                f"{requests} requests ({retries} retries, {u.reasks} re-asks) for {u.chunks} chunks, "
                f"{u.cached_chunks} answered from the reply cache{cut}{mode}{rate}")
        log.info("model pass %s: %s", self.request.job_id, line)
        return line


def _release(pool: ThreadPoolExecutor, client: ChatClient) -> None:
    pool.shutdown(wait=False, cancel_futures=True)
    client.close()


def _union(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    out = list(a)
    keys = {identity_key(x) for x in a}
    for x in b:
        if identity_key(x) not in keys:
            keys.add(identity_key(x))
            out.append(x)
    return tuple(out)


class LlmExtractor:
    """The `Extractor` registered as "llm" (kctui.compiler.extractors): a model-backed pass."""

    def __init__(self, ctx: ExtractorContext) -> None:
        self._pass = LlmPass(ctx.request, ctx.previous, ctx.cache_folder, ctx.should_stop,
                             progress=ctx.progress, schema=ctx.base_schema())
        self.version = schema_version(pass_version(), self._pass.schema)

    def submit(self, sources: Sequence[g.SourceFile]) -> None:
        self._pass.submit(list(sources))

    def result(self, path: str) -> Extraction | Skipped:
        return restrict_classes(self._pass.result(path), self._pass.schema)

    def extract(self, source: g.SourceFile) -> Extraction | Skipped:
        self._pass.submit([source])
        return restrict_classes(self._pass.result(source.path), self._pass.schema)

    def lossy(self) -> dict[str, str]:
        return dict(self._pass.lossy)

    def usage(self) -> str:
        return self._pass.usage_line()

    def cache_hits(self) -> int:
        return 0  # replies come from the model's reply cache; the usage line counts them

    def close(self) -> None:
        self._pass.close()
