"""The kept values an approval would undo (QA s31 item 2; the rule: `kctui.core.review_kept`): read from
each item's live pages and proposals, for the CLI's and the app's confirmation before anything publishes."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from kctui.core.review_kept import overridden_kept
from kctui.services.review import live_page_text
from kctui.services.review_queue import ReviewItem


def kept_overrides(items: Iterable[ReviewItem]) -> list[str]:
    """`#ID PAGE: Subject Attribute: value (kept by NAME on DATE)` for every kept value the held items'
    proposals would replace or drop."""
    out = []
    for item in items:
        if item.kind != "held":
            continue
        for p in item.page_list:
            for what in overridden_kept(live_page_text(item, p.page_path), p.proposed_body, Path(p.page_path).stem):
                out.append(f"#{item.id} {p.page_path}: {what}")
    return out


def overrides_words(lines: list[str], limit: int = 5) -> list[str]:
    """The warning an approval shows before it publishes (empty when it undoes no kept value)."""
    if not lines:
        return []
    n = len(lines)
    head = (f"⚠ This overrides {n} value{'s' if n != 1 else ''} a person kept (rejected a change of); "
            "approving publishes the proposal instead:")
    more = [f"  … and {n - limit} more"] if n > limit else []
    return [head, *(f"  {ln}" for ln in lines[:limit]), *more]


__all__ = ["kept_overrides", "overrides_words"]
