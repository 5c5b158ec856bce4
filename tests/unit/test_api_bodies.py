"""The protocol's request bodies (kctui.api.bodies) answer exactly the 400s clients rely on, and the
generated OpenAPI schemas speak OpenAPI 3.0 (kctui.api.openapi.openapi_schema): table-tested, no server."""

from __future__ import annotations

from typing import Any

import pytest

from kctui.api.bodies import (
    BODIES,
    ClaimBody,
    CompilationBody,
    CreateBaseBody,
    IngestBody,
    IngestPathBody,
    PageEditBody,
    PolicyBody,
    RequestBody,
    ResultBody,
    WorkspaceBody,
)
from kctui.api.envelope import ApiError
from kctui.api.openapi import openapi_schema

EDIT = {"workspace": "/ws", "operation": "append", "text": "t"}
BASE = {"workspace": "/ws", "name": "x"}
REVISION = "field 'expectedRevision' must be a revision number (1 or more)"


@pytest.mark.parametrize(
    ("model", "body", "message"),
    [
        (WorkspaceBody, {}, "field 'workspace' is required"),
        (WorkspaceBody, {"workspace": None}, "field 'workspace' is required"),
        (WorkspaceBody, {"workspace": 5}, "field 'workspace' must be a string"),
        (WorkspaceBody, {"workspace": "rel/dir"}, "field 'workspace' must be an absolute path"),
        (CreateBaseBody, {"workspace": "rel", "name": 7}, "field 'workspace' must be an absolute path"),
        (CreateBaseBody, {"workspace": "/ws"}, "field 'name' is required"),
        (CreateBaseBody, {**BASE, "description": ["d"]}, "field 'description' must be a string"),
        (CreateBaseBody, {**BASE, "paths": "one"}, "field 'paths' must be a list of strings"),
        (CreateBaseBody, {**BASE, "paths": [1]}, "field 'paths' must be a list of strings"),
        (CreateBaseBody, {**BASE, "paths": ["rel", 1]}, "field 'paths' must be a list of strings"),
        (CreateBaseBody, {**BASE, "paths": ["/a", "rel"]}, "field 'paths[1]' must be an absolute path"),
        (PolicyBody, {"workspace": "/ws", "policy": 1}, "field 'policy' must be a string"),
        (PolicyBody, {"workspace": "/ws", "policy": "manual", "scheduleAlways": "yes"},
         "field 'scheduleAlways' must be a boolean (true or false)"),
        (ClaimBody, {"workspace": {"a": 1}}, "field 'workspace' must be a string"),
        (ResultBody, {"workspace": "/ws", "outcome": "failed", "transient": 1},
         "field 'transient' must be a boolean (true or false)"),
        (ResultBody, {"workspace": "/ws", "outcome": "failed", "errorCode": 2}, "field 'errorCode' must be a string"),
        (PageEditBody, {**EDIT, "expectedRevision": 0}, REVISION),
        (PageEditBody, {**EDIT, "expectedRevision": True}, REVISION),
        (PageEditBody, {**EDIT, "expectedRevision": 1.0}, REVISION),
        (PageEditBody, {"workspace": "/ws", "kind": 3}, "field 'kind' must be a string"),  # before the missing ones
        (IngestBody, {"workspace": "/ws", "name": "a.md"}, "field 'content' is required"),
        (IngestPathBody, {"workspace": "/ws", "path": "rel", "replace": "no"}, "field 'path' must be an absolute path"),
    ],
)
def test_a_bad_body_is_a_400_naming_the_first_bad_field(model: type[RequestBody], body: dict[str, Any],
                                                         message: str) -> None:
    with pytest.raises(ApiError) as caught:
        model.parse(body)
    assert (caught.value.status, caught.value.message) == (400, message)


