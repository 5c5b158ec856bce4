"""Fixtures of the fuzz tests: the world (a real store with two bases, made through the services), the
real app under uvicorn (`live`) and the document it serves, loaded by schemathesis (`schema`)."""


from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis

from kctui import paths
from kctui.api.server import PREFIX, create_app
from kctui.core.models import CLAIMED_BY_EXTERNAL
from kctui.services import bases as bases_svc
from kctui.services import jobs as jobs_svc
from kctui.services import results as results_svc
from tests.integration.api.fuzz.world import INDEX, PAGE, TOKEN, World, open_ctx, write_text
from tests.integration.api.support import run_uvicorn


@pytest.fixture
def world(tmp_path: Path, state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> World:
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    sandbox = (tmp_path / "sandbox").resolve()
    ws_a, ws_b = sandbox / "ws-a", sandbox / "ws-b"
    for d in (ws_a, ws_b, sandbox / "empty-ws"):
        d.mkdir(parents=True)
    write_text(sandbox / "inbox" / "note.md", "# Inbox\n\nA note to copy.\n")
    write_text(sandbox / "lone.md", "# Lone\n\nOne file.\n")
    ctx = open_ctx()
    try:
        # alpha (manual): its manual job runs first and fails transiently, so a retry waits in the queue
        _, alpha = bases_svc.create_base(ctx, ws_a, "Alpha", description="the first base")
        write_text(Path(alpha.workspace) / ".a3s/kb/bases/alpha/sources/a.md", "# A\n\nAlpha is a letter.\n")
        jobs_svc.request_compile(ctx, ws_a, "alpha")
        # beta: smart_auto, one promoted generation, then a second job claimed by an external compiler
        _, beta = bases_svc.create_base(ctx, ws_b, "Beta", policy="smart_auto")
        sources = Path(beta.workspace) / ".a3s/kb/bases/beta/sources"
        write_text(sources / "b.md", "# B\n\nBeta follows alpha.\n")
        jobs_svc.request_compile(ctx, ws_b, "beta")
        claimed_base, first = jobs_svc.claim(ctx, claimed_by=CLAIMED_BY_EXTERNAL)
        results_svc.report_result(ctx, claimed_base.workspace, claimed_base.id, first.id, "failed",
                                  transient=True, error="fuzz setup: a transient failure")
        claimed_base, second = jobs_svc.claim(ctx, claimed_by=CLAIMED_BY_EXTERNAL)
        assert claimed_base.id == "beta"
        staged = paths.staged_wiki(Path(claimed_base.workspace), "beta", second.id)
        write_text(staged / "index.md", INDEX)
        write_text(staged / "concepts/beta.md", PAGE)
        changed, _, done = results_svc.report_result(ctx, claimed_base.workspace, "beta", second.id, "succeeded",
                                                     compiler_version="fuzz/1")
        assert changed and done.phase == "succeeded"
        write_text(sources / "c.md", "# C\n\nA later note.\n")
        jobs_svc.request_compile(ctx, ws_b, "beta")
        running_base, running = jobs_svc.claim(ctx, claimed_by=CLAIMED_BY_EXTERNAL, workspace=str(ws_b))
        assert running_base.id == "beta" and running.phase == "running"
        jobs = [(j.workspace, j.base_id, j.id) for j in jobs_svc.list_jobs(ctx)]
        assert len(jobs) == 4 and (running.workspace, "beta", running.id) in jobs
    finally:
        ctx.close()
    return World(sandbox=sandbox, workspaces=[alpha.workspace, beta.workspace, str(sandbox / "empty-ws")],
                 bases=[(alpha.workspace, "alpha"), (beta.workspace, "beta")], jobs=jobs,
                 claimed=[(running.workspace, "beta", running.id)])


@pytest.fixture
def live(world: World) -> Iterator[str]:
    with run_uvicorn(create_app(open_ctx, TOKEN)) as url:
        yield url


@pytest.fixture
def schema(live: str) -> Any:
    """The document as the running server serves it (token required), loaded by schemathesis."""
    loaded = schemathesis.openapi.from_url(f"{live}{PREFIX}/openapi.json",
                                           headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)
    loaded.validate()
    return loaded
