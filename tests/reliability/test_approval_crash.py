"""A kill -9 while an approval is being published (trust.md §4: an approved change reaches `wiki/` only
through promotion). A forked child approves a held update with $KCTUI_TEST_PROMOTION_CRASH_AT set to a
step of the page-level promotion (`kctui.publish.pages.PAGE_STEPS`: an approval writes only the pages
it changes) and dies there; the parent runs start-up recovery.

- killed before the first page is moved into place: the item is still pending and `wiki/` is exactly its previous generation;
  approving again then works;
- killed after it (recovery rolls the rest forward from the journal): the item is resolved and the page's new
  revision recorded — never pending with its body already published.
"""

from __future__ import annotations

import os
import signal
import threading

import pytest

from kctui import paths
from kctui.publish.pages import PAGE_STEPS
from kctui.publish.promote import CRASH_ENV
from kctui.services import jobs, review, revisions
from kctui.services.local_transport import LocalTransport
from kctui.services.recovery import recover_at_startup
from kctui.services.worker import run_worker
from tests.helpers import make_base
from tests.helpers.wiki import tree as snapshot

WIDGET = ("# Widget Server\n\n| cycle | eol | latest |\n| --- | --- | --- |\n"
          "| 1.10 | 2024-11-06 | 1.10.2 |\n| 2.1 | 2026-03-01 | 2.1.4 |\n")
BEFORE = ("pages_staged", "page_journal_temp_written", "page_journal_written")
AFTER = ("page_renamed", "pages_renamed", "page_folders_fsynced", "page_staging_deleted", "page_journal_deleted")


def held_item(svc, workspace):  # noqa: ANN001
    base = make_base(svc, workspace, "Widgets", files={"widget.md": WIDGET})

    def compile_once() -> None:
        jobs.request_compile(svc, workspace, base.id)
        [outcome] = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
        assert outcome.result == "succeeded"

    compile_once()
    (paths.sources_path(workspace, base.id) / "widget.md").write_text(WIDGET.replace("2.1.4", "2.1.5"))
    compile_once()
    item = next(i for i in review.list_items(svc) if i.page_path == "entities/widget-server.md")
    assert item.kind == "held" and item.update_kind == "revise"
    return base, item


def approve_in_child_killed_at(step: str, item_id: int) -> None:
    pid = os.fork()
    if pid == 0:  # the child: its own store connection, killed by SIGKILL inside the promotion
        code = 3
        try:
            from kctui.config import Settings
            from kctui.core.clock import FakeClock
            from kctui.services.context import ServiceContext

            os.environ[CRASH_ENV] = step
            ctx = ServiceContext.open(clock=FakeClock(1_790_000_000_000_000), settings=Settings())
            review.resolve(ctx, item_id, "approve", actor="human:ada")
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, f"child ended with {status}"


@pytest.mark.parametrize("step", BEFORE + AFTER)
def test_kill_during_an_approval_leaves_one_consistent_outcome(svc, workspace, step) -> None:
    assert step in PAGE_STEPS
    base, item = held_item(svc, workspace)
    wiki = paths.wiki_path(workspace, base.id)
    before = snapshot(wiki)
    revs_before = revisions.page_history(svc, workspace, base.id, "widget-server")
    approve_in_child_killed_at(step, item.id)
    report = recover_at_startup(svc)
    after = review.get_item(svc, item.id)
    revs_after = revisions.page_history(svc, workspace, base.id, "widget-server")
    page = (wiki / item.page_path).read_text(encoding="utf-8")
    assert not [p for p in paths.output_root(workspace, base.id).glob("review-*")], "a leftover decision"
    if step in BEFORE:
        assert after.state == "open" and snapshot(wiki) == before
        assert revs_after == revs_before and "2.1.5" not in page
        done = review.resolve(svc, item.id, "approve", actor="human:ada")  # and it can still be approved
        assert done.state == "approved" and "2.1.5" in (wiki / item.page_path).read_text(encoding="utf-8")
    else:
        assert after.state == "approved" and after.resolved_by == "human:ada", report
        assert "— latest: 2.1.5 ^[widget.md:L6-L6]" in page and "compile_status: confirmed" in page
        assert len(revs_after) == len(revs_before) + 1 and revs_after[-1].body == page
        assert revs_after[-1].author.startswith(f"review:{item.id}:approve:human:ada")
        assert item.id in report.reviews_resolved
        with pytest.raises(Exception, match="already approved"):
            review.resolve(svc, item.id, "approve")
