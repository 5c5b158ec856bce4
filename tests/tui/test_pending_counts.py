"""The app and `kctui status` agree on pending changes (QA 14): the last scan's counts, made against the
snapshot the last compile request accepted, are shown only while the base has changes to compile (or is
paused, holding them back)."""

from __future__ import annotations

import pytest

from kctui.ui.format import base_changes, base_line
from tests.helpers.base_views import view

DELETED = (("added", 0), ("modified", 0), ("deleted", 3), ("renamed", 0), ("totalChanged", 3))


@pytest.mark.parametrize(("kw", "cell", "line_has_pending"), [
    # a cancelled compile accepted 3 new files, then they were deleted: nothing differs from the last compile
    (dict(pending=False, pending_counts=DELETED), "—", False),
    (dict(pending=True, pending_counts=DELETED), "3 changed", True),
    (dict(pending=True, pending_counts=()), "yes", False),
    (dict(pending=False, phase="paused", paused_reason="3 of 4 files deleted", pending_counts=DELETED), "3 changed", True),
])
def test_counts_only_while_something_is_pending(kw: dict, cell: str, line_has_pending: bool) -> None:
    b = view(**kw)
    assert base_changes(b) == cell
    assert ("pending: 3 deleted" in base_line(b, 0)) is line_has_pending
