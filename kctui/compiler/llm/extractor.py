"""Model-backed extraction for one pass: each changed document is chunked, each chunk answered from the
reply cache or by the model (with bounded re-asks when a reply is unusable), parsed fail-closed, and the
chunks merged into one `Extraction` (kctui.compiler.llm.merge) — the same intermediate form
`extract_document` produces, so match, update, flag and brief are shared with the built-in compiler.
What the pass spends is counted in kctui.compiler.llm.usage.

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
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path

from kctui import __version__
from kctui.compiler.contract import COMPILER_NAME, CompileCancelled, CompileFailure, CompileRequest, StopFn
from kctui.compiler.extraction import Extraction
from kctui.compiler.extractors import ExtractorContext, KnownWiki
from kctui.compiler.llm import prompt
from kctui.compiler.llm.cache import ReplyCache, llm_cache_dir
from kctui.compiler.llm.client import ChatClient, ModelError, Reply
from kctui.compiler.llm.live import LiveReplies
from kctui.compiler.llm.merge import merge
from kctui.compiler.llm.parse import ChunkParse, ReplyUnusable, parse_reply
from kctui.compiler.llm.schema import reply_cap
from kctui.compiler.llm.settings import LlmSettings, load_llm_settings
from kctui.compiler.llm.usage import Usage, brief_line, budget_text
from kctui.compiler.readers import Document, Skipped
from kctui.compiler.readers.source import SourceFile, read_document
from kctui.compiler.schema import Schema, load_schema, restrict_classes, schema_version
from kctui.config import ConfigError

log = logging.getLogger("kctui.llm")

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
class _Doc:
    path: str
    doc: Document | None = None
    skipped: Skipped | None = None
    chunks: list[prompt.Chunk] = field(default_factory=list)
    futures: list[Future] = field(default_factory=list)


class LlmPass:
    """Created by the pipeline's extract step when the base's extractor is `llm`; `submit` the changed
    sources in order, then take each one's `result` in the same order."""

    def __init__(self, request: CompileRequest, prev: KnownWiki | None, cache_folder: Path | None,
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
        self._order: list[SourceFile] = []
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
    def submit(self, sources: list[SourceFile]) -> None:
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
            ex, lossy = merge(work.doc, work.chunks, parts, self.settings.max_tokens if self.settings else 0,
                              self.settings.loss_threshold if self.settings else 0.5)
            for why in lossy:
                self.lossy.setdefault(work.doc.path, why)
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
        part = self._cached(key, doc, chunk)
        if part is not None:
            return part
        msgs = prompt.messages(doc, chunk, self.inventory.relevant(f"{chunk.context}\n{chunk.body}"), schema_text,
                               self.request.created_at[:10], self.schema.name)
        cap = reply_cap(chunk, self.settings.max_tokens)
        reason = ""
        reasons: list[str] = []
        for ask in range(self.settings.reasks + 1):
            if ask:
                with self._lock:
                    self.usage.reasks += 1
            reply = self._ask(msgs, f"{doc.path} {chunk.label}", cap)
            try:
                part = self._parse(reply, doc, chunk)
            except ReplyUnusable as exc:
                reason = exc.reason
                if reply.cut or reply.finish_reason == "length":  # cut here, or by the server at max_tokens
                    reason += f" (cut at its cap of {cap:,} output tokens)"
                reasons.append(reason)
                log.warning("model reply for %s %s unusable: %s", doc.path, chunk.label, reason)
                msgs = prompt.reask(msgs, reply.content, reason)
                continue
            self.cache.put(key, reply)
            self._count(part, cached=False)
            return part
        raise self._gave_up(doc, chunk, reason, reasons)

    def _cached(self, key: str, doc: Document, chunk: prompt.Chunk) -> ChunkParse | None:
        """The chunk's cached reply, parsed; None when there is none or this parser no longer accepts it."""
        cached = self.cache.get(key)
        if cached is None:
            return None
        try:
            part = parse_reply(cached.content, doc, chunk, self.inventory)
        except ReplyUnusable:
            return None  # an entry this parser no longer accepts: ask again
        self._count(part, cached=True)
        return part

    def _parse(self, reply: Reply, doc: Document, chunk: prompt.Chunk) -> ChunkParse:
        """A reply parsed; a reply cut at its cap is truncated, and unusable when nothing of it survived."""
        part = parse_reply(reply.content, doc, chunk, self.inventory)
        if reply.cut and not part.truncated:  # cut at the cap right after an item: still cut
            part.truncated = True
            part.kept_after_cut = len(part.claims) + len(part.concepts) + len(part.entities)
        if part.truncated and not (part.kept_after_cut or part.dropped or part.unplaced or part.invalid):
            raise ReplyUnusable("the reply was cut off before one item was complete")
        return part

    def _gave_up(self, doc: Document, chunk: prompt.Chunk, reason: str, reasons: list[str]) -> ModelError:
        """The error of a chunk whose every reply was unusable: the last reason, and the earlier ones."""
        assert self.settings is not None
        tries = self.settings.reasks + 1
        earlier = list(dict.fromkeys(r for r in reasons[:-1] if r != reason))
        before = f" (before that: {'; '.join(earlier)})" if earlier else ""
        return ModelError(f"the model's replies for {doc.path} ({chunk.label}) could not be used after {tries} "
                          f"{'try' if tries == 1 else 'tries'}: {reason}{before}", transient=False,
                          code="model_output_invalid")

    def _ask(self, msgs: list[dict[str, str]], label: str, cap: int) -> Reply:
        assert self.settings is not None and self.client is not None
        need = prompt.messages_tokens(msgs)
        budget = self.settings.budget_tokens
        with self._lock:
            spent = self.usage.tokens_in + self.usage.tokens_out
            if budget and spent + self._reserved + need > budget:
                raise ModelError(budget_text(budget, spent, need), transient=True, code="budget_exhausted")
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

    def _check_budget(self) -> None:
        budget = self.settings.budget_tokens if self.settings else 0
        spent = self.usage.tokens_in + self.usage.tokens_out
        if budget and spent > budget:
            raise CompileFailure("budget_exhausted", budget_text(budget, spent, 0), transient=True)

    def _count(self, part: ChunkParse, *, cached: bool) -> None:
        with self._lock:
            self.usage.chunks += 1
            self.usage.cached_chunks += 1 if cached else 0
            self.usage.truncated += 1 if part.truncated else 0

    # -- the brief's line -----------------------------------------------------------------------
    def usage_line(self) -> str:
        line = brief_line(self.usage, self.settings, self.client)
        if self.settings is not None:
            log.info("model pass %s: %s", self.request.job_id, line)
        return line


def _release(pool: ThreadPoolExecutor, client: ChatClient) -> None:
    pool.shutdown(wait=False, cancel_futures=True)
    client.close()


class LlmExtractor:
    """The `Extractor` registered as "llm" (kctui.compiler.extractors): a model-backed pass."""

    def __init__(self, ctx: ExtractorContext) -> None:
        self._pass = LlmPass(ctx.request, ctx.previous, ctx.cache_folder, ctx.should_stop,
                             progress=ctx.progress, schema=ctx.base_schema())
        self.version = schema_version(pass_version(), self._pass.schema)

    def submit(self, sources: Sequence[SourceFile]) -> None:
        self._pass.submit(list(sources))

    def result(self, path: str) -> Extraction | Skipped:
        return restrict_classes(self._pass.result(path), self._pass.schema)

    def extract(self, source: SourceFile) -> Extraction | Skipped:
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
