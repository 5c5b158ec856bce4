"""Shared fixtures: every test gets its own state directory and a fake clock; no colour or Textual
environment leaks in from the developer's shell."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# (TEXTUAL_SNAPSHOT_* stay: the snapshot plugin hands its folder to the parallel workers through them)
for _var in [v for v in os.environ if (v.startswith("TEXTUAL") and not v.startswith("TEXTUAL_SNAPSHOT"))
             or v in ("NO_COLOR", "FORCE_COLOR")]:
    os.environ.pop(_var, None)
for _var in [v for v in os.environ if v.startswith("KCTUI_")]:
    os.environ.pop(_var, None)

SHARED = Path(__file__).resolve().parents[1].parent / "shared"

# Fixtures shared across test modules live beside their helpers (tests/helpers/), registered here.
pytest_plugins = ["tests.helpers.model", "tests.helpers.sse", "tests.helpers.answers"]


@pytest.fixture(autouse=True)
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    state = tmp_path / "state"
    monkeypatch.setenv("KCTUI_STATE_DIR", str(state))
    monkeypatch.setenv("KCTUI_CONFIG_DIR", str(tmp_path / "config"))
    # e / E in a review item run $EDITOR / $PAGER: never the developer's own in a test (issue 35)
    monkeypatch.setenv("EDITOR", "true")
    monkeypatch.setenv("PAGER", "true")
    monkeypatch.delenv("VISUAL", raising=False)
    return state


@pytest.fixture
def clock():
    from kctui.core.clock import FakeClock

    return FakeClock()


@pytest.fixture
def svc(clock):
    from kctui.config import Settings
    from kctui.services.context import ServiceContext

    ctx = ServiceContext.open(clock=clock, settings=Settings())
    yield ctx
    ctx.close()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws.resolve()


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"the shared corpus is not at {SHARED} (clone with ../shared beside the project)")
    return SHARED


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the machine has cores. Many tests wait on child processes (kill
    loops, signal rounds, servers) and the extra worker uses those waits; the suite stays correct with
    any count (each test keeps its state in its own tmp_path)."""
    return (os.cpu_count() or 1) + 1
