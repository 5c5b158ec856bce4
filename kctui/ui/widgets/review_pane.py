"""Pane 3, the review queue: held updates and conflicts with their reason in words. Enter opens one;
space marks rows for a bulk action (a / r act on every marked row); A / R act on every open held
update matching the pane's filter. The title counts what the store holds, so the numbers add up:
"5999 open: 5499 held, 500 conflicts · showing 500 · 12 unread / 5999" (unread: nobody opened it yet). A bulk action's progress shows on one line."""

from __future__ import annotations

from functools import partial

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from kctui.ui.format import ITEM_COLUMNS, item_cells
from kctui.ui.messages import ItemView, Snapshot
from kctui.ui.widgets.border import set_border_subtitle
from kctui.ui.widgets.keyed_table import KeyedTable
from kctui.ui.widgets.queue_pane import FILTER_MARK, matches

EMPTY_HINT = "Nothing to review. Held updates and conflicts from compiles appear here."
MARK = "●"
PHASE_WORDS = {"deciding": "deciding", "publishing": "publishing the pages", "done": "done"}


def title_words(snap: Snapshot, shown: int, filtered: bool, marked: int, needle: str = "") -> str:
    """The pane's subtitle: open = held + conflicts (the store's counts), then what is shown."""
    held, conflicts = snap.counts.get("held", 0), snap.counts.get("conflicts", 0)
    total = held + conflicts
    if not total:
        return ""
    text = f"{total} open: {held} held, {conflicts} conflict{'s' if conflicts != 1 else ''}"
    if filtered:
        text += (f" · {FILTER_MARK} filter “{needle}”: {shown} / {len(snap.items)} shown"
                 + (f" (of the first {len(snap.items)})" if len(snap.items) < total else ""))
    elif shown < total:
        text += f" · showing {shown}"
    if marked:
        text += f" · {marked} marked"
    if "unread" in snap.counts:  # reviewed marks (issue 35): N opens the next unread one
        text += f" · {snap.counts['unread']} unread / {total}"
    return text


def marked_cells(item: ItemView, tones: dict[str, str], marked: bool) -> list[Text]:
    cells = item_cells(item, tones)
    if marked:  # the mark replaces the id's "#", so the row keeps its width: "●123"
        cells = [Text(f"{MARK}{item.id}", style=f"bold {tones.get('accent', '')}".strip()), *cells[1:]]
    return cells


class ReviewPane(Vertical):
    PANE = "review"
    TITLE = "3 Review"

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
        super().__init__(*args, **kwargs)
        self.marked: set[int] = set()
        self._last: tuple[Snapshot, str, dict[str, str]] | None = None

    def compose(self) -> ComposeResult:
        yield Static(EMPTY_HINT, id="review-empty", classes="hint", markup=False)
        yield Static("", id="review-progress", classes="hint", markup=False)
        yield KeyedTable(ITEM_COLUMNS, id="items")

    def on_mount(self) -> None:
        self.query_one("#review-progress").display = False
        self.query_one("#review-empty").display = False  # until the first read says the queue is empty

    @property
    def items(self) -> KeyedTable:
        return self.query_one("#items", KeyedTable)

    def show(self, snap: Snapshot, needle: str, tones: dict[str, str]) -> None:
        self._last = (snap, needle, tones)
        present = {i.id for i in snap.items}
        self.marked &= present  # a resolved (or superseded) item is no longer marked
        rows = self.items.build_rows(
            (str(i.id), (i, id(tones), i.id in self.marked), partial(marked_cells, i, tones, i.id in self.marked))
            for i in snap.items)
        if needle:
            rows = [(k, c) for k, c in rows if matches(needle, c)]
        self.items.sync(rows)
        empty = self.query_one("#review-empty")
        if empty.display != (not snap.items):
            empty.display = not snap.items
        subtitle = title_words(snap, len(rows), bool(needle), len(self.marked), needle)
        if subtitle != getattr(self, "_subtitle", None):
            self._subtitle = subtitle
            set_border_subtitle(self, Text(subtitle))

    def toggle_mark(self, item_id: int) -> bool:
        """Mark or unmark a row; True when it is marked now."""
        if item_id in self.marked:
            self.marked.discard(item_id)
        else:
            self.marked.add(item_id)
        if self._last is not None:
            self.show(*self._last)
        return item_id in self.marked

    def clear_marks(self) -> None:
        self.marked.clear()
        if self._last is not None:
            self.show(*self._last)

    def marked_items(self, snap: Snapshot) -> list[ItemView]:
        return [i for i in snap.items if i.id in self.marked]

    def show_progress(self, verb: str, phase: str, done: int, total: int) -> None:
        """A bulk action's progress (called on the UI thread); phase "done" hides the line."""
        line = self.query_one("#review-progress", Static)
        if phase == "done":
            line.display = False
            return
        width = 20
        filled = (done * width) // max(total, 1)
        line.update(f"{verb} {done}/{total} [{'█' * filled}{'░' * (width - filled)}] "
                    f"{PHASE_WORDS.get(phase, phase)}…")
        line.display = True
