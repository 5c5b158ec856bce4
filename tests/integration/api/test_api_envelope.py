"""The protocol's envelope, token, body limit and field types; unknown fields, bad JSON, naming a workspace,
the read-only source changes, and the error envelope for I/O, database and unexpected errors (in-process
through `httpx.ASGITransport`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from kctui.api.server import PREFIX, create_app
from kctui.services import bases as bases_svc
from tests.integration.api.support import (
    TOKEN,
    claim,
    compile_base,
    data,
    error,
    new_base,
    queued_jobs,
    report,
    stage,
    summary,
)

# -- envelope, auth, limits, types ------------------------------------------------------------------

ROUTES = [
    ("GET", "/bases"), ("POST", "/bases"), ("POST", "/bases/kb/compilations"), ("GET", "/bases/kb/compilation"),
    ("PATCH", "/bases/kb/compilation-policy"), ("GET", "/bases/kb/source-changes"),
    ("GET", "/bases/kb/compilations/job-1-1"), ("POST", "/bases/kb/compilations/job-1-1/cancel"),
    ("POST", "/compilations/claim"), ("POST", "/bases/kb/compilations/job-1-1/result"), ("GET", "/no-such-route"),
]


def test_every_route_needs_the_token(live: str) -> None:
    with httpx.Client(base_url=live + PREFIX, trust_env=False) as raw:
        for method, path in ROUTES:
            for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN},
                            {"Authorization": f"Basic {TOKEN}"}, {"Authorization": f"Bearer {TOKEN}x"},
                            {"Authorization": f"Bearer {TOKEN[:-1]}"}, {"Authorization": "Bearer"}):
                r = raw.request(method, path, headers=headers, json={})
                error(r, 401)
                assert r.headers["www-authenticate"] == "Bearer", (method, path)
        assert raw.get("/bases", headers={"Authorization": f"bearer {TOKEN}"}).status_code == 200


def test_bodies_over_one_mib_are_413(api: httpx.Client, ws: str) -> None:
    big = {"workspace": ws, "name": "x", "padding": "p" * (1 << 20)}
    error(api.post("/bases", json=big), 413)
    error(api.post("/compilations/claim", content=b"{" + b" " * (1 << 20) + b"}"), 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while streaming
        yield b'{"workspace": "' + ws.encode() + b'", "pad": "'
        for _ in range(17):
            yield b"p" * 65536
        yield b'"}'

    r = api.post("/compilations/claim", content=chunks())
    assert "content-length" not in r.request.headers
    error(r, 413)
    assert "unknown field 'pad'" in error(api.post("/compilations/claim", json={"pad": "p" * 1000}), 400)


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        ("POST", "/bases", {"workspace": 5, "name": "x"}, "workspace"),
        ("POST", "/bases", {"workspace": "WS", "name": 7}, "name"),
        ("POST", "/bases", {"workspace": "WS", "name": "x", "description": ["d"]}, "description"),
        ("POST", "/bases", {"workspace": "WS", "name": "x", "compilationPolicy": True}, "compilationPolicy"),
        ("POST", "/bases", {"workspace": "WS", "name": "x", "paths": "one"}, "paths"),
        ("POST", "/bases", {"workspace": "WS", "name": "x", "paths": [1]}, "paths"),
        ("POST", "/bases", {"workspace": "relative/dir", "name": "x"}, "workspace"),
        ("POST", "/bases", {"workspace": "WS"}, "name"),
        ("POST", "/bases/kb/compilations", {"workspace": None}, "workspace"),
        ("PATCH", "/bases/kb/compilation-policy", {"workspace": "WS", "policy": 1}, "policy"),
        ("POST", "/compilations/claim", {"workspace": {"a": 1}}, "workspace"),
        ("POST", "/bases/kb/compilations/job-1-1/result", {"workspace": "WS", "outcome": 3}, "outcome"),
        ("POST", "/bases/kb/compilations/job-1-1/result", {"workspace": "WS", "outcome": "failed", "transient": 1}, "transient"),
        ("POST", "/bases/kb/compilations/job-1-1/result", {"workspace": "WS", "outcome": "failed", "error": 5}, "error"),
        ("POST", "/bases/kb/compilations/job-1-1/result", {"workspace": "WS", "outcome": "failed", "compilerVersion": 2}, "compilerVersion"),
        ("POST", "/bases/kb/compilations/job-1-1/result", {"workspace": "WS", "outcome": "failed", "errorCode": 2}, "errorCode"),
        ("POST", "/bases/kb/compilations/job-1-1/cancel", {}, "workspace"),
    ],
)
def test_wrong_types_are_400_naming_the_field(api, ws, method, path, body, field) -> None:
    body = {k: (ws if v == "WS" else v) for k, v in body.items()}
    message = error(api.request(method, path, json=body), 400)
    assert f"'{field}'" in message


def test_unknown_fields_and_bad_json_are_400(api, ws) -> None:
    assert error(api.post("/bases", json={"workspace": ws, "name": "Extra", "color": "blue"}), 400) == (
        "unknown field 'color'; this body takes workspace, name, description, compilationPolicy, paths "
        '(the host speaks contract version "1")')
    made = data(api.post("/bases", json={"workspace": ws, "name": "Extra"}))
    assert made["knowledgeBase"]["id"] == "extra"
    assert "unknown field 'future'" in error(api.post("/compilations/claim", json={"workspace": ws, "future": True}), 400)
    assert "JSON" in error(api.post("/compilations/claim", content=b"{not json"), 400)
    assert "object" in error(api.post("/compilations/claim", json=[1, 2]), 400)
    assert "workspace" in error(api.get("/bases/extra/compilation"), 400)
    assert "policy" in error(api.patch("/bases/extra/compilation-policy", json={"workspace": ws, "policy": "often"}), 400)
    changed = data(api.patch("/bases/extra/compilation-policy", json={"workspace": ws, "policy": "smart_auto"}))
    assert changed == {**changed, "changed": True, "job": None}
    assert changed["knowledgeBase"]["compilationPolicy"] == "smart_auto"


def test_naming_a_workspace_monitors_it(api, tmp_path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    assert data(api.get("/bases", params={"workspace": str(other)}))["total"] == 0
    assert data(api.post("/compilations/claim", json={"workspace": str(tmp_path)}))["claimed"] is False
    error(api.post("/compilations/claim", json={"workspace": str(tmp_path / "missing")}), 400)


def test_naming_a_workspace_adopts_its_bases_on_disk(api, tmp_path) -> None:
    other = tmp_path / "made-by-another-host"
    sources = other / ".a3s/kb/bases/ref-kb/sources"
    sources.mkdir(parents=True)
    (sources / "a.md").write_text("# A\n", encoding="utf-8")
    ws = str(other.resolve())
    assert summary(api, ws, "ref-kb")["phase"] == "source_ready"
    assert compile_base(api, ws, "ref-kb")["job"]["phase"] == "queued"
    error(api.get("/bases/ref-kb/compilation", params={"workspace": str(tmp_path / "absent")}), 404)


def test_source_changes_is_read_only(api, ws, make_ctx, clock) -> None:
    kb = new_base(api, ws, "Changes", {"a.md": "alpha\n", "b.md": "beta\n", "c.md": "gamma\n"})
    compile_base(api, ws, kb["id"])
    c = claim(api)
    stage(c)
    data(report(api, ws, c, outcome="succeeded"))
    src = Path(kb["sourcePath"])
    (src / "a.md").write_text("alpha, edited\n", encoding="utf-8")
    (src / "b.md").rename(src / "b-moved.md")
    (src / "c.md").unlink()
    (src / "d.md").write_text("delta\n", encoding="utf-8")
    clock.advance(3600)  # the fake clock is long past the files' mtimes: none is unstable
    before = summary(api, ws, kb["id"])
    first = data(api.get(f"/bases/{kb['id']}/source-changes", params={"workspace": ws}))
    expected = {"changed": True, "added": 1, "modified": 1, "deleted": 1, "renamed": 1, "totalChanged": 4,
                "previousFiles": 3, "currentFiles": 3, "safetyPause": None}
    assert {k: first[k] for k in expected} == expected
    assert isinstance(first["currentBytes"], int) and isinstance(first["unstablePaths"], list)
    second = data(api.get(f"/bases/{kb['id']}/source-changes", params={"workspace": ws}))
    assert second == first and summary(api, ws, kb["id"]) == before and not queued_jobs(make_ctx)


async def test_envelope_in_process(make_ctx, ws, monkeypatch) -> None:
    app = create_app(make_ctx, TOKEN)
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://kctui" + PREFIX, headers=headers) as c:
            r = await c.post("/bases", json={"workspace": ws, "name": "Inproc"})
            assert r.json()["code"] == 200 and r.json()["data"]["changed"] is True
            assert r.headers["content-type"] == "application/json"
            assert error(await c.get("/bases/nope/compilation", params={"workspace": ws}), 404).startswith("no knowledge base")
            assert error(await c.delete("/compilations/claim"), 405)
            assert error(await c.get("/elsewhere"), 404)
            assert (await c.get("/bases")).json()["data"]["total"] == 1

            def broken(*args: Any, **kwargs: Any) -> Any:
                raise OSError(28, "No space left on device", "/state/kctui.sqlite3")

            monkeypatch.setattr(bases_svc, "list_bases", broken)
            assert "No space left" in error(await c.get("/bases"), 500)

            def locked(*args: Any, **kwargs: Any) -> Any:
                raise sqlite3.OperationalError("disk I/O error")

            monkeypatch.setattr(bases_svc, "list_bases", locked)
            assert "database error" in error(await c.get("/bases"), 500)

            def bug(*args: Any, **kwargs: Any) -> Any:
                raise KeyError("secret internals")

            monkeypatch.setattr(bases_svc, "list_bases", bug)
            r = await c.get("/bases")
            assert "secret" not in error(r, 500)
    finally:
        app.state.contexts.close_all()
