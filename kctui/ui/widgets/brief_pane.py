"""Pane 4, the brief: the selected job's change brief rendered as Markdown.

Rich's Markdown renderer, run once per brief and width into lines; the pane shows a window of them
and scrolls by itself (j/k, arrows, page up/down, home/end), so a new brief or a scroll is a repaint,
never a new layout of the screen. (Textual's Markdown widget mounts a widget per block, and a Rich
Markdown inside a Static is re-rendered for every measure and paint and resizes its scroll area:
tens of milliseconds each time a job is selected.)"""

from __future__ import annotations

import re
from typing import ClassVar

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.text import Text
from textual.binding import Binding
from textual.widget import Widget

from kctui.ui.format import FAILURE_HINT, ws_label
from kctui.ui.messages import JobDetail
from kctui.ui.widgets.border import set_border_subtitle
from kctui.ui.widgets.quiet_focus import QuietFocus
from kctui.ui.words import STARTING

NO_JOB = "*No job selected.* Pick a job in the Queue pane (1, then tab to the jobs) to read its brief."


def brief_text(detail: JobDetail | None) -> str:
    if detail is None:
        return NO_JOB
    job = detail.job
    if detail.brief:
        return short_digests(detail.brief)
    if job.phase in ("queued", "running"):
        return f"*The brief of {job.short} is written when the compile finishes.*"
    if job.phase == "failed":
        return f"*{job.short} failed ({job.error_words or FAILURE_HINT}); a failed compile writes no brief.*"
    if job.phase == "cancelled":
        return f"*{job.short} was cancelled; it wrote no brief.*"
    return f"*{job.short} has no brief (its compiler did not write one).*"


DIGEST = re.compile(r"\b(sha256:)([0-9a-f]{12})[0-9a-f]{52}\b")


def short_digests(text: str) -> str:
    """A pane 40 columns wide shows a source digest as its first 12 hex digits (as git shows a
    commit); the whole digest is in `kctui brief`."""
    return DIGEST.sub(r"\1\2…", text)


class Window:
    """A window of pre-rendered lines."""

    def __init__(self, lines: list[list[Segment]]) -> None:
        self.lines = lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for i, line in enumerate(self.lines):
            yield from line
            if i < len(self.lines) - 1:
                yield Segment.line()


class BriefPane(QuietFocus, Widget, can_focus=True):
    PANE = "brief"
    TITLE = "4 Brief"
    BINDINGS: ClassVar = [
        Binding("up", "scroll_lines(-1)", show=False), Binding("down", "scroll_lines(1)", show=False),
        Binding("pageup", "scroll_pages(-1)", show=False), Binding("pagedown", "scroll_pages(1)", show=False),
        Binding("home", "scroll_lines(-1000000)", show=False), Binding("end", "scroll_lines(1000000)", show=False),
    ]

    def on_mount(self) -> None:
        self._shown: str | None = None
        self._label = STARTING  # (the first show() replaces it)
        self._lines: list[list[Segment]] = []
        self._width = 0
        self._top = 0
        # until the first read of the store arrives: one plain line (the Markdown renderer loads later)
        self._lines = [[Segment(STARTING)]]

    def on_resize(self) -> None:
        if self._shown is not None and self.content_size.width != self._width:
            self._draw(self._shown)
        else:
            self._update_subtitle()

    def _draw(self, text: str) -> None:
        width = max(10, self.content_size.width)
        from rich.markdown import Markdown  # noqa: PLC0415 - the Markdown parser loads with the first brief

        console = self.app.console
        self._lines = console.render_lines(Markdown(text, hyperlinks=False), console.options.update_width(width),
                                           pad=False)
        self._width = width
        self._top = 0
        self._update_subtitle()
        self.refresh()

    def render(self) -> Window:
        return Window(self._lines[self._top:self._top + max(1, self.content_size.height)])

    def scroll_relative(self, y: float = 0, **_: object) -> None:  # j/k from the main screen
        self.action_scroll_lines(int(y))

    def action_scroll_lines(self, delta: int) -> None:
        top = max(0, min(self._top + delta, len(self._lines) - max(1, self.content_size.height)))
        if top != self._top:
            self._top = top
            self._update_subtitle()
            self.refresh()

    def action_scroll_pages(self, delta: int) -> None:
        self.action_scroll_lines(delta * max(1, self.content_size.height - 1))

    def _update_subtitle(self) -> None:
        height = max(1, self.content_size.height)
        more = (f" · lines {self._top + 1}–{min(len(self._lines), self._top + height)} of {len(self._lines)}"
                if len(self._lines) > height else "")
        set_border_subtitle(self, Text(self._label + more))  # a base's name is never read as markup

    def show(self, detail: JobDetail | None) -> None:
        text = brief_text(detail)
        self._label = (f"{detail.job.short} · {detail.base_name} ({ws_label(detail.job.workspace)})"
                       if detail else "")
        if self._shown != text:
            self._shown = text
            self._draw(text)
        else:
            self._update_subtitle()
