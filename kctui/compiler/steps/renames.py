"""A source renamed with its bytes unchanged (gather's `renamed`: an added path whose digest equals a
deleted one's) moves its citations, nothing else (QA session 31, problem 10). Every line of the file is
where it was, so a claim that cited `old.md:L5` is read back as citing `new.md:L5`: the pages that cite
the old path are rebuilt against their moved selves (their claims neither withdrawn nor added again, so
the change is a refresh, not a revision a person must approve), and the old source page becomes the new
one with its history, sign-offs and kept values — not an archive held as a supersede beside a new page.

Pure functions of a page and the moves (old path -> new path)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from kctui.core.claims import Claim, Evidence, Question
from kctui.core.page_edits import EDITS_KEY
from kctui.core.pages import KEPT_KEY, Mention, Page, SourceRef
from kctui.core.trust import PageState, ProposedUpdate, TrustPolicy, classify_update

T = TypeVar("T")


def moves_of(renamed: list[tuple[str, str]], live: set[str], policy: TrustPolicy | None,
             source_page: Callable[[str], Page | None]) -> dict[str, str]:
    """old path -> new path, for every rename whose new path this pass read (a skipped one is not a move)
    and whose source page the policy lets move unattended (`moving_applies`); any other is a deletion and
    an addition, each held as the policy says."""
    return {old: new for old, new in renamed if new in live and moving_applies(policy, source_page(old))}


def read_anew(by_path: Mapping[str, T], renamed: list[tuple[str, str]]) -> dict[str, T]:
    """The entries of `by_path` whose source's bytes this pass read for the first time. A source renamed
    with its bytes unchanged is not one: its facts were judged under its old path and the rename moves
    them, it loses none; the compile-loss guard (the brief's list, a model's held pages) judges only these
    (QA session 32 #4: a renamed file's numbers were listed as reaching no claim)."""
    moved_to = {new for _old, new in renamed}
    return {path: value for path, value in by_path.items() if path not in moved_to}


def moving_applies(policy: TrustPolicy | None, page: Page | None) -> bool:
    """Would the policy write a citation-only change of this source page without a person (`suggest`, a
    never-auto guard: no)? A rename moves the page only then; else it stays a deletion and an addition,
    held as before, so the live wiki never cites a path its held pages do not."""
    if policy is None:
        return True
    if page is None:
        return False
    state = PageState(True, "source", page.title, tuple(page.tags), page.human_confirmed, page.compile_status)
    return classify_update(ProposedUpdate(kind="append", title=page.title, tags=tuple(page.tags)), state, policy).applies


def _ev(ev: Evidence, moves: dict[str, str]) -> Evidence:
    new = moves.get(ev.path)
    return ev if new is None else Evidence(new, ev.start, ev.end, ev.digest, ev.unit)


def _claim(c: Claim, moves: dict[str, str]) -> Claim:
    ev = _ev(c.evidence, moves)
    return c if ev is c.evidence else replace(c, evidence=ev)


def _entry(e: Any, moves: dict[str, str]) -> Any:
    """A kept value's or a person's statement's entry, its `source` and `citation` moved."""
    if not isinstance(e, dict):
        return e
    out = dict(e)
    source = str(e.get("source") or "")
    if source in moves:
        out["source"] = moves[source]
    cite = str(e.get("citation") or "")
    path, sep, lines = cite.rpartition(":")
    if sep and path in moves:
        out["citation"] = f"{moves[path]}:{lines}"
    return out


def cites_moved(page: Page, moves: dict[str, str]) -> bool:
    paths = {c.evidence.path for c in [*page.claims, *page.disputed]} | {m.evidence.path for m in page.mentions}
    paths |= {s.resource for s in page.sources}
    return bool(moves) and not paths.isdisjoint(moves)


def moved_page(page: Page | None, moves: dict[str, str], slugs: dict[str, str] | None = None) -> Page | None:
    """`page` with every citation of a moved path citing its new path (the same page when it cites none).
    `slugs` (path -> source page slug) gives the moved sources' new source pages."""
    if page is None or not cites_moved(page, moves):
        return page
    slugs = slugs or {}
    extra = dict(page.extra)
    for key in (KEPT_KEY, EDITS_KEY):
        if isinstance(extra.get(key), list):
            extra[key] = [_entry(e, moves) for e in extra[key]]
    summary = (page.summary[0], _ev(page.summary[1], moves)) if page.summary else None
    return replace(
        page,
        claims=[_claim(c, moves) for c in page.claims],
        disputed=[_claim(c, moves) for c in page.disputed],
        conflicts=[[_claim(c, moves) for c in group] for group in page.conflicts],
        mentions=[Mention(m.surface, _ev(m.evidence, moves)) for m in page.mentions],
        questions=[Question(q.text, _ev(q.evidence, moves)) for q in page.questions],
        summary=summary,
        sources=[SourceRef(moves[s.resource], s.digest, slugs.get(moves[s.resource], s.id)) if s.resource in moves
                 else s for s in page.sources],
        extra=extra,
        verified=list(page.verified),
        history=list(page.history),
        aliases=list(page.aliases),
        tags=list(page.tags),
        links=dict(page.links),
    )


def moved_source_page(old: Page | None, old_path: str, new_path: str, slug: str, at: str) -> Page | None:
    """The old source page as the new path's (its slug, its citations moved, a history line saying so):
    what the new source page is built against, so it keeps the old one's sign-offs and history."""
    if old is None:
        return None
    page = moved_page(old, {old_path: new_path}, {new_path: slug}) or old
    return replace(page, slug=slug, history=[
        *page.history, f"* {at}: renamed `{old_path}` → `{new_path}` (same content): citations moved."])
