"""A pass's progress, step by step: each step reports started, progress and done (even with nothing to
do), records how long it took for the brief, and checks for a stop request before it moves on."""

from __future__ import annotations

import time

from kctui.compiler.contract import CompileCancelled, ProgressEvent, ProgressFn, StopFn


class StepReporter:
    def __init__(self, progress: ProgressFn, should_stop: StopFn) -> None:
        self.progress = progress
        self.should_stop = should_stop
        self.timings: list[tuple[str, float]] = []
        self._step = ""
        self._t0 = 0.0
        self._ticked = False
        self._done = self._total = 0

    def start(self, step: str, total: int = 0) -> None:
        self.check()
        self._step, self._t0, self._ticked = step, time.perf_counter(), False
        self._done, self._total = 0, total
        self.progress(ProgressEvent(step, "started", 0, total))

    def tick(self, done: int, total: int, current: str = "") -> None:
        self.check()
        self._ticked = True
        self._done, self._total = done, total
        self.progress(ProgressEvent(self._step, "progress", done, total, current=current))

    def note(self, current: str) -> None:
        """A live line within the running step (a streamed reply's tokens/s): its counts stay as they are."""
        self.progress(ProgressEvent(self._step, "progress", self._done, self._total, current=current))

    def done(self, total: int = 0, message: str = "") -> None:
        if not self._ticked:  # every step reports started, progress and done, even with nothing to do
            self.progress(ProgressEvent(self._step, "progress", total, total))
        self.timings.append((self._step, time.perf_counter() - self._t0))
        self.progress(ProgressEvent(self._step, "done", total, total, message=message))

    def check(self) -> None:
        if self.should_stop():
            raise CompileCancelled()
