"""The trust boundary inside a pass (trust.md §3–§4): every page change the update step builds goes
through `classify_update` before anything is written to the staged wiki.

- apply: the new page is written.
- hold(reason): the staged page keeps its current body, marked `needs-review` (a contradicted page
  keeps that worse flag; a confirmed page keeps its `verified` sign-off); a held create is a stub that
  keeps links resolvable. The exact page that would have been written goes to `review.json`.
- conflict: the page is `contradicted` and shows both values with their citations; `review.json`
  gets both sides and the page as it reads with the new value.

Statements people and agents wrote on a page (issue 15, `kctui.compiler.trust.page_edits`) are re-checked
first: one its changed source no longer supports flags the page and files one conflict.

Without a policy (`CompileRequest.trust_policy is None`: a bare compile outside any host) every change
is written, as the compiler's own mechanics; every host path passes one (see `runner.CompileRequest`).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

from kctui.compiler.trust.change_sets import change_sets
from kctui.compiler.trust.changes import (
    ARCHIVED_SOURCE_KEY,
    ClaimChange,
    ConflictReport,
    PageUpdate,
    PassContext,
    claim_order,
    drop_kept_changes,
)
from kctui.compiler.trust.decided_pages import mark_page
from kctui.compiler.trust.disputes import Dispute, open_fingerprints, use_new_variant
from kctui.compiler.trust.kept import cited_lines
from kctui.compiler.trust.kept import recheck as recheck_kept
from kctui.compiler.trust.page_edits import conflict_item, decide_edit, mark_disputed, recheck_edits
from kctui.compiler.trust.policy import policy_of
from kctui.compiler.trust.sources import PENDING
from kctui.core.claims import Claim, citation, claim_line
from kctui.core.clock import US, parse_rfc3339, rfc3339
from kctui.core.decided_values import CLAIMS_KEY
from kctui.core.page_edits import DISPUTE_PREFIX, disputed_ids, edit_entries
from kctui.core.page_status import (
    conflict_note,
    page_compile_status,
    render_page,
    same_content,
    set_page_status,
    split_page,
)
from kctui.core.pages import STUB_KEY, Page, claim_sig, kept_entries, kept_match
from kctui.core.record_tables import implode
from kctui.core.trust import REASON_WORDS, PageState, ProposedUpdate, classify_update

TRUST_KIND = {"create": "create", "append": "append", "revise": "revise", "supersede": "supersede",
              "refresh": "append", "remove": "supersede"}  # refresh: links or citations moved, nothing removed
FRESH = frozenset({"create", "append", "revise"})  # updates that bring new evidence


def cited_text(source_root: Path, claim: Claim, limit: int = 4000) -> str:
    """The cited lines of a claim's source (for a reviewer), read as `kept.cited_lines` reads them: empty
    for a PDF page, a file that cannot be read, or a path out of sources/ (a symlink is never followed)."""
    ev = claim.evidence
    if ev.unit != "line":
        return ""
    lines = cited_lines(source_root, ev.path, ev.start, ev.end)
    return "\n".join(lines)[:limit] if lines is not None else ""


def _side(source_root: Path, claim: Claim) -> dict[str, str]:
    return {"value": claim.value[:4000], "citation": citation(claim.evidence)[2:-1], "source": claim.evidence.path,
            "line": cited_text(source_root, claim)}


def held_note(kind: str, reason: str | None) -> str:
    return f"a {kind} of this page waits for review: {REASON_WORDS.get(reason or '', reason or 'held')}"


def summary_of(update: PageUpdate) -> str:
    what = {"create": f"create the {update.page_class} page", "append": "add to the page",
            "revise": "change what the page says", "supersede": "archive the page (no evidence is left)",
            "refresh": "refresh the page's links and citations",
            "remove": "archive the page (its source file was deleted)"}[update.kind]
    parts = [f"{update.title}: {what}; {update.added} claims added, {update.revised} revised, "
             f"{update.retracted} retracted"]
    for ch in [c for c in update.changes if c.change != "added"][:3]:
        scope = f" ({ch.scope})" if ch.scope else ""
        tail = f"{ch.old} → {ch.new}" if ch.change == "revised" else f"{ch.old} withdrawn"
        parts.append(f"{ch.subject}{scope} {ch.attribute}: {tail}")
    return "; ".join(parts)[:4000]


class TrustGate:
    def __init__(self, request: Any, writer: Any, ctx: PassContext) -> None:
        self.policy, self.warning = policy_of(getattr(request, "trust_policy", None))
        self.writer, self.ctx = writer, ctx
        self.source_root = Path(request.source_path)
        self.filed: list[dict[str, Any]] = []  # one per page, in order; `items` groups them into change sets
        self.causes: list[set[str]] = []  # per filed item: the source paths whose change it carries
        self.held: list[PageUpdate] = []
        self.conflicts: list[ConflictReport] = []
        self.fresh: set[str] = set()
        self.settled: set[str] = set()  # pages proposed again in full: their earlier held items are replaced
        self.closed: set[tuple[str, str]] = set()  # (page, fingerprint) of disagreements no longer there
        # slug -> why: pages fed by a source the model-backed extractor lost facts of (issue 8's
        # compile-loss guard); their updates carry `compile_loss` and are held for review
        self.lossy: dict[str, str] = {}
        self.stale_after = ""
        self.edit_notes: list[str] = []  # for the brief: statements people wrote that a source now disputes
        self.decisions: list[dict[str, Any]] = []  # a person's decisions on conflicts (kctui.core.decided_values)
        if self.policy is not None:
            self.stale_after = rfc3339(parse_rfc3339(ctx.created_at) + self.policy.stale_days * 86_400 * US) or ""

    @property
    def gated(self) -> bool:
        return self.policy is not None

    # -- one proposed change -------------------------------------------------------------------

    def settle(self, page: Page, update: PageUpdate, previous: Page | None) -> PageUpdate | None:
        """`_settle`, with the statements people and agents wrote on the page re-checked first (issue
        15): one that its changed source no longer supports flags the page and opens a conflict."""
        if self.policy is None or not edit_entries(page.extra):
            return self._settle(page, update, previous)
        disputed = recheck_edits(page, self.ctx.digests, self.source_root)
        if disputed_ids(edit_entries(page.extra)) and page.compile_status != "archived":
            page.compile_status = "contradicted"
        result = self._settle(page, update, previous)
        if disputed:
            staged = self.writer.current_text(page.slug) or ""
            marked = mark_disputed(staged, disputed)
            if marked != staged:
                self.writer.put_text(page.slug, page.kind, marked)
            for entry in disputed:
                proposed = decide_edit(marked, f"{DISPUTE_PREFIX}{entry.get('id')}", "use_new") or marked
                self.filed.append(conflict_item(page.rel_path, page.title, entry, proposed))
                self.causes.append(set())
                self.edit_notes.append(f"{page.rel_path}: `{entry.get('source')}` no longer says what "
                                       f"{entry.get('by')} wrote (“{str(entry.get('text'))[:120]}”); "
                                       "a conflict waits for a person")
        return result

    def _settle(self, page: Page, update: PageUpdate, previous: Page | None) -> PageUpdate | None:
        """Decide and write one built page. `previous` is the page as the previous wiki has it (a stub
        included). Returns the update when the page changed (None: the previous bytes stand)."""
        old = _not_stub(previous)
        if self.decisions or CLAIMS_KEY in page.extra:
            mark_page(page, self.decisions)  # a person's decisions on conflicts flag every page stating their values
        if self.policy is None:
            return update if self.writer.put(page, old, self.ctx) else None
        self._proposed_in_full(page, previous)
        if recheck_kept(page, old, self.ctx.digests, self.source_root, self.ctx.changed) and old is not None:
            self.writer.keep(old, None)  # only the change a person decided against: the page stands
            return None
        drop_kept_changes(update, kept_entries(page.extra))  # what a person kept is not proposed again
        self.closed |= {(page.rel_path, fp) for fp in open_fingerprints(previous) - open_fingerprints(page)}
        fresh = self._freshen(page, update, old)
        text = self.writer.render(page, old, self.ctx)
        if text is None:
            self.writer.keep(page, None)
            return None
        if self._only_flag_changes(page, previous, text):
            self.writer.keep(page, text)  # the proposal that waited is gone: only the page's flag changes
            return None
        self._decide(page, update, previous, text, fresh)
        return update

    def _proposed_in_full(self, page: Page, previous: Page | None) -> None:
        """A page whose proposal waited for review: its sources were all read again (pipeline:
        pending_sources), so this is the whole proposal: it replaces any held one waiting, and the page's
        flag follows from this decision alone."""
        if previous is None or previous.compile_status not in PENDING:
            return
        self.settled.add(page.rel_path)
        if page.compile_status == "needs-review":
            page.compile_status = "confirmed" if previous.human_confirmed else "compiled"

    def _freshen(self, page: Page, update: PageUpdate, old: Page | None) -> bool:
        """Whether the update brings new evidence (a source read again, say): its freshness clock restarts;
        without, a stale page stays stale."""
        fresh = update.kind in FRESH or (old is not None and _refs(page) != _refs(old))
        if fresh:
            page.extra["stale_after"] = self.stale_after
        elif old is not None and old.compile_status == "stale" and page.compile_status in ("compiled", "confirmed"):
            page.compile_status = "stale"  # nothing new: it stays stale
        return fresh

    def _only_flag_changes(self, page: Page, previous: Page | None, text: str) -> bool:
        """The page waited for review, and the proposal reads as the page does now."""
        return (previous is not None and previous.compile_status == "needs-review" and not previous.is_stub
                and same_content(text, self.writer.current_text(page.slug) or ""))

    def _decide(self, page: Page, update: PageUpdate, previous: Page | None, text: str, fresh: bool) -> None:
        """The policy's decision on the change (trust.md §3), and its outcome written."""
        old = _not_stub(previous)
        state = PageState(exists=old is not None, page_class=page.kind, title=old.title if old else page.title,
                          tags=tuple(old.tags) if old else (), human_confirmed=bool(old and old.human_confirmed),
                          compile_status=old.compile_status if old else "compiled")
        proposal = ProposedUpdate(kind=TRUST_KIND[update.kind], confidence=_confidence(page, old),
                                  contradicts=bool(update.conflicts_opened), title=page.title, tags=tuple(page.tags),
                                  compile_loss=page.slug in self.lossy)
        decision = classify_update(proposal, state, self.policy)
        update.decision, update.reason = decision.action, decision.reason
        if decision.action == "apply":
            self._applied(page, update, text, fresh)
        elif decision.action == "hold":
            self._hold(page, update, previous, state)
        else:
            self._contradicted(page, update, previous, text, fresh, state, proposal)

    def remove(self, slug: str, previous: Page, gone: list[ClaimChange]) -> PageUpdate:
        """A source page whose file was deleted (or can no longer be read): no policy removes it; under
        one, archiving it is a supersede — always held."""
        path = previous.sources[0].resource if previous.sources else slug
        update = PageUpdate(slug, "source", previous.title, "remove", 0, 0, len(gone), gone)
        if self.policy is None:
            return update
        kept = kept_entries(previous.extra)
        if previous.claims and all(any(kept_match(e, c) and not e.get("seen") for e in kept) for c in previous.claims):
            update.written = False  # a person kept this page after its file was deleted: not asked again
            return update
        if previous.compile_status in PENDING:
            self.settled.add(previous.rel_path)
        archived = copy.deepcopy(previous)
        archived.claims, archived.summary, archived.questions, archived.links = [], None, [], {}
        archived.sources, archived.compile_status = [], "archived"
        archived.extra = {k: v for k, v in archived.extra.items() if k != STUB_KEY}
        archived.extra[ARCHIVED_SOURCE_KEY] = path
        archived.description = f"{previous.title} (archived: its source file `{path}` was deleted)."
        archived.history = list(archived.history) + [
            f"* {self.ctx.created_at}: archived: `{path}` was deleted or can no longer be read; "
            f"its {len(gone)} claims are retracted."]
        state = PageState(True, "source", previous.title, tuple(previous.tags), previous.human_confirmed,
                          previous.compile_status)
        decision = classify_update(ProposedUpdate(kind="supersede", title=previous.title), state, self.policy)
        update.decision, update.reason = decision.action, decision.reason
        proposed = self.writer.render(archived, None, self.ctx) or ""
        update.written = False
        self.writer.put_text(slug, "source", self._held_text(previous, update))
        self._file_held(previous.rel_path, update, proposed, {path})
        return update

    # -- the three outcomes --------------------------------------------------------------------

    def _applied(self, page: Page, update: PageUpdate, text: str, fresh: bool) -> None:
        self.writer.keep(page, text)
        if fresh:
            self.fresh.add(page.slug)

    def _hold(self, page: Page, update: PageUpdate, previous: Page | None, state: PageState) -> None:
        proposed = copy.deepcopy(page)
        if proposed.compile_status in ("needs-review", "stale"):
            proposed.compile_status = "confirmed" if state.human_confirmed else "compiled"
        text = self.writer.render(proposed, None, self.ctx) or ""
        update.written = False
        if previous is None or previous.is_stub:
            stub = _stub(page)
            self.writer.keep(stub, self.writer.render(stub, previous, self.ctx))
        else:
            self.writer.put_text(page.slug, page.kind, self._held_text(previous, update))
        self._file_held(page.rel_path, update, text, self._causes(page, update))

    def _contradicted(self, page: Page, update: PageUpdate, previous: Page | None, text: str, fresh: bool,
                      state: PageState, proposal: ProposedUpdate) -> None:
        """A change that opens a dispute: the rest of it applied when it would be on its own, else the page
        shown contradicted and the rest filed for its own decision; the dispute filed either way."""
        rest = classify_update(replace(proposal, contradicts=False), state, self.policy)
        if rest.applies:
            self._applied(page, update, text, fresh)
        else:
            update.written = False
            shown = self._contradicted_text(page, previous)
            self.writer.put_text(page.slug, page.kind, shown)
            if _not_stub(previous) is not None and not same_content(text, shown):
                # the rest of the change waits for its own decision (never published by resolving
                # the dispute: issue 13 problem 2)
                update.reason = rest.reason
                self._file_held(page.rel_path, update, text, self._causes(page, update))
        self._conflicts(page, update, state)

    def _causes(self, page: Page, update: PageUpdate) -> set[str]:
        """The sources whose change the update carries: those its claim changes come from; else (links or
        mentions moved) the changed sources it cites. Not every changed source a page cites: two unrelated
        changes would be one review item because one page cites both (QA session 31, problem 10)."""
        return {ch.path for ch in update.changes} or ({s.resource for s in page.sources} & self.ctx.changed)

    def _file_held(self, rel: str, update: PageUpdate, proposed: str, causes: set[str]) -> None:
        self.held.append(update)
        summary = summary_of(update)
        if update.reason == "compile_loss" and update.slug in self.lossy:
            summary = f"{summary}; {self.lossy[update.slug]}"[:4000]
        self.filed.append({"kind": "held", "page": rel, "title": update.title, "updateKind": TRUST_KIND[update.kind],
                           "reason": update.reason, "summary": summary, "proposedBody": proposed})
        self.causes.append(set(causes) or {rel})

    @property
    def items(self) -> list[dict[str, Any]]:
        """What review.json lists: every conflict, and the held pages grouped into change sets — the pages
        one source change (or one deleted folder) revises are one item, decided as a whole."""
        return change_sets(self.filed, self.causes, self.source_root)

    def _held_text(self, previous: Page, update: PageUpdate) -> str:
        # a renamed source's page has no live text at its new slug yet: the old page, its citations moved
        # (steps/renames.py), is what stands while the change waits
        text = self.writer.current_text(previous.slug) or self.writer.render(previous, None, self.ctx) or ""
        if page_compile_status(text) == "contradicted":
            return text  # the worse flag stays
        return set_page_status(text, "needs-review", note=held_note(TRUST_KIND[update.kind], update.reason))

    def _contradicted_text(self, page: Page, previous: Page | None) -> str:
        """The page's current body (or a stub) marked contradicted, showing every open disagreement."""
        if previous is None or previous.is_stub:
            stub = _stub(page)
            text = self.writer.render(stub, previous, self.ctx) or self.writer.current_text(page.slug) or ""
        else:
            text = self.writer.current_text(page.slug) or ""
        fm, body = split_page(text)
        known = {str(s.get("resource")) for s in fm.get("sources") or [] if isinstance(s, dict)}
        for c in page.disputed + [g[0] for g in page.conflicts]:
            if c.evidence.path not in known:
                known.add(c.evidence.path)
                fm.setdefault("sources", []).append({"id": self.ctx.source_slugs.get(c.evidence.path, ""),
                                                     "resource": c.evidence.path,
                                                     "digest": self.ctx.digests.get(c.evidence.path, "")})
        lines = [claim_line(c) for group in page.conflicts for c in group]
        body = implode(body, lines)  # a disputed value leaves its record table for its own line
        return set_page_status(render_page(fm, body), "contradicted", note=conflict_note(len(page.conflicts)),
                               claim_lines=lines)

    def _conflicts(self, page: Page, update: PageUpdate, state: PageState) -> None:
        for report in update.conflicts_opened:
            d: Dispute = report.dispute  # type: ignore[assignment]
            variant = use_new_variant(page, d, self.ctx.created_at, self.ctx.digests, self.ctx.source_slugs)
            variant.claims.sort(key=claim_order)
            variant.compile_status = ("contradicted" if variant.conflicts else
                                      "confirmed" if state.human_confirmed else "compiled")
            proposed = self.writer.render(variant, None, self.ctx) or ""
            scope = f" ({d.existing.scope})" if d.existing.scope else ""
            self.conflicts.append(report)
            self.causes.append(set())
            self.filed.append({
                "kind": "conflict", "page": page.rel_path, "title": page.title, "updateKind": TRUST_KIND[update.kind],
                "reason": "contradiction", "fingerprint": d.fingerprint,
                "summary": f"{d.existing.subject}{scope} {d.existing.attribute}: {d.existing.value} "
                           f"(`{d.existing.evidence.path}`) vs {d.incoming.value} (`{d.incoming.evidence.path}`)",
                "proposedBody": proposed,
                "existing": _side(self.source_root, d.existing), "incoming": _side(self.source_root, d.incoming)})


