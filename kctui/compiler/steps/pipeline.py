"""The built-in compiler: gather → extract → match → update → flag → brief (seeds/003), each step
reporting progress. Deterministic and offline: the same sources and previous wiki give the same bytes,
and a pass using the extraction cache writes exactly what a pass without it writes (wiki.md §6).

`compile_pass` runs the steps in order over one `PassState` (kctui.compiler.steps.pass_state); each step is
one function (here, and the update step in kctui.compiler.steps.update), reading what the steps before
it filled.
"""

from __future__ import annotations

from pathlib import Path

from kctui.compiler.builtin.cache import default_cache_dir
from kctui.compiler.builtin.extractor import VERSION  # noqa: F401 - the built-in actor, re-exported
from kctui.compiler.contract import CompileFailure, CompileReport, CompileRequest, ProgressFn, StopFn
from kctui.compiler.extraction import Extraction
from kctui.compiler.extractors import ExtractorContext, extractor_factory
from kctui.compiler.previous.digest_memo import DigestMemo
from kctui.compiler.previous.page_memo import PageMemo
from kctui.compiler.previous.prelink import Prelink
from kctui.compiler.previous.wiki import load_previous
from kctui.compiler.readers.base import Skipped
from kctui.compiler.readers.source import SourceFile, digest_file
from kctui.compiler.schema import load_schema, schema_warning
from kctui.compiler.steps import brief_files as pass_files
from kctui.compiler.steps import gather as g
from kctui.compiler.steps import recurrence
from kctui.compiler.steps.full_pass import recompile_other_versions, verify_unchanged
from kctui.compiler.steps.pass_result import PassResult
from kctui.compiler.steps.pass_state import PassState
from kctui.compiler.steps.policy_kinds import compiled_kinds, maintains_suffix
from kctui.compiler.steps.registry import Registry, route
from kctui.compiler.steps.reporter import StepReporter
from kctui.compiler.steps.update import update
from kctui.compiler.trust.gate import manifest_extras
from kctui.compiler.trust.sources import archived_sources, pending_sources, recheck_sources
from kctui.compiler.trust.stale import mark_stale

_DEFAULT = object()


def compile_pass(request: CompileRequest, *, progress: ProgressFn | None = None, should_stop: StopFn | None = None,
                 cache_dir: Path | None | object = _DEFAULT, full: bool = False, dry_run: bool = False) -> PassResult:
    """One pass. `cache_dir=None` disables the caches; `full=True` re-reads every source (unchanged
    ones are checked against what the previous wiki recorded and only count as changed if they differ).
    `dry_run=True` (kctui.services.dry_run): the caches are read but the wiki-derived ones (the page
    memo, the source-digest memo) are not written, and unchanged pages are copied rather than
    hard-linked from the live wiki (a link would change its files' ctime), so a real pass never reads
    anything a dry run made; the extraction and reply caches, keyed by source bytes alone, are shared."""
    steps = StepReporter(progress or (lambda e: None), should_stop or (lambda: False))
    cache_folder = default_cache_dir(request.source_path) if cache_dir is _DEFAULT else cache_dir
    opener = extractor_factory(request.extractor)  # an unknown extractor fails before anything is read
    state = PassState(request, steps, cache_folder, full, dry_run, opener, opened=[])
    try:
        gather(state)
        extract(state)
        match(state)
        update(state)
        flag(state)
        return brief(state)
    except BaseException:
        if state.prelink is not None:
            state.prelink.discard()  # a failed pass leaves no links to the live wiki behind
        raise
    finally:
        if state.prelink is not None:
            state.prelink.close()
        for extractor in state.opened:  # its threads and processes end with the pass, however it ends
            extractor.close()


# -- gather -------------------------------------------------------------------------------------