def test_null_is_absent_and_nothing_is_coerced() -> None:
    made = CreateBaseBody.parse({**BASE, "description": None,
                                 "compilationPolicy": "smart_auto", "paths": ["/a"]})
    assert (made.description, made.compilation_policy, made.paths) == (None, "smart_auto", ["/a"])
    assert ClaimBody.parse({}).workspace is None
    assert PageEditBody.parse({**EDIT, "expectedRevision": 3, "editId": "e1"}).expected_revision == 3
    with pytest.raises(ApiError):
        ResultBody.parse({"workspace": "/ws", "outcome": "failed", "transient": "true"})


@pytest.mark.parametrize(
    ("pydantic", "openapi"),
    [
        ({"anyOf": [{"type": "string"}, {"type": "null"}], "title": "X", "default": None},
         {"type": "string", "nullable": True}),
        ({"anyOf": [{"type": "string"}, {"type": "null"}], "enum": ["a", "b"], "default": "a"},
         {"type": "string", "enum": ["a", "b", None], "default": "a", "nullable": True}),
        ({"anyOf": [{"$ref": "#/components/schemas/Job"}, {"type": "null"}]},
         {"allOf": [{"$ref": "#/components/schemas/Job"}], "nullable": True}),
        ({"anyOf": [{"$ref": "#/a"}, {"$ref": "#/b"}, {"type": "null"}]},
         {"anyOf": [{"$ref": "#/a"}, {"$ref": "#/b"}], "nullable": True}),
        ({"type": "null", "description": "always null"},
         {"type": "object", "enum": [None], "description": "always null", "nullable": True}),
        ({"$ref": "#/components/schemas/CompileOptions", "default": None},
         {"$ref": "#/components/schemas/CompileOptions"}),
        ({"$ref": "#/a", "description": "d"}, {"description": "d", "allOf": [{"$ref": "#/a"}]}),
        ({"const": "1", "type": "string"}, {"enum": ["1"], "type": "string"}),
        ({"type": "object", "properties": {"title": {"type": "string", "title": "Title"}}},
         {"type": "object", "properties": {"title": {"type": "string"}}}),
        ({"type": "array", "items": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
         {"type": "array", "items": {"type": "integer", "nullable": True}}),
    ],
)
def test_pydantic_schemas_become_openapi_3_0(pydantic: dict[str, Any], openapi: dict[str, Any]) -> None:
    assert openapi_schema(pydantic) == openapi


V = ' (the host speaks contract version "1")'  # host.md is silent on unknown request fields: strict, and says so


@pytest.mark.parametrize(("model", "body", "message"), [
    (PageEditBody, {**EDIT, "cite": "a.md:L1-L1"},
     "unknown field 'cite' (did you mean 'citation'?); this body takes workspace, kind, citation, value, section, "
     "editId, operation, text, author, expectedRevision" + V),
    (CreateBaseBody, {**BASE, "color": "blue"},
     "unknown field 'color'; this body takes workspace, name, description, compilationPolicy, paths" + V),
    (CreateBaseBody, {**BASE, "color": None},
     "unknown field 'color'; this body takes workspace, name, description, compilationPolicy, paths" + V),
    (CompilationBody,
     {"workspace": "/ws", "dry_run": True},
     "unknown field 'dry_run' (did you mean 'dryRun'?); this body takes workspace, dryRun" + V),
    (ClaimBody, {"worker": "w1"}, "unknown field 'worker' (did you mean 'workspace'?); this body takes workspace" + V),
    (ClaimBody, {"future": True}, "unknown field 'future'; this body takes workspace" + V),
    (ResultBody, {"workspace": "/ws", "outcome": "succeeded", "pagesWritten": 3},
     "unknown field 'pagesWritten'; this body takes workspace, outcome, transient, error, compilerVersion, errorCode"
     + V),
])
def test_an_unknown_field_is_a_400_naming_it(model, body, message) -> None:
    """QA s30 #3: `cite` for `citation` published an uncited statement; every body refuses what it lacks."""
    with pytest.raises(ApiError) as caught:
        model.parse(body)
    assert (caught.value.status, caught.value.message) == (400, message)


def test_every_body_documents_that_it_takes_no_other_field() -> None:
    for model in BODIES:
        assert model.model_json_schema().get("additionalProperties") is False, model.__name__
