"""A pane's border subtitle changed by repainting only the border's bottom row. Textual's
`border_subtitle` setter repaints the whole widget (every line of a pane drawn again), and the panes set
their subtitle on each snapshot the poller brings, also when it says the same: going back from a review
item drew the Running and Brief panes again whole. Written against Textual 8's `_BorderTitle`."""

from __future__ import annotations

from rich.text import Text
from textual.content import Content
from textual.geometry import Region
from textual.widget import Widget


def set_border_subtitle(widget: Widget, subtitle: str | Text) -> None:
    """Show `subtitle` (a str is read as markup, as Textual's setter reads it) under `widget`'s border:
    nothing is repainted when it is shown already, else only the bottom row."""
    width, height = widget.outer_size
    if not (width and height and widget.styles.border_bottom[0]):  # not laid out yet, or no border
        widget.border_subtitle = subtitle
        return
    title = Content.from_rich_text(subtitle) if isinstance(subtitle, Text) else subtitle
    new = widget.render_str(title).expand_tabs(4).split()[0]  # what the setter stores
    if new == widget._border_subtitle:
        return
    widget._border_subtitle = new
    ox, oy = widget.content_offset
    widget.refresh(Region(-ox, height - 1 - oy, width, 1))
