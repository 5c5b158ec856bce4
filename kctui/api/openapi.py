"""The OpenAPI 3.0 description of the loopback protocol (host.md §6, contract version "1"), as code.

`openapi_document()` returns the document as a plain dict; the server answers it at
`GET /api/v1/knowledge/openapi.json` (token required like every route). It is written from the same
constants the services use (the enums of `kctui.core.models`, the id patterns and length limits of
`kctui.core.ids`), and the fuzz tests generate their requests from it and check every answer against
it, so the description and the server cannot drift apart.

Conventions the document states once rather than on every field:

- Request bodies are JSON objects; unknown fields are ignored (`additionalProperties` is left open).
- An optional field sent as `null` counts as absent (such fields are `nullable`); a required field
  that is `null` or missing is a 400 naming it.
- Answers are wrapped in the envelope: success `{code, message, data}`, error `{code, error, message}`.
  The shapes of `data` list the contract's fields as required; kctui's own extra fields are described
  as optional properties (clients ignore what they do not know).
- `openapi.json` itself answers the raw document (not wrapped), as tools expect.
"""

from __future__ import annotations

from typing import Any

from kctui.api.openapi_ingest import ingest_paths_doc, ingest_schemas
from kctui.core.ids import JOB_ID_RE, KB_ID_RE, MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS
from kctui.core.models import CONTRACT_VERSION, BasePhase, FailureCode, JobPhase, Policy, Trigger

OPENAPI_VERSION = "3.0.3"
DEFAULT_PREFIX = "/api/v1/knowledge"
DEFAULT_MAX_BODY = 1 << 20

_REF = "#/components/schemas/"
RFC3339_UTC = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$"
DIGEST = r"^sha256:[0-9a-f]{64}$"


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": _REF + name}


def _nullable_ref(name: str) -> dict[str, Any]:
    """A schema that is `name` or null (OpenAPI 3.0 ignores siblings of `$ref`, hence the allOf)."""
    return {"nullable": True, "allOf": [_ref(name)]}


def _values(enum: Any) -> list[str]:
    return [member.value for member in enum]


