"""The OpenAPI 3.0 description of the loopback protocol (host.md §6, contract version "1"), generated.

`openapi_document()` builds the document from the route table (kctui.api.routes: paths, methods, path and
query parameters, operation ids, documented errors) and the pydantic models of the request bodies
(kctui.api.bodies, the same models that check every request) and of the answers (kctui.api.answers).
The server answers it at `GET /api/v1/knowledge/openapi.json` (token required like every route); the fuzz
tests generate their requests from it and check every answer against it.

Conventions the document states once rather than on every field:

- Request bodies are JSON objects; an unknown field is a 400 naming it (`additionalProperties: false`).
- An optional field sent as `null` counts as absent (such fields are `nullable`); a required field
  that is `null` or missing is a 400 naming it.
- Answers are wrapped in the envelope: success `{code, message, data}`, error `{code, error, message}`.
  The shapes of `data` list the contract's fields as required; kctui's own extra fields are described
  as optional properties (clients ignore what they do not know).
- `openapi.json` itself answers the raw document (not wrapped), as tools expect.

pydantic writes JSON Schema 2020-12; `openapi_schema` turns it into OpenAPI 3.0's dialect (`nullable`
instead of a null type, `enum` instead of `const`, no `$ref` siblings, no titles).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from kctui.api.answers import OPENAPI_VERSION, Error, OpenApiDocument
from kctui.api.envelope import MAX_BODY, PREFIX
from kctui.api.route_table import ApiRoute
from kctui.api.routes import ROUTES
from kctui.core.ids import JOB_ID_RE, KB_ID_RE
from kctui.core.models import CONTRACT_VERSION

DEFAULT_PREFIX = PREFIX
DEFAULT_MAX_BODY = MAX_BODY
_REF = "#/components/schemas/"
_NULL = {"type": "null"}
_COMBINATIONS = ("anyOf", "oneOf", "allOf")

_ERROR_WORDS = {
    "400": "invalid request: a wrong type, a missing field, a malformed body or an unusable value "
           "(the field is named)",
    "401": "the bearer token is missing or wrong",
    "403": "the route answers clients on this machine only (loopback)",
    "404": "unknown knowledge base, job or workspace",
    "409": "conflict: the job is not running, no longer active, or was cancelled, a dry run of the base "
           "already runs, or the source name exists (nothing changed)",
    "413": "the request body is too large",
    "500": "an I/O or database error in the host",
}

PATH_PARAMETERS = {
    "id": {"name": "id", "in": "path", "required": True, "description": "the knowledge base's id",
           "schema": {"type": "string", "pattern": KB_ID_RE.pattern}},
    "jobId": {"name": "jobId", "in": "path", "required": True,
              "schema": {"type": "string", "pattern": JOB_ID_RE.pattern}},
    "slug": {"name": "slug", "in": "path", "required": True, "description": "the page's slug",
             "schema": {"type": "string", "minLength": 1, "maxLength": 200}},
}
QUERY_WORKSPACE = {
    "required": {"name": "workspace", "in": "query", "required": True,
                 "schema": {"type": "string", "pattern": "^/", "description": "an absolute path"},
                 "description": "the workspace (an absolute path); naming it adds it to the monitored set"},
    "optional": {"name": "workspace", "in": "query", "required": False,
                 "schema": {"type": "string", "pattern": "^(/|$)",
                            "description": "an absolute path; empty means not given"},
                 "description": "only the bases of this workspace (default: every monitored workspace)"},
}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": _REF + name}


def openapi_schema(node: Any) -> Any:
    """A pydantic (JSON Schema 2020-12) schema in OpenAPI 3.0's dialect."""
    if isinstance(node, list):
        return [openapi_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    node, nullable = _without_null(dict(node))
    out = _keywords(node)
    if "$ref" in out and len(out) > 1:  # OpenAPI 3.0 ignores the siblings of a $ref
        out["allOf"] = [{"$ref": out.pop("$ref")}]
    if nullable:
        _make_nullable(out)
    return out


def _keywords(node: dict[str, Any]) -> dict[str, Any]:
    """Each keyword in OpenAPI 3.0's dialect: no titles or null defaults, `enum` for `const`, subschemas
    converted."""
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" or (key == "default" and value is None):
            continue
        if key == "const":
            out.setdefault("enum", [value])
        elif key == "properties":
            out[key] = {name: openapi_schema(schema) for name, schema in value.items()}
        elif key in ("items", "additionalProperties", "not") and isinstance(value, dict) or key in _COMBINATIONS:
            out[key] = openapi_schema(value)
        else:
            out[key] = value
    return out


def _without_null(node: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The schema without its null branch (`X | None`: X; always null: an enum of null), and whether
    it had one."""
    if _NULL in node.get("anyOf", []):  # `X | None`: X, nullable
        rest = [b for b in node.pop("anyOf") if b != _NULL]
        if len(rest) == 1 and "$ref" not in rest[0]:
            node = {**rest[0], **node}
        else:
            node["allOf" if len(rest) == 1 else "anyOf"] = rest
        return node, True
    if node.get("type") == "null":  # always null
        return {**node, "type": "object", "enum": [None]}, True
    return node, False


def _make_nullable(out: dict[str, Any]) -> None:
    out["nullable"] = True
    if "enum" in out and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]  # a nullable enum lists null, as OpenAPI 3.0.3 requires


def _models(routes: list[ApiRoute]) -> list[type[BaseModel]]:
    found: list[type[BaseModel]] = [Error, OpenApiDocument]
    for route in routes:
        answers = route.answer if isinstance(route.answer, tuple) else (route.answer,)
        for model in (route.body, *answers):
            if model is not None and model not in found:
                found.append(model)
    return found


def _schemas(routes: list[ApiRoute]) -> dict[str, Any]:
    _, top = models_json_schema([(m, "validation") for m in _models(routes)], ref_template=_REF + "{model}")
    return {name: openapi_schema(schema) for name, schema in top["$defs"].items()}


def _envelope(data: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": ["code", "message", "data"], "additionalProperties": False,
            "properties": {"code": {"type": "integer", "minimum": 200, "maximum": 299},
                           "message": {"type": "string", "minLength": 1}, "data": data}}


def _operation(route: ApiRoute) -> dict[str, Any]:
    if route.answer is None:  # the document itself, raw
        done = {"description": "the document", "content": {"application/json": {"schema": _ref("OpenApiDocument")}}}
    else:
        data = ({"anyOf": [_ref(m.__name__) for m in route.answer]} if isinstance(route.answer, tuple)
                else _ref(route.answer.__name__))
        done = {"description": "done", "content": {"application/json": {"schema": _envelope(data)}}}
    op: dict[str, Any] = {
        "operationId": route.operation_id,
        "summary": route.summary,
        "responses": {"200": done, **{code: {"$ref": f"#/components/responses/E{code}"} for code in route.errors}},
    }
    if route.description:
        op["description"] = route.description
    params = [PATH_PARAMETERS[name] for name in re.findall(r"{(\w+)}", route.path)]
    if route.query:
        params.append(QUERY_WORKSPACE[route.query])
    if params:
        op["parameters"] = params
    if route.body is not None:
        op["requestBody"] = {"required": route.body_required,
                             "content": {"application/json": {"schema": _ref(route.body.__name__)}}}
    return op


def openapi_document(prefix: str = DEFAULT_PREFIX, *, max_body: int = DEFAULT_MAX_BODY,
                     routes: list[ApiRoute] | None = None) -> dict[str, Any]:
    """The OpenAPI 3.0 document of `routes` (default: the protocol's) under `prefix` (a fresh dict on every call)."""
    routes = ROUTES if routes is None else routes
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        paths.setdefault(prefix + route.path, {})[route.method.lower()] = _operation(route)
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "kctui loopback compilation protocol",
            "version": CONTRACT_VERSION,
            "description": "host.md §6, contract version \"1\": a compiler claims work from the host, "
                           "writes a staged wiki and reports one terminal result. Loopback only; every "
                           "request carries `Authorization: Bearer <token>` (the api-token file in the "
                           f"state directory). Bodies over {max_body} bytes are refused (413). Unknown "
                           "body fields are ignored; a wrong type is a 400 naming the field.",
        },
        "servers": [{"url": "http://127.0.0.1:8765", "description": "kctui serve (loopback only)"}],
        "security": [{"bearerAuth": []}],
        "paths": paths,
        "components": {
            "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer",
                                               "description": "the token in the api-token file (mode 0600) "
                                                              "of kctui's state directory"}},
            "schemas": _schemas(routes),
            "responses": {
                f"E{code}": {"description": words, "content": {"application/json": {"schema": _ref("Error")}}}
                for code, words in _ERROR_WORDS.items()
            },
        },
    }
