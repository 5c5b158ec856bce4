"""The extract step: every changed source (every source in a full pass) through the pass's extractor,
then the unchanged ones whose passing mentions turn into, or stop being, recurring names."""

from __future__ import annotations

from dataclasses import replace

from kctui.compiler.extraction import Extraction
from kctui.compiler.readers.base import Skipped
from kctui.compiler.steps import people, recurrence, short_names, written_names
from kctui.compiler.steps.registry import Registry
from kctui.compiler.steps.results import Extracted, Gathered, PassRun, SourceChanges
from kctui.compiler.trust.sources import recheck_sources


def extract(run: PassRun, gathered: Gathered) -> Extracted:
    request, changes, steps = run.request, gathered.changes, run.steps
    # a held source page keeps its old digest: its file is read again to see whether the proposal still stands
    reread = recheck_sources(gathered.prev, changes) if request.trust_policy is not None else []
    skip = set(gathered.not_extracted)  # not extracted: what their pages say stands (neither re-read nor archived)
    if skip:
        changes, reread = _not_extracted_unchanged(changes, reread, skip)
    to_read = changes.added + changes.modified + (changes.unchanged if run.full else []) + reread
    to_read = [p for p in to_read if p not in skip]
    steps.start("extract", len(to_read))
    extractor, by_path = gathered.extractor, gathered.by_path
    extractions: dict[str, Extraction] = {}
    skipped = list(gathered.skipped)
    extractor.submit([by_path[p] for p in to_read])  # all at once: an extractor may work on them together
    for i, path in enumerate(to_read, 1):
        steps.tick(i, len(to_read), path)
        _keep(extractions, skipped, path, extractor.result(path))
    # a name one source mentions once is an entity when another source names it too; an unchanged
    # source whose passing mention turns into such a name, or stops being one, is read again.
    # The registry of the previous wiki's pages (the match step's), made here: its entity index answers
    # which entity pages a recurring name has
    registry = Registry(gathered.prev)
    again, recurring = recurrence.to_read_again(gathered.prev, extractions, [] if run.full else changes.unchanged,
                                                registry.index["entity"].exact,
                                                written_names.SourceTexts(by_path))
    for path in again:
        _keep(extractions, skipped, path, extractor.extract(by_path[path]))
    refolded = _fold_people(run, gathered, changes, extractions, registry, recurring)
    if not run.full:  # read again: a one-word name of theirs now stands for someone else's page
        again = sorted(set(again) | set(refolded), key=lambda p: p.encode())
        for path in refolded:
            _keep(extractions, skipped, path, extractor.extract(by_path[path]))
    extractions = {p: recurrence.activate(ex, recurring) for p, ex in extractions.items()}
    steps.done(len(to_read), f"{len(extractions)} read, {extractor.cache_hits()} from cache")
    return Extracted(changes, skip, list(reread), to_read, extractions, again, recurring, registry, skipped,
                     refolded if run.full else [])


def _fold_people(run: PassRun, gathered: Gathered, changes: SourceChanges, extractions: dict[str, Extraction],
                 registry: Registry, recurring: set[str]) -> list[str]:
    """The base's one-word names that stand for one person (`registry.fold`, kctui.compiler.steps.people),
    from the people this pass's extractions name and those the other sources' pages record; returns the
    unchanged sources one of whose names now stands for a person whose page they do not feed."""
    prev = gathered.prev
    rest = [p for p in changes.unchanged if p not in extractions]
    registry.use_fold(people.fold_map(people.base_people(extractions, prev, rest)), people.recorded_fold(prev))
    # (and the short forms that stand for one company of the base: kctui.compiler.steps.short_names)
    registry.use_short_fold(short_names.base_fold(extractions, prev, rest, registry.fold),
                            short_names.recorded_fold(prev, registry.fold_before))
    unread = set(gathered.not_extracted)
    candidates = [p for p in changes.unchanged if p not in unread and (run.full or p not in extractions)]
    return sorted(set(people.refolded(prev, registry, candidates, recurring))
                  | set(short_names.refolded(prev, registry, candidates, recurring)), key=lambda p: p.encode())


def _not_extracted_unchanged(changes: SourceChanges, reread: list[str],
                             skip: set[str]) -> tuple[SourceChanges, list[str]]:
    """The changes and the sources to read again, with the sources not extracted (`skip`) unchanged."""
    back = [p for p in reread + changes.modified if p in skip]
    reread = [p for p in reread if p not in skip]
    changes = replace(changes, modified=[p for p in changes.modified if p not in skip],
                      unchanged=sorted(set(changes.unchanged) | set(back), key=lambda p: p.encode()))
    return changes, reread


def _keep(extractions: dict[str, Extraction], skipped: list[Skipped], path: str, result: Extraction | Skipped) -> None:
    if isinstance(result, Skipped):
        skipped.append(result)
    else:
        extractions[path] = result
