"""Pane 3, the review queue: held updates and conflicts with their reason in words. Enter opens one."""

from __future__ import annotations

from functools import partial

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from kctui.ui.format import ITEM_COLUMNS, item_cells
from kctui.ui.messages import Snapshot
from kctui.ui.widgets.keyed_table import KeyedTable
from kctui.ui.widgets.queue_pane import matches

EMPTY_HINT = "Nothing to review. Held updates and conflicts from compiles appear here."


class ReviewPane(Vertical):
    PANE = "review"
    TITLE = "3 Review"

    def compose(self) -> ComposeResult:
        yield Static(EMPTY_HINT, id="review-empty", classes="hint")
        yield KeyedTable(ITEM_COLUMNS, id="items")

    @property
    def items(self) -> KeyedTable:
        return self.query_one("#items", KeyedTable)

    def show(self, snap: Snapshot, needle: str, tones: dict[str, str]) -> None:
        rows = self.items.build_rows((str(i.id), (i, id(tones)), partial(item_cells, i, tones)) for i in snap.items)
        if needle:
            rows = [(k, c) for k, c in rows if matches(needle, c)]
        self.items.sync(rows)
        empty = self.query_one("#review-empty")
        if empty.display != (not snap.items):
            empty.display = not snap.items
        held = sum(1 for i in snap.items if i.kind == "held")
        more = f" (first {len(snap.items)} shown)" if snap.items_total > len(snap.items) else ""
        self.border_subtitle = (f"{snap.items_total} open: {held} held, {len(snap.items) - held} conflicts{more}"
                                if snap.items_total else "")
