"""A queue row's view of a base (kctui.ui.messages.BaseView) for the tests of its formatting: a settled,
manual base unless the test says otherwise."""

from __future__ import annotations

from kctui.ui.messages import BaseView


def view(**kw) -> BaseView:  # noqa: ANN003
    values = dict(workspace="/w", id="kb", name="KB", policy="manual", phase="succeeded", paused_reason=None,
                  pending=False, pending_counts=(), next_auto_us=None, next_retry_us=None, active_job_id=None,
                  follow_up=False, last_error_words=None, open_items=0)
    values.update(kw)
    return BaseView(**values)
