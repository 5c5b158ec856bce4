"""The built-in compiler: gather → extract → match → update → flag → brief (seeds/003), each step
reporting progress. Deterministic and offline: the same sources and previous wiki give the same bytes,
and a pass using the extraction cache writes exactly what a pass without it writes (wiki.md §6).

`compile_pass` runs the steps in order, one module each (kctui.compiler.steps.gather, .extract, .match,
.update, .flag, .brief); each returns a frozen result the next consumes (kctui.compiler.steps.results).
"""

from __future__ import annotations

from pathlib import Path

from kctui.compiler.builtin.cache import default_cache_dir
from kctui.compiler.builtin.collector import pass_collection
from kctui.compiler.builtin.extractor import VERSION  # noqa: F401 - the built-in actor, re-exported
from kctui.compiler.contract import CompileRequest, ProgressFn, StopFn
from kctui.compiler.extractors import extractor_factory
from kctui.compiler.previous.store import PreviousStore, enabled_by_default
from kctui.compiler.steps.brief import brief
from kctui.compiler.steps.extract import extract
from kctui.compiler.steps.flag import flag
from kctui.compiler.steps.gather import gather
from kctui.compiler.steps.match import match
from kctui.compiler.steps.pass_result import PassResult
from kctui.compiler.steps.reporter import StepReporter
from kctui.compiler.steps.results import PassRun
from kctui.compiler.steps.update import update

_DEFAULT = object()


def compile_pass(request: CompileRequest, *, progress: ProgressFn | None = None, should_stop: StopFn | None = None,
                 cache_dir: Path | None | object = _DEFAULT, full: bool = False, dry_run: bool = False,
                 previous_store: bool | None = None) -> PassResult:
    """One pass. `cache_dir=None` disables the caches; `full=True` re-reads every source (unchanged
    ones are checked against what the previous wiki recorded and only count as changed if they differ).
    `dry_run=True` (kctui.services.dry_run): the caches are read but the wiki-derived ones (the page
    memo, the source-digest memo) are not written, and unchanged pages are copied rather than
    hard-linked from the live wiki (a link would change its files' ctime), so a real pass never reads
    anything a dry run made; the extraction and reply caches, keyed by source bytes alone, are shared.
    `previous_store=False` (default: on unless `KCTUI_PREVIOUS_STORE=off`): the pass works without what
    the last pass knew (kctui.compiler.previous.store) and writes the same bytes."""
    steps = StepReporter(progress or (lambda e: None), should_stop or (lambda: False))
    cache_folder = default_cache_dir(request.source_path) if cache_dir is _DEFAULT else cache_dir
    opener = extractor_factory(request.extractor)  # an unknown extractor fails before anything is read
    enabled = enabled_by_default() if previous_store is None else previous_store
    store = PreviousStore(cache_folder, dry_run=dry_run, enabled=enabled)
    run = PassRun(request, steps, cache_folder, full, dry_run, opener, store, opened=[])
    with pass_collection():  # (fewer walks of the collector over what the pass keeps: builtin.collector)
        failed = True
        try:
            gathered = gather(run)
            extracted = extract(run, gathered)
            matched = match(run, gathered, extracted)
            updated = update(run, gathered, matched)
            flagged = flag(run, updated)
            result = brief(run, gathered, extracted, matched, updated, flagged)
            failed = False
            return result
        finally:
            store.close(failed=failed)  # a failed pass leaves no links to the live wiki behind
            for extractor in run.opened:  # its threads and processes end with the pass, however it ends
                extractor.close()