def gather(state: PassState) -> None:
    """The sources and their digests, the previous wiki, the pass's extractor and the source changes."""
    request, steps = state.request, state.steps
    steps.start("gather")
    if not request.source_path.is_dir():
        raise CompileFailure("source_unreadable", f"sources folder {request.source_path} is missing or unreadable", transient=True)
    # the unchanged pages are linked into the staged wiki by a process of its own while the pass works
    # (from the start: a link changes a file's ctime only, which no stat key the pass checks holds; a
    # page replaced meanwhile is another inode, which the writer does not carry)
    if not state.dry_run:
        state.prelink = Prelink.start(request.previous_wiki_path, Path(request.output_path))
    try:
        files, state.skipped = g.scan_sources(request.source_path, steps.should_stop)
    except g.SourceLimitExceeded as exc:
        raise CompileFailure("source_limit_exceeded", str(exc), transient=False) from None
    steps.check()
    if not files and not state.skipped:
        raise CompileFailure("source_unreadable", "the knowledge base has no source files to compile", transient=False)
    readable: list[SourceFile] = []
    digests = DigestMemo(state.cache_folder if state.cache_folder else None)
    for i, f in enumerate(files, 1):
        try:
            f.digest = digests.lookup(f) or ""
            if not f.digest:  # a file read and digested: progress (and a stop request) checked per file
                steps.tick(i, len(files), f.path)
                digest_file(f)
            elif i % 64 == 0 or i == len(files):  # the memo's digests: every 64th file
                steps.tick(i, len(files), f.path)
            readable.append(f)
        except OSError as exc:
            state.skipped.append(Skipped(f.path, "unreadable", exc.strerror or str(exc)))
    if not state.dry_run:
        digests.save(readable)
    state.memo = PageMemo(state.cache_folder) if state.cache_folder else None
    prev = state.prev = load_previous(request.previous_wiki_path, state.memo, steps.should_stop)
    state.warnings += prev.problems
    readable, state.not_extracted = compiled_kinds(request, readable, prev)
    state.by_path = {f.path: f for f in readable}
    not_extracted = state.not_extracted
    if not_extracted:
        shown = ", ".join(not_extracted[:10]) + (f" and {len(not_extracted) - 10} more" if len(not_extracted) > 10 else "")
        state.warnings.append(f"{len(not_extracted)} source(s) gathered but not extracted (their kind is not in the "
                              f"policy's compile_sources): {shown}")
    # The actor of this pass (`generated.by`, the report, the brief): the built-in extractor or the model.
    # A source whose page another version wrote is read again, so switching extractor or model
    # recompiles every source once (the reply cache makes later passes free).
    schema = load_schema(request.source_path.parent)  # read once: the extractor gets this copy
    state.extractor = state.opener(ExtractorContext(request, prev, state.cache_folder, steps.should_stop, steps.note,
                                                    schema))
    state.opened.append(state.extractor)
    state.version = state.extractor.version + maintains_suffix(request)  # fewer page classes: another version
    schema_problem = schema_warning(schema)  # the extractors fall back to the embedded default
    if schema_problem:
        state.warnings.append(schema_problem)
    changes = state.changes = g.classify({f.path: f.digest for f in readable}, prev.source_digests())
    recompile_other_versions(prev, changes, state.version)
    steps.done(len(files), f"{len(changes.added)} added, {len(changes.modified)} modified, {len(changes.deleted)} deleted")


# -- extract ------------------------------------------------------------------------------------

def extract(state: PassState) -> None:
    """Every changed source (every source in a full pass) through the extractor, then the unchanged
    ones whose passing mentions turn into, or stop being, recurring names."""
    request, changes, steps = state.request, state.changes, state.steps
    # a held source page keeps its old digest: its file is read again to see whether the proposal still stands
    reread = recheck_sources(state.prev, changes) if request.trust_policy is not None else []
    skip = set(state.not_extracted)  # not extracted: what their pages say stands (neither re-read nor archived)
    if skip:
        back = [p for p in reread + changes.modified if p in skip]
        reread = [p for p in reread if p not in skip]
        changes.modified = [p for p in changes.modified if p not in skip]
        changes.unchanged = sorted(set(changes.unchanged) | set(back), key=lambda p: p.encode())
    state.reread, state.skip, state.recheck = reread, skip, list(reread)
    to_read = changes.added + changes.modified + (changes.unchanged if state.full else []) + reread
    to_read = state.to_read = [p for p in to_read if p not in skip]
    steps.start("extract", len(to_read))
    state.extractions = {}
    state.extractor.submit([state.by_path[p] for p in to_read])  # all at once: an extractor may work on them together
    for i, path in enumerate(to_read, 1):
        steps.tick(i, len(to_read), path)
        _keep(state, path, state.extractor.result(path))
    # a name one source mentions once is an entity when another source names it too; an unchanged
    # source whose passing mention turns into such a name, or stops being one, is read again
    # the registry of the previous wiki's pages (the match step's), made here: its entity index answers
    # which entity pages a recurring name has
    state.registry = Registry(state.prev)
    state.again, state.recurring = recurrence.to_read_again(state.prev, state.extractions,
                                                            [] if state.full else changes.unchanged,
                                                            state.registry.index["entity"].exact)
    for path in state.again:
        _keep(state, path, _read(state, path))
    state.extractions = {p: recurrence.activate(ex, state.recurring) for p, ex in state.extractions.items()}
    steps.done(len(to_read), f"{len(state.extractions)} read, {state.extractor.cache_hits()} from cache")


