"""The queue pane's Next column names a base's next scheduled pass when nothing sooner is due (issue 16)."""

from __future__ import annotations

from kctui.ui.format import base_next
from tests.helpers.base_views import view

US = 1_000_000


def test_next_column_shows_the_schedule():
    now = 1_000 * US
    assert base_next(view(), now) == "manual"
    assert base_next(view(next_scheduled_us=now + 3 * 3600 * US), now).startswith("sched in ")
    assert base_next(view(next_scheduled_us=now - US), now) == "sched due"
    # a retry or a pending automatic compile comes first
    assert base_next(view(next_retry_us=now + 60 * US, next_scheduled_us=now + US), now).startswith("retry")
    assert not base_next(view(policy="smart_auto", next_auto_us=now + 60 * US, next_scheduled_us=now + US),
                         now).startswith("sched")
