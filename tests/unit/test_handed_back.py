"""A compile a signal stopped and handed back reads "stopped (handed back, retry queued)", not a crash
(QA session 30 #12), in the CLI's and the app's words; a real crash still reads as one."""

from __future__ import annotations

import pytest

from kctui.cli.kb import stopped_phase
from kctui.core.handed_back import BY_HOST, BY_WORKER, handed_back, stopped_words
from kctui.ui.format import base_cells, base_line, job_outcome
from kctui.ui.messages import BaseView, JobView


@pytest.mark.parametrize("phase, code, error, expected", [
    ("failed", "compiler_crashed", BY_WORKER, True),
    ("failed", "compiler_crashed", BY_HOST, True),
    ("failed", "compiler_crashed", "compiler crashed: KeyError: 'x'", False),
    ("failed", "compiler_crashed", "the built-in compiler was interrupted (host restarted)", False),  # a kill -9
    ("failed", "disk_full", BY_WORKER, False),
    ("succeeded", "compiler_crashed", BY_WORKER, False),
    ("failed", None, None, False),
])
def test_handed_back(phase, code, error, expected):
    assert handed_back(phase, code, error) is expected


def test_the_words():
    assert stopped_words(True) == "stopped (handed back, retry queued)"
    assert stopped_words(False) == "stopped (handed back)"


@pytest.mark.parametrize("compilation, expected", [
    ({"phase": "failed", "lastErrorCode": "compiler_crashed", "lastError": BY_WORKER, "nextRetryAt": "2026-12-07T18:01:30Z"},
     "◔ stopped (handed back, retry queued)"),
    ({"phase": "failed", "lastErrorCode": "compiler_crashed", "lastError": BY_HOST, "nextRetryAt": None},
     "⚠ stopped (handed back)"),
    ({"phase": "failed", "lastErrorCode": "compiler_crashed", "lastError": "compiler crashed: boom", "nextRetryAt": None}, None),
])
def test_status_phase_line(compilation, expected):
    assert stopped_phase(compilation) == expected


def base(**kw) -> BaseView:
    fields = dict(workspace="/w", id="big", name="big", policy="manual", phase="failed", paused_reason=None,
                  pending=True, pending_counts=(), next_auto_us=None, next_retry_us=30_000_000, active_job_id=None,
                  follow_up=False, last_error_words="the compiler stopped without reporting (crash or restart)",
                  open_items=0)
    return BaseView(**{**fields, **kw})


def test_the_queue_pane_says_stopped_and_handed_back():
    cells = [c.plain for c in base_cells(base(stopped=True), 0, {})]
    assert cells[1] == "◔ stopped" and cells[-1] == "handed back, retry queued"
    assert "◔ stopped · handed back, retry queued" in base_line(base(stopped=True), 0)
    crashed = [c.plain for c in base_cells(base(), 0, {})]
    assert crashed[1] == "✘ failed" and "crash" in crashed[-1]


def test_the_jobs_pane_says_stopped():
    job = JobView(id="job-1-37", workspace="/w", base_id="big", trigger="manual", phase="failed", created_at=0,
                  not_before=None, started_at=0, completed_at=1, error=BY_WORKER,
                  error_words="the compiler stopped without reporting (crash or restart)", cancel_requested=False)
    assert job_outcome(JobView(**{**job.__dict__, "stopped": True}), 2) == "◔ stopped (handed back)"
    assert job_outcome(job, 2).startswith("✘ failed: the compiler stopped without reporting")
