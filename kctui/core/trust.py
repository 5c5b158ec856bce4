"""The trust boundary (trust.md): one pure function decides whether a proposed page change is applied,
held for a person, or raised as a conflict. Nothing writes a page without passing through it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class UpdateKind(StrEnum):
    CREATE = "create"
    APPEND = "append"
    REVISE = "revise"
    SUPERSEDE = "supersede"


RANK = {UpdateKind.CREATE: 0, UpdateKind.APPEND: 1, UpdateKind.REVISE: 2, UpdateKind.SUPERSEDE: 3}


class Autonomy(StrEnum):
    SUGGEST = "suggest"
    GUARDED = "guarded"
    AUTO = "auto"


# What each autonomy level may write unattended. supersede is never in any set.
CEILING: dict[str, frozenset[str]] = {
    Autonomy.SUGGEST: frozenset(),
    Autonomy.GUARDED: frozenset({UpdateKind.CREATE, UpdateKind.APPEND}),
    Autonomy.AUTO: frozenset({UpdateKind.CREATE, UpdateKind.APPEND, UpdateKind.REVISE}),
}


class HoldReason(StrEnum):
    CONTRADICTION = "contradiction"
    NEVER_AUTO = "never_auto"
    HUMAN_CONFIRMED = "human_confirmed"
    LOW_CONFIDENCE = "low_confidence"
    SUPERSEDE = "supersede"
    AUTONOMY_CEILING = "autonomy_ceiling"
    COMPILE_LOSS = "compile_loss"  # issue 8: a model's extraction dropped facts of its source
    UNSUPPORTED = "unsupported_claim"  # an external result's claim its cited lines do not hold (services.result_gate)


REASON_WORDS: dict[str, str] = {
    HoldReason.CONTRADICTION: "contradicts what the page already says (a person decides)",
    HoldReason.NEVER_AUTO: "the page matches a never-auto guard",
    HoldReason.HUMAN_CONFIRMED: "a person confirmed this page; only additions apply unattended",
    HoldReason.LOW_CONFIDENCE: "the evidence's confidence is below the policy's minimum",
    HoldReason.SUPERSEDE: "replacing, merging, splitting or archiving a page always needs a person",
    HoldReason.AUTONOMY_CEILING: "this kind of change is above the knowledge base's autonomy",
    HoldReason.COMPILE_LOSS: ("the model's extraction missed numbers, dates or versions of its source; "
                              "check the page against it"),
    HoldReason.UNSUPPORTED: ("a claim's cited source lines do not hold its value (or it cites none); "
                             "check the page against its sources"),
}


@dataclass(frozen=True)
class NeverAutoGuard:
    """Matches a page by class (`source`/`concept`/`entity`), by tag, or by a title pattern (regex,
    case-insensitive)."""

    page_class: str | None = None
    tag: str | None = None
    title_pattern: str | None = None

    def matches(self, page_class: str, tags: tuple[str, ...], title: str) -> bool:
        if self.page_class is not None and self.page_class == page_class:
            return True
        if self.tag is not None and self.tag.casefold() in {t.casefold() for t in tags}:
            return True
        if self.title_pattern is not None:
            try:
                return re.search(self.title_pattern, title, re.IGNORECASE) is not None
            except re.error:
                return False
        return False

    @classmethod
    def parse(cls, text: str) -> NeverAutoGuard:
        """`class:concept`, `tag:finance`, `title:^Pricing` (the CLI's --never-auto values)."""
        kind, sep, value = text.partition(":")
        if not sep or not value.strip():
            raise ValueError(f"never-auto guard {text!r} must be class:NAME, tag:NAME or title:REGEX")
        kind, value = kind.strip().lower(), value.strip()
        if kind == "class":
            if value not in ("source", "concept", "entity"):
                raise ValueError(f"page class {value!r} must be source, concept or entity")
            return cls(page_class=value)
        if kind == "tag":
            return cls(tag=value)
        if kind == "title":
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"title pattern {value!r} is not a valid regular expression: {exc}") from exc
            return cls(title_pattern=value)
        raise ValueError(f"never-auto guard kind {kind!r} must be class, tag or title")

    def text(self) -> str:
        if self.page_class is not None:
            return f"class:{self.page_class}"
        if self.tag is not None:
            return f"tag:{self.tag}"
        return f"title:{self.title_pattern}"