def _read(state: PassState, path: str) -> Extraction | Skipped:
    return state.extractor.extract(state.by_path[path])


def _keep(state: PassState, path: str, result: Extraction | Skipped) -> None:
    if isinstance(result, Skipped):
        state.skipped.append(result)
    else:
        state.extractions[path] = result


# -- match --------------------------------------------------------------------------------------

def match(state: PassState) -> None:
    """Each extraction routed to the pages it feeds, and the concept and entity pages this pass touches."""
    request, prev, changes, steps = state.request, state.prev, state.changes, state.steps
    steps.start("match", len(state.extractions))
    registry = state.registry  # made by the extract step, from the previous wiki alone
    if state.full:
        held_back = [p for p in changes.unchanged if p in state.skip]
        verify_unchanged(prev, registry, changes, state.extractions)
        changes.unchanged = sorted(set(changes.unchanged) | set(held_back), key=lambda p: p.encode())
    skipped_paths = state.skipped_paths = {s.path for s in state.skipped}
    live = state.live = {p: ex for p, ex in state.extractions.items() if p not in skipped_paths}
    source_page_of = state.source_page_of = prev.source_page_of()
    changed = state.changed = (set(changes.added) | set(changes.modified) | set(changes.deleted) | set(state.reread)
                               | set(state.again))
    changed |= {p for p in skipped_paths if p in source_page_of}  # compiled before, unreadable now
    for path, slug in archived_sources(prev).items():
        if path in state.by_path:  # the file came back: its archived source page is the one to revive
            registry.source_slugs[path] = slug
    for path in sorted(live, key=lambda p: p.encode()):
        registry.source_slug(path, live[path].title)
    routed: dict[str, dict] = {}
    for i, path in enumerate(sorted(live, key=lambda p: p.encode()), 1):
        steps.tick(i, len(live), path)
        routed[path] = route(live[path], registry)
    state.routed = routed
    # What each source fed last time is what its source page links to (concept and entity pages).
    tables = prev.tables
    fed_of, outside = tables.fed, tables.outside  # a link to no page of the previous wiki: one made now?
    prev_fed = state.prev_fed = {
        path: ({s for s in prev.pages[slug].links if registry.kinds.get(s) in ("concept", "entity")}
               if slug in outside else fed_of[slug])
        for path, slug in source_page_of.items()}
    fed = state.fed = {p: prev_fed[p] for p in changes.unchanged if p in prev_fed}
    for path, contributions in routed.items():
        fed[path] = set(contributions)
    touched = state.touched = {slug for path in changed for slug in prev_fed.get(path, ())}
    citing = tables.citing
    touched |= {slug for resource in changed if resource in citing for slug in citing[resource]}
    touched |= {slug for contributions in routed.values() for slug in contributions}
    if request.trust_policy is not None:
        _propose_pending_in_full(state)
    state.restyle = prev.restyle(request.link_style)
    touched |= {slug for slug in state.restyle if prev.pages[slug].kind != "source"}
    state.removed = sorted({source_page_of[p] for p in changed | skipped_paths if p in source_page_of and p not in live})
    steps.done(len(touched), f"{len(touched)} concept and entity pages touched")


