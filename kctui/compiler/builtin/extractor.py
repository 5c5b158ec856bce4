"""The built-in, offline extractor behind the `Extractor` seam: `extract_document` on every source,
answered from the extraction cache when it can be, and spread over every core for a big pass.

A pass with enough uncached work (see `PARALLEL_MIN_FILES`, `PARALLEL_MIN_BYTES`) sends it to a
process pool; a small one (the usual incremental pass) stays in this process, where there is no
start-up to pay. Extraction is a pure function of a source's path, digest and bytes, and results are
taken in the order the pipeline asks for them, so a pooled pass is byte for byte a serial one.

- Start method: `fork` while this process runs no other thread (cheap, and safe then), else
  `forkserver` (the app and the host run threads; forking a threaded process can deadlock a child).
- A kill -9 of the pass's process: every worker watches it and exits (`parent_watch.py`), and the
  forkserver and the resource tracker follow.
- Cancellation: while waiting for a worker, `should_stop` is checked every tenth of a second; a stop
  cancels what is queued and terminates the workers. A source of `LONG_FILE_BYTES` or more always goes
  to a worker, so a stop never waits for the rules to finish one long file in this process.
- A worker that dies (a crash, the OOM killer) breaks the pool; the sources it left unanswered are
  then extracted one at a time in a fresh single-worker pool, so the one that kills its worker again
  becomes a `Skipped` ("unreadable": the extractor process crashed) and every other source compiles.
  A pool that cannot run even a trivial task (workers that cannot start here) is never blamed on a
  source: the pass, and every later one in this process, extracts in this process instead.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from pathlib import Path
from typing import Any

from kctui import __version__
from kctui.compiler.builtin.cache import ExtractionCache
from kctui.compiler.builtin.collector import raise_thresholds
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.parent_watch import watch_parent
from kctui.compiler.builtin.profile import ProfileError, load_profile
from kctui.compiler.contract import COMPILER_NAME, CompileCancelled, CompileFailure
from kctui.compiler.extraction import EXTRACTOR_VERSION, Extraction
from kctui.compiler.extractors import ExtractorContext
from kctui.compiler.readers import Skipped
from kctui.compiler.readers.source import SourceFile, read_document
from kctui.compiler.schema import classes_version, restrict_classes

log = logging.getLogger("kctui.compiler")

# the extraction rules' version is part of it: pages another version wrote are compiled again once
VERSION = f"{COMPILER_NAME}/{__version__} {EXTRACTOR_VERSION.replace('builtin-', '')} builtin"
# A pass with fewer uncached sources or bytes than this is extracted in this process: a forked pool
# starts in about 15 ms, a forkserver one in 0.1-0.3 s, and extraction costs about 1.5 µs a byte.
PARALLEL_MIN_FILES = 8
PARALLEL_MIN_BYTES = 128 * 1024  # with `fork`; four times this with `forkserver` or `spawn`
# A source this large takes seconds to extract: it always goes to a worker process (even with one core),
# so a cancel or a quit ends it within a poll instead of waiting for the rules to finish in this process.
LONG_FILE_BYTES = 256 * 1024
PROFILE_FILE = Path(".a3s") / "profile.toml"
_POLL = 0.1  # seconds between stop checks while waiting for a worker
_NAME_EVERY = 10  # polls: a source still being read after a second is named again, with its time, each second
_pool_unusable = False  # set once workers could not run at all in this process
# what a worker imports to extract (a module missing here is skipped by the forkserver, not fatal)
_PRELOAD = ["kctui.compiler.builtin.extractor", "kctui.compiler.builtin.facts", "kctui.compiler.builtin.prose",
            "kctui.compiler.readers.markdown", "kctui.compiler.readers.html", "kctui.compiler.readers.text",
            "kctui.compiler.readers.pdf"]


def worker_count() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def start_method() -> str:
    """`fork` when nothing but this thread runs (and the platform has it), else `forkserver`/`spawn`."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


# -- the per-base profile ------------------------------------------------------------------------
def base_profile(kb_root: Path) -> tuple[Any, str]:
    """The base's optional `<kb>/.a3s/profile.toml` (a glossary of known names, headings to ignore;
    see `kctui.compiler.builtin.profile`) and the digest of its bytes, which keys the extraction cache and
    names the pass's version (a changed profile re-reads every source once). (None, "") without one.
    A profile that is there but unusable fails the pass with its one-line reason: compiling as if it
    were absent would silently publish pages the person's profile rules out."""
    target = Path(kb_root) / PROFILE_FILE
    if not target.exists() and not target.is_symlink():
        return None, ""
    try:
        profile = load_profile(kb_root)
        key = hashlib.sha256(target.read_bytes()).hexdigest()
    except ProfileError as exc:
        raise CompileFailure("compiler_reported", f"{PROFILE_FILE}: {exc}", transient=False) from None
    except OSError as exc:
        raise CompileFailure("source_unreadable", f"{PROFILE_FILE} cannot be read ({exc.strerror or exc})",
                             transient=True) from None
    return profile, key


