"""A table whose rows are keyed by id and synchronised in place (Dolphie): new rows are added, gone
rows removed, changed rows replaced, the order fixed; the cursor stays on its row key. Nothing is
cleared, so nothing flickers.

It is a line-API ScrollView rather than Textual's DataTable: each row is rendered once into a cached
strip (keyed by the row's cells and whether the cursor is on it), so moving the cursor repaints two
rows, a focus change repaints one, and a new row at the top shifts cached strips. DataTable clears
all its caches on every focus change and re-renders every visible cell, which cost tens of
milliseconds per pane switch with full tables.

Rows are built through `build_rows()`, which keeps each row's cells while the row's signature (its
view object and any time-derived text) is unchanged."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from kctui.ui.widgets.quiet_focus import QuietFocus

Row = tuple[str, list[Text]]
PAD = 1  # a space either side of every cell


class KeyedTable(QuietFocus, ScrollView, can_focus=True):
    DEFAULT_CSS = """
    KeyedTable { height: 1fr; background: $surface; overflow-x: hidden; }
    KeyedTable > .keyed-table--header { text-style: bold; color: $text-muted; }
    KeyedTable > .keyed-table--cursor {
        background: $block-cursor-background; color: $block-cursor-foreground; text-style: bold;
    }
    KeyedTable > .keyed-table--cursor-blurred { background: $block-cursor-blurred-background; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"keyed-table--header", "keyed-table--cursor",
                                             "keyed-table--cursor-blurred"}
    BINDINGS: ClassVar = [
        Binding("up", "cursor_up", show=False), Binding("down", "cursor_down", show=False),
        Binding("pageup", "page(-1)", show=False), Binding("pagedown", "page(1)", show=False),
        Binding("home", "jump(0)", show=False), Binding("end", "jump(-1)", show=False),
        Binding("enter", "select_cursor", show=False),
    ]

    class Highlighted(Message):
        """The cursor moved to another row (by a key or by the program)."""

        def __init__(self, table: KeyedTable, key: str | None) -> None:
            super().__init__()
            self.table = table
            self.key = key

        @property
        def control(self) -> KeyedTable:
            return self.table

    class Selected(Message):
        """Enter (or a click) on a row."""

        def __init__(self, table: KeyedTable, key: str) -> None:
            super().__init__()
            self.table = table
            self.key = key

        @property
        def control(self) -> KeyedTable:
            return self.table

    class Refit(Message):
        """The table's width changed: the owner shows its rows again so auto columns are re-fitted."""

    def __init__(self, columns: Sequence[tuple[str, int | None]], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._spec = list(columns)
        self._auto_index = [i for i, (_, w) in enumerate(columns) if w is None]
        self._cache: dict[str, tuple[Hashable, list[Text]]] = {}
        self._order: list[str] = []
        self._cells: dict[str, list[Text]] = {}
        self._index: dict[str, int] = {}
        self._version: dict[str, int] = {}  # bumped when a row's cells change (part of its strip's cache key)
        self._versions = 0
        self._strips: LRUCache[tuple, Strip] = LRUCache(2000)
        self._fit = 0
        self.cursor_row = 0
        self._cursor_key: str | None = None

    # -- geometry --------------------------------------------------------------------------------------

    def spare_width(self) -> int:
        """Characters left for the auto-width column(s) once the fixed ones are laid out."""
        fixed = sum(w + 2 * PAD for _, w in self._spec if w is not None)
        autos = max(1, len(self._auto_index))
        return max(6, (self.size.width - 1 - fixed) // autos - 2 * PAD)

    def widths(self) -> list[int]:
        spare = self.spare_width()
        return [w if w is not None else spare for _, w in self._spec]

    def on_resize(self) -> None:
        self._update_virtual_size()
        if self.spare_width() != self._fit:
            self._cache.clear()
            self.post_message(self.Refit())

    def _update_virtual_size(self) -> None:
        size = Size(self.size.width, len(self._order) + 1)
        if self.virtual_size == size:
            return
        height = self.styles.height
        if not self.size.width or height is None or height.is_auto:  # its height follows its rows: a layout
            self.virtual_size = size
            return
        # a fixed height (a filter narrowing the rows): no layout of the whole screen, unless the scroll bar
        # comes or goes (then Textual lays the screen out, as ReviewBody._set_height)
        self.set_reactive(ScrollView.virtual_size, size)
        self._scroll_update(size)

    @property
    def body_height(self) -> int:
        return max(1, self.size.height - 1)

    # -- building rows ---------------------------------------------------------------------------------

    def build_rows(self, items: Iterable[tuple[str, Hashable, Callable[[], list[Text]]]]) -> list[Row]:
        """(key, signature, build) → rows, reusing the cells of rows whose signature is unchanged."""
        spare = self.spare_width() if self.size.width else 0
        self._fit = spare
        cache, out = self._cache, []
        fresh: dict[str, tuple[Hashable, list[Text]]] = {}
        for key, sig, build in items:
            hit = cache.get(key)
            if hit is not None and hit[0] == sig:
                cells = hit[1]
            else:
                cells = build()
                if spare:
                    for i in self._auto_index:
                        cells[i].truncate(spare, overflow="ellipsis", pad=True)
            fresh[key] = (sig, cells)
            out.append((key, cells))
        self._cache = fresh
        return out

    def forget(self) -> None:
        """Build every row again at the next `build_rows()` (the theme changed)."""
        self._cache.clear()
        self._strips.clear()

    # -- the rows --------------------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self._order)

    @property
    def cursor_key(self) -> str | None:
        return self._order[self.cursor_row] if 0 <= self.cursor_row < len(self._order) else None

    def keys(self) -> list[str]:
        return list(self._order)

    def get_row(self, key: str) -> list[Text]:
        return self._cells[key]

    def get_row_index(self, key: str) -> int:
        return self._index[key]

    def sync(self, rows: Sequence[Row], *, follow: str | None = None) -> bool:
        """Show exactly `rows` in this order. The cursor stays on its key (or moves to `follow` when
        given and present; else to the same position when its row is gone). True when anything changed."""
        keep = follow if follow is not None and follow in {k for k, _ in rows} else self.cursor_key
        order = [k for k, _ in rows]
        cells = {k: c for k, c in rows}
        changed = order != self._order or any(self._cells.get(k) is not c for k, c in rows)
        if not changed:
            return False
        for k, c in rows:
            if self._cells.get(k) is not c:
                self._versions += 1
                self._version[k] = self._versions
        for k in set(self._version) - cells.keys():
            del self._version[k]
        self._order, self._cells = order, cells
        self._index = {k: i for i, k in enumerate(order)}
        self._update_virtual_size()
        row = self._index.get(keep, min(self.cursor_row, len(order) - 1)) if keep is not None else 0
        self._move(max(0, row), scroll=True)
        self.refresh()
        return True

    # -- the cursor ------------------------------------------------------------------------------------

    def _move(self, row: int, *, scroll: bool = True) -> None:
        row = max(0, min(row, len(self._order) - 1)) if self._order else 0
        if row != self.cursor_row:
            self.cursor_row = row
            self.refresh()
        if scroll:
            self._scroll_to_cursor()
        key = self.cursor_key
        if key != self._cursor_key:
            self._cursor_key = key
            self.post_message(self.Highlighted(self, key))

    def _scroll_to_cursor(self) -> None:
        top, height = int(self.scroll_offset.y), self.body_height
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False, immediate=True)
        elif self.cursor_row >= top + height:
            self.scroll_to(y=self.cursor_row - height + 1, animate=False, immediate=True)

    def move_cursor(self, *, row: int, animate: bool = False) -> None:
        self._move(row)

    def select_key(self, key: str) -> bool:
        if key not in self._index:
            return False
        self._move(self._index[key])
        return True

    def action_cursor_down(self) -> None:
        self._move(self.cursor_row + 1)

    def action_cursor_up(self) -> None:
        self._move(self.cursor_row - 1)

    def action_page(self, direction: int) -> None:
        self._move(self.cursor_row + direction * self.body_height)

    def action_jump(self, where: int) -> None:
        self._move(0 if where == 0 else len(self._order) - 1)

    def action_select_cursor(self) -> None:
        if self.cursor_key is not None:
            self.post_message(self.Selected(self, self.cursor_key))

    def on_click(self, event: events.Click) -> None:
        row = int(self.scroll_offset.y) + event.y - 1
        if event.y >= 1 and 0 <= row < len(self._order):
            self._move(row)

    # -- rendering -------------------------------------------------------------------------------------

    def _line(self, cells: Sequence[Text], widths: list[int], style: Style | None) -> Text:
        line = Text(no_wrap=True, end="")
        for cell, width in zip(cells, widths):
            piece = cell if cell.cell_len == width else cell.copy()
            if piece is not cell:
                piece.truncate(width, overflow="ellipsis", pad=True)
            line.append(" " * PAD)
            line.append_text(piece)
            line.append(" " * PAD)
        if style is not None:
            line.stylize(style)
        return line

    def _strip(self, text: Text, width: int, base: Style) -> Strip:
        segments = list(text.render(self.app.console))
        return Strip(Segment.apply_style(segments, base), text.cell_len).adjust_cell_length(width, base)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        widths = self.widths()
        if y == 0:
            header_style = self.get_component_rich_style("keyed-table--header")
            key = ("\0header", width, base, header_style)
            strip = self._strips.get(key)
            if strip is None:
                strip = self._strip(self._line([Text(label) for label, _ in self._spec], widths, header_style),
                                    width, base)
                self._strips[key] = strip
            return strip
        index = int(self.scroll_offset.y) + y - 1
        if not 0 <= index < len(self._order):
            return Strip.blank(width, base)
        row_key = self._order[index]
        cells = self._cells[row_key]
        cursor = None
        if index == self.cursor_row:
            cursor = self.get_component_rich_style(
                "keyed-table--cursor" if self.has_focus else "keyed-table--cursor-blurred")
        key = (row_key, self._version[row_key], width, base, cursor)
        strip = self._strips.get(key)
        if strip is None:
            strip = self._strip(self._line(cells, widths, cursor), width, base)
            self._strips[key] = strip
        return strip

    def focus_changed(self) -> None:
        """Only the cursor's row shows focus (its colour)."""
        y = self.cursor_row - int(self.scroll_offset.y) + 1
        if 1 <= y <= self.body_height:
            self.refresh(Region(0, y, self.size.width, 1))
