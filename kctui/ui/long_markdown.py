"""A long Markdown text (a page with hundreds of claims, a brief of thousands of sources) shown without
freezing the app (QA session 30 #6: a 340-claim page took 12-13 s per key).

Textual's `Markdown` widget mounts a widget per block: at a few hundred blocks every later screen change
re-applies the stylesheet to thousands of widgets on the UI thread. A text over `LONG_BLOCKS` blocks is
rendered instead by rich into plain styled lines in a thread worker (`render_lines`, a pure function of
the text and the width) and shown in ONE `Static`; a short one keeps the widget (its links stay
clickable; a long page's links are listed under `l`)."""

from __future__ import annotations

import re

from rich.console import Console
from rich.markdown import Markdown
from rich.text import Text

LONG_BLOCKS = 150  # blocks (headings, list items, paragraphs, table rows) above which a text is "long"
_BLOCK = re.compile(r"^(?:\s*(?:[-*+]|\d+[.)])\s|#{1,6}\s|\|)|^\S.*\n(?:\n|\Z)", re.M)


def block_count(markdown: str) -> int:
    """About how many blocks Textual's Markdown widget would mount for `markdown`."""
    return len(_BLOCK.findall(markdown))


def is_long(markdown: str) -> bool:
    return block_count(markdown) > LONG_BLOCKS


def render_lines(markdown: str, width: int) -> Text:
    """`markdown` rendered by rich at `width` columns, as one `Text` of styled lines (no wrapping left to do)."""
    console = Console(width=max(20, width), color_system="truecolor", force_terminal=True, legacy_windows=False,
                      no_color=False, highlight=False, record=False, file=_Null())
    out = Text(no_wrap=True, overflow="crop", end="")
    lines = console.render_lines(Markdown(markdown, hyperlinks=False), console.options.update_width(max(20, width)),
                                 pad=False)
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        for seg in line:
            if not seg.control:
                out.append(seg.text, seg.style)
    return out


class _Null:
    def write(self, _text: str) -> int:
        return 0

    def flush(self) -> None:
        return None
