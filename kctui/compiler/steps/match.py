"""The match step: each extraction routed to the pages it feeds (kctui.compiler.steps.registry), and the
concept and entity pages this pass touches."""

from __future__ import annotations

from dataclasses import replace

from kctui.compiler.extraction import Extraction
from kctui.compiler.readers.base import Skipped
from kctui.compiler.steps import mention_pass, recurrence
from kctui.compiler.steps.full_pass import verify_unchanged
from kctui.compiler.steps.registry import Registry, route
from kctui.compiler.steps.results import Extracted, Gathered, Matched, PassRun, SourceChanges
from kctui.compiler.trust.sources import archived_sources, pending_sources


def match(run: PassRun, gathered: Gathered, extracted: Extracted) -> Matched:
    request, prev, steps = run.request, gathered.prev, run.steps
    changes, extractions, registry = extracted.changes, extracted.extractions, extracted.registry
    steps.start("match", len(extractions))
    if run.full:
        changes, extractions = _verified(gathered, extracted)
    skipped = list(extracted.skipped)
    skipped_paths = {s.path for s in skipped}
    live = {p: ex for p, ex in extractions.items() if p not in skipped_paths}
    source_page_of = prev.source_page_of()
    reread = list(extracted.reread)
    changed = _changed(changes, reread, extracted.again, skipped_paths, source_page_of)
    _register_source_pages(gathered, registry, live)
    routed = _route_all(run, registry, live)
    prev_fed = _previous_fed(gathered, registry, source_page_of)
    fed = {p: prev_fed[p] for p in changes.unchanged if p in prev_fed}
    for path, contributions in routed.items():
        fed[path] = set(contributions)
    touched = _touched(gathered, changed, routed, prev_fed)
    unchanged = [p for p in changes.unchanged if p not in live and p not in skipped_paths]
    attach = mention_pass.attach_all(gathered, extracted.recurring, registry, live, routed, fed, changed, touched,
                                 prev_fed, unchanged)
    matched = Matched(changes, reread, registry, skipped, skipped_paths, live, changed, routed, fed, touched,
                      set(), [])
    if request.trust_policy is not None:
        _propose_pending_in_full(run, gathered, extracted, matched, prev_fed, attach)
    restyle = prev.restyle(request.link_style)
    touched |= {slug for slug in restyle if prev.pages[slug].kind != "source"}
    removed = sorted({source_page_of[p] for p in changed | skipped_paths if p in source_page_of and p not in live})
    steps.done(len(touched), f"{len(touched)} concept and entity pages touched")
    return Matched(changes, reread, registry, skipped, skipped_paths, live, changed, routed, fed, touched,
                   restyle, removed)


def _verified(gathered: Gathered, extracted: Extracted) -> tuple[SourceChanges, dict[str, Extraction]]:
    """A full pass: its unchanged sources verified against their pages (the ones not extracted stay
    unchanged)."""
    changes = extracted.changes
    held_back = [p for p in changes.unchanged if p in extracted.skip]
    changes, extractions = verify_unchanged(gathered.prev, extracted.registry, changes, extracted.extractions,
                                            set(extracted.refolded))
    changes = replace(changes, unchanged=sorted(set(changes.unchanged) | set(held_back), key=lambda p: p.encode()))
    return changes, extractions


def _changed(changes: SourceChanges, reread: list[str], again: list[str], skipped_paths: set[str],
             source_page_of: dict[str, str]) -> set[str]:
    """The sources whose pages this pass rebuilds: changed, read again, or compiled before and unreadable now."""
    changed = set(changes.added) | set(changes.modified) | set(changes.deleted) | set(reread) | set(again)
    changed |= {p for p in skipped_paths if p in source_page_of}  # compiled before, unreadable now
    return changed


def _register_source_pages(gathered: Gathered, registry: Registry, live: dict[str, Extraction]) -> None:
    for path, slug in archived_sources(gathered.prev).items():
        if path in gathered.by_path:  # the file came back: its archived source page is the one to revive
            registry.source_slugs[path] = slug
    for path in sorted(live, key=lambda p: p.encode()):
        registry.source_slug(path, live[path].title)


def _route_all(run: PassRun, registry: Registry, live: dict[str, Extraction]) -> dict[str, dict]:
    routed: dict[str, dict] = {}
    for i, path in enumerate(sorted(live, key=lambda p: p.encode()), 1):
        run.steps.tick(i, len(live), path)
        routed[path] = route(live[path], registry)
    return routed


def _previous_fed(gathered: Gathered, registry: Registry, source_page_of: dict[str, str]) -> dict[str, set[str]]:
    """What each source fed last time: what its source page links to (concept and entity pages)."""
    prev = gathered.prev
    tables = prev.tables
    fed_of, outside = tables.fed, tables.outside  # a link to no page of the previous wiki: one made now?
    return {
        path: ({s for s in prev.pages[slug].links if registry.kinds.get(s) in ("concept", "entity")}
               if slug in outside else fed_of[slug])
        for path, slug in source_page_of.items()}


def _touched(gathered: Gathered, changed: set[str], routed: dict[str, dict],
             prev_fed: dict[str, set[str]]) -> set[str]:
    """The concept and entity pages a changed source fed or that cite one, and those this pass's sources feed."""
    touched = {slug for path in changed for slug in prev_fed.get(path, ())}
    citing = gathered.prev.tables.citing
    touched |= {slug for resource in changed if resource in citing for slug in citing[resource]}
    touched |= {slug for contributions in routed.values() for slug in contributions}
    return touched


def _propose_pending_in_full(run: PassRun, gathered: Gathered, extracted: Extracted, m: Matched,
                             prev_fed: dict[str, set[str]], attach) -> None:  # noqa: ANN001
    """A touched page whose proposal waits for review is proposed again in full: read its sources (this
    step's own collections grow: the sources read, routed and skipped, the pages touched)."""
    prev, live, touched = gathered.prev, m.live, m.touched
    while need := pending_sources(prev, touched, set(live) | m.skipped_paths | extracted.skip, set(gathered.by_path)):
        for path in sorted(need, key=lambda p: p.encode()):
            run.steps.tick(len(live), len(live) + len(need), path)
            found: Extraction | Skipped = gathered.extractor.extract(gathered.by_path[path])
            m.changed.add(path)
            if not isinstance(found, Skipped):
                found = recurrence.activate(found, extracted.recurring)
            if isinstance(found, Skipped):
                m.skipped.append(found)
                m.skipped_paths.add(path)
                continue
            live[path] = found
            m.reread.append(path)
            m.registry.source_slug(path, found.title)
            routed = m.routed[path] = route(found, m.registry)
            m.fed[path] = set(routed)
            attach(found, routed)  # (its statements on the pages of the names they contain)
            # the source is unchanged: the pages it fed and still feeds hold what it says already; only
            # a page it now feeds, or no longer feeds, is rebuilt beside the pages waiting for review
            touched |= prev_fed.get(path, set()) ^ set(routed)
