"""A page's inline flag: the status a search hit or a context packet shows beside a page that is not
plainly current, with why. Pure; kept apart from the page reader (`extract.py`) so that a query of an
index already current loads no page parser."""

from __future__ import annotations

import re
from typing import Any

from kctui.core.clock import parse_rfc3339
from kctui.core.page_status import STATUS_WORDS

CURRENT = ("compiled", "confirmed")  # "plainly current": everything else is flagged


def _instant_us(text: str) -> int | None:
    try:
        return parse_rfc3339(text.strip().replace(" ", "T", 1))
    except (ValueError, OverflowError):
        return None


def flag_of(doc_status: str, notice: list[str], stale_after: str, now_us: int) -> dict[str, Any] | None:
    """The inline flag of a page that is not plainly current, with why; None when it is current.

    A `compiled`/`confirmed` page whose `stale_after` instant has passed is flagged `stale` too: the
    next compile would mark it so, and a reader must not take it as current meanwhile."""
    status = doc_status
    derived = False
    if status in CURRENT and stale_after:
        at = _instant_us(stale_after)
        if at is not None and at < now_us:
            status, derived = "stale", True
    if status in CURRENT:
        return None
    if derived:
        why = f"no new evidence or confirmation since {stale_after}"
    else:
        why = notice[0] if notice else STATUS_WORDS.get(status, status)
        why = re.sub(r"^(Status: [a-z-]+ — |[A-Z][a-z ]+: )", "", why).strip() or STATUS_WORDS.get(status, status)
    return {"status": status, "why": why, "derived": derived}
