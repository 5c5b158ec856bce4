"""The request bodies of the protocol as pydantic models: their shape is checked here (types, required
fields, absolute paths), their rules in the services. The OpenAPI document is generated from these models
(kctui.api.openapi), so what is checked and what is described are one thing.

Conventions (host.md §6): a body is a JSON object; an unknown field is a 400 naming it and the contract
version the host speaks (QA s30 #3: a `cite` for `citation` published an uncited statement;
`additionalProperties: false`; host.md is silent on unknown request fields, so the host stays strict: a
compiler built for a later contract learns at once which field and which version it met); an optional field sent as
`null` counts as absent, and a required field that is `null` or missing is a 400 naming it. A field of the
wrong type is a 400 naming it (`field 'transient' must be a boolean (true or false)`): types are strict,
nothing is coerced. Constraints given with `doc(...)` are described, not enforced here: the service that
owns the rule checks them and words the refusal.
"""

from __future__ import annotations

import difflib
import json
import os
from types import UnionType
from typing import Annotated, Any, Self, TypeVar, Union, get_args, get_origin

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError
from starlette.requests import Request

from kctui.api.envelope import ApiError
from kctui.core.ids import MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS
from kctui.core.models import CONTRACT_VERSION, FailureCode, Policy

MAX_INGEST_NAME = 1024
NOT_ABSOLUTE = "absolute_path"


def doc(**schema: Any) -> Any:
    """A field's description in the OpenAPI document only (the service checks the rule)."""
    return Field(json_schema_extra=schema)


def enum_values(enum: Any) -> list[str]:
    return [member.value for member in enum]


class Words:
    """What a field must be, in the 400's words, when its type alone does not say it."""

    def __init__(self, words: str) -> None:
        self.words = words


def _absolute(value: str) -> str:
    if not os.path.isabs(value):
        raise PydanticCustomError(NOT_ABSOLUTE, "must be an absolute path")
    return value


AbsolutePath = Annotated[str, AfterValidator(_absolute), doc(pattern="^/", description="an absolute path")]

_TYPE_WORDS = {str: "a string", bool: "a boolean (true or false)", list: "a list of strings"}


class RequestBody(BaseModel):
    """A JSON object from the client, checked field by field in declaration order (the first problem is
    the one answered)."""

    model_config = ConfigDict(strict=True, extra="forbid", alias_generator=to_camel, frozen=True)

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Self:
        cls._refuse_unknown(data)
        given = {k: v for k, v in data.items() if v is not None}  # null counts as absent
        try:
            return cls.model_validate(given)
        except ValidationError as exc:
            raise ApiError(400, cls._words(exc)) from None

    @classmethod
    def fields(cls) -> list[str]:
        """The body's fields as a client spells them (camelCase), in declaration order."""
        return [f.alias or n for n, f in cls.model_fields.items()]

    @classmethod
    def _refuse_unknown(cls, data: dict[str, Any]) -> None:
        """A 400 naming the first field the body does not have (null or not), with the nearest known one."""
        known = cls.fields()
        unknown = [k for k in data if k not in known]
        if not unknown:
            return
        near = _nearest(unknown[0], known)
        hint = f" (did you mean '{near}'?)" if near else ""
        raise ApiError(400, f"unknown field '{unknown[0]}'{hint}; this body takes {', '.join(known)} "
                            f"(the host speaks contract version \"{CONTRACT_VERSION}\")")

    @classmethod
    def _words(cls, exc: ValidationError) -> str:
        errors = exc.errors()
        first = [e for e in errors if e["loc"][:1] == errors[0]["loc"][:1]]
        shape = [e for e in first if e["type"] != NOT_ABSOLUTE]  # a wrong type is named before a bad value
        err = (shape or first)[0]
        name = str(err["loc"][0])
        if err["type"] == "missing":
            return f"field '{name}' is required"
        if err["type"] == NOT_ABSOLUTE:
            where = name + "".join(f"[{part}]" for part in err["loc"][1:])
            return f"field '{where}' must be an absolute path"
        return f"field '{name}' must be {cls._expected(name)}"

    @classmethod
    def _expected(cls, alias: str) -> str:
        info = next(f for n, f in cls.model_fields.items() if (f.alias or n) == alias)
        for meta in info.metadata:
            if isinstance(meta, Words):
                return meta.words
        kind: Any = info.annotation
        while get_origin(kind) in (Union, UnionType, Annotated):  # `X | None`, `Annotated[X, ...]`: X
            kind = next(a for a in get_args(kind) if a is not type(None))
        return _TYPE_WORDS[get_origin(kind) or kind]


def _nearest(name: str, known: list[str]) -> str | None:
    """The field a client probably meant: the same spelt another way (`dry_run`), else the one sharing the
    longest start of at least 3 letters (`cite`: citation), else a close spelling."""
    flat = name.replace("_", "").replace("-", "").casefold()
    same = [k for k in known if k.casefold() == flat]
    if same:
        return same[0]
    start = max(known, key=lambda k: len(os.path.commonprefix([k.casefold(), flat])), default=None)
    if start is not None and len(os.path.commonprefix([start.casefold(), flat])) >= 3:
        return start
    near = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return near[0] if near else None


