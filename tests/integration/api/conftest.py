"""Fixtures of the protocol tests: a state directory, service contexts sharing a FakeClock (the root
conftest's `clock`), the real app under uvicorn on 127.0.0.1 (`live`), a client with the token (`api`),
and a workspace folder (`ws`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kctui import paths
from kctui.api.server import PREFIX, create_app
from kctui.config import Settings
from kctui.core.clock import FakeClock
from kctui.services.context import ServiceContext
from kctui.store.db import Store
from tests.integration.api.support import TOKEN, run_uvicorn


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KCTUI_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("KCTUI_CONFIG_DIR", str(tmp_path / "config"))
    for var in ("KCTUI_LEASE_SECONDS", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path / "state"


@pytest.fixture
def make_ctx(state: Path, clock: FakeClock):
    made: list[ServiceContext] = []

    def factory() -> ServiceContext:
        ctx = ServiceContext(store=Store.open(paths.database_file()), clock=clock, settings=Settings())
        made.append(ctx)
        return ctx

    yield factory
    for ctx in made:
        ctx.close()


@pytest.fixture
def live(make_ctx) -> Iterator[str]:
    with run_uvicorn(create_app(make_ctx, TOKEN)) as url:
        yield url


@pytest.fixture
def api(live: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live + PREFIX, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10,
                      trust_env=False) as c:
        yield c


@pytest.fixture
def ws(tmp_path: Path) -> str:
    path = tmp_path / "workspace"
    path.mkdir()
    return str(path.resolve())
