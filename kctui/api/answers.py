"""The shapes of what the protocol answers (the envelope's `data`), as pydantic models: they describe the
answers in the generated OpenAPI document (kctui.api.openapi) and are not used to build them — the
services make the answers, and the fuzz tests check every answer against these shapes.

The contract's fields are required (a field that may be null is required and nullable); kctui's own
extra fields are optional (clients ignore what they do not know); an optional field typed `str = None`
is absent or a string, never null. Objects are open: a client may find fields not listed. Every constraint is a description (`doc(...)`); nothing here validates at run time.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from kctui.api.bodies import doc, enum_values
from kctui.core.ids import JOB_ID_RE, KB_ID_RE
from kctui.core.models import CONTRACT_VERSION, BasePhase, FailureCode, JobPhase, Policy, Trigger

OPENAPI_VERSION = "3.0.3"
RFC3339_UTC = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$"
DIGEST = r"^sha256:[0-9a-f]{64}$"

JobId = Annotated[str, doc(pattern=JOB_ID_RE.pattern)]
BaseId = Annotated[str, doc(pattern=KB_ID_RE.pattern)]
Digest = Annotated[str, doc(pattern=DIGEST)]
# an RFC 3339 UTC time (`Z`, microseconds only when non-zero); `When` is null when it has not happened
Time = Annotated[str, doc(format="date-time", pattern=RFC3339_UTC)]
When = Annotated[str | None, doc(format="date-time", pattern=RFC3339_UTC)]
Count = Annotated[int, doc(minimum=0)]


def one_of(values: list[str], **extra: Any) -> Any:
    return doc(enum=list(values), **extra)


class Answer(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel)


class Error(Answer):
    """The error envelope: `code` is the HTTP status, `error` its reason phrase, `message` what went wrong,
    in words (never a traceback)."""

    model_config = ConfigDict(extra="forbid")

    code: Annotated[int, doc(minimum=400, maximum=599)]
    error: Annotated[str, doc(minLength=1)]
    message: Annotated[str, doc(minLength=1)]


class Job(Answer):
    id: JobId
    knowledge_base_id: BaseId
    trigger: Annotated[str, one_of(enum_values(Trigger))]
    phase: Annotated[str, one_of(enum_values(JobPhase))]
    source_digest: Digest
    created_at: Time
    started_at: When
    completed_at: When
    output_path: Annotated[str, doc(description="the job folder (the staged wiki is its wiki/)")]
    error: str | None
    workspace_root: str = None
    error_code: Annotated[str | None, one_of(enum_values(FailureCode))] = None
    transient: bool | None = None
    not_before: Annotated[str | None, doc(format="date-time", pattern=RFC3339_UTC,
                                          description="a retry is not claimed before this time")] = None
    claimed_by: str | None = None
    compiler_version: str | None = None


class DryRunResult(Answer):
    """null when the pass failed before its brief; else `brief` (also when the candidate would be refused:
    phase failed, errorCode invalid_output): counts (created, appended, revised, superseded, removed,
    refreshed, held, heldPages, conflicts, skipped, stale, reviewItems), the pages, held updates, conflicts
    and files skipped, warnings, and the Markdown brief"""

    brief: dict[str, Any] = None


class DryRunJob(Answer):
    """A dry run (ours): a whole pass run at once, outside the queue; nothing was promoted, filed for
    review, recorded or announced."""

    id: JobId
    knowledge_base_id: BaseId
    trigger: Annotated[str, one_of(["dry_run"])]
    phase: Annotated[str, one_of(["succeeded", "failed"])]
    source_digest: Annotated[str | None, doc(pattern=DIGEST)]
    created_at: Time
    started_at: When
    completed_at: When
    output_path: Annotated[str, doc(description="the dry run's folder, <base>/.a3s/dry-run/<id>/ (its candidate "
                                                "wiki is wiki/ there), kept until the next dry run")]
    error: str | None
    dry_run: Annotated[bool, doc(enum=[True])]
    result: DryRunResult | None
    workspace_root: str = None
    error_code: str | None = None
    transient: bool | None = None
    not_before: When = None
    claimed_by: str | None = None
    compiler_version: str | None = None


class CompilationSummary(Answer):
    policy: Annotated[str, one_of(enum_values(Policy))]
    phase: Annotated[str, one_of(enum_values(BasePhase))]
    source_digest: Annotated[str | None, doc(pattern=DIGEST)]
    last_compiled_digest: Annotated[str | None, doc(pattern=DIGEST)]
    pending_changes: bool
    active_job_id: Annotated[str | None, doc(pattern=JOB_ID_RE.pattern)]
    last_requested_at: When
    last_succeeded_at: When
    last_failed_at: When
    last_error: str | None
    paused_reason: str | None
    compiler_version: str | None
    next_auto_compile_at: When
    stable_window_seconds: float
    quiet_window_seconds: float
    minimum_interval_seconds: float
    last_error_code: Annotated[str | None, one_of(enum_values(FailureCode))] = None
    last_error_words: str | None = None
    retry_attempts: Count = None
    next_retry_at: When = None
    follow_up_requested: bool = None
    next_scheduled_compile_at: When = None
    last_scan_at: When = None
    unstable_paths: list[str] = None
    pending_change_counts: dict[str, Any] | None = None
    skipped: list[Any] = None
    scan_error: str | None = None


class KnowledgeBase(Answer):
    id: BaseId
    name: str
    description: str
    workspace_root: str
    knowledge_base_path: str
    source_path: str
    wiki_path: str
    has_wiki: bool
    compilation_policy: Annotated[str, one_of(enum_values(Policy))]
    phase: Annotated[str, one_of(enum_values(BasePhase))]
    created_at: Time
    updated_at: Time
    compilation: CompilationSummary


class BaseList(Answer):
    items: list[KnowledgeBase]
    total: Count


class ChangedBase(Answer):
    changed: bool
    knowledge_base: KnowledgeBase


class ChangedBaseJob(Answer):
    changed: bool
    knowledge_base: KnowledgeBase
    job: Job | DryRunJob | None


class ChangedBaseNoJob(Answer):
    changed: bool
    knowledge_base: KnowledgeBase
    job: Annotated[None, doc(description="always null")]


class ChangedBaseWithJob(Answer):
    changed: bool
    knowledge_base: KnowledgeBase
    job: Job


class SourceChanges(Answer):
    """Read-only: asking has no side effect on the store."""

    changed: bool
    added: Count
    modified: Count
    deleted: Count
    renamed: Count
    total_changed: Count
    previous_files: Count
    current_files: Count
    current_bytes: Count
    unstable_paths: list[str]
    safety_pause: str | None
    sources_readable: bool = None
    error: str | None = None


class TrustPolicy(Answer):
    """trust.md §2"""

    enabled: bool
    autonomy: Annotated[str, one_of(["suggest", "guarded", "auto"])]
    compile_sources: list[str]
    maintain_kinds: list[str]
    never_auto: Annotated[list[str], doc(description="class:NAME, tag:NAME or title:REGEX")]
    min_confidence: Annotated[float, doc(minimum=0, maximum=1)]
    stale_days: Annotated[int, doc(minimum=1)]


class CompileOptions(Answer):
    """A kctui extension, only in a claimed answer (other clients ignore it): the claimed base's trust
    policy and compile options (`kctui kb policy --json`), so an external kctui worker compiles under them.
    Absent: the default policy."""

    trust_policy: TrustPolicy
    link_style: Annotated[str, one_of(["wikilink", "markdown"])]
    extractor: Annotated[str, one_of(["builtin", "llm"])]


class Claim(Answer):
    """With no work: claimed false, contractVersion "1" and every other field null (no compileOptions)."""

    claimed: bool
    contract_version: Annotated[str, one_of([CONTRACT_VERSION])]
    workspace_root: str | None
    knowledge_base_path: str | None
    source_path: Annotated[str | None, doc(description="the compiler reads only here")]
    previous_wiki_path: str | None
    output_path: Annotated[str | None, doc(description="<job dir>/wiki: the compiler writes only under it")]
    job: Job | None
    compile_options: CompileOptions = None


class PageEdit(Answer):
    knowledge_base_id: str
    page: str
    revision: Annotated[int, doc(minimum=1)]
    operation: Annotated[str, one_of(["append", "revise"])]
    edit: dict[str, Any]
    author: str
    decision: Annotated[str, one_of(["apply"])]


class SkippedFile(Answer):
    path: str
    reason: str


class IngestReport(Answer):
    """Paths relative to sources/; every file skipped, with why (symlink, exists, too large, vanished,
    ignored name)."""

    copied: list[str]
    replaced: list[str]
    skipped: list[SkippedFile]


class OpenApiDocument(Answer):
    __doc__ = f"this document (OpenAPI {OPENAPI_VERSION}), not wrapped"

    openapi: Any
    info: Any
    paths: Any
