"""A kill -9 at every named point of a dry run (kctui.services.dry_run.CRASH_ENV: after the previous
dry run is cleared, at the start of the extract and update steps, once the candidate is written, once
its answer is written) leaves nothing to recover: recovery finds nothing, the wiki (bytes and stats)
and the store are as they were, and the next dry run replaces what the killed one left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from kctui import paths
from kctui.services import dry_run as dr
from kctui.services.recovery import recover_at_startup
from tests.helpers import make_base
from tests.helpers.dry_run import demo_files, real_pass, store_state, tree


@pytest.mark.parametrize("step", ["cleared", "extract", "update", "candidate_written", "result_written"])
def test_kill_9_during_a_dry_run_leaves_nothing_to_recover(svc, workspace, step: str) -> None:
    base = make_base(svc, workspace, files=demo_files())
    real_pass(svc, base)
    (paths.sources_path(workspace, base.id) / "more.md").write_text("# Zed\n\nZed is an editor.\n", encoding="utf-8")
    wiki = paths.wiki_path(workspace, base.id)
    wiki_before, state_before = tree(wiki), store_state(svc)
    env = {**os.environ, dr.CRASH_ENV: step, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.run([sys.executable, "-m", "kctui", "compile", str(workspace), base.id, "--dry-run"],
                          env=env, capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert recover_at_startup(svc).summary() == "nothing to recover"
    assert tree(wiki) == wiki_before and store_state(svc) == state_before
    assert dr.last_dry_run(svc, workspace, base.id) is None or step == "result_written"
    run = dr.run_dry_run(svc, workspace, base.id)  # the next dry run replaces what the killed one left
    assert run.phase == "succeeded" and os.listdir(run.path.parent) == [run.path.name]
    assert dr.last_dry_run(svc, workspace, base.id)["id"] == run.id


