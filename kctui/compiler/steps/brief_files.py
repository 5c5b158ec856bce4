"""What a pass writes beside its staged wiki: the review manifest (`<job>/review.json`) and the change
brief (`<job>/brief.md`), with the brief's data gathered from the pass's result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from kctui.atomic_write import write_atomically
from kctui.compiler.steps.output import write_file
from kctui.compiler.steps.renames import read_anew
from kctui.compiler.trust.policy import policy_of
from kctui.core.brief import (
    BriefClaimChange,
    BriefConflict,
    BriefData,
    BriefHeld,
    BriefPage,
    BriefStale,
    render_brief,
)
from kctui.core.pages import citation
from kctui.core.trust import REASON_WORDS

if TYPE_CHECKING:
    from kctui.compiler.contract import CompileRequest
    from kctui.compiler.extraction import Extraction
    from kctui.compiler.steps.pass_result import PassResult


def write_manifest(output_path: Path, items: list[dict] | None, extras: dict | None = None) -> None:
    """`<job>/review.json` beside the staged wiki (kctui.services.review): the held updates
    and conflicts of a pass under a trust policy, sorted, with `extras` (settled pages, closed
    conflicts); None (no policy) removes a stale one."""
    target = Path(output_path).parent / "review.json"
    if items is None:
        if target.is_file() and not target.is_symlink():
            target.unlink()
        return
    ordered = sorted(items, key=lambda it: (it["page"], it["kind"], it.get("fingerprint", "")))
    data = json.dumps({"version": 1, "items": ordered, **(extras or {})}, sort_keys=True, ensure_ascii=False,
                      indent=1) + "\n"
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_symlink():
        target.unlink()
    write_file(target, data.encode("utf-8"))


def brief_data(request: CompileRequest, version: str, result: PassResult, live: dict[str, Extraction],
               dropped_links: list[str], warnings: list[str], timings: list[tuple[str, float]]) -> BriefData:
    ch = result.changes
    moved_from, moved_to = {a for a, _ in ch.renamed}, {b for _, b in ch.renamed}  # listed once, as renamed
    return BriefData(
        job_id=request.job_id,
        trigger=request.trigger,
        created_at=request.created_at,
        source_digest=request.source_digest,
        compiler=version,
        added=[p for p in ch.added if p not in moved_to],
        modified=list(ch.modified),
        deleted=[p for p in ch.deleted if p not in moved_from],
        renamed=list(ch.renamed),
        unchanged=len(ch.unchanged),
        pages=_brief_pages(result),
        refreshed=sum(1 for u in result.updates if u.kind == "refresh" and u.written),
        claim_changes=[BriefClaimChange(c.change, c.path, c.subject, c.attribute, c.scope, c.old, c.new)
                       for c in result.claim_changes],
        conflicts=_brief_conflicts(result),
        skipped=[(s.path, s.reason, s.detail) for s in result.skipped],
        skipped_before=result.skipped_before,
        warnings=[w for w in warnings if ": skipped (" not in w],
        links_dropped=dropped_links,
        unreached=_unreached(read_anew(live, list(ch.renamed))),
        dropped_claims=sum(ex.dropped for ex in live.values()),
        timings=timings,
        cache_hits=result.cache_hits,
        policy=_policy_words(request),
        held=_brief_held(result),
        stale=[BriefStale(x.page_class, x.slug, x.title, x.stale_after) for x in result.stale],
        reread=len(result.reread),
        held_items=sum(1 for it in result.review_items if it.get("kind") == "held"),
        outputs_stale=[(x.path, x.question, x.reasons) for x in result.outputs_stale],
    )


def _brief_pages(result: PassResult) -> list[BriefPage]:
    """The pages the pass wrote, a refresh aside (the brief counts those)."""
    return [BriefPage(u.page_class, u.slug, u.title, u.kind, u.added, u.revised, u.retracted)
            for u in result.updates if u.kind != "refresh" and u.written]


_TRUST_KIND = {"refresh": "append", "remove": "supersede"}  # the kind of change a policy sees (gate.TRUST_KIND)


def _brief_held(result: PassResult) -> list[BriefHeld]:
    return [BriefHeld(u.page_class, u.slug, u.title, _TRUST_KIND.get(u.kind, u.kind), u.reason or "",
                      REASON_WORDS.get(u.reason or "", u.reason or "")) for u in result.held]


def _brief_conflicts(result: PassResult) -> list[BriefConflict]:
    return [BriefConflict(c.page_class, c.slug, c.title, c.attribute, c.scope,
                          tuple((x.value, citation(x.evidence)) for x in c.claims)) for c in result.conflicts]


def _unreached(live: dict[str, Extraction]) -> list[tuple[str, int, tuple[str, ...]]]:
    """Per source (in path order) with lines its extraction did not reach: how many, and the first five."""
    return [(p, len(ex.unreached), ex.unreached[:5]) for p, ex in sorted(live.items()) if ex.unreached]


def _policy_words(request: CompileRequest) -> str | None:
    policy, _ = policy_of(getattr(request, "trust_policy", None))
    if policy is None:
        return None
    guards = f", never-auto {', '.join(g.text() for g in policy.never_auto)}" if policy.never_auto else ""
    return (f"autonomy `{policy.autonomy}`{'' if policy.enabled else ' (compilation disabled)'}, "
            f"min confidence {policy.min_confidence:g}, stale after {policy.stale_days} days{guards}")


def write_brief(output_path: Path, brief: BriefData) -> str:
    text = render_brief(brief)
    target = Path(output_path).parent / "brief.md"
    try:
        write_atomically(target, text, durable=False)
    except OSError:
        pass  # the brief is also returned in the report
    return text
