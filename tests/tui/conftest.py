"""The Textual tests' shared fixture: the demo knowledge base, compiled twice by the built-in compiler."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from kctui import paths
from kctui.services import jobs
from kctui.services.local_transport import LocalTransport
from kctui.services.worker import run_worker
from tests.tui.fixtures import make_base

DEMO = Path(__file__).resolve().parents[2] / "kctui" / "demo_sources"


def compile_now(svc, ws: Path, kb_id: str) -> None:
    jobs.request_compile(svc, ws, kb_id)
    outcomes = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
    assert [o.result for o in outcomes] == ["succeeded"], outcomes


@pytest.fixture
def demo(svc, clock, tmp_path):
    ws = tmp_path / "notes"
    ws.mkdir()
    ws = ws.resolve()
    files = {p.name: p.read_text(encoding="utf-8") for p in sorted(DEMO.iterdir()) if p.is_file()}
    base = make_base(svc, ws, "Demo", files)
    compile_now(svc, ws, base.id)
    clock.advance(3600)
    cycle = paths.sources_path(ws, base.id) / "python-release-cycle.md"
    text = cycle.read_text(encoding="utf-8")
    assert "| 2029-10-31  |\n" in text
    cycle.write_text(text.replace("| 2029-10-31  |\n", "| 2029-10-31  |\n| 3.14  | 2025-10-07   | 2030-10-31  |\n"),
                     encoding="utf-8")
    compile_now(svc, ws, base.id)
    clock.advance(60)
    make_base(svc, ws, "Inbox", {"todo.md": "# Todo\n"})  # never compiled: no wiki
    return {"ws": ws, "demo": base.id}
