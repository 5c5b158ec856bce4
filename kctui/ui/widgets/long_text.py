"""A long Markdown text in ONE widget, rendered by rich in a thread worker at the widget's width
(`kctui/ui/long_markdown.py` says why): meanwhile it says it is rendering, and a new width (a resize)
renders it again. `pending` is true while a rendering is under way (the screen's `load_pending`)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static
from textual.worker import WorkerState

from kctui.ui.long_markdown import render_lines


class LongText(Static):
    DEFAULT_CSS = "LongText { width: 1fr; height: auto; }"

    def __init__(self, **kw: Any) -> None:
        super().__init__("", markup=False, **kw)
        self.markdown = ""
        self.width_done = 0  # the width the text was last rendered at (0: none yet)
        self.pending = False

    def show(self, markdown: str, what: str = "text") -> None:
        if markdown == self.markdown and self.width_done:  # read again, unchanged: nothing to render
            return
        self.markdown, self.width_done = markdown, 0
        self.update(f"rendering the {what} ({len(markdown.splitlines())} lines)…")
        self.pending = True
        self.call_after_refresh(self.render_now)  # once laid out: its width is known

    def render_now(self) -> None:
        width = self.size.width or (self.parent.size.width - 2 if self.parent is not None else 0)
        width = max(20, width)
        if not self.markdown:
            self.pending = False
            return
        if width == self.width_done:  # done, or under way, at this width
            return
        text = self.markdown
        self.width_done, self.pending = width, True
        self.run_worker(lambda: render_lines(text, width), thread=True, group="long-text", exclusive=True,
                        name="long-text", exit_on_error=False)

    def on_worker_state_changed(self, event: Any) -> None:
        if event.worker.name != "long-text" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        event.stop()
        self.pending = False
        if event.state == WorkerState.SUCCESS and event.worker.result is not None:
            self.update(event.worker.result)
        else:
            self.update("this text cannot be rendered (see the log)")

    def on_resize(self, event: Any) -> None:
        if self.width_done and self.display and event.size.width and event.size.width != self.width_done:
            self.call_after_refresh(self.render_now)