def _string(*, nullable: bool = False, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", **extra}
    if nullable:
        schema["nullable"] = True
    return schema


def _enum(values: list[str], *, nullable: bool = False, **extra: Any) -> dict[str, Any]:
    """A string enum; a nullable one lists null among its values, as OpenAPI 3.0.3 requires."""
    return _string(nullable=nullable, enum=[*values, None] if nullable else list(values), **extra)


def _obj(required: dict[str, Any], optional: dict[str, Any] | None = None, *,
         description: str | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": {**required, **(optional or {})}}
    if required:  # OpenAPI 3.0: `required` lists at least one name when present
        schema["required"] = list(required)
    if description:
        schema["description"] = description
    return schema


def _timestamp(description: str | None = None) -> dict[str, Any]:
    """An RFC 3339 UTC time (`Z`, microseconds only when non-zero), or null when it has not happened."""
    return _string(nullable=True, format="date-time", pattern=RFC3339_UTC,
                   **({"description": description} if description else {}))


def _schemas() -> dict[str, Any]:
    abs_path = _string(pattern="^/", description="an absolute path")
    job_phase, trigger, base_phase = _values(JobPhase), _values(Trigger), _values(BasePhase)
    policy = _values(Policy)
    number = {"type": "number"}
    return {
        # -- the envelope ---------------------------------------------------------------------------
        "Error": {
            "type": "object",
            "description": "The error envelope: `code` is the HTTP status, `error` its reason phrase, "
                           "`message` what went wrong, in words (never a traceback).",
            "required": ["code", "error", "message"],
            "additionalProperties": False,
            "properties": {
                "code": {"type": "integer", "minimum": 400, "maximum": 599},
                "error": _string(minLength=1),
                "message": _string(minLength=1),
            },
        },
        # -- requests -------------------------------------------------------------------------------
        "AbsolutePath": abs_path,
        "WorkspaceBody": _obj({"workspace": _ref("AbsolutePath")},
                              description="Names the workspace (an absolute path); naming it adds it "
                                          "to the monitored set."),
        "CreateBaseBody": _obj(
            {"workspace": _ref("AbsolutePath"),
             "name": _string(minLength=1, maxLength=MAX_NAME_CHARS,
                             description="shown to people; the id is derived from it (a slug)")},
            {"description": _string(nullable=True, maxLength=MAX_DESCRIPTION_CHARS),
             "compilationPolicy": _enum(policy, nullable=True, default=Policy.MANUAL.value),
             "paths": {"type": "array", "nullable": True, "items": _ref("AbsolutePath"),
                       "description": "files or folders copied into the new base's sources/ "
                                      "(symlinks are refused)"}}),
        "PageEditBody": _obj(
            {"workspace": _ref("AbsolutePath"),
             "operation": _enum(["append", "revise", "supersede"], description="supersede is always refused"),
             "text": _string(minLength=1, maxLength=8000)},
            {"kind": _enum(["statement", "note", "section"], nullable=True,
                           description="append: statement (default) or note; revise: section"),
             "citation": _string(nullable=True, description="PATH:Lstart-Lend in the base's sources/"),
             "value": _string(nullable=True, description="the words the cited lines must contain"),
             "section": _string(nullable=True, maxLength=200, description="revise: the section's name"),
             "editId": _string(nullable=True, maxLength=20,
                               description="revise: rewrite this earlier statement or note instead"),
             "expectedRevision": {"type": "integer", "minimum": 1, "nullable": True},
             "author": _string(nullable=True, pattern="^(human|agent):",
                               description="human:NAME or agent:NAME (default agent:api)")},
            description="A direct page edit within the trust boundary (issue 15)."),
        "PageEdit": _obj(
            {"knowledgeBaseId": _string(), "page": _string(), "revision": {"type": "integer", "minimum": 1},
             "operation": _enum(["append", "revise"]), "edit": {"type": "object"}, "author": _string(),
             "decision": _enum(["apply"])}),
        "PolicyBody": _obj({"workspace": _ref("AbsolutePath"), "policy": _enum(policy)},
                           {"schedule": _string(nullable=True, description="ours: a five-field cron expression "
                                                "(local time of the host) for scheduled compiles, or 'off'"),
                            "scheduleAlways": {"type": "boolean", "nullable": True,
                                               "description": "ours: a scheduled compile runs even when the "
                                                              "sources are unchanged"}}),
        "ClaimBody": _obj({}, {"workspace": {**abs_path, "nullable": True,
                                             "description": "claim only from this workspace "
                                                            "(default: every monitored workspace)"}}),
        "ResultBody": _obj(
            {"workspace": _ref("AbsolutePath"),
             "outcome": _enum(["succeeded", "failed"])},
            {"transient": {"type": "boolean", "nullable": True,
                           "description": "a failure worth retrying (default false)"},
             "error": _string(nullable=True, description="the failure, in words (cut to 1,000 characters)"),
             "compilerVersion": _string(nullable=True),
             "errorCode": _string(nullable=True,
                                  description="ours: one of " + ", ".join(_values(FailureCode))
                                              + "; anything else is recorded as compiler_reported")}),
        # -- answers --------------------------------------------------------------------------------
        "Job": _obj(
            {"id": _string(pattern=JOB_ID_RE.pattern),
             "knowledgeBaseId": _string(pattern=KB_ID_RE.pattern),
             "trigger": _enum(trigger),
             "phase": _enum(job_phase),
             "sourceDigest": _string(pattern=DIGEST),
             "createdAt": {**_timestamp(), "nullable": False},
             "startedAt": _timestamp(),
             "completedAt": _timestamp(),
             "outputPath": _string(description="the job folder (the staged wiki is its wiki/)"),
             "error": _string(nullable=True)},
            {"workspaceRoot": _string(),
             "errorCode": _enum(_values(FailureCode), nullable=True),
             "transient": {"type": "boolean", "nullable": True},
             "notBefore": _timestamp("a retry is not claimed before this time"),
             "claimedBy": _string(nullable=True),
             "compilerVersion": _string(nullable=True)}),
        "DryRunJob": _obj(
            {"id": _string(pattern=JOB_ID_RE.pattern),
             "knowledgeBaseId": _string(pattern=KB_ID_RE.pattern),
             "trigger": _enum(["dry_run"]),
             "phase": _enum(["succeeded", "failed"]),
             "sourceDigest": _string(nullable=True, pattern=DIGEST),
             "createdAt": {**_timestamp(), "nullable": False},
             "startedAt": _timestamp(),
             "completedAt": _timestamp(),
             "outputPath": _string(description="the dry run's folder, <base>/.a3s/dry-run/<id>/ (its candidate "
                                               "wiki is wiki/ there), kept until the next dry run"),
             "error": _string(nullable=True),
             "dryRun": {"type": "boolean", "enum": [True]},
             "result": {"type": "object", "nullable": True,
                        "description": "null when the pass failed before its brief; else `brief` (also when "
                                       "the candidate would be refused: phase failed, errorCode "
                                       "invalid_output): counts (created, appended, "
                                       "revised, superseded, removed, refreshed, held, heldPages, conflicts, "
                                       "skipped, stale, reviewItems), the pages, held updates, conflicts and "
                                       "files skipped, warnings, and the Markdown brief",
                        "properties": {"brief": {"type": "object"}}}},
            {"workspaceRoot": _string(),
             "errorCode": _string(nullable=True),
             "transient": {"type": "boolean", "nullable": True},
             "notBefore": _timestamp(),
             "claimedBy": _string(nullable=True),
             "compilerVersion": _string(nullable=True)},
            description="A dry run (ours): a whole pass run at once, outside the queue; nothing was promoted, "
                        "filed for review, recorded or announced."),
        "CompilationBody": _obj(
            {"workspace": _ref("AbsolutePath")},
            {"dryRun": {"type": "boolean", "nullable": True,
                        "description": "run a dry run now instead of queueing a job (default false)"}}),
        "CompilationSummary": _obj(
            {"policy": _enum(policy),
             "phase": _enum(base_phase),
             "sourceDigest": _string(nullable=True, pattern=DIGEST),
             "lastCompiledDigest": _string(nullable=True, pattern=DIGEST),
             "pendingChanges": {"type": "boolean"},
             "activeJobId": _string(nullable=True, pattern=JOB_ID_RE.pattern),
             "lastRequestedAt": _timestamp(),
             "lastSucceededAt": _timestamp(),
             "lastFailedAt": _timestamp(),
             "lastError": _string(nullable=True),
             "pausedReason": _string(nullable=True),
             "compilerVersion": _string(nullable=True),
             "nextAutoCompileAt": _timestamp(),
             "stableWindowSeconds": number,
             "quietWindowSeconds": number,
             "minimumIntervalSeconds": number},
            {"lastErrorCode": _enum(_values(FailureCode), nullable=True),
             "lastErrorWords": _string(nullable=True),
             "retryAttempts": {"type": "integer", "minimum": 0},
             "nextRetryAt": _timestamp(),
             "followUpRequested": {"type": "boolean"},
             "nextScheduledCompileAt": _timestamp(),
             "lastScanAt": _timestamp(),
             "unstablePaths": {"type": "array", "items": _string()},
             "pendingChangeCounts": {"type": "object", "nullable": True},
             "skipped": {"type": "array"},
             "scanError": _string(nullable=True)}),
        "KnowledgeBase": _obj(
            {"id": _string(pattern=KB_ID_RE.pattern),
             "name": _string(),
             "description": _string(),
             "workspaceRoot": _string(),
             "knowledgeBasePath": _string(),
             "sourcePath": _string(),
             "wikiPath": _string(),
             "hasWiki": {"type": "boolean"},
             "compilationPolicy": _enum(policy),
             "phase": _enum(base_phase),
             "createdAt": {**_timestamp(), "nullable": False},
             "updatedAt": {**_timestamp(), "nullable": False},
             "compilation": _ref("CompilationSummary")}),
        "BaseList": _obj({"items": {"type": "array", "items": _ref("KnowledgeBase")},
                          "total": {"type": "integer", "minimum": 0}}),
        "ChangedBase": _obj({"changed": {"type": "boolean"}, "knowledgeBase": _ref("KnowledgeBase")}),
        "ChangedBaseJob": _obj({"changed": {"type": "boolean"}, "knowledgeBase": _ref("KnowledgeBase"),
                                "job": {"nullable": True, "anyOf": [_ref("Job"), _ref("DryRunJob")]}}),
        "ChangedBaseNoJob": _obj({"changed": {"type": "boolean"}, "knowledgeBase": _ref("KnowledgeBase"),
                                  "job": {"type": "object", "nullable": True, "enum": [None],
                                          "description": "always null"}}),
        "ChangedBaseWithJob": _obj({"changed": {"type": "boolean"}, "knowledgeBase": _ref("KnowledgeBase"),
                                    "job": _ref("Job")}),
        "SourceChanges": _obj(
            {"changed": {"type": "boolean"},
             **{k: {"type": "integer", "minimum": 0} for k in (
                 "added", "modified", "deleted", "renamed", "totalChanged", "previousFiles", "currentFiles",
                 "currentBytes")},
             "unstablePaths": {"type": "array", "items": _string()},
             "safetyPause": _string(nullable=True)},
            {"sourcesReadable": {"type": "boolean"}, "error": _string(nullable=True)},
            description="Read-only: asking has no side effect on the store."),
        "Claim": _obj(
            {"claimed": {"type": "boolean"},
             "contractVersion": _enum([CONTRACT_VERSION]),
             "workspaceRoot": _string(nullable=True),
             "knowledgeBasePath": _string(nullable=True),
             "sourcePath": _string(nullable=True, description="the compiler reads only here"),
             "previousWikiPath": _string(nullable=True),
             "outputPath": _string(nullable=True, description="<job dir>/wiki: the compiler writes only "
                                                             "under it"),
             "job": _nullable_ref("Job")},
            {"compileOptions": _ref("CompileOptions")},
            description="With no work: claimed false, contractVersion \"1\" and every other field null "
                        "(no compileOptions)."),
        "CompileOptions": _obj(
            {"trustPolicy": _ref("TrustPolicy"),
             "linkStyle": _enum(["wikilink", "markdown"]),
             "extractor": _enum(["builtin", "llm"])},
            description="A kctui extension, only in a claimed answer (other clients ignore it): the "
                        "claimed base's trust policy and compile options (`kctui kb policy --json`), so "
                        "an external kctui worker compiles under them. Absent: the default policy."),
        "TrustPolicy": _obj(
            {"enabled": {"type": "boolean"},
             "autonomy": _enum(["suggest", "guarded", "auto"]),
             "compileSources": {"type": "array", "items": _string()},
             "maintainKinds": {"type": "array", "items": _string()},
             "neverAuto": {"type": "array", "items": _string(),
                           "description": "class:NAME, tag:NAME or title:REGEX"},
             "minConfidence": {"type": "number", "minimum": 0, "maximum": 1},
             "staleDays": {"type": "integer", "minimum": 1}},
            description="trust.md §2"),
        "OpenApiDocument": {"type": "object", "required": ["openapi", "info", "paths"],
                            "description": f"this document (OpenAPI {OPENAPI_VERSION}), not wrapped"},
        **ingest_schemas(_ref, _string, _obj, 1024),
    }


def _envelope(data: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": ["code", "message", "data"], "additionalProperties": False,
            "properties": {"code": {"type": "integer", "minimum": 200, "maximum": 299},
                           "message": _string(minLength=1), "data": data}}


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


def _errors(*codes: str) -> dict[str, Any]:
    return {code: {"$ref": f"#/components/responses/E{code}"} for code in codes}


def _operation(op_id: str, summary: str, data: dict[str, Any], *, params: list[dict[str, Any]] | None = None,
               body: str | None = None, body_required: bool = True, errors: tuple[str, ...],
               description: str | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {
        "operationId": op_id,
        "summary": summary,
        "responses": {"200": {"description": "done",
                              "content": {"application/json": {"schema": _envelope(data)}}},
                      **_errors(*errors)},
    }
    if description:
        op["description"] = description
    if params:
        op["parameters"] = params
    if body:
        op["requestBody"] = {"required": body_required,
                             "content": {"application/json": {"schema": _ref(body)}}}
    return op


def openapi_document(prefix: str = DEFAULT_PREFIX, *, max_body: int = DEFAULT_MAX_BODY) -> dict[str, Any]:
    """The OpenAPI 3.0 document of the protocol under `prefix` (a fresh dict on every call)."""
    ws_required = {"name": "workspace", "in": "query", "required": True,
                   "schema": _ref("AbsolutePath"), "description": "the workspace (an absolute path); "
                                                                  "naming it adds it to the monitored set"}
    ws_optional = {"name": "workspace", "in": "query", "required": False,
                   "schema": _string(pattern="^(/|$)", description="an absolute path; empty means not given"),
                   "description": "only the bases of this workspace (default: every monitored workspace)"}
    kb = {"name": "id", "in": "path", "required": True, "description": "the knowledge base's id",
          "schema": _string(pattern=KB_ID_RE.pattern)}
    job = {"name": "jobId", "in": "path", "required": True, "schema": _string(pattern=JOB_ID_RE.pattern)}
    slug = {"name": "slug", "in": "path", "required": True, "description": "the page's slug",
            "schema": _string(minLength=1, maxLength=200)}
    gets = ("400", "401", "404", "413", "500")
    posts = ("400", "401", "404", "409", "413", "500")
    base = f"{prefix}/bases"
    one = f"{base}/{{id}}"
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
        "paths": {
            base: {
                "get": _operation("listBases", "The knowledge bases", _ref("BaseList"),
                                  params=[ws_optional], errors=gets),
                "post": _operation("createBase", "Create a knowledge base (phase source_ready, no wiki yet)",
                                   _ref("ChangedBase"), body="CreateBaseBody", errors=posts,
                                   description="An existing base of the same id answers changed false."),
            },
            f"{one}/compilations": {
                "post": _operation("requestCompilation", "Ask for a compilation", _ref("ChangedBaseJob"),
                                   params=[kb], body="CompilationBody", errors=posts,
                                   description="`job` is null when nothing new was queued. With `dryRun: "
                                               "true` a dry run runs at once (outside the queue: it never "
                                               "blocks or delays a job) and `job` is its DryRunJob, whose "
                                               "result carries the change brief; 409 while another dry "
                                               "run of the base runs."),
            },
            f"{one}/compilation": {
                "get": _operation("getCompilation", "The compilation summary", _ref("CompilationSummary"),
                                  params=[kb, ws_required], errors=gets),
            },
            f"{one}/compilation-policy": {
                "patch": _operation("setCompilationPolicy", "Set the compilation policy",
                                    _ref("ChangedBaseNoJob"), params=[kb], body="PolicyBody", errors=posts,
                                    description="Switching to manual cancels a queued automatic job."),
            },
            f"{one}/pages/{{slug}}/edits": {
                "post": _operation("editPage", "Append to or revise a compiled page directly (ours)",
                                   _ref("PageEdit"), params=[kb, slug], body="PageEditBody", errors=posts,
                                   description="Through classify_update: supersede is refused, a human-confirmed "
                                               "page takes appends only; a statement's citation must contain "
                                               "its value. 409: refused by the trust boundary, a compile is "
                                               "running, or the page moved past expectedRevision."),
            },
            f"{one}/source-changes": {
                "get": _operation("getSourceChanges", "Changes since the accepted snapshot (read-only)",
                                  _ref("SourceChanges"), params=[kb, ws_required], errors=gets),
            },
            f"{one}/compilations/{{jobId}}": {
                "get": _operation("getJob", "One job of a base (ours, beyond the reference)",
                                  {"anyOf": [_ref("Job"), _ref("DryRunJob")]},
                                  params=[kb, job, ws_required], errors=gets,
                                  description="A `dry-run-…` id names the base's kept dry run (only the "
                                              "last one is kept)."),
            },
            f"{one}/compilations/{{jobId}}/cancel": {
                "post": _operation("cancelJob", "Cancel a queued or running job", _ref("ChangedBaseWithJob"),
                                   params=[kb, job], body="WorkspaceBody", errors=posts),
            },
            f"{prefix}/compilations/claim": {
                "post": _operation("claim", "Claim the next job (one runs at a time across workspaces)",
                                   _ref("Claim"), body="ClaimBody", body_required=False, errors=posts,
                                   description="Manual before retry before smart_auto and scheduled; a second claim "
                                               "while one runs answers claimed false."),
            },
            f"{one}/compilations/{{jobId}}/result": {
                "post": _operation("reportResult", "The job's single terminal result",
                                   _ref("ChangedBaseWithJob"), params=[kb, job], body="ResultBody",
                                   errors=posts,
                                   description="A succeeded result validates and promotes the staged "
                                               "wiki (a rejected tree fails the job permanently); a "
                                               "failed one with transient true is retried (the fourth "
                                               "is final). 409 when the job is not the running one."),
            },
            **ingest_paths_doc(one, kb, _operation, _ref),
            f"{prefix}/openapi.json": {
                "get": {
                    "operationId": "getOpenApi",
                    "summary": "This document (raw, not wrapped in the envelope)",
                    "responses": {
                        "200": {"description": "the document",
                                "content": {"application/json": {"schema": _ref("OpenApiDocument")}}},
                        **_errors("401", "413", "500"),
                    },
                },
            },
        },
        "components": {
            "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer",
                                               "description": "the token in the api-token file (mode 0600) "
                                                              "of kctui's state directory"}},
            "schemas": _schemas(),
            "responses": {
                f"E{code}": {"description": words,
                             "content": {"application/json": {"schema": _ref("Error")}}}
                for code, words in _ERROR_WORDS.items()
            },
        },
    }
