"""The review item's body (its hunks or a conflict's two sides, then the page diff) drawn with Textual's
Line API: the text of each part is rendered once per width into lines (strips), and the screen asks only
for the lines in view. A key that changes one part (a hunk marked, the diff view switched) swaps that
part's lines and repaints this widget; the screen is laid out again only when the scroll bar appears or
goes. Each logical line's strips are kept by its text and style, so marking a hunk renders again only
the lines whose glyphs changed.

It looks as the Statics it replaces looked inside a VerticalScroll: each part's text as a Static shows it
(wrapped at the width left of the scroll bar, a trailing newline being a last empty line), a part after
the first one blank line below the one before it (a `margin-top: 1`). A mouse selection works as on the
Statics: each drawn line carries where its characters are (its logical line in the body, the offset
there), the selected span is highlighted, and the selection copies the body's text."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from rich.segment import Segment
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.selection import Selection
from textual.strip import Strip
from textual.visual import Visual, visualize

KEEP_PARTS = 8  # rendered parts kept (each view of the diff, the hunks as the cursor moves)
KEEP_LINES = 4000  # rendered logical lines kept


@dataclass(frozen=True)
class Drawn:
    """A part drawn at one width: its lines (strips), the first line of each logical line, the logical
    lines' text, and for each line its logical line and the offset of its first character there."""

    strips: list[Strip]
    firsts: list[int]
    plain: list[str]
    where: list[tuple[int, int]]
    placed: dict[int, list[Strip | None]]  # its lines with their offsets, once drawn: by the part's first line

    def placed_from(self, first: int) -> list[Strip | None]:
        return self.placed.setdefault(first, [None] * len(self.strips))


@dataclass(frozen=True)
class Part:
    """One block of the body: `key` names its content (the same key, the same text), `make(width)` writes
    it (the width matters to the split diff only), `gap` blank lines go before it."""

    key: Hashable
    make: Callable[[int], Text]
    gap: int = 0


