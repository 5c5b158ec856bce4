"""How often the garbage collector runs during a compile pass. A pass makes hundreds of thousands of
container objects (claims, their evidence, sentences, spans) and keeps most of them to its end; with the
interpreter's default thresholds (700, 10, 10) the collector walks those survivors again and again, and
finds almost nothing to free (a pass makes few reference cycles): measured at 3 % of a full compile of the
RFCs and 8 % of the endoflife folder. During a pass, and in the extraction worker processes, the collector
runs with the thresholds the app keeps (kctui.ui.memory `BACKSTOP`): the same pages, fewer walks. A higher
threshold already in force stays."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

PASS_THRESHOLDS = (10_000, 20, 100)

_lock = threading.Lock()
_depth = 0
_before: tuple[int, ...] = ()


def raised(current: tuple[int, ...], floor: tuple[int, ...] = PASS_THRESHOLDS) -> tuple[int, ...]:
    """Each threshold at least the floor's (0, which turns the collector off, stays off)."""
    return tuple(c if c == 0 else max(c, f) for c, f in zip(current, floor))


def raise_thresholds() -> None:
    """For a process that only extracts (a pool's worker): the pass's thresholds from now on."""
    gc.set_threshold(*raised(gc.get_threshold()))


@contextmanager
def pass_collection() -> Iterator[None]:
    """The pass's thresholds while it runs, the ones before it again after (passes that overlap in
    threads share one raise: the last to end puts them back)."""
    global _depth, _before
    with _lock:
        if _depth == 0:
            _before = gc.get_threshold()
            gc.set_threshold(*raised(_before))
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                gc.set_threshold(*_before)
