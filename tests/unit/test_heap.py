"""A headless worker's garbage collection after each job (kctui.services.heap)."""

from __future__ import annotations

import gc
import weakref

from kctui.services.heap import HeapSettler


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_survivors_are_frozen_after_a_job_and_a_cycle_dropped_since_is_collected_at_the_refreeze() -> None:
    gc.unfreeze()
    try:
        settle = HeapSettler(refreeze=3)
        kept = _Cycle()
        ref = weakref.ref(kept)
        settle()  # job 1: `kept` is live, so it is frozen with the rest
        assert gc.get_freeze_count() > 0
        del kept
        gc.collect()
        assert ref() is not None  # frozen: no collection walks it
        settle()  # job 2: still frozen
        assert ref() is not None
        settle()  # job 3: unfrozen first, so the dropped cycle is collected, then the live ones frozen again
        assert ref() is None
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_a_cycle_dropped_during_a_job_is_collected_right_after_it() -> None:
    gc.unfreeze()
    try:
        ref = weakref.ref(_Cycle())  # garbage from the start: a job's own leftovers
        HeapSettler()()
        assert ref() is None
    finally:
        gc.unfreeze()