@dataclass(frozen=True)
class TrustPolicy:
    enabled: bool = True
    autonomy: str = Autonomy.GUARDED
    compile_sources: tuple[str, ...] = ("markdown", "text", "pdf", "html")
    maintain_kinds: tuple[str, ...] = ("source", "concept", "entity")
    never_auto: tuple[NeverAutoGuard, ...] = ()
    min_confidence: float = 0.6
    stale_days: int = 90


@dataclass(frozen=True)
class PageState:
    """What the target page is now (None fields for a page that does not exist yet)."""

    exists: bool
    page_class: str
    title: str
    tags: tuple[str, ...] = ()
    human_confirmed: bool = False
    compile_status: str = "compiled"


@dataclass(frozen=True)
class ProposedUpdate:
    kind: str
    confidence: float = 1.0
    contradicts: bool = False  # a claim with the same key from a different source, with another value
    title: str | None = None   # the title after the update (guards match old and new)
    tags: tuple[str, ...] = ()
    # The compile-loss guard (issue 8, wiki.md §4) fired for a source feeding this page: a model-backed
    # extraction left too many of its dates, versions and numbers in no claim.
    compile_loss: bool = False


@dataclass(frozen=True)
class Decision:
    action: str  # apply | hold | conflict
    reason: str | None = None
    words: str | None = None

    @property
    def applies(self) -> bool:
        return self.action == "apply"


APPLY = Decision("apply")


def _hold(reason: HoldReason) -> Decision:
    return Decision("hold", reason.value, REASON_WORDS[reason])


def classify_update(update: ProposedUpdate, page: PageState, policy: TrustPolicy) -> Decision:
    """apply, hold(reason) or conflict — in the order of trust.md §3, whatever the autonomy.

    `compile_loss` is not in trust.md's list; it is checked right after `low_confidence`, the other rule
    about the quality of the evidence (rather than the target page or the kind of change), so every
    rule trust.md lists keeps its place and precedence: a contradiction is still a conflict, and a
    never-auto or human-confirmed page still says so first. A lossy update is held with
    `compile_loss` ahead of `supersede` and `autonomy_ceiling` — which would hold it anyway — so the
    reviewer learns that the page must be checked against its source, at every autonomy."""
    if update.contradicts:
        return Decision("conflict", HoldReason.CONTRADICTION.value, REASON_WORDS[HoldReason.CONTRADICTION])
    if _never_auto(update, page, policy):
        return _hold(HoldReason.NEVER_AUTO)
    if page.exists and page.human_confirmed and update.kind != UpdateKind.APPEND:
        return _hold(HoldReason.HUMAN_CONFIRMED)
    if update.confidence < policy.min_confidence:
        return _hold(HoldReason.LOW_CONFIDENCE)
    if update.compile_loss:
        return _hold(HoldReason.COMPILE_LOSS)
    if update.kind == UpdateKind.SUPERSEDE:
        return _hold(HoldReason.SUPERSEDE)
    if update.kind not in _allowed_kinds(page, policy):
        return _hold(HoldReason.AUTONOMY_CEILING)
    return APPLY


def _never_auto(update: ProposedUpdate, page: PageState, policy: TrustPolicy) -> bool:
    """A never-auto guard matches the page (its class, its tags or the update's, its title or the update's)."""
    tags = tuple(page.tags) + tuple(update.tags)
    titles = [t for t in (page.title, update.title) if t]
    return any(guard.matches(page.page_class, tags, t) for guard in policy.never_auto for t in titles or [""])


def _allowed_kinds(page: PageState, policy: TrustPolicy) -> frozenset[str]:
    """The kinds of update the policy's autonomy applies to this page without a person (none when the
    policy is off or the compiler does not maintain the page's class)."""
    allowed = CEILING[policy.autonomy] if policy.enabled else frozenset()
    return allowed if page.page_class in policy.maintain_kinds else frozenset()
