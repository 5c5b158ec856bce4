"""Which unchanged sources a pass reads again as if they had changed: a source whose page another
compiler version wrote, and, in a full pass, one whose fresh extraction no longer matches what its
source page records."""

from __future__ import annotations

from dataclasses import replace

from kctui.compiler.extraction import Extraction
from kctui.compiler.previous.wiki import PreviousWiki
from kctui.compiler.steps.registry import Registry, routing_matches
from kctui.compiler.steps.results import SourceChanges
from kctui.core.pages import parse_page
from kctui.core.slugs import identity_key


def recompile_other_versions(prev: PreviousWiki, changes: SourceChanges, version: str) -> SourceChanges:
    """A source whose page another compiler, version, extractor or model wrote is read again, as if it
    had changed."""
    pages_of = prev.source_page_of()
    stale = [p for p in changes.unchanged if prev.pages[pages_of[p]].generated_by != version]
    if not stale:
        return changes
    return replace(changes, unchanged=[p for p in changes.unchanged if p not in set(stale)],
                   modified=sorted(changes.modified + stale, key=lambda p: p.encode()))


def verify_unchanged(prev: PreviousWiki, registry: Registry, changes: SourceChanges,
                     extractions: dict[str, Extraction],
                     refolded: set[str] = frozenset()) -> tuple[SourceChanges, dict[str, Extraction]]:  # type: ignore[assignment]
    """Full pass: an unchanged source whose fresh extraction differs from what its source page records
    (another compiler version, a lost page), or one of whose names now stands for a person whose page it
    does not feed (`refolded`, kctui.compiler.steps.people), is treated as modified; otherwise its fresh extraction is
    set aside and the previous wiki stands, exactly as in an incremental pass. Returns the new changes
    and extractions (the ones given are left as they were)."""
    source_page_of = prev.source_page_of()
    keep: list[str] = []
    modified = list(changes.modified)
    extractions = dict(extractions)
    for path in changes.unchanged:
        ex = extractions.get(path)
        slug = source_page_of.get(path)
        same = False
        if ex is not None and slug is not None and path not in refolded:
            old = parse_page(prev.raw[slug].decode("utf-8"), slug)
            recorded = {s for s in prev.pages[slug].links if registry.kinds.get(s) in ("concept", "entity")}
            same = old.is_stub or (  # a held create: this very content is already proposed
                old.title == ex.title
                and _claim_sig(old.claims) == _claim_sig(ex.claims)
                and old.summary == ex.summary
                and old.questions == ex.questions
                and routing_matches(ex, registry, recorded)
                and _elsewhere(ex) == sorted(prev.pages[slug].recurring)
            )
        if same:
            keep.append(path)
            extractions.pop(path, None)
        elif ex is not None:
            modified.append(path)
    modified.sort(key=lambda p: p.encode())
    return replace(changes, modified=modified, unchanged=keep), extractions


def _elsewhere(ex: Extraction) -> list[str]:
    """The passing mentions of a (maybe activated) extraction that another source names too, as its
    source page records them (`mentioned_elsewhere`, kctui.compiler.steps.recurrence): a name that
    stopped recurring when the other source went ("x4400" of two notes, one removed) must leave the page
    in a full pass as in an incremental one."""
    named = {identity_key(e.name) for e in ex.entities}
    return sorted({e.name for e in ex.passing if identity_key(e.name) in named})


def _claim_sig(claims) -> list:  # noqa: ANN001
    """Comparable whatever the claims: the same claim may stand twice, cited at two places (Evidence
    itself has no order)."""
    return sorted((c.claim_id, c.subject, c.attribute, c.value, c.scope, c.form,
                   (c.evidence.path, c.evidence.start, c.evidence.end, c.evidence.digest, c.evidence.unit))
                  for c in claims)