def pass_version(profile_key: str) -> str:
    """`generated.by` of the pages: the package, the extraction rules' version and the profile in force."""
    return VERSION if not profile_key else f"{COMPILER_NAME}/{__version__} profile-{profile_key[:12]} builtin"


def extract_source(source: SourceFile, profile: Any = None) -> Extraction | Skipped:
    """One source read and extracted (no cache): size cap, memo-digest check, reader, rules."""
    doc = read_document(source)
    if isinstance(doc, Skipped):
        return doc
    try:
        return extract_document(doc) if profile is None else extract_document(doc, profile=profile)
    except (MemoryError, RecursionError) as exc:
        return Skipped(source.path, "unreadable", f"the extractor gave up ({type(exc).__name__})")
    except (ValueError, UnicodeError, LookupError, OSError) as exc:
        return Skipped(source.path, "unreadable", f"the extractor failed ({type(exc).__name__}: {str(exc)[:120]})")


def _pooled(source: SourceFile, profile: Any, cache_folder: Path | None, cache_salt: str) -> Extraction | Skipped:
    """Runs in a worker process: extract, and store the result in the cache (in parallel, too)."""
    found = extract_source(source, profile)
    if isinstance(found, Extraction):
        ExtractionCache(cache_folder, salt=cache_salt).put(found)
    return found


