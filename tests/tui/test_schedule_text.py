"""The queue pane's Next column names a base's next scheduled pass when nothing sooner is due (issue 16)."""

from __future__ import annotations

from kctui.ui.format import base_next
from kctui.ui.messages import BaseView

US = 1_000_000


def view(**kw) -> BaseView:
    values = dict(workspace="/w", id="kb", name="KB", policy="manual", phase="succeeded", paused_reason=None,
                  pending=False, pending_counts=(), next_auto_us=None, next_retry_us=None, active_job_id=None,
                  follow_up=False, last_error_words=None, open_items=0)
    values.update(kw)
    return BaseView(**values)


def test_next_column_shows_the_schedule():
    now = 1_000 * US
    assert base_next(view(), now) == "manual"
    assert base_next(view(next_scheduled_us=now + 3 * 3600 * US), now).startswith("sched in ")
    assert base_next(view(next_scheduled_us=now - US), now) == "sched due"
    # a retry or a pending automatic compile comes first
    assert base_next(view(next_retry_us=now + 60 * US, next_scheduled_us=now + US), now).startswith("retry")
    assert not base_next(view(policy="smart_auto", next_auto_us=now + 60 * US, next_scheduled_us=now + US),
                         now).startswith("sched")
