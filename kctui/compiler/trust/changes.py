"""A page change as the update step builds it and the trust step classifies it: the page's update
(`PageUpdate`: its kind, claim changes and the conflicts it opens), one claim's change (`ClaimChange`),
a conflict with both sides cited (`ConflictReport`), what the pass knows while it builds pages
(`PassContext`), and the order claims are listed in on a page."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from kctui.compiler.trust.disputes import Dispute
from kctui.core.claims import Claim

ARCHIVED_SOURCE_KEY = "archived_source"  # an archived source page: the file it described (now deleted)


@dataclass(frozen=True, slots=True)
class ClaimChange:
    change: str  # added | revised | retracted
    path: str
    subject: str
    attribute: str
    scope: str
    old: str = ""
    new: str = ""


@dataclass
class ConflictReport:
    slug: str
    page_class: str
    title: str
    attribute: str
    scope: str
    claims: list[Claim]  # [the page's value, the disagreeing one]
    dispute: Dispute | None = None


@dataclass
class PageUpdate:
    slug: str
    page_class: str
    title: str
    kind: str  # create | append | revise | supersede | remove | refresh
    added: int = 0
    revised: int = 0
    retracted: int = 0
    changes: list[ClaimChange] = field(default_factory=list)
    conflicts_opened: list[ConflictReport] = field(default_factory=list)
    decision: str = "apply"  # apply | hold | conflict (trust.md §3; "apply" when no policy applies)
    reason: str | None = None
    written: bool = True  # False: the staged page kept its current body (held, or a conflict's rest held)


def drop_kept_changes(update: PageUpdate, kept: list[dict]) -> None:
    """The update's claim changes without those of a claim a person kept (QA s31 item 1): the kept value
    stays on the proposal, so its revision or retraction is not what the proposal asks (nor its summary)."""
    if not kept:
        return
    marks = {(str(e.get("source")), str(e.get("subject")), str(e.get("attribute")), str(e.get("scope") or ""),
              str(e.get("value"))) for e in kept}
    gone = [c for c in update.changes if c.change != "added" and (c.path, c.subject, c.attribute, c.scope, c.old) in marks]
    if gone:
        update.changes = [c for c in update.changes if c not in gone]
        update.revised -= sum(1 for c in gone if c.change == "revised")
        update.retracted -= sum(1 for c in gone if c.change == "retracted")


@dataclass
class PassContext:
    created_at: str
    generated_by: str
    changed: set[str]  # paths whose contributions this pass replaces
    digests: dict[str, str]  # current path -> digest
    source_slugs: dict[str, str]  # current path -> source page slug
    titles: dict[str, str]  # slug -> title (every page of the result)
    kinds: dict[str, str]  # slug -> page class
    fed: dict[str, set[str]]  # current path -> concept/entity slugs it feeds


@lru_cache(maxsize=65536)
def _natural(text: str) -> tuple:  # scopes recur on every claim of a record: computed once each
    return tuple((0, int(p), "") if p.isdecimal() else (1, 0, p) for p in re.split(r"(\d+)", text.casefold()) if p)


def claim_order(c: Claim) -> tuple:
    ev = c.evidence
    return (_natural(c.scope), c.key[1], c.norm_value, ev.path, ev.start, ev.end, c.claim_id)


def claim_key(c: Claim) -> tuple[str, str, str, str]:
    return c.key