class BuiltinExtractor:
    """The `Extractor` registered as "builtin"."""

    def __init__(self, ctx: ExtractorContext, *, workers: int | None = None, method: str | None = None,
                 task: Callable[..., Extraction | Skipped] = _pooled) -> None:
        self.should_stop = ctx.should_stop
        self._progress = ctx.progress  # names a long source while it is read (the running pane's current file)
        self.profile, salt = base_profile(ctx.kb_root)
        # the schema file's page classes (kctui.compiler.schema): a class it leaves out is not written
        self.schema = ctx.base_schema()
        self.version = classes_version(pass_version(salt), self.schema)
        self.cache = ExtractionCache(ctx.cache_folder, salt=salt)
        self._cache_folder, self._salt = ctx.cache_folder, salt
        self._workers = worker_count() if workers is None else workers
        self._method = method
        self._task = task
        self._ready: dict[str, Extraction | Skipped] = {}
        self._waiting: dict[str, Future] = {}
        self._sources: dict[str, SourceFile] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._single: ProcessPoolExecutor | None = None  # after a crash: one source at a time
        self.crashed = False

    # -- the protocol ---------------------------------------------------------------------------
    def submit(self, sources: Sequence[SourceFile]) -> None:
        misses: list[SourceFile] = []
        for source in sources:
            if source.path in self._ready or source.path in self._waiting or source.path in self._sources:
                continue
            cached = self.cache.get(source.path, source.digest)
            if cached is not None:
                self._ready[source.path] = cached
            else:
                self._sources[source.path] = source
                misses.append(source)
        if misses and not self.crashed and not _pool_unusable and (
                self._pool is not None or self._worth_a_pool(misses)):
            if self._pool is None:
                self._pool = self._new_pool(min(self._workers, len(misses)))
            for source in misses:
                # the pool pickles its copy later, from another thread: this one may drop its bytes now
                try:
                    future = self._pool.submit(self._task, replace(source), self.profile, self._cache_folder,
                                               self._salt)
                except BrokenProcessPool as exc:  # a worker died already: `result` sorts it out
                    future = Future()
                    future.set_exception(exc)
                self._waiting[source.path] = future
                source.data = None

    def result(self, path: str) -> Extraction | Skipped:
        return restrict_classes(self._result(path), self.schema)

    def _result(self, path: str) -> Extraction | Skipped:
        if path in self._ready:
            return self._ready.pop(path)
        source = self._sources.pop(path)
        future = self._waiting.pop(path, None)
        if future is None:
            if self.crashed and not _pool_unusable:  # after a crash nothing new runs in this process
                return self._isolated(source)
            found = self._here(source)  # a small pass: extracted here
            source.data = None
            return found
        try:
            return self._wait(future, path)
        except BrokenProcessPool:
            if not self.crashed:
                self.crashed = True
                if self._pool is not None:
                    _stop(self._pool)
                    self._pool = None
                if not self._healthy():
                    return self._here(source)
                log.warning("an extractor process died; the rest of the pass is extracted one source at a time")
            return self._here(source) if _pool_unusable else self._isolated(source)

    def _here(self, source: SourceFile) -> Extraction | Skipped:
        found = extract_source(source, self.profile)
        if isinstance(found, Extraction):
            self.cache.put(found)
        return found

    def _healthy(self) -> bool:
        """Whether a fresh worker runs a trivial task; if not, workers are unusable in this process."""
        global _pool_unusable
        probe = self._new_pool(1)
        try:
            self._wait(probe.submit(_alive))
            return True
        except BrokenProcessPool:
            _pool_unusable = True
            log.warning("extractor worker processes cannot run here; extracting in this process")
            return False
        finally:
            _stop(probe)

    def extract(self, source: SourceFile) -> Extraction | Skipped:
        self.submit([source])
        return self.result(source.path)

    def lossy(self) -> dict[str, str]:
        return {}  # the built-in extractor reports lost facts per source (`Extraction.unreached`)

    def usage(self) -> str:
        return ""

    def cache_hits(self) -> int:
        return self.cache.hits

    def close(self) -> None:
        self._end(force=bool(self._waiting))  # a stopped or failed pass waits for no document

    def _end(self, force: bool) -> None:
        self._waiting.clear()
        for pool in (self._pool, self._single):
            if pool is not None and force:
                _stop(pool)
            elif pool is not None:
                pool.shutdown(wait=True)
        self._pool = self._single = None

    # -- the pool -------------------------------------------------------------------------------
    def _worth_a_pool(self, misses: list[SourceFile]) -> bool:
        if any(s.size >= LONG_FILE_BYTES for s in misses):  # seconds of work: in a process a stop can end
            return True
        if self._workers <= 1:
            return False
        cheap = (self._method or start_method()) == "fork"
        floor = PARALLEL_MIN_BYTES if cheap else 4 * PARALLEL_MIN_BYTES
        return len(misses) >= max(2, PARALLEL_MIN_FILES) and sum(s.size for s in misses) >= floor

    def _new_pool(self, workers: int) -> ProcessPoolExecutor:
        method = self._method or start_method()
        ctx = multiprocessing.get_context(method)
        if method == "forkserver":  # loaded once in the server, so every worker starts with them
            ctx.set_forkserver_preload(_PRELOAD)
        return ProcessPoolExecutor(max_workers=max(1, workers), mp_context=ctx, initializer=_worker_start,
                                   initargs=(os.getpid(),))

    def _wait(self, future: Future, path: str = "") -> Extraction | Skipped:
        waited = 0
        while True:
            if self.should_stop():
                self._end(force=True)
                raise CompileCancelled()
            try:
                return future.result(timeout=_POLL)
            except FutureTimeout:
                waited += 1
                if path and self._progress is not None and waited % _NAME_EVERY == 0:
                    self._progress(f"{path} (reading it for {waited // _NAME_EVERY} s)")
                continue

    def _isolated(self, source: SourceFile) -> Extraction | Skipped:
        """After a crash: this source alone in a one-worker pool; killing that worker too skips it."""
        if self._single is None:
            self._single = self._new_pool(1)
        try:  # the worker reads the file itself, checked against its digest
            return self._wait(self._single.submit(self._task, source, self.profile, self._cache_folder, self._salt))
        except BrokenProcessPool:
            _stop(self._single)
            self._single = None
            return Skipped(source.path, "unreadable", "the extractor process crashed on this file")


def _worker_start(pass_pid: int = 0) -> None:
    """A worker leaves Ctrl-C and the host's signal handlers to the pass: it ignores SIGINT (the
    terminal sends it to the whole process group) and ends on SIGTERM, which is how a pass stops it, or
    when the pass's process `pass_pid` is gone (a kill -9: `parent_watch.py`); its garbage collector
    runs as a pass's does."""
    if pass_pid:
        watch_parent(pass_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    raise_thresholds()  # (a worker only extracts: the pass's collector thresholds, kctui.compiler.builtin.collector)


def _alive() -> bool:
    return True


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what is queued and end the workers now (a stopped pass waits for no document)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=2)
        if process.is_alive():  # SIGTERM not acted on in time (a loaded machine): no worker outlives its pass
            process.kill()
            process.join(timeout=5)
