"""The main screen's filter line: Textual's Input that does not lay the screen out on each character.

Input sets its virtual size (the text's width) on every change of its value, a reactive that asks for a
new layout of the whole screen: each character typed in the filter re-arranged every widget on it. The
line's size never changes with its text, so here the virtual size is set without a layout, and the
input scrolled as the layout would have (`Widget._size_updated` → `_scroll_update`). Written against
Textual 8's Input."""

from __future__ import annotations

from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Input


class FilterInput(Input):
    def _watch_value(self, value: str) -> None:
        size = Size(self.content_width, 1)
        if self.size.width and size != self.virtual_size:
            self.set_reactive(Widget.virtual_size, size)  # Input's own assignment below finds it set
            self._scroll_update(size)
            self.refresh()
        super()._watch_value(value)