def _propose_pending_in_full(state: PassState) -> None:
    """A touched page whose proposal waits for review is proposed again in full: read its sources."""
    prev, live, touched = state.prev, state.live, state.touched
    while need := pending_sources(prev, touched, set(live) | state.skipped_paths | state.skip, set(state.by_path)):
        for path in sorted(need, key=lambda p: p.encode()):
            state.steps.tick(len(live), len(live) + len(need), path)
            found = _read(state, path)
            state.changed.add(path)
            if not isinstance(found, Skipped):
                found = recurrence.activate(found, state.recurring)
            if isinstance(found, Skipped):
                state.skipped.append(found)
                state.skipped_paths.add(path)
                continue
            live[path] = found
            state.reread.append(path)
            state.registry.source_slug(path, found.title)
            routed = state.routed[path] = route(found, state.registry)
            state.fed[path] = set(routed)
            # the source is unchanged: the pages it fed and still feeds hold what it says already; only
            # a page it now feeds, or no longer feeds, is rebuilt beside the pages waiting for review
            touched |= state.prev_fed.get(path, set()) ^ set(routed)


# -- flag ---------------------------------------------------------------------------------------

def flag(state: PassState) -> None:
    """Pages gone stale, links that no longer resolve, and the conflicts this pass opened."""
    steps, writer, gate = state.steps, state.writer, state.gate
    final = state.final = writer.finish(state.removed_now, state.ctx)
    steps.start("flag", len(final))
    state.stale = (mark_stale(writer, final, gate.fresh, state.request.created_at, gate.policy.stale_days, steps.tick)
                   if gate.policy is not None else [])
    steps.tick(len(final), len(final), "links")
    state.dropped_links = writer.check_links(final)
    state.conflicts = gate.conflicts if gate.gated else [c for u in state.updates for c in u.conflicts_opened]
    archived = sum(1 for u in state.updates if u.kind == "supersede" and u.written)
    steps.done(len(final), f"{len(state.conflicts)} conflicts opened, {len(gate.held)} updates held, "
                           f"{len(state.stale)} pages gone stale, {archived} pages archived")


# -- brief --------------------------------------------------------------------------------------

def brief(state: PassState) -> PassResult:
    """The staged wiki written out with its manifest and memo, and the pass's brief and report."""
    request, steps, writer, gate, warnings = state.request, state.steps, state.writer, state.gate, state.warnings
    final, extractor = state.final, state.extractor
    steps.start("brief", len(final) + 2)
    for s in state.skipped:
        warnings.append(f"{s.path}: skipped ({s.reason}{': ' + s.detail if s.detail else ''})")
    for ex in state.live.values():
        warnings += [f"{ex.path}: {w}" for w in ex.warnings]
    result = PassResult(
        report=CompileReport(compiler_version=state.version),
        changes=state.changes,
        updates=state.updates,
        claim_changes=state.claim_changes,
        conflicts=state.conflicts,
        skipped=sorted(state.skipped, key=lambda s: s.path),
        files_extracted=(len(state.to_read) + len(state.reread) + len(state.again) - len(state.recheck)
                         - extractor.cache_hits()),
        cache_hits=extractor.cache_hits(),
        held=list(gate.held),
        stale=state.stale,
        review_items=list(gate.items),
        reread=sorted(state.reread, key=lambda p: p.encode()),
    )
    writer.write_all(final, state.updates, state.conflicts, warnings, steps.check, held=len(gate.held), tick=steps.tick)
    pass_files.write_manifest(request.output_path, gate.items if gate.gated else None, manifest_extras(gate))
    if state.memo is not None and not state.dry_run:
        infos = {slug: writer.infos[slug] for slug in final if slug in writer.infos}
        state.memo.save(infos, writer.digests, writer.files, writer.styles,
                        links_resolve=not state.dropped_links and len(infos) == len(final))
    steps.done(len(final) + 2)
    data = pass_files.brief_data(request, state.version, result, state.live, state.dropped_links, warnings, steps.timings)
    data.model_usage = extractor.usage()
    result.report.brief_markdown = pass_files.write_brief(request.output_path, data)
    result.report.pages_written = len(final) + 2
    result.report.files_read = result.files_extracted
    result.report.warnings = warnings
    return result
