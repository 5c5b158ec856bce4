"""One glyph per state wherever kctui shows it (the app, the CLI, the API's status line): a page's
status, and a review item's kind. A leaf: the app loads it without the page rules."""

from __future__ import annotations

STATUS_GLYPHS = {"compiled": "✔", "confirmed": "✔", "contradicted": "⇄", "needs-review": "⚠", "stale": "⌛",
                 "archived": "▫"}
ITEM_GLYPHS = {"held": "✎", "conflict": "⇄"}


def status_glyph(status: str, flagged: bool = False) -> str:
    """The glyph of a page status (⚠ for a flag of another name, • for an unknown status)."""
    return STATUS_GLYPHS.get(status) or ("⚠" if flagged else "•")
