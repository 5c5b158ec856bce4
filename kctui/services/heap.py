"""When a headless worker collects garbage. A compile pass makes many objects and drops most of them; the
collector's automatic full collection, once it starts mid-pass, walks everything the process holds
(imported modules, the word list, the rules' caches, the host's services) — measured at 13–18 ms of a
60–90 ms incremental pass. So after each job, at an idle moment, a headless worker collects once and
freezes what survived (`gc.freeze`: live, long-lived objects the collector then leaves out of its walks),
and every `REFREEZE` jobs it unfreezes first, so that a cycle that was live at one freeze and dropped since
is collected after all. The app does not use this: it keeps its own policy (kctui.ui.memory)."""

from __future__ import annotations

import gc

REFREEZE = 64  # jobs between full collections over everything (unfrozen first)


class HeapSettler:
    """`after_job` for `run_worker` in a process with no UI (`kctui serve`, `kctui worker`)."""

    def __init__(self, refreeze: int = REFREEZE) -> None:
        self.refreeze = refreeze
        self.jobs = 0

    def __call__(self) -> None:
        self.jobs += 1
        if self.jobs % self.refreeze == 0:
            gc.unfreeze()
        gc.collect()
        gc.freeze()