B = TypeVar("B", bound=RequestBody)


async def read_body(request: Request, model: type[B]) -> B:
    """The request's body as `model` (an empty body is an empty object); 400 on anything else."""
    raw = await request.body()  # the size limit is enforced by the middleware while this streams
    if not raw.strip():
        return model.parse({})
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ApiError(400, f"the body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return model.parse(data)


def query_workspace(request: Request, *, required: bool = True) -> str | None:
    value = request.query_params.get("workspace")
    if not value:
        if required:
            raise ApiError(400, "query parameter 'workspace' is required")
        return None
    if not os.path.isabs(value):
        raise ApiError(400, "field 'workspace' must be an absolute path")
    return value


# -- the bodies ------------------------------------------------------------------------------------


class WorkspaceBody(RequestBody):
    """Names the workspace (an absolute path); naming it adds it to the monitored set."""

    workspace: AbsolutePath


class CreateBaseBody(RequestBody):
    workspace: AbsolutePath
    name: Annotated[str, doc(minLength=1, maxLength=MAX_NAME_CHARS,
                             description="shown to people; the id is derived from it (a slug)")]
    description: Annotated[str | None, doc(maxLength=MAX_DESCRIPTION_CHARS)] = None
    compilation_policy: Annotated[str | None, doc(enum=enum_values(Policy), default=Policy.MANUAL.value)] = None
    paths: Annotated[list[AbsolutePath] | None,
                     doc(description="files or folders copied into the new base's sources/ (symlinks are "
                                     "refused)")] = None


class CompilationBody(RequestBody):
    workspace: AbsolutePath
    dry_run: Annotated[bool | None,
                       doc(description="run a dry run now instead of queueing a job (default false)")] = None


class PolicyBody(RequestBody):
    workspace: AbsolutePath
    policy: Annotated[str, doc(enum=enum_values(Policy))]
    schedule: Annotated[str | None, doc(description="ours: a five-field cron expression (local time of the "
                                                    "host) for scheduled compiles, or 'off'")] = None
    schedule_always: Annotated[bool | None, doc(description="ours: a scheduled compile runs even when the "
                                                            "sources are unchanged")] = None


class PageEditBody(RequestBody):
    """A direct page edit within the trust boundary (issue 15)."""

    workspace: AbsolutePath
    kind: Annotated[str | None, doc(enum=["statement", "note", "section"],
                                    description="append: statement (default) or note; revise: section")] = None
    citation: Annotated[str | None, doc(description="PATH:Lstart-Lend in the base's sources/")] = None
    value: Annotated[str | None, doc(description="the words the cited lines must contain")] = None
    section: Annotated[str | None, doc(maxLength=200, description="revise: the section's name")] = None
    edit_id: Annotated[str | None, doc(maxLength=20,
                                       description="revise: rewrite this earlier statement or note instead")] = None
    operation: Annotated[str, doc(enum=["append", "revise", "supersede"], description="supersede is always refused")]
    text: Annotated[str, doc(minLength=1, maxLength=8000)]
    author: Annotated[str | None, doc(pattern="^(human|agent):",
                                      description="human:NAME or agent:NAME (default agent:api)")] = None
    expected_revision: Annotated[int | None, Field(ge=1), Words("a revision number (1 or more)")] = None


class ClaimBody(RequestBody):
    workspace: Annotated[AbsolutePath | None,
                         doc(description="claim only from this workspace (default: every monitored "
                                         "workspace)")] = None


class ResultBody(RequestBody):
    workspace: AbsolutePath
    outcome: Annotated[str, doc(enum=["succeeded", "failed"])]
    transient: Annotated[bool | None, doc(description="a failure worth retrying (default false)")] = None
    error: Annotated[str | None, doc(description="the failure, in words (cut to 1,000 characters)")] = None
    compiler_version: str | None = None
    error_code: Annotated[str | None, doc(description="ours: one of " + ", ".join(enum_values(FailureCode))
                                                      + "; anything else is recorded as compiler_reported")] = None


class IngestBody(RequestBody):
    workspace: AbsolutePath
    name: Annotated[str, doc(minLength=1, maxLength=MAX_INGEST_NAME,
                             description="the file in sources/: a relative path (no '..', not absolute)")]
    content: Annotated[str, doc(description="the file's text (UTF-8)")]
    replace: Annotated[bool | None, doc(description="overwrite an existing file (default false: 409)")] = None


class IngestPathBody(RequestBody):
    """A file or folder on this machine; a folder's contents are copied keeping its tree."""

    workspace: AbsolutePath
    path: AbsolutePath
    replace: Annotated[bool | None, doc(description="overwrite existing files")] = None


BODIES: tuple[type[RequestBody], ...] = (WorkspaceBody, CreateBaseBody, CompilationBody, PolicyBody, PageEditBody,
                                         ClaimBody, ResultBody, IngestBody, IngestPathBody)
