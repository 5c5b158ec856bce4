"""How a review item is named in a list (QA s31 item 11): a held change set that revises several pages is
named by the source change it carries and its page count ("3 pages · roster.md"), never by one of its pages
chosen for it (a roster change listed as "CDN"); an item of one page by that page."""

from __future__ import annotations


def item_label(kind: str, title: str, page: str, sources: list[str], pages: int) -> str:
    """The item's name in a list: its page's title (or path) for a conflict or a one-page change; else how
    many pages it changes, then the sources whose change it carries (two at most, then "+N"): the count
    first, so a narrow column still says it is a change set."""
    if kind != "held" or pages <= 1:
        return title or page
    named = [s for s in sources if s][:2]
    more = len([s for s in sources if s]) - len(named)
    lead = ", ".join(named) + (f" +{more}" if more > 0 else "")
    return f"{pages} pages · {lead}" if lead else f"{pages} pages"


__all__ = ["item_label"]
