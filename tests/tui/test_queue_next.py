"""The queue pane's Next after `p` switches a base to smart_auto (s31 G, item 6): the next automatic
compile, or why there is none — never a bare "—"."""

from __future__ import annotations

import pytest

from kctui.services import bases
from tests.tui.fixtures import SIZE, make_app, ready, select_base, settle, world


@pytest.fixture
def data(svc, clock, tmp_path):
    return world(svc, clock, tmp_path, running=False)


def _next_cell(app, kb_id: str) -> str:
    table = app.main.queue.bases
    key = next(k for k in table.keys() if k.endswith("\0" + kb_id))
    return table.get_row(key)[3].plain.strip()


@pytest.mark.parametrize(("kb_id", "cell", "words"), [
    ("langs", "on change", "next automatic compile when a source changes"),  # compiled, nothing changed since
    ("inbox", "on scan", "next automatic compile once its sources are scanned"),  # never compiled nor scanned
    ("papers", "due", "next automatic compile due"),  # a failed compile, its changes still pending
])
async def test_next_says_when_or_why_not_after_switching_to_smart_auto(svc, clock, data, kb_id, cell, words):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, kb_id)
        await pilot.press("p")
        await settle(pilot)
        pilot.app.poller.poll_now()
        await settle(pilot)
        assert bases.get_base(svc, data["ws"], kb_id).policy == "smart_auto"
        assert _next_cell(pilot.app, kb_id) == cell
        assert words in pilot.app.main.queue.query_one("#base-line")._content.plain
