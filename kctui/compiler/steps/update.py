"""The pipeline's update step: every concept and entity page the pass touched and the source page of
every source it read is built (kctui.compiler.steps.page_update) and passes the trust gate (kctui.compiler.trust.gate)
before it is staged; source pages in the other link style are relinked; the page of a source that is
gone is retracted, or archived under a policy."""

from __future__ import annotations

from dataclasses import dataclass, field

from kctui.compiler.steps import output
from kctui.compiler.steps.page_update import build_source_page, build_topic_page, relink_source_page
from kctui.compiler.steps.policy_kinds import ALL_KINDS
from kctui.compiler.steps.renames import moved_page, moved_source_page, moves_of, read_anew
from kctui.compiler.steps.results import Gathered, Matched, PassRun, Updated
from kctui.compiler.trust.changes import ClaimChange, PageUpdate, PassContext
from kctui.compiler.trust.decided_pages import base_records
from kctui.compiler.trust.gate import TrustGate


def update(run: PassRun, gathered: Gathered, matched: Matched) -> Updated:
    """Every touched page and every read source's page built, and each change through the trust gate."""
    request, registry, live = run.request, matched.registry, matched.live
    ctx = _context(run, gathered, matched)
    work = sorted(matched.touched) + [registry.source_slugs[p] for p in sorted(live, key=lambda p: p.encode())]
    run.steps.start("update", len(work))
    writer = output.PageWriter(request, gathered.prev, gathered.version)
    writer.link_unchanged = not run.dry_run
    writer.prelink = run.store.prelink
    gate = TrustGate(request, writer, ctx)  # every page change below passes classify_update (trust.md §3)
    gate.decisions = base_records(e for info in gathered.prev.pages.values() for e in info.decided)
    u = _Building(run, gathered, matched, ctx, writer, gate,
                  moves=_moves(gathered, matched, writer, gate))
    _mark_lossy(gathered, matched, gate)
    if gate.warning:
        u.warnings.append(gate.warning)
    maintained = set(gate.policy.maintain_kinds) if gate.policy is not None else set(ALL_KINDS)
    u.warnings += _unmaintained_warnings(matched, maintained)
    _update_topic_pages(u, maintained, len(work))
    _update_source_pages(u, maintained, len(work))
    _relink_source_pages(u)
    if "source" in maintained:
        _remove_source_pages(u)
    run.steps.done(len(work))
    u.warnings += gate.edit_notes
    return Updated(ctx, writer, gate, u.updates, u.claim_changes, u.removed_now, u.warnings)


def _context(run: PassRun, gathered: Gathered, matched: Matched) -> PassContext:
    """What every page built in this pass is built against: the current sources, their pages, the titles."""
    registry, by_path = matched.registry, gathered.by_path
    current_paths = [p for p in by_path if p not in matched.skipped_paths]
    titles = dict(registry.titles)
    for path, ex in matched.live.items():
        titles[registry.source_slugs[path]] = ex.title
    ctx = PassContext(
        created_at=run.request.created_at,
        generated_by=gathered.version,
        changed=matched.changed | matched.skipped_paths,
        digests={p: by_path[p].digest for p in current_paths},
        source_slugs={p: s for p, s in registry.source_slugs.items() if p in by_path and p not in matched.skipped_paths},
        titles=titles,
        kinds=dict(registry.kinds),
        fed=matched.fed,
    )
    for slug in matched.removed:
        ctx.kinds.pop(slug, None)
    return ctx


def _mark_lossy(gathered: Gathered, matched: Matched, gate: TrustGate) -> None:
    """Issue 8's compile-loss guard: every page a lossy source feeds (its source page and the concept and
    entity pages it contributes to) is proposed with the flag, so the gate holds it for review. A source
    renamed with its bytes unchanged lost nothing (`read_anew`)."""
    for path, why in read_anew(gathered.extractor.lossy() or {}, list(matched.changes.renamed)).items():
        if path in matched.live:
            for slug in [matched.registry.source_slugs[path], *matched.routed.get(path, {})]:
                gate.lossy.setdefault(slug, f"{path}: {why}")


def _unmaintained_warnings(matched: Matched, maintained: set[str]) -> list[str]:
    """The policy's maintain_kinds: the compiler never writes a page of another class (one warning)."""
    registry = matched.registry
    unmaintained = sorted({s for s in matched.touched if registry.kinds.get(s) not in maintained}
                          | ({registry.source_slugs[p] for p in matched.live} if "source" not in maintained else set()))
    if not unmaintained:
        return []
    return [f"{len(unmaintained)} page(s) not written (their class is not in the policy's "
            f"maintain_kinds): {', '.join(unmaintained[:10])}{' …' if len(unmaintained) > 10 else ''}"]


