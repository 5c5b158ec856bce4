"""The replies being streamed right now, shown live: worker threads record each reply's tokens and
tokens/s as they come (`tracker`), and the pass's own thread (`show`, called while it waits) hands a
one-line summary to the extract step's progress — the running pane's current line and what
`kctui compile --wait` prints — when something changed, and again every `HEARTBEAT` seconds (the store
and the printer throttle what they are given)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from kctui.compiler.llm.stream import LiveFn

HEARTBEAT = 0.6  # seconds: the line is given again this often, so a throttled reader shows it too


class LiveReplies:
    def __init__(self, progress: Callable[[str], None] | None) -> None:
        self._progress = progress
        self._lock = threading.Lock()
        self._replies: dict[str, tuple[int, float, int]] = {}  # label -> (tokens, tokens/s, update number)
        self._seq = 0
        self._shown = 0
        self._shown_at = 0.0

    def tracker(self, label: str) -> LiveFn:
        def update(tokens: int, rate: float) -> None:
            with self._lock:
                self._seq += 1
                self._replies[label] = (tokens, rate, self._seq)

        return update

    def end(self, label: str) -> None:
        with self._lock:
            self._replies.pop(label, None)

    def line(self) -> str:
        """"notes/a.md lines 1-40: 312 tokens, 24.1 tokens/s (+2 more replies streaming)"; "" when none."""
        with self._lock:
            if not self._replies:
                return ""
            label, (tokens, rate, _) = max(self._replies.items(), key=lambda kv: kv[1][2])
            more = len(self._replies) - 1
        tail = f" (+{more} more {'reply' if more == 1 else 'replies'} streaming)" if more else ""
        return f"{label}: {tokens:,} tokens, {rate:.1f} tokens/s{tail}"

    def show(self) -> None:
        if self._progress is None:
            return
        now = time.monotonic()
        with self._lock:
            if not self._replies or (self._seq == self._shown and now - self._shown_at < HEARTBEAT):
                return
            self._shown, self._shown_at = self._seq, now
        text = self.line()
        if text:
            try:
                self._progress(text)
            except Exception:  # noqa: BLE001 - progress is best effort; the pass goes on
                return
