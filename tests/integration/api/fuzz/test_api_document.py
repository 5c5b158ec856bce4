"""The OpenAPI document itself: valid OpenAPI 3.0, every route documented and every documented route
served (with the same path parameters), and served with the token only."""


from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import schemathesis
from starlette.routing import Route

from kctui.api.openapi import openapi_document
from kctui.api.server import MAX_BODY, PREFIX, create_app
from tests.integration.api.fuzz.world import TOKEN, World, open_ctx

# -- the document itself ------------------------------------------------------------------------------


def test_document_is_valid_openapi_3() -> None:
    doc = openapi_document(PREFIX, max_body=MAX_BODY)
    schemathesis.openapi.from_dict(doc).validate()  # against the OpenAPI 3.0 meta-schema
    try:
        from openapi_spec_validator import validate  # noqa: PLC0415 - a stricter check when it is installed
    except ImportError:
        pass
    else:
        validate(openapi_document(PREFIX, max_body=MAX_BODY))
    # structural checks that do not depend on a validator
    assert doc["openapi"].startswith("3.0.") and doc["info"]["version"] == "1"
    assert doc["security"] == [{"bearerAuth": []}]
    assert doc["components"]["securitySchemes"]["bearerAuth"] == {**doc["components"]["securitySchemes"]["bearerAuth"],
                                                                 "type": "http", "scheme": "bearer"}
    schemas = doc["components"]["schemas"]
    assert schemas["ResultBody"]["properties"]["outcome"]["enum"] == ["succeeded", "failed"]
    assert set(schemas["ResultBody"]["required"]) == {"workspace", "outcome"}
    assert schemas["PolicyBody"]["properties"]["policy"]["enum"] == ["manual", "smart_auto"]
    assert set(schemas["CreateBaseBody"]["required"]) == {"workspace", "name"}
    assert set(schemas["Error"]["required"]) == {"code", "error", "message"}
    assert set(schemas["Claim"]["required"]) == {"claimed", "contractVersion", "workspaceRoot", "knowledgeBasePath",
                                                 "sourcePath", "previousWikiPath", "outputPath", "job"}

    def refs(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            if "$ref" in node:
                yield node["$ref"]
            for v in node.values():
                yield from refs(v)
        elif isinstance(node, list):
            for v in node:
                yield from refs(v)

    for ref in refs(doc):
        _, section, kind, name = ref.split("/")
        assert name in doc[section][kind], f"dangling {ref}"
    op_ids = [op["operationId"] for item in doc["paths"].values() for op in item.values()]
    assert len(op_ids) == len(set(op_ids))
    for item in doc["paths"].values():
        for op in item.values():
            assert "200" in op["responses"] and "401" in op["responses"]
            for code in op["responses"]:
                assert code == "200" or int(code) >= 400


def test_every_route_is_documented_and_every_documented_route_exists(tmp_path: Path) -> None:
    app = create_app(open_ctx, TOKEN)
    served = {(r.path, m.lower()) for r in app.routes if isinstance(r, Route) for m in r.methods if m != "HEAD"}
    doc = openapi_document(PREFIX, max_body=MAX_BODY)
    documented = {(p, m) for p, item in doc["paths"].items() for m in item}
    assert served == documented
    for route in app.routes:  # the path parameters are the same names
        if isinstance(route, Route):
            in_path = set(route.param_convertors)
            for method in route.methods - {"HEAD"}:
                op = doc["paths"][route.path][method.lower()]
                assert {p["name"] for p in op.get("parameters", []) if p["in"] == "path"} == in_path


async def test_the_document_is_served_with_the_token_only(world: World) -> None:
    app = create_app(open_ctx, TOKEN)
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://kctui" + PREFIX) as c:
            denied = await c.get("/openapi.json")
            assert denied.status_code == 401 and set(denied.json()) == {"code", "error", "message"}
            served = await c.get("/openapi.json", headers={"Authorization": f"Bearer {TOKEN}"})
            assert served.status_code == 200 and served.headers["content-type"] == "application/json"
            assert served.json() == json.loads(json.dumps(openapi_document(PREFIX, max_body=MAX_BODY)))
    finally:
        app.state.contexts.close_all()
