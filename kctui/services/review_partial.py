"""How many hunks a held review item has (QA session 29, item 2): a decision on some of them says what
it did — "approved 1 of 17 hunks; 16 left as the current page" (`kctui.core.hunks.partial_words`) — in
the CLI, over MCP and in the app, whose `a` / `r` on picked hunks asks first with those counts."""

from __future__ import annotations

from kctui.services.context import ServiceContext
from kctui.services.review import live_page_text
from kctui.services.review_hunks import item_hunks
from kctui.services.review_queue import get_item


def hunk_total(ctx: ServiceContext, item_id: int | str) -> int:
    """The hunks of held item `item_id` as `review show` numbers them now (0 for a conflict)."""
    item = get_item(ctx, item_id)
    if item.kind != "held":
        return 0
    return len(item_hunks(item, lambda rel: live_page_text(item, rel)))


__all__ = ["hunk_total"]