class ReviewBody(ScrollView, can_focus=True):
    DEFAULT_CSS = """
    ReviewBody { overflow-x: hidden; overflow-y: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self._parts: list[Part] = []
        self._starts: list[int] = []  # the first line of each part
        self._strips: list[Strip] = []
        self._where: list[tuple[int, int]] = []  # each line's logical line (in the body) and first offset
        self._slots: list[tuple[list[Strip | None], int] | None] = []  # where each line's strip with offsets is kept
        self._plain: list[str] = []  # the body's logical lines (what a mouse selection copies)
        self._width = 0
        self._rendered: dict[tuple, Drawn] = {}  # a part's lines, by _part_key
        self._lines: dict[tuple, list[Strip]] = {}  # (logical line, width) -> its strips
        self._style: object = None  # the style the lines were drawn with

    # what the screen calls

    def show(self, parts: list[Part]) -> None:
        """Show these parts (the parts whose key did not change keep their lines)."""
        self._parts = list(parts)
        self._build()

    def part_start(self, index: int) -> int:
        """The line part `index` starts on (its gap above it)."""
        return self._starts[index] if index < len(self._starts) else 0

    @property
    def text_width(self) -> int:
        """The cells a part's line has: the content width left of the scroll bar."""
        return max(1, self.scrollable_content_region.width)

    def visual_line(self, index: int, line: int) -> int:
        """The body line the logical line `line` (0-based) of part `index` is drawn on (long lines wrap)."""
        if index >= len(self._parts) or not self._width:
            return 0
        drawn = self._rendered.get(self._part_key(self._parts[index], self._width))
        firsts = drawn.firsts if drawn else []
        return self.part_start(index) + self._parts[index].gap + (firsts[line] if line < len(firsts) else 0)

    # drawing

    def _build(self) -> None:
        before, before_where, top, width_before = self._strips, self._where, self.scroll_offset.y, self._width
        self._style = self.visual_style
        for _ in range(3):  # again when the scroll bar came or went (the text is narrower or wider)
            width = self.text_width if self.size.width else 0
            self._width = width
            strips: list[Strip] = []
            starts: list[int] = []
            where: list[tuple[int, int]] = []
            plain: list[str] = []
            slots: list[tuple[list[Strip | None], int] | None] = []
            blank = Strip.blank(0)
            for part in self._parts:
                starts.append(len(strips))
                for _gap in range(part.gap):
                    strips.append(blank)
                    where.append((len(plain), 0))
                    slots.append(None)
                    plain.append("")
                if width:
                    drawn = self._part_strips(part, width)
                    placed = drawn.placed_from(len(plain))
                    slots.extend((placed, j) for j in range(len(drawn.strips)))
                    strips.extend(drawn.strips)
                    where.extend((len(plain) + y, x) for y, x in drawn.where)
                    plain.extend(drawn.plain)
            self._starts, self._strips, self._where, self._plain, self._slots = starts, strips, where, plain, slots
            self._set_height(len(strips))
            if not width or self.text_width == width:
                break
        if len(strips) != len(before) or self._width != width_before or self.scroll_offset.y != top:
            self.refresh()
            return
        # the same lines but for a few (a mark, the cursor): only those are drawn again
        height = self.size.height
        changed = [y for y in range(top, min(len(strips), top + height))
                   if strips[y] is not before[y] or where[y] != before_where[y]]
        while changed:  # each run of changed lines, one region
            run = 1
            while run < len(changed) and changed[run] == changed[0] + run:
                run += 1
            self.refresh_lines(changed[0], run)
            changed = changed[run:]

    def _part_key(self, part: Part, width: int) -> tuple:
        return (part.key, self.size.width, width, self.visual_style)

    def _part_strips(self, part: Part, width: int) -> Drawn:
        key = self._part_key(part, width)
        got = self._rendered.pop(key, None)
        if got is None:
            got = Drawn([], [], [], [], {})
            for y, line in enumerate(part.make(self.size.width).split("\n", allow_blank=True)):
                got.firsts.append(len(got.strips))
                got.plain.append(line.plain)
                for strip in self._line_strips(line, width):
                    got.strips.append(strip)
                    got.where.append((y, first_offset(strip)))
        self._rendered[key] = got  # (the last used, last)
        while len(self._rendered) > KEEP_PARTS:
            del self._rendered[next(iter(self._rendered))]
        return got

    def _line_strips(self, line: Text, width: int) -> list[Strip]:
        """One logical line as a Static draws it: wrapped at `width`, styled like this widget's text."""
        style = self.visual_style
        key = (line.plain, tuple(line.spans), str(line.style), width, style)
        got = self._lines.get(key)
        if got is None:
            got = Visual.to_strips(self, visualize(self, line), width, None, style, apply_selection=False)
            if len(self._lines) >= KEEP_LINES:
                self._lines.clear()
            self._lines[key] = got
        return got

    def _set_height(self, height: int) -> None:
        """The scrollable size, without a new layout of the screen unless the scroll bar comes or goes
        (then Textual lays the screen out, and the resize that follows draws the lines at the new width)."""
        size = Size(self.size.width, height)
        if size == self.virtual_size:
            return
        if not self.size.width:  # not laid out yet: the first layout measures it
            self.virtual_size = size
            return
        self.set_reactive(ScrollView.virtual_size, size)
        self._scroll_update(size)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        if self._parts and self._width and self.visual_style != self._style:  # (a new theme)
            self._build()

    def on_resize(self) -> None:
        if self.text_width != self._width or self.size.width != self.virtual_size.width:
            self._build()

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        if index >= len(self._strips):
            return Strip.blank(0)
        line, x = self._where[index]
        strip, slot = self._strips[index], self._slots[index]
        if slot is not None:  # the line with where each character is (its logical line, its offset): for a mouse selection
            placed, j = slot
            if placed[j] is None:
                placed[j] = strip.apply_offsets(x, line)
            strip = placed[j] or strip
        selection = self.text_selection
        if selection is not None and (span := selection.get_span(line)) is not None:
            strip = self._selected(strip, span, x)
        return strip

    # a mouse selection, as a Static has it

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        return selection.extract("\n".join(self._plain)), "\n"

    def _selected(self, strip: Strip, span: tuple[int, int], x: int) -> Strip:
        start, end = span
        length = strip.cell_length
        a, b = max(0, start - x), (length if end == -1 else min(length, end - x))
        if a >= b:
            return strip
        left, middle, right = strip.divide([a, b, length])
        style = self.screen.get_component_rich_style("screen--selection")
        middle = Strip([Segment(t, (s + style) if s else style, c) for t, s, c in middle._segments], b - a)
        return Strip.join([left, middle, right])


def first_offset(strip: Strip) -> int:
    """The offset (in its logical line) of a line's first character, from the offsets Textual put in it."""
    for segment in strip._segments:
        meta = segment.style.meta if segment.style else None
        if meta and "offset" in meta:
            return meta["offset"][0]
    return 0
