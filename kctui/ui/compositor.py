"""A screen compositor whose partial updates ask each widget only for the rows that are redrawn.

Textual's partial update takes the smallest rectangle around every changed region and asks each widget
inside it for all of its rows there, then keeps only the changed rows. A pane switch changes the top
and bottom rows of two panes and the key bar at the foot of the screen: the rectangle is the whole
screen, and every widget on it was asked for every row (each row a cached strip, but copied, filtered
and cut up all the same) to redraw a handful of rows. Here a widget is asked for the runs of changed
rows it covers and nothing else; what reaches the terminal is the same. Written against Textual 8's
`Compositor` (`_get_renders`, `_render_chops`, `render_partial_update`)."""

from __future__ import annotations

from collections.abc import Iterable

from textual._compositor import Compositor
from textual.geometry import Region
from textual.strip import Strip

_SKIPPED = Strip([])  # a row of a widget that is not redrawn: _render_chops passes over it


class RowCompositor(Compositor):
    _rows: frozenset[int] | None = None  # the screen rows redrawn by the partial update under way

    def render_partial_update(self):  # noqa: ANN201 - Textual's ChopsUpdate | None
        regions = self._dirty_regions
        self._rows = frozenset(y for region in regions for y in region.line_range) if regions else None
        try:
            return super().render_partial_update()
        finally:
            self._rows = None

    def _get_renders(self, crop: Region | None = None) -> Iterable[tuple[Region, Region, list[Strip]]]:
        rows = self._rows
        if rows is None or crop is None:
            yield from super()._get_renders(crop)
            return
        overlaps = crop.overlaps
        for widget, (region, clip) in list(self.visible_widgets.items()):
            if not overlaps(clip):
                continue
            x, y, width, height = region.intersection(clip)
            if not (width and height):
                continue
            strips = [_SKIPPED] * height
            start = None
            for line in range(y, y + height + 1):  # one past the end closes the last run
                if line < y + height and line in rows:
                    if start is None:
                        start = line
                elif start is not None:
                    strips[start - y:line - y] = widget.render_lines(
                        Region(x - region.x, start - region.y, width, line - start))
                    start = None
            yield region, clip, strips
