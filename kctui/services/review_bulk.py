"""Bulk review actions (issue 13): approve or reject many held updates at once — those of a job, of a
source, or every open one, optionally narrowed by a filter — as ONE promotion per knowledge base.

A bulk action is the same per-item decision a single `approve ID` makes (`review_decide`), for
every chosen item of a base inside one write transaction, each seeing the pages as the decisions
before it left them; the pages are then published together in one page promotion and the items
marked resolved in the same transaction. A kill -9 anywhere leaves every item of a base either applied or pending
(`review_publish` settles the decision record at start-up). Conflicts are never resolved in bulk:
each needs its own choice (use new, keep, dismiss), so a selection counts them and leaves them out.
An item whose page moved on since the revision the person saw is skipped (and refreshed), never
applied blindly.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kctui.services.context import ServiceContext
from kctui.services.errors import InvalidInput, ServiceError
from kctui.services.review_decide import actor_name, resolve_batch
from kctui.services.review_queue import OPEN, ReviewItem, list_items

BULK_ACTIONS = ("approve", "reject")
KIND_WORDS = {"held": "held", "conflict": "conflict"}
Progress = Callable[[str, int, int], None]  # (phase, done, total): phase "deciding" | "publishing" | "done"
_CITED = re.compile(r"\^\[([^\]\n]+?):(?:L\d+(?:-L\d+)?|p\d+)\]")


def row_text(item: ReviewItem) -> str:
    """The words a filter is matched against: those of the item's row in the review pane (id, kind,
    base, title or page, reason in words) plus the page path and summary, lower-cased."""
    return " ".join((f"#{item.id}", KIND_WORDS.get(item.kind, item.kind), item.base_id, item.title or item.page_path,
                     item.reason_words, item.page_path, item.summary)).lower()


def item_sources(item: ReviewItem) -> set[str]:
    """The source paths (relative to `sources/`) an item's change comes from: named in its details
    (`sources`, either side of a conflict) or cited by its proposed page."""
    found: set[str] = set()
    listed = item.details.get("sources")
    if isinstance(listed, list):
        found |= {str(s) for s in listed}
    for side in ("existing", "incoming"):
        s = item.details.get(side)
        if isinstance(s, dict) and s.get("source"):
            found.add(str(s["source"]))
    found |= set(_CITED.findall(item.proposed_body or ""))
    return found


def _source_matches(item: ReviewItem, source: str) -> bool:
    src = source.strip().strip("/")
    if src.startswith("sources/"):
        src = src[len("sources/"):]
    return any(s == src or s.startswith(src + "/") for s in item_sources(item))


@dataclass(frozen=True)
class Selection:
    items: tuple[ReviewItem, ...]        # the held updates the action will apply to
    conflicts: tuple[ReviewItem, ...]    # matching conflicts, left out (each needs its own choice)

    @property
    def count(self) -> int:
        return len(self.items)

    def bases(self) -> list[tuple[str, str]]:
        return sorted({(i.workspace, i.base_id) for i in self.items})

    def describe(self, action: str) -> str:
        where = self.bases()
        text = (f"{action} {self.count} held update{'s' if self.count != 1 else ''}"
                f" in {len(where)} knowledge base{'s' if len(where) != 1 else ''}")
        if self.conflicts:
            text += (f"; {len(self.conflicts)} matching conflict{'s' if len(self.conflicts) != 1 else ''} "
                     "left out (resolve each with use-new, keep or dismiss)")
        return text


def select_items(ctx: ServiceContext, *, workspace: str | None = None, kb_id: str | None = None,
                 job_id: str | None = None, source: str | None = None, everything: bool = False,
                 filter_text: str | None = None, item_ids: Iterable[int] | None = None) -> Selection:
    """The open items a bulk action applies to: those of `job_id`, of `source`, the given `item_ids`,
    or (`everything`) all; narrowed by `filter_text` (case-insensitive words of the row)."""
    ids = None if item_ids is None else {int(i) for i in item_ids}
    _check_choice(job_id, source, everything, ids)
    needle = (filter_text or "").strip().lower()
    chosen = [item for item in list_items(ctx, workspace, state=OPEN, kb_id=kb_id)
              if _chosen(item, ids, job_id, source, needle)]
    return Selection(tuple(i for i in chosen if i.kind == "held"), tuple(i for i in chosen if i.kind != "held"))


def _check_choice(job_id: str | None, source: str | None, everything: bool, ids: set[int] | None) -> None:
    if job_id is None and source is None and not everything and ids is None:
        raise InvalidInput("choose the items: --job JOB, --source PATH or --all")
    if source is not None and (not source.strip() or "\0" in source or ".." in source.split("/")):
        raise InvalidInput(f"'{source}' is not a source path")


def _chosen(item: ReviewItem, ids: set[int] | None, job_id: str | None, source: str | None, needle: str) -> bool:
    """Whether `item` is one of `ids`, of the job, of the source and matches the filter (each when given)."""
    return ((ids is None or item.id in ids)
            and (job_id is None or item.job_id == job_id)
            and (source is None or _source_matches(item, source))
            and (not needle or needle in row_text(item)))


@dataclass
class BulkOutcome:
    action: str
    applied: list[int] = field(default_factory=list)            # resolved and published
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (item, why), still open
    failed: list[tuple[str, str]] = field(default_factory=list)   # (base, why): nothing of it applied
    pages: int = 0
    promotions: int = 0
    seconds: float = 0.0
    decisions: list[int] = field(default_factory=list)  # the recorded decisions (one per promotion), set by the app

    def json(self) -> dict[str, Any]:
        return {"action": self.action, "applied": self.applied, "appliedCount": len(self.applied),
                "skipped": [{"id": i, "why": w} for i, w in self.skipped], "failed": [
                    {"knowledgeBaseId": b, "error": e} for b, e in self.failed],
                "pages": self.pages, "promotions": self.promotions, "seconds": round(self.seconds, 3)}


def bulk_resolve(ctx: ServiceContext, items: Iterable[ReviewItem], action: str, *,
                 seen: Mapping[int, int] | None = None, actor: str | None = None,
                 progress: Progress | None = None) -> BulkOutcome:
    """Approve or reject `items` (held updates): per knowledge base one write transaction deciding each
    item, then ONE page promotion of every page they change. `seen`: item id -> the page revision the
    person saw (default: each item's own expected revision)."""
    if action not in BULK_ACTIONS:
        raise InvalidInput(f"a bulk action is one of {', '.join(BULK_ACTIONS)}, not {action!r}")
    actor = actor or actor_name()
    started = time.perf_counter()
    outcome = BulkOutcome(action)
    chosen = list(items)
    total = len(chosen)
    by_base: dict[tuple[str, str], list[ReviewItem]] = {}
    for item in chosen:
        if item.kind != "held":
            outcome.skipped.append((item.id, f"a {item.kind} needs its own choice (use-new, keep or dismiss)"))
            continue
        by_base.setdefault((item.workspace, item.base_id), []).append(item)
    done = len(outcome.skipped)
    for (workspace, kb_id), group in sorted(by_base.items()):
        base_done = done

        def step(phase: str, n: int, _total: int, base_done: int = base_done) -> None:  # this base's offset
            if progress is not None:
                progress(phase, base_done + n, total)

        try:
            result = resolve_batch(ctx, [i.id for i in group], action, actor=actor, seen=seen, progress=step)
        except ServiceError as exc:
            outcome.failed.append((kb_id, str(exc)))
            outcome.skipped.extend((i.id, f"not applied: {exc}") for i in group)
            done += len(group)
            continue
        outcome.promotions += int(result.promoted)
        outcome.applied.extend(result.resolved)
        outcome.skipped.extend(result.skipped)
        outcome.pages += result.pages
        done += len(group)
    outcome.seconds = time.perf_counter() - started
    if progress is not None:
        progress("done", total, total)
    return outcome


__all__ = ["BULK_ACTIONS", "Selection", "BulkOutcome", "select_items", "bulk_resolve", "row_text", "item_sources"]
