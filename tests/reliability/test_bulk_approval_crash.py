"""A kill -9 during a bulk approval (issue 13): a forked child bulk-approves several held updates (one
page promotion of all their pages) with $KCTUI_TEST_PROMOTION_CRASH_AT set to a step of
`kctui.publish.pages.PAGE_STEPS` and dies there; the parent runs start-up recovery and checks that

- every item is either applied or pending — all of them together, since they are one promotion;
- `wiki/` is valid, and every page is exactly its old or (for all of them) its new text;
- each applied page got exactly one new revision; a pending action can be run again.
"""

from __future__ import annotations

import os
import signal

import pytest

from kctui import paths
from kctui.publish.pages import PAGE_STEPS, page_journal_path, page_staging_path
from kctui.publish.promote import CRASH_ENV
from kctui.publish.validate import validate_staged_tree
from kctui.services import review, revisions
from kctui.services.recovery import recover_at_startup
from kctui.services.review_bulk import bulk_resolve, select_items
from tests.helpers.review import N, make_held

ROLLED_BACK = ("pages_staged", "page_journal_temp_written", "page_journal_written")


@pytest.fixture
def held(svc, workspace):
    return make_held(svc, workspace), None


def bulk_in_child_killed_at(step: str) -> None:
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            from kctui.config import Settings
            from kctui.core.clock import FakeClock
            from kctui.services.context import ServiceContext

            os.environ[CRASH_ENV] = step
            ctx = ServiceContext.open(clock=FakeClock(1_790_000_000_000_000), settings=Settings())
            sel = select_items(ctx, everything=True)
            bulk_resolve(ctx, sel.items, "approve", actor="human:ada")
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, f"child ended with {status}"


def texts(wiki):
    return {n: (wiki / f"concepts/lang{n}.md").read_text(encoding="utf-8") for n in range(N)}


@pytest.mark.parametrize("step", PAGE_STEPS)
def test_kill_during_a_bulk_approval_leaves_all_applied_or_all_pending(svc, workspace, held, step) -> None:
    b, _ = held
    kb, wiki = paths.kb_path(workspace, b.id), paths.wiki_path(workspace, b.id)
    before = texts(wiki)
    revs_before = {n: len(revisions.page_history(svc, workspace, b.id, f"lang{n}")) for n in range(N)}
    ids = [i.id for i in select_items(svc, everything=True).items]
    bulk_in_child_killed_at(step)
    report = recover_at_startup(svc)

    validate_staged_tree(wiki)  # the live wiki is a valid tree after recovery
    assert not page_journal_path(kb).exists() and not os.path.lexists(page_staging_path(kb))
    assert not list(paths.output_root(workspace, b.id).glob("review-*")), "a leftover decision"
    states = {review.get_item(svc, i).state for i in ids}
    after = texts(wiki)
    revs_after = {n: len(revisions.page_history(svc, workspace, b.id, f"lang{n}")) for n in range(N)}
    if step in ROLLED_BACK:
        assert states == {"open"} and after == before and revs_after == revs_before
        assert sorted(report.reviews_pending) == sorted(ids)
        out = bulk_resolve(svc, select_items(svc, everything=True).items, "approve", actor="human:ada")
        assert sorted(out.applied) == sorted(ids)  # and the action can simply be run again
    else:
        assert states == {"approved"}, report
        assert all("eol: 2029" in t and "compile_status: confirmed" in t for t in after.values())
        assert all(revs_after[n] == revs_before[n] + 1 for n in range(N))
        assert all(revisions.page_history(svc, workspace, b.id, f"lang{n}")[-1].body == after[n] for n in range(N))
        assert sorted(report.reviews_resolved) == sorted(ids)
