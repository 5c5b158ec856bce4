"""The MCP tools' own behaviour, in process (`kctui.mcp_server.tools.Tools`, what `kctui mcp` serves):
a compile goes through a running host when there is one (here: the host lock held and a built-in
worker running, as in `kctui serve`) and runs in process otherwise; failures carry their closed codes."""

from __future__ import annotations

import threading

import pytest

from kctui.mcp_server.tools import FAILURE_CODES, ToolFailure, Tools
from kctui.services.hostlock import HostLock
from kctui.services.local_transport import LocalTransport
from kctui.services.worker import run_worker
from tests.helpers import make_base


@pytest.fixture
def tools(svc, workspace, clock):
    from kctui.config import Settings
    from kctui.services.context import ServiceContext

    make_base(svc, workspace, "Notes", files={"a.md": "# Alpha\n\nAlpha is a letter of the Greek alphabet.\n"})
    return Tools([str(workspace)], agent="agent:test",
                 ctx_factory=lambda: ServiceContext.open(clock=clock, settings=Settings()))


def test_with_a_running_host_the_compile_is_its_job(tools, svc) -> None:
    lock = HostLock(role="test host")
    assert lock.try_acquire()
    stop = threading.Event()
    host = threading.Thread(target=run_worker, kwargs=dict(transport=LocalTransport(svc.__class__.open(
        clock=svc.clock, settings=svc.settings)), stop_event=stop), daemon=True)
    host.start()
    try:
        out, text = tools.compile_knowledge_base(None, "notes")
    finally:
        stop.set()
        host.join(10)
        lock.release()
    assert out.phase == "succeeded" and out.brief and out.brief_job_id == out.job_id
    assert text.startswith(f"compile {out.job_id} of notes: succeeded")


def test_without_a_host_it_compiles_in_process(tools) -> None:
    out, _ = tools.compile_knowledge_base(None, "notes")
    assert out.phase == "succeeded" and out.changed and "a.md" in out.brief
    again, text = tools.compile_knowledge_base(None, "notes")  # a person's request always runs a pass
    assert again.phase == "succeeded" and again.job_id != out.job_id and again.brief_job_id == again.job_id
    assert "0 added" in again.brief
    lock = HostLock()
    assert lock.try_acquire()  # the host lock was released after the pass
    lock.release()


@pytest.mark.parametrize("call, code", [
    (lambda t: t.get_change_brief(None, "nope"), "not_found"),
    (lambda t: t.list_knowledge_pages(None, "notes", page_class="chapter"), "invalid_input"),
    (lambda t: t.resolve_conflict(999, "keep", 1), "not_found"),
    (lambda t: t.resolve_conflict(1, "maybe", 1), "invalid_input"),
    (lambda t: t.get_context(None, "notes", "alpha", budget=10), "invalid_input"),
])
def test_failures_carry_closed_codes(tools, call, code) -> None:
    with pytest.raises(ToolFailure) as exc:
        call(tools)
    assert exc.value.code == code and code in FAILURE_CODES and str(exc.value).startswith(f"[{code}] ")


def test_a_workspace_is_needed_when_several_are_served(svc, workspace, tmp_path, clock) -> None:
    from kctui.config import Settings
    from kctui.services.context import ServiceContext

    make_base(svc, workspace, "Notes")
    other = tmp_path / "other"
    other.mkdir()
    make_base(svc, other.resolve(), "Notes")
    tools = Tools([str(workspace), str(other.resolve())],
                  ctx_factory=lambda: ServiceContext.open(clock=clock, settings=Settings()))
    with pytest.raises(ToolFailure) as exc:
        tools.list_knowledge_pages(None, "notes")
    assert exc.value.code == "invalid_input" and "name the workspace" in exc.value.message


def test_a_dry_run_says_what_a_compile_would_change_and_publishes_nothing(tools, workspace) -> None:
    out, text = tools.compile_knowledge_base(None, "notes", dry_run=True)
    assert out.phase == "succeeded" and out.changed is False and out.job_id.startswith("dry-run-")
    assert "a.md" in (out.brief or "") and text.startswith(f"dry run {out.job_id} of notes: nothing published")
    wiki = next(workspace.glob(".a3s/kb/bases/notes/wiki"), None)
    assert wiki is None or not any(wiki.glob("*/*.md"))  # nothing promoted
    real, _ = tools.compile_knowledge_base(None, "notes")
    assert real.phase == "succeeded" and real.changed  # the real pass still has everything to do
