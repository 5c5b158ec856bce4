"""The flag step: pages gone stale, links that no longer resolve, and the conflicts this pass opened."""

from __future__ import annotations

from kctui.compiler.steps.results import Flagged, PassRun, Updated
from kctui.compiler.trust.stale import mark_stale


def flag(run: PassRun, updated: Updated) -> Flagged:
    steps, writer, gate = run.steps, updated.writer, updated.gate
    final = writer.finish(updated.removed_now, updated.ctx)
    steps.start("flag", len(final))
    stale = (mark_stale(writer, final, gate.fresh, run.request.created_at, gate.policy.stale_days, steps.tick)
             if gate.policy is not None else [])
    steps.tick(len(final), len(final), "links")
    dropped_links = writer.check_links(final)
    conflicts = gate.conflicts if gate.gated else [c for u in updated.updates for c in u.conflicts_opened]
    archived = sum(1 for u in updated.updates if u.kind == "supersede" and u.written)
    steps.done(len(final), f"{len(conflicts)} conflicts opened, {len(gate.held)} updates held, "
                           f"{len(stale)} pages gone stale, {archived} pages archived")
    return Flagged(final, stale, dropped_links, conflicts)