def _not_stub(previous: Page | None) -> Page | None:
    """The previous page, unless it is a stub (a held create: not a page yet)."""
    return None if previous is not None and previous.is_stub else previous


def _refs(page: Page) -> set[tuple[str, str]]:
    return {(s.resource, s.digest) for s in page.sources}


def _confidence(page: Page, old: Page | None) -> float:
    """The update's confidence: that of its least certain new claim (1.0 when it adds none)."""
    before = {claim_sig(c) for c in (old.claims if old else [])}
    new = [c.confidence for c in page.claims if claim_sig(c) not in before]
    return min(new) if new else 1.0


def _stub(page: Page) -> Page:
    """A held create: a page that says it awaits review, so every link to it resolves."""
    return Page(kind=page.kind, slug=page.slug, title=page.title,
                description=f"{page.title}: proposed by the compiler, waiting for review.",
                aliases=list(page.aliases), tags=list(page.tags), domain=page.domain, sources=list(page.sources),
                compile_status="needs-review", date_ingested=page.date_ingested, source_type=page.source_type,
                entity_type=page.entity_type, extra={STUB_KEY: "create"})


def manifest_extras(gate: TrustGate) -> dict[str, Any]:
    return {"settled": sorted(gate.settled),
            "closedConflicts": [{"page": p, "fingerprint": f} for p, f in sorted(gate.closed)]}


__all__ = ["TrustGate", "cited_text", "manifest_extras"]
