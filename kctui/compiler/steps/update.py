"""The pipeline's update step: every concept and entity page the pass touched and the source page of
every source it read is built (kctui.compiler.steps.page_update) and passes the trust gate (kctui.compiler.trust.gate)
before it is staged; source pages in the other link style are relinked; the page of a source that is
gone is retracted, or archived under a policy."""

from __future__ import annotations

from kctui.compiler.steps import output
from kctui.compiler.steps.page_update import build_source_page, build_topic_page, relink_source_page
from kctui.compiler.steps.pass_state import PassState
from kctui.compiler.steps.policy_kinds import ALL_KINDS
from kctui.compiler.trust.changes import ClaimChange, PageUpdate, PassContext
from kctui.compiler.trust.gate import TrustGate


def update(state: PassState) -> None:
    """Every touched page and every read source's page built, and each change through the trust gate."""
    request, registry, live = state.request, state.registry, state.live
    current_paths = [p for p in state.by_path if p not in state.skipped_paths]
    titles = dict(registry.titles)
    for path, ex in live.items():
        titles[registry.source_slugs[path]] = ex.title
    state.ctx = PassContext(
        created_at=request.created_at,
        generated_by=state.version,
        changed=state.changed | state.skipped_paths,
        digests={p: state.by_path[p].digest for p in current_paths},
        source_slugs={p: s for p, s in registry.source_slugs.items()
                      if p in state.by_path and p not in state.skipped_paths},
        titles=titles,
        kinds=dict(registry.kinds),
        fed=state.fed,
    )
    for slug in state.removed:
        state.ctx.kinds.pop(slug, None)
    work = sorted(state.touched) + [registry.source_slugs[p] for p in sorted(live, key=lambda p: p.encode())]
    state.steps.start("update", len(work))
    state.writer = output.PageWriter(request, state.prev, state.version)
    state.writer.link_unchanged = not state.dry_run
    state.writer.prelink = state.prelink
    gate = state.gate = TrustGate(request, state.writer, state.ctx)  # every page change below passes classify_update (trust.md §3)
    lossy = state.extractor.lossy()
    if lossy:
        # issue 8 compile-loss guard: every page a lossy source feeds (its source page and the concept
        # and entity pages it contributes to) is proposed with the flag, so the gate holds it for review
        for path, why in lossy.items():
            if path in live:
                for slug in [registry.source_slugs[path], *state.routed.get(path, {})]:
                    gate.lossy.setdefault(slug, f"{path}: {why}")
    if gate.warning:
        state.warnings.append(gate.warning)
    maintained = set(gate.policy.maintain_kinds) if gate.policy is not None else set(ALL_KINDS)
    unmaintained = sorted({s for s in state.touched if registry.kinds.get(s) not in maintained}
                          | ({registry.source_slugs[p] for p in live} if "source" not in maintained else set()))
    if unmaintained:  # the policy's maintain_kinds: the compiler never writes a page of another class
        state.warnings.append(f"{len(unmaintained)} page(s) not written (their class is not in the policy's "
                              f"maintain_kinds): {', '.join(unmaintained[:10])}{' …' if len(unmaintained) > 10 else ''}")
    _update_topic_pages(state, maintained, len(work))
    _update_source_pages(state, maintained, len(work))
    _relink_source_pages(state)
    if "source" in maintained:
        _remove_source_pages(state)
    state.steps.done(len(work))
    state.warnings += gate.edit_notes


def _update_topic_pages(state: PassState, maintained: set[str], work: int) -> None:
    registry, writer = state.registry, state.writer
    for i, slug in enumerate(sorted(state.touched), 1):
        state.steps.tick(i, work, slug)
        if registry.kinds.get(slug) not in maintained:
            continue
        previous = writer.previous_page(slug)
        old = None if previous is not None and previous.is_stub else previous  # a held create: not a page yet
        contributions = {p: c[slug] for p, c in state.routed.items() if slug in c}
        new = registry.new.get(slug)
        page, change = build_topic_page(slug, registry.kinds[slug], old, contributions, state.ctx,
                                        new.title if new else "", new.entity_type if new else "",
                                        new.domain if new else "")
        if state.gate.settle(page, change, previous):
            state.updates.append(change)


def _update_source_pages(state: PassState, maintained: set[str], work: int) -> None:
    live, writer = state.live, state.writer
    for j, path in enumerate(sorted(live, key=lambda p: p.encode()), len(state.touched) + 1):
        state.steps.tick(j, work, path)
        slug = state.registry.source_slugs[path]
        if "source" not in maintained:
            continue
        previous = writer.previous_page(slug)
        old = None if previous is not None and previous.is_stub else previous
        page, change = build_source_page(slug, live[path], old, state.ctx, list(live[path].tags))
        settled = state.gate.settle(page, change, previous)
        if change.written:
            state.claim_changes += change.changes
        if settled:
            state.updates.append(change)


def _relink_source_pages(state: PassState) -> None:
    """A source page written in the other link style, whose source did not change: only its links move."""
    prev, writer = state.prev, state.writer
    live_slugs = {state.registry.source_slugs[p] for p in state.live}
    for slug in sorted(state.restyle - live_slugs - set(state.removed)):
        if prev.pages[slug].kind == "source" and (old := writer.previous_page(slug)) is not None:
            page, change = relink_source_page(old, state.ctx)
            if state.gate.settle(page, change, writer.previous_page_copy(slug)):
                state.updates.append(change)


def _remove_source_pages(state: PassState) -> None:
    """The source page of a deleted (or now unreadable) source: retracted, or archived under a policy."""
    prev, gate = state.prev, state.gate
    for slug in state.removed:
        old = state.writer.previous_page(slug)
        path = prev.pages[slug].sources[0][0] if prev.pages[slug].sources else slug
        gone = [ClaimChange("retracted", path, c.subject, c.attribute, c.scope, c.value, "") for c in (old.claims if old else [])]
        if gate.gated and old is None:
            state.warnings.append(f"{path}: its source page could not be read back; it is kept as it is")
            continue
        change = gate.remove(slug, old, gone) if old is not None else PageUpdate(
            slug, "source", prev.pages[slug].title, "remove", 0, 0, len(gone), gone)
        state.updates.append(change)
        if change.written:
            state.claim_changes += gone
            state.removed_now.append(slug)
