"""The app collects garbage in its idle moments (kctui.ui.memory): the young generations once enough
was allocated, everything once the young ones were collected often enough, nothing otherwise."""

from __future__ import annotations

import gc

from kctui.ui import memory


def test_an_idle_moment_collects_only_what_is_worth_it():
    was_enabled = gc.isenabled()
    gc.disable()  # no automatic collection may reset the counts under the test
    try:
        gc.collect()
        assert memory.collect_idle() is None  # nothing allocated since: nothing to do
        kept = [[] for _ in range(memory.YOUNG_ENOUGH * 2)]
        assert memory.collect_idle() == 1
        assert gc.get_count()[0] < memory.YOUNG_ENOUGH and gc.get_count()[1] == 0
        assert memory.collect_idle() is None
        for _ in range(memory.BACKSTOP[2] // 2):
            gc.collect(1)
        assert memory.collect_idle() == 2
        assert gc.get_count()[2] == 0
        assert len(kept) == memory.YOUNG_ENOUGH * 2
    finally:
        if was_enabled:
            gc.enable()
