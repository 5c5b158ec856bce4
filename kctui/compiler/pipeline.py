"""The built-in compiler: gather → extract → match → update → flag → brief (seeds/003), each step
reporting progress. Deterministic and offline: the same sources and previous wiki give the same bytes,
and a pass using the extraction cache writes exactly what a pass without it writes (wiki.md §6).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from kctui.compiler import gather as g
from kctui.compiler.builtin_extractor import VERSION  # noqa: F401 - the built-in actor, re-exported
from kctui.compiler.cache import default_cache_dir
from kctui.compiler.extract import Extraction
from kctui.compiler.extractors import Extractor, ExtractorContext, ExtractorFactory, extractor_factory
from kctui.compiler.policy_kinds import ALL_KINDS, maintains_suffix
from kctui.compiler.policy_kinds import compiled_kinds as _compiled_kinds
from kctui.compiler.match import Registry, route, routing_matches
from kctui.compiler.readers import Skipped
from kctui.compiler.runner import (
    CompileCancelled,
    CompileFailure,
    CompileReport,
    CompileRequest,
    ProgressEvent,
    ProgressFn,
    StopFn,
)
from kctui.compiler.update import (
    ClaimChange,
    ConflictReport,
    PageUpdate,
    PassContext,
    build_source_page,
    build_topic_page,
    relink_source_page,
)
from kctui.compiler import output, recurrence
from kctui.compiler.schema import load_schema, schema_warning
from kctui.compiler.stale import StaleReport, mark_stale
from kctui.compiler.trust_step import TrustGate, archived_sources, manifest_extras, pending_sources, recheck_sources
from kctui.compiler.wiki_state import PageMemo, PreviousWiki, load_previous

_DEFAULT = object()


@dataclass
class PassResult:
    report: CompileReport
    changes: g.SourceChanges
    updates: list[PageUpdate] = field(default_factory=list)
    claim_changes: list[ClaimChange] = field(default_factory=list)
    conflicts: list[ConflictReport] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    files_extracted: int = 0
    cache_hits: int = 0
    held: list[PageUpdate] = field(default_factory=list)  # updates the trust policy held for a person
    stale: list[StaleReport] = field(default_factory=list)  # pages gone stale this pass
    review_items: list[dict] = field(default_factory=list)  # what review.json lists (held and conflicts)
    reread: list[str] = field(default_factory=list)  # unchanged sources read again for pages under review


class _Steps:
    def __init__(self, progress: ProgressFn, should_stop: StopFn) -> None:
        self.progress = progress
        self.should_stop = should_stop
        self.timings: list[tuple[str, float]] = []
        self._step = ""
        self._t0 = 0.0
        self._ticked = False
        self._done = self._total = 0

    def start(self, step: str, total: int = 0) -> None:
        self.check()
        self._step, self._t0, self._ticked = step, time.perf_counter(), False
        self._done, self._total = 0, total
        self.progress(ProgressEvent(step, "started", 0, total))

    def tick(self, done: int, total: int, current: str = "") -> None:
        self.check()
        self._ticked = True
        self._done, self._total = done, total
        self.progress(ProgressEvent(self._step, "progress", done, total, current=current))

    def note(self, current: str) -> None:
        """A live line within the running step (a streamed reply's tokens/s): its counts stay as they are."""
        self.progress(ProgressEvent(self._step, "progress", self._done, self._total, current=current))

    def done(self, total: int = 0, message: str = "") -> None:
        if not self._ticked:  # every step reports started, progress and done, even with nothing to do
            self.progress(ProgressEvent(self._step, "progress", total, total))
        self.timings.append((self._step, time.perf_counter() - self._t0))
        self.progress(ProgressEvent(self._step, "done", total, total, message=message))

    def check(self) -> None:
        if self.should_stop():
            raise CompileCancelled()


def compile_pass(request: CompileRequest, *, progress: ProgressFn | None = None, should_stop: StopFn | None = None,
                 cache_dir: Path | None | object = _DEFAULT, full: bool = False, dry_run: bool = False) -> PassResult:
    """One pass. `cache_dir=None` disables the caches; `full=True` re-reads every source (unchanged
    ones are checked against what the previous wiki recorded and only count as changed if they differ).
    `dry_run=True` (kctui.services.dry_run): the caches are read but the wiki-derived ones (the page
    memo, the source-digest memo) are not written, and unchanged pages are copied rather than
    hard-linked from the live wiki (a link would change its files' ctime), so a real pass never reads
    anything a dry run made; the extraction and reply caches, keyed by source bytes alone, are shared."""
    steps = _Steps(progress or (lambda e: None), should_stop or (lambda: False))
    cache_folder = default_cache_dir(request.source_path) if cache_dir is _DEFAULT else cache_dir
    opener = extractor_factory(request.extractor)  # an unknown extractor fails before anything is read
    opened: list[Extractor] = []
    try:
        return _pass(request, steps, cache_folder, full, opener, opened, dry_run)
    finally:
        for extractor in opened:  # its threads and processes end with the pass, however it ends
            extractor.close()


def _pass(request: CompileRequest, steps: _Steps, cache_folder: Path | None, full: bool,
          opener: ExtractorFactory, opened: list[Extractor], dry_run: bool = False) -> PassResult:
    warnings: list[str] = []
    # -- gather ---------------------------------------------------------------------------------
    steps.start("gather")
    if not request.source_path.is_dir():
        raise CompileFailure("source_unreadable", f"sources folder {request.source_path} is missing or unreadable", transient=True)
    try:
        files, skipped = g.scan_sources(request.source_path, steps.should_stop)
    except g.SourceLimitExceeded as exc:
        raise CompileFailure("source_limit_exceeded", str(exc), transient=False) from None
    steps.check()
    if not files and not skipped:
        raise CompileFailure("source_unreadable", "the knowledge base has no source files to compile", transient=False)
    readable: list[g.SourceFile] = []
    digests = g.DigestMemo(cache_folder if cache_folder else None)
    for i, f in enumerate(files, 1):
        steps.tick(i, len(files), f.path)
        try:
            f.digest = digests.lookup(f) or ""
            if not f.digest:
                g.digest_file(f)
            readable.append(f)
        except OSError as exc:
            skipped.append(Skipped(f.path, "unreadable", exc.strerror or str(exc)))
    if not dry_run:
        digests.save(readable)
    by_path = {f.path: f for f in readable}
    memo = PageMemo(cache_folder) if cache_folder else None
    prev = load_previous(request.previous_wiki_path, memo, steps.should_stop)
    warnings += prev.problems
    readable, not_extracted = _compiled_kinds(request, readable, prev)
    by_path = {f.path: f for f in readable}
    if not_extracted:
        shown = ", ".join(not_extracted[:10]) + (f" and {len(not_extracted) - 10} more" if len(not_extracted) > 10 else "")
        warnings.append(f"{len(not_extracted)} source(s) gathered but not extracted (their kind is not in the "
                        f"policy's compile_sources): {shown}")
    # The actor of this pass (`generated.by`, the report, the brief): the built-in extractor or the model.
    # A source whose page another version wrote is read again, so switching extractor or model
    # recompiles every source once (the reply cache makes later passes free).
    schema = load_schema(request.source_path.parent)  # read once: the extractor gets this copy
    extractor = opener(ExtractorContext(request, prev, cache_folder, steps.should_stop, steps.note, schema))
    opened.append(extractor)
    version = extractor.version + maintains_suffix(request)  # fewer page classes: another version
    schema_problem = schema_warning(schema)  # the extractors fall back to the embedded default
    if schema_problem:
        warnings.append(schema_problem)
    changes = g.classify({f.path: f.digest for f in readable}, prev.source_digests())
    _recompile_other_versions(prev, changes, version)
    steps.done(len(files), f"{len(changes.added)} added, {len(changes.modified)} modified, {len(changes.deleted)} deleted")

    # -- extract --------------------------------------------------------------------------------
    # a held source page keeps its old digest: its file is read again to see whether the proposal still stands
    reread = recheck_sources(prev, changes) if request.trust_policy is not None else []
    skip = set(not_extracted)  # not extracted: what their pages say stands (neither re-read nor archived)
    if skip:
        back = [p for p in reread + changes.modified if p in skip]
        reread = [p for p in reread if p not in skip]
        changes.modified = [p for p in changes.modified if p not in skip]
        changes.unchanged = sorted(set(changes.unchanged) | set(back), key=lambda p: p.encode())
    recheck = list(reread)
    to_read = changes.added + changes.modified + (changes.unchanged if full else []) + reread
    to_read = [p for p in to_read if p not in skip]
    steps.start("extract", len(to_read))
    extractions: dict[str, Extraction] = {}
    extractor.submit([by_path[p] for p in to_read])  # all at once: an extractor may work on them together

    def read(path: str) -> Extraction | Skipped:
        return extractor.extract(by_path[path])

    for i, path in enumerate(to_read, 1):
        steps.tick(i, len(to_read), path)
        result = extractor.result(path)
        if isinstance(result, Skipped):
            skipped.append(result)
        else:
            extractions[path] = result
    # a name one source mentions once is an entity when another source names it too; an unchanged
    # source whose passing mention turns into such a name, or stops being one, is read again
    again, recurring = recurrence.to_read_again(prev, extractions, [] if full else changes.unchanged)
    for path in again:
        result = read(path)
        if isinstance(result, Skipped):
            skipped.append(result)
        else:
            extractions[path] = result
    extractions = {p: recurrence.activate(ex, recurring) for p, ex in extractions.items()}
    steps.done(len(to_read), f"{len(extractions)} read, {extractor.cache_hits()} from cache")

    # -- match ----------------------------------------------------------------------------------
    steps.start("match", len(extractions))
    registry = Registry(prev)
    if full:
        held_back = [p for p in changes.unchanged if p in skip]
        _verify_unchanged(prev, registry, changes, extractions)
        changes.unchanged = sorted(set(changes.unchanged) | set(held_back), key=lambda p: p.encode())
    skipped_paths = {s.path for s in skipped}
    live = {p: ex for p, ex in extractions.items() if p not in skipped_paths}
    source_page_of = prev.source_page_of()
    changed = set(changes.added) | set(changes.modified) | set(changes.deleted) | set(reread) | set(again)
    changed |= {p for p in skipped_paths if p in source_page_of}  # compiled before, unreadable now
    for path, slug in archived_sources(prev).items():
        if path in by_path:  # the file came back: its archived source page is the one to revive
            registry.source_slugs[path] = slug
    for path in sorted(live, key=lambda p: p.encode()):
        registry.source_slug(path, live[path].title)
    routed: dict[str, dict] = {}
    for i, path in enumerate(sorted(live, key=lambda p: p.encode()), 1):
        steps.tick(i, len(live), path)
        routed[path] = route(live[path], registry)
    # What each source fed last time is what its source page links to (concept and entity pages).
    prev_fed = {path: {s for s in prev.pages[slug].links if registry.kinds.get(s) in ("concept", "entity")}
                for path, slug in source_page_of.items()}
    fed: dict[str, set[str]] = {p: prev_fed[p] for p in changes.unchanged if p in prev_fed}
    for path, contributions in routed.items():
        fed[path] = set(contributions)
    touched = {slug for path in changed for slug in prev_fed.get(path, ())}
    touched |= {info.slug for info in prev.pages.values() if info.kind != "source"
                and any(resource in changed for resource, _ in info.sources)}
    touched |= {slug for contributions in routed.values() for slug in contributions}
    while request.trust_policy is not None and (
            need := pending_sources(prev, touched, set(live) | skipped_paths | skip, set(by_path))):
        # a touched page whose proposal waits for review is proposed again in full: read its sources
        for path in sorted(need, key=lambda p: p.encode()):
            steps.tick(len(live), len(live) + len(need), path)
            found = read(path)
            changed.add(path)
            if not isinstance(found, Skipped):
                found = recurrence.activate(found, recurring)
            if isinstance(found, Skipped):
                skipped.append(found)
                skipped_paths.add(path)
                continue
            live[path] = found
            reread.append(path)
            registry.source_slug(path, found.title)
            routed[path] = route(found, registry)
            fed[path] = set(routed[path])
            touched |= prev_fed.get(path, set()) | set(routed[path])
            touched |= {info.slug for info in prev.pages.values() if info.kind != "source"
                        and any(resource == path for resource, _ in info.sources)}
    restyle = {slug for slug in prev.pages if prev.wrong_style(slug, request.link_style)}
    touched |= {slug for slug in restyle if prev.pages[slug].kind != "source"}
    removed = sorted({source_page_of[p] for p in changed | skipped_paths if p in source_page_of and p not in live})
    steps.done(len(touched), f"{len(touched)} concept and entity pages touched")

    # -- update ---------------------------------------------------------------------------------
    current_paths = [p for p in by_path if p not in skipped_paths]
    titles = dict(registry.titles)
    for path, ex in live.items():
        titles[registry.source_slugs[path]] = ex.title
    ctx = PassContext(
        created_at=request.created_at,
        generated_by=version,
        changed=changed | skipped_paths,
        digests={p: by_path[p].digest for p in current_paths},
        source_slugs={p: s for p, s in registry.source_slugs.items() if p in by_path and p not in skipped_paths},
        titles=titles,
        kinds=dict(registry.kinds),
        fed=fed,
    )
    for slug in removed:
        ctx.kinds.pop(slug, None)
    work = sorted(touched) + [registry.source_slugs[p] for p in sorted(live, key=lambda p: p.encode())]
    steps.start("update", len(work))
    writer = output.PageWriter(request, prev, version)
    writer.link_unchanged = not dry_run
    gate = TrustGate(request, writer, ctx)  # every page change below passes classify_update (trust.md §3)
    lossy = extractor.lossy()
    if lossy:
        # issue 8 compile-loss guard: every page a lossy source feeds (its source page and the concept
        # and entity pages it contributes to) is proposed with the flag, so the gate holds it for review
        for path, why in lossy.items():
            if path in live:
                for slug in [registry.source_slugs[path], *routed.get(path, {})]:
                    gate.lossy.setdefault(slug, f"{path}: {why}")
    if gate.warning:
        warnings.append(gate.warning)
    updates: list[PageUpdate] = []
    claim_changes: list[ClaimChange] = []
    maintained = set(gate.policy.maintain_kinds) if gate.policy is not None else set(ALL_KINDS)
    unmaintained = sorted({s for s in touched if registry.kinds.get(s) not in maintained}
                          | ({registry.source_slugs[p] for p in live} if "source" not in maintained else set()))
    if unmaintained:  # the policy's maintain_kinds: the compiler never writes a page of another class
        warnings.append(f"{len(unmaintained)} page(s) not written (their class is not in the policy's "
                        f"maintain_kinds): {', '.join(unmaintained[:10])}{' …' if len(unmaintained) > 10 else ''}")
    for i, slug in enumerate(sorted(touched), 1):
        steps.tick(i, len(work), slug)
        if registry.kinds.get(slug) not in maintained:
            continue
        previous = writer.previous_page(slug)
        old = None if previous is not None and previous.is_stub else previous  # a held create: not a page yet
        contributions = {p: c[slug] for p, c in routed.items() if slug in c}
        new = registry.new.get(slug)
        page, update = build_topic_page(slug, registry.kinds[slug], old, contributions, ctx,
                                        new.title if new else "", new.entity_type if new else "", new.domain if new else "")
        if gate.settle(page, update, previous):
            updates.append(update)
    for j, path in enumerate(sorted(live, key=lambda p: p.encode()), len(touched) + 1):
        steps.tick(j, len(work), path)
        slug = registry.source_slugs[path]
        if "source" not in maintained:
            continue
        previous = writer.previous_page(slug)
        old = None if previous is not None and previous.is_stub else previous
        page, update = build_source_page(slug, live[path], old, ctx, list(live[path].tags))
        settled = gate.settle(page, update, previous)
        if update.written:
            claim_changes += update.changes
        if settled:
            updates.append(update)
    live_slugs = {registry.source_slugs[p] for p in live}
    for slug in sorted(restyle - live_slugs - set(removed)):
        if prev.pages[slug].kind == "source" and (old := writer.previous_page(slug)) is not None:
            page, update = relink_source_page(old, ctx)
            if gate.settle(page, update, writer.previous_page_copy(slug)):
                updates.append(update)
    removed_now: list[str] = []
    for slug in removed if "source" in maintained else []:
        old = writer.previous_page(slug)
        path = prev.pages[slug].sources[0][0] if prev.pages[slug].sources else slug
        gone = [ClaimChange("retracted", path, c.subject, c.attribute, c.scope, c.value, "") for c in (old.claims if old else [])]
        if gate.gated and old is None:
            warnings.append(f"{path}: its source page could not be read back; it is kept as it is")
            continue
        update = gate.remove(slug, old, gone) if old is not None else PageUpdate(
            slug, "source", prev.pages[slug].title, "remove", 0, 0, len(gone), gone)
        updates.append(update)
        if update.written:
            claim_changes += gone
            removed_now.append(slug)
    steps.done(len(work))

    warnings += gate.edit_notes
    # -- flag -----------------------------------------------------------------------------------
    final = writer.finish(removed_now, ctx)
    steps.start("flag", len(final))
    stale = (mark_stale(writer, final, gate.fresh, request.created_at, gate.policy.stale_days, steps.tick)
             if gate.policy is not None else [])
    steps.tick(len(final), len(final), "links")
    dropped_links = writer.check_links(final)
    conflicts = gate.conflicts if gate.gated else [c for u in updates for c in u.conflicts_opened]
    archived = sum(1 for u in updates if u.kind == "supersede" and u.written)
    steps.done(len(final), f"{len(conflicts)} conflicts opened, {len(gate.held)} updates held, "
                           f"{len(stale)} pages gone stale, {archived} pages archived")

    # -- brief ----------------------------------------------------------------------------------
    steps.start("brief", len(final) + 2)
    for s in skipped:
        warnings.append(f"{s.path}: skipped ({s.reason}{': ' + s.detail if s.detail else ''})")
    for ex in live.values():
        warnings += [f"{ex.path}: {w}" for w in ex.warnings]
    result = PassResult(
        report=CompileReport(compiler_version=version),
        changes=changes,
        updates=updates,
        claim_changes=claim_changes,
        conflicts=conflicts,
        skipped=sorted(skipped, key=lambda s: s.path),
        files_extracted=len(to_read) + len(reread) + len(again) - len(recheck) - extractor.cache_hits(),
        cache_hits=extractor.cache_hits(),
        held=list(gate.held),
        stale=stale,
        review_items=list(gate.items),
        reread=sorted(reread, key=lambda p: p.encode()),
    )
    writer.write_all(final, updates, conflicts, warnings, steps.check, held=len(gate.held), tick=steps.tick)
    output.write_manifest(request.output_path, gate.items if gate.gated else None, manifest_extras(gate))
    if memo is not None and not dry_run:
        memo.save({slug: writer.infos[slug] for slug in final if slug in writer.infos}, writer.digests,
                  writer.files, writer.styles)
    steps.done(len(final) + 2)
    brief = output.brief_data(request, version, result, live, dropped_links, warnings, steps.timings)
    brief.model_usage = extractor.usage()
    result.report.brief_markdown = output.write_brief(request.output_path, brief)
    result.report.pages_written = len(final) + 2
    result.report.files_read = result.files_extracted
    result.report.warnings = warnings
    return result


def _recompile_other_versions(prev: PreviousWiki, changes: g.SourceChanges, version: str = VERSION) -> None:
    """A source whose page another compiler, version, extractor or model wrote is read again, as if it
    had changed."""
    pages_of = prev.source_page_of()
    stale = [p for p in changes.unchanged if prev.pages[pages_of[p]].generated_by != version]
    if stale:
        changes.unchanged = [p for p in changes.unchanged if p not in set(stale)]
        changes.modified = sorted(changes.modified + stale, key=lambda p: p.encode())


def _verify_unchanged(prev: PreviousWiki, registry: Registry, changes: g.SourceChanges,
                      extractions: dict[str, Extraction]) -> None:
    """Full pass: an unchanged source whose fresh extraction differs from what its source page records
    (another compiler version, a lost page) is treated as modified; otherwise its fresh extraction is
    set aside and the previous wiki stands, exactly as in an incremental pass."""
    from kctui.core.pages import parse_page

    source_page_of = prev.source_page_of()
    keep: list[str] = []
    for path in changes.unchanged:
        ex = extractions.get(path)
        slug = source_page_of.get(path)
        same = False
        if ex is not None and slug is not None:
            old = parse_page(prev.raw[slug].decode("utf-8"), slug)
            recorded = {s for s in prev.pages[slug].links if registry.kinds.get(s) in ("concept", "entity")}
            same = old.is_stub or (  # a held create: this very content is already proposed
                old.title == ex.title
                and _claim_sig(old.claims) == _claim_sig(ex.claims)
                and old.summary == ex.summary
                and old.questions == ex.questions
                and routing_matches(ex, registry, recorded)
            )
        if same:
            keep.append(path)
            extractions.pop(path, None)
        elif ex is not None:
            changes.modified.append(path)
    changes.modified.sort(key=lambda p: p.encode())
    changes.unchanged = keep


def _claim_sig(claims) -> list:  # noqa: ANN001
    """Comparable whatever the claims: the same claim may stand twice, cited at two places (Evidence
    itself has no order)."""
    return sorted((c.claim_id, c.subject, c.attribute, c.value, c.scope, c.form,
                   (c.evidence.path, c.evidence.start, c.evidence.end, c.evidence.digest, c.evidence.unit))
                  for c in claims)

