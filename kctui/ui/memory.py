"""When the app collects garbage. Textual allocates many short-lived objects per frame, and a collection
that starts in the middle of a keystroke shows as that key's latency: a full one over everything the
app holds took up to ~90 ms, a young-generation one over what twenty keys left behind ~45 ms. So what
start-up built is moved out of the collector's reach once the first snapshot is on screen, and the young
generations are collected while the app is idle, a few times a second and only when something was
allocated, which keeps each collection small; the automatic thresholds stay as the backstop for a long
burst of work with no idle moment."""

from __future__ import annotations

import gc

IDLE_EVERY = 0.25  # seconds between looks for an idle moment to collect in
YOUNG_ENOUGH = 1_000  # net new container objects before an idle collection is worth it
BACKSTOP = (10_000, 20, 100)


def settle() -> None:
    """After the first snapshot: collect once, freeze what survived, collect less often by itself."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*BACKSTOP)


def collect_idle() -> int | None:
    """Collect (the caller knows the app is idle) if enough was allocated since the last collection:
    the two young generations, or everything once the young ones were collected half as many times
    as would make the collector do a full collection by itself. The generation collected, or None."""
    young, middle, old = gc.get_count()
    if old >= BACKSTOP[2] // 2:
        gc.collect(2)
        return 2
    if young < YOUNG_ENOUGH and middle == 0:
        return None
    gc.collect(1)
    return 1
