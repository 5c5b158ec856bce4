"""Pages gone stale (trust.md §5): a compiled or confirmed page with no new evidence and no confirmation
within the policy's `stale_days` becomes `stale` at the next pass.

The clock is the job's own `created_at` (deterministic: the same inputs give the same bytes). A page's
freshness deadline is the latest of its `stale_after` (written when evidence last arrived; without
one, its `last_updated` + stale_days) and each person's confirmation (`verified[].at` + stale_days) —
so resolving a review item restarts the clock. A stale page says so in its frontmatter and in the
visible status line; new evidence makes it current again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kctui.core.clock import US, parse_rfc3339, rfc3339
from kctui.core.frontmatter import FrontmatterError
from kctui.core.page_status import set_page_status, split_page, stale_note
from kctui.core.pages import STUB_KEY

_STATUS = re.compile(r"^compile_status: '?([a-z-]+)'?\s*$", re.M)
_STALE_AFTER = re.compile(r"^stale_after: '?([0-9][0-9T:.+\-Z]*)'?\s*$", re.M)


@dataclass(frozen=True)
class StaleReport:
    page_class: str
    slug: str
    title: str
    stale_after: str


def _instant(value: Any) -> int | None:
    try:
        return parse_rfc3339(str(value)) if value else None
    except ValueError:
        return None


Clock = tuple[int | None, int | None, int | None]  # (stale_after, last update, latest confirmation), µs


def freshness_clock(fm: dict[str, Any]) -> Clock:
    """The times a page's freshness depends on, from its frontmatter (None where absent)."""
    generated = fm.get("generated") if isinstance(fm.get("generated"), dict) else {}
    verified = fm.get("verified") or []
    confirmed = [at for at in (_instant(e.get("at")) for e in verified if isinstance(e, dict)) if at is not None] \
        if isinstance(verified, (list, tuple, str, dict)) else []
    return (_instant(fm.get("stale_after")), _instant(fm.get("last_updated")) or _instant(generated.get("at")),
            max(confirmed) if confirmed else None)


def deadline_of(clock: Clock, stale_days: int) -> int | None:
    """When a page with this clock goes stale (microseconds), or None when it carries no time at all."""
    explicit, base, confirmed = clock
    span = stale_days * 86_400 * US
    times = [explicit] if explicit is not None else [base + span] if base is not None else []
    if confirmed is not None:
        times.append(confirmed + span)
    return max(times) if times else None


def freshness_deadline(fm: dict[str, Any], stale_days: int) -> int | None:
    """When the page goes stale (microseconds), or None when it carries no time at all."""
    return deadline_of(freshness_clock(fm), stale_days)


def staleness(text: str, fm: dict[str, Any]) -> Clock | None:
    """What decides whether the page with this text and frontmatter goes stale, read once with the page
    (`PageInfo.stale`, so a pass need not read an unchanged page to know it is not stale yet): None for
    a page that never does here (its status is not compiled or confirmed, or it is a stub), else its
    clock. The same reading as `mark_stale` makes of the text."""
    end = text.find("\n---\n", 3)
    status = _STATUS.search(text[:end] if end > 0 else "")
    if status is None or status.group(1) not in ("compiled", "confirmed") or fm.get(STUB_KEY):
        return None
    return freshness_clock(fm)


def mark_stale(writer: Any, final: dict[str, str], skip: set[str], created_at: str, stale_days: int,
               tick: Callable[[int, int, str], None] = lambda d, t, c: None) -> list[StaleReport]:
    """Flag every page of `final` (slug -> class) that went stale by `created_at`, except `skip`
    (pages that received new evidence this pass). Returns what went stale, in slug order."""
    now = parse_rfc3339(created_at)
    out: list[StaleReport] = []
    for n, slug in enumerate(sorted(final), 1):
        if n == 1 or n % 200 == 0:
            tick(n, len(final), slug)
        if slug in skip or _not_stale_yet(writer, slug, now, stale_days):
            continue
        report = _go_stale(writer, slug, final[slug], now, stale_days)
        if report is not None:
            out.append(report)
    return out


def _not_stale_yet(writer: Any, slug: str, now: int, stale_days: int) -> bool:
    """An unchanged previous page whose summary says it cannot be stale yet (its text is not read)."""
    info = writer.prev.pages.get(slug) if slug not in writer.rendered else None
    if info is None:
        return False
    deadline = deadline_of(info.stale, stale_days) if info.stale is not None else None
    return deadline is None or deadline > now


def _go_stale(writer: Any, slug: str, page_class: str, now: int, stale_days: int) -> StaleReport | None:
    """The staged page flagged stale when its deadline has passed (None: it is not stale)."""
    text = writer.current_text(slug)
    if not text:
        return None
    fm = _may_be_stale(text, now)
    if fm is None:
        return None
    deadline = freshness_deadline(fm, stale_days)
    if deadline is None or deadline > now:
        return None
    at = rfc3339(deadline) or ""
    writer.put_text(slug, page_class, set_page_status(text, "stale", note=stale_note(at), stale_after=at))
    return StaleReport(page_class, slug, str(fm.get("title", slug)), at)


def _may_be_stale(text: str, now: int) -> dict[str, Any] | None:
    """The frontmatter of a compiled or confirmed page, not a stub, whose own `stale_after` has passed or
    is absent (None: the page cannot be stale now)."""
    end = text.find("\n---\n", 3)
    header = text[:end] if end > 0 else ""
    status = _STATUS.search(header)
    if status is None or status.group(1) not in ("compiled", "confirmed"):
        return None
    quick = _STALE_AFTER.search(header)
    if quick is not None and (_instant(quick.group(1)) or 0) > now:
        return None  # confirmations only push the deadline later
    try:
        fm, _ = split_page(text)
    except (FrontmatterError, ValueError):
        return None
    return None if fm.get(STUB_KEY) else fm
