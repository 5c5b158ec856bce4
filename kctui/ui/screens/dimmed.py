"""A dialog over another screen shows that screen dimmed, as Textual's ModalScreen does, with the same
cells and colours, but drawn straight from the screen's strips with the tint of each distinct style
worked out once. Textual's own path sends the whole screen through Rich segments and blends the
colours of every segment again on every frame: most of the time a confirm question took to appear."""

from __future__ import annotations

from typing import TypeVar

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual._context import visible_screen_stack
from textual.color import Color
from textual.renderables.background_screen import BackgroundScreen
from textual.screen import ModalScreen, Screen
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, RichVisual

ResultType = TypeVar("ResultType")
NULL = RichStyle()
_TINTS: dict[tuple[RichStyle, Color], dict[RichStyle | None, RichStyle]] = {}
_MAX_STYLES = 4096  # distinct styles remembered per tint (a screen has a few dozen)


def tinted(style: RichStyle | None, color: Color) -> RichStyle:
    """One segment's style under the dialog: Textual's BackgroundScreen.process_segments for a style."""
    plain = NULL if style is None else style.clear_meta_and_links()
    return plain + RichStyle.from_color(
        (Color.from_rich_color(plain.color) + color).rich_color if plain.color is not None else None,
        (Color.from_rich_color(plain.bgcolor) + color).rich_color if plain.bgcolor is not None else None)


class DimmedScreen(RichVisual):
    """The screen under a dialog, tinted with the dialog's translucent background. Renders what
    `RichVisual(dialog, BackgroundScreen(base, color))` renders (a Tui test compares the two)."""

    def __init__(self, widget: Screen, base: Screen, color: Color) -> None:
        super().__init__(widget, BackgroundScreen(base, color))
        self.base = base
        self.color = color

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        over = style.rich_style  # the dialog screen's own style, laid over every segment (Widget.post_render)
        memo = _TINTS.setdefault((over, self.color), {})
        if len(memo) > _MAX_STYLES:
            memo.clear()
        color = self.color
        out: list[Strip] = []
        for strip in self.base._compositor.render_strips()[:height]:
            if strip.cell_length > width:
                strip = strip.crop(0, width)
            segments = []
            for text, seg_style, control in strip:
                if control:
                    segments.append(Segment(text, over + seg_style if seg_style is not None else over))
                    continue
                final = memo.get(seg_style)
                if final is None:
                    final = memo[seg_style] = over + tinted(seg_style, color)
                segments.append(Segment(text, final))
            out.append(Strip(segments, strip.cell_length))
        return out


class DimmedModal(ModalScreen[ResultType]):
    """A ModalScreen whose translucent background shows the screen beneath through DimmedScreen."""

    def render(self):  # a Visual, or what Screen.render returns
        stack = visible_screen_stack.get(None)
        if stack and self.styles.background.a < 1 and stack[-1] is not self:
            return DimmedScreen(self, stack.pop(), self.styles.background)
        return super().render()