@dataclass(repr=False, eq=False)
class _Building:
    """The update step's own work in progress (what it hands on is the frozen `Updated`)."""

    run: PassRun
    gathered: Gathered
    matched: Matched
    ctx: PassContext
    writer: output.PageWriter
    gate: TrustGate
    updates: list[PageUpdate] = field(default_factory=list)
    claim_changes: list[ClaimChange] = field(default_factory=list)
    removed_now: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    moves: dict[str, str] = field(default_factory=dict)  # a renamed source, same bytes: old path -> new


def _update_topic_pages(state: _Building, maintained: set[str], work: int) -> None:
    registry, writer, m = state.matched.registry, state.writer, state.matched
    by_page: dict[str, dict] = {}  # slug -> path -> its contribution, in the sources' order (made once, not per page)
    for path, routed in m.routed.items():
        for slug, contribution in routed.items():
            by_page.setdefault(slug, {})[path] = contribution
    for i, slug in enumerate(sorted(m.touched), 1):
        state.run.steps.tick(i, work, slug)
        if registry.kinds.get(slug) not in maintained:
            continue
        previous = moved_page(writer.previous_page(slug), state.moves, state.ctx.source_slugs)
        old = None if previous is not None and previous.is_stub else previous  # a held create: not a page yet
        contributions = by_page.get(slug) or {}
        new = registry.new.get(slug)
        page, change = build_topic_page(slug, registry.kinds[slug], old, contributions, state.ctx,
                                        new.title if new else "", new.entity_type if new else "",
                                        new.domain if new else "")
        if state.gate.settle(page, change, previous):
            state.updates.append(change)


def _update_source_pages(state: _Building, maintained: set[str], work: int) -> None:
    live, writer = state.matched.live, state.writer
    for j, path in enumerate(sorted(live, key=lambda p: p.encode()), len(state.matched.touched) + 1):
        state.run.steps.tick(j, work, path)
        slug = state.matched.registry.source_slugs[path]
        if "source" not in maintained:
            continue
        previous = writer.previous_page(slug) or _renamed_from(state, path, slug)
        old = None if previous is not None and previous.is_stub else previous
        page, change = build_source_page(slug, live[path], old, state.ctx, list(live[path].tags))
        settled = state.gate.settle(page, change, previous)
        if change.written:
            state.claim_changes += change.changes
        if settled:
            state.updates.append(change)


def _moves(gathered: Gathered, matched: Matched, writer: output.PageWriter, gate: TrustGate) -> dict[str, str]:
    """The renamed sources whose pages move with them (renames.py), old path -> new path."""
    slugs = gathered.prev.source_page_of()
    return moves_of(matched.changes.renamed, set(matched.live), gate.policy,
                    lambda path: writer.previous_page(slugs[path]) if path in slugs else None)


def _renamed_from(state: _Building, path: str, slug: str):  # noqa: ANN202 - Page | None
    """A renamed source's new page starts from the old one's, its citations moved (renames.py)."""
    old_path = next((o for o, n in state.moves.items() if n == path), None)
    old_slug = state.gathered.prev.source_page_of().get(old_path or "")
    if old_path is None or old_slug is None or old_slug == slug:
        return None
    return moved_source_page(state.writer.previous_page(old_slug), old_path, path, slug, state.ctx.created_at)


def _relink_source_pages(state: _Building) -> None:
    """A source page written in the other link style, whose source did not change: only its links move."""
    prev, writer, m = state.gathered.prev, state.writer, state.matched
    live_slugs = {m.registry.source_slugs[p] for p in m.live}
    for slug in sorted(m.restyle - live_slugs - set(m.removed)):
        if prev.pages[slug].kind == "source" and (old := writer.previous_page(slug)) is not None:
            page, change = relink_source_page(old, state.ctx)
            if state.gate.settle(page, change, writer.previous_page_copy(slug)):
                state.updates.append(change)


def _remove_source_pages(state: _Building) -> None:
    """The source page of a deleted (or now unreadable) source: retracted, or archived under a policy."""
    prev, gate = state.gathered.prev, state.gate
    for slug in state.matched.removed:
        old = state.writer.previous_page(slug)
        path = prev.pages[slug].sources[0][0] if prev.pages[slug].sources else slug
        gone = [ClaimChange("retracted", path, c.subject, c.attribute, c.scope, c.value, "") for c in (old.claims if old else [])]
        if path in state.moves and old is not None:  # renamed: its page moved with it (_renamed_from)
            state.updates.append(PageUpdate(slug, "source", old.title, "remove", 0, 0, 0, []))
            state.removed_now.append(slug)
            continue
        if gate.gated and old is None:
            state.warnings.append(f"{path}: its source page could not be read back; it is kept as it is")
            continue
        change = gate.remove(slug, old, gone) if old is not None else PageUpdate(
            slug, "source", prev.pages[slug].title, "remove", 0, 0, len(gone), gone)
        state.updates.append(change)
        if change.written:
            state.claim_changes += gone
            state.removed_now.append(slug)
