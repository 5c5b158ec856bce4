"""QA session 30 #8: after a kill -9 during promotion the new generation can be live while the store
still names the previous one. `kctui status` (and a base's JSON, which the API and `kb show` serve) name
the pending promotion — its job, whether the new generation is live — and the command that finishes it
(so does the app's queue pane);
once recovery has run it is gone."""

from __future__ import annotations

import os
import signal

import pytest
from click.testing import CliRunner

from kctui import paths
from kctui.cli import main
from kctui.publish.promote import promote
from kctui.services import bases
from kctui.services.doctor import fix
from kctui.services.pending_promotion import pending_promotion
from kctui.services.status import base_status_json
from kctui.ui.format import base_note
from kctui.ui.poll import base_view
from tests.helpers import make_base

JOB = "job-1780000000000000-1"


def killed_promotion(kb, step: str) -> None:
    (kb / "wiki").mkdir(parents=True, exist_ok=True)
    (kb / "wiki" / "index.md").write_text("# old\n", encoding="utf-8")
    staged = kb / ".a3s" / "compilation-output" / JOB / "wiki"
    staged.mkdir(parents=True)
    (staged / "index.md").write_text("# new\n", encoding="utf-8")
    pid = os.fork()
    if pid == 0:  # the child dies by SIGKILL at `step`; it never returns into pytest
        try:
            promote(kb, staged, JOB, crash_at=step, use_exchange=False)
        finally:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


@pytest.mark.parametrize("step, live", [("renamed_staged_to_live", True), ("journal_written", False)])
def test_status_names_the_pending_promotion_until_recovery(svc, workspace, step, live):
    base = make_base(svc, workspace)
    kb = paths.kb_path(workspace, base.id)
    assert pending_promotion(str(workspace), base.id) is None
    killed_promotion(kb, step)

    pending = pending_promotion(str(workspace), base.id)
    assert pending == {"jobId": JOB, "newGenerationLive": live, "finish": "kctui doctor --fix"}
    data = base_status_json(svc, bases.get_base(svc, workspace, base.id))
    assert data["compilation"]["pendingPromotion"] == pending  # the API's and `kb show`'s JSON
    text = CliRunner().invoke(main, ["status", str(workspace)]).stdout
    assert f"⚠ promotion pending ({JOB})" in text and "`kctui doctor --fix` (or any host start) finishes it" in text
    assert ("the new generation is live at wiki/" in text) is live
    view = base_view(svc, bases.get_base(svc, workspace, base.id), None, 0)  # the app's queue pane
    assert view.promotion_pending is not None and view.promotion_pending.startswith(f"⚠ promotion pending ({JOB})")
    assert base_note(view) == view.promotion_pending

    fix(svc)  # recovery: finished or rolled back
    assert pending_promotion(str(workspace), base.id) is None
    assert "promotion pending" not in CliRunner().invoke(main, ["status", str(workspace)]).stdout


def test_a_running_jobs_own_promotion_is_no_warning_in_the_queue_pane(svc, workspace):
    """QA s31 #19: the journal of the promotion a running job is making flashed `⚠ promotion pending`."""
    import dataclasses

    base = make_base(svc, workspace)
    kb = paths.kb_path(workspace, base.id)
    killed_promotion(kb, "journal_written")  # the journal, as while a promotion runs
    record = bases.get_base(svc, workspace, base.id)
    assert base_view(svc, record, None, 0).promotion_pending is not None  # no job runs: a kill left it
    running = dataclasses.replace(record, active_job_id=JOB, phase="compiling")
    view = base_view(svc, running, None, 0)
    assert view.promotion_pending is None and "promotion pending" not in (base_note(view) or "")
