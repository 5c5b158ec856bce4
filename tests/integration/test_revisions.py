"""Every page write is an immutable revision; history and old revisions can be read back."""

from __future__ import annotations

import sqlite3

import pytest

from kctui import paths
from kctui.services import jobs, results, revisions
from kctui.services.errors import InvalidInput, NotFound
from tests.helpers import make_base, write_staged_page


def compile_with(svc, ws, kb_id, pages: dict[str, str]):
    jobs.request_compile(svc, ws, kb_id)
    _, job = jobs.claim(svc)
    for name, body in pages.items():
        write_staged_page(ws, kb_id, job.id, name, body, title=name)
    results.report_result(svc, ws, kb_id, job.id, "succeeded")
    return job


def test_history_records_creates_changes_and_removals(svc, clock, workspace):
    base = make_base(svc, workspace)
    j1 = compile_with(svc, workspace, base.id, {"alpha.md": "one", "beta.md": "b"})
    src = paths.sources_path(workspace, base.id)
    (src / "more.md").write_text("# more\n")
    clock.advance(60)
    j2 = compile_with(svc, workspace, base.id, {"alpha.md": "two"})
    hist = revisions.page_history(svc, workspace, base.id, "alpha")
    assert [(r.number, r.author) for r in hist] == [(1, j1.id), (2, j2.id)]
    assert "one" in revisions.page_revision(svc, workspace, base.id, "alpha", 1).body
    assert "two" in revisions.page_revision(svc, workspace, base.id, "alpha").body
    beta = revisions.page_history(svc, workspace, base.id, "beta")
    assert [r.deleted for r in beta] == [False, True]
    with pytest.raises(NotFound):
        revisions.page_revision(svc, workspace, base.id, "alpha", 9)
    with pytest.raises(NotFound):
        revisions.page_history(svc, workspace, base.id, "gamma")
    with pytest.raises(InvalidInput):
        revisions.page_history(svc, workspace, base.id, "../x")


def test_unchanged_page_gets_no_new_revision(svc, workspace):
    base = make_base(svc, workspace)
    compile_with(svc, workspace, base.id, {"alpha.md": "same"})
    (paths.sources_path(workspace, base.id) / "x.md").write_text("x")
    compile_with(svc, workspace, base.id, {"alpha.md": "same"})
    assert len(revisions.page_history(svc, workspace, base.id, "alpha")) == 1


def test_revisions_cannot_be_rewritten(svc, workspace):
    base = make_base(svc, workspace)
    compile_with(svc, workspace, base.id, {"alpha.md": "one"})
    with pytest.raises(sqlite3.IntegrityError, match="immutable"):
        with svc.store.write() as conn:
            conn.execute("UPDATE page_revisions SET body = 'forged'")
