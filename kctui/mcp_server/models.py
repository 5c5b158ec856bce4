"""The output schemas of the MCP tools (pydantic models; JSON field names as the CLI's `--json`)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Out(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="ignore")


class CompileResult(_Out):
    knowledge_base_id: str = Field(alias="knowledgeBaseId")
    job_id: str | None = Field(default=None, alias="jobId", description="null: nothing new to compile")
    phase: str | None = Field(default=None, description="the job's end phase (succeeded, failed, cancelled)")
    changed: bool = Field(description="false: this generation was already compiled or is being compiled")
    brief: str | None = Field(default=None, description="the change brief (Markdown) of the pass, or the latest one")
    brief_job_id: str | None = Field(default=None, alias="briefJobId")


class PageSummary(_Out):
    page: str
    slug: str
    page_class: str = Field(alias="pageClass")
    title: str
    description: str = ""
    status: str


class PageList(_Out):
    knowledge_base_id: str = Field(alias="knowledgeBaseId")
    items: list[PageSummary]
    total: int
    limit: int
    offset: int
    next: int | None = None


class Revision(_Out):
    page: str
    slug: str
    revision: int
    deleted: bool
    author: str
    at: str | None = None
    reason: str


class KnowledgePage(_Out):
    knowledge_base_id: str = Field(alias="knowledgeBaseId")
    page: str
    slug: str
    title: str
    page_class: str = Field(alias="pageClass")
    compile_status: str = Field(alias="compileStatus")
    status: str
    status_line: str = Field(alias="statusLine")
    flag: dict[str, Any] | None = None
    human_confirmed: bool = Field(alias="humanConfirmed")
    revision: int = Field(description="the current revision: pass it as expected_revision")
    description: str = ""
    claims: list[dict[str, Any]] = Field(description="the page's claims, each with its citation")
    edits: list[dict[str, Any]] = Field(default_factory=list, description="what people and agents wrote on it")
    body: str
    revisions: list[Revision]


class PageEdit(_Out):
    knowledge_base_id: str = Field(alias="knowledgeBaseId")
    page: str
    revision: int
    operation: str
    edit: dict[str, Any]
    author: str
    decision: str


class ReviewItemOut(_Out):
    id: int
    knowledge_base_id: str = Field(alias="knowledgeBaseId")
    kind: str = Field(description="held (an update the trust boundary declined) or conflict")
    page: str
    title: str = ""
    reason: str
    reason_words: str = Field(default="", alias="reasonWords")
    summary: str = ""
    state: str
    state_words: str = Field(default="", alias="stateWords",
                             description="the state as a person reads it: `partly approved (37/38)` when a "
                                         "decision took some of the item's hunks")
    expected_revision: int | None = Field(default=None, alias="expectedRevision")
    decisions: list[str] = Field(default_factory=list, description="what resolve_conflict accepts for it")
    details: dict[str, Any] = Field(default_factory=dict, description="a conflict's two sides with citations")


class UndoOut(_Out):
    decision: int = Field(description="the decision undone")
    knowledge_base_id: str = Field(alias="knowledgeBaseId")
    items: list[dict[str, Any]] = Field(description="the items reopened, with the state the decision had given")
    pages: list[dict[str, Any]] = Field(description="each page's revision restored (revisionBefore; 0: removed)")
    hunks: dict[str, Any] = Field(default_factory=dict)
    undone_at: str | None = Field(default=None, alias="undoneAt")


class ConflictList(_Out):
    items: list[ReviewItemOut]
    total: int
    limit: int
    offset: int
    next: int | None = None
    counts: dict[str, int]


class Brief(_Out):
    job_id: str = Field(alias="jobId")
    knowledge_base_id: str = Field(alias="knowledgeBaseId")
    created_at: str | None = Field(default=None, alias="createdAt")
    markdown: str


class PolicyOut(_Out):
    changed: bool
    policy: dict[str, Any] = Field(description="as `kctui kb policy --json`")


class SearchResult(_Out):
    knowledge_base_id: str = Field(alias="knowledgeBaseId")
    query: str
    total: int
    items: list[dict[str, Any]]
    next_actions: list[str] = Field(default_factory=list, alias="nextActions")


class ContextPacket(_Out):
    budget: int
    bytes: int = Field(description="the JSON packet's size; never over the budget")
    packet: dict[str, Any] = Field(description="the context packet over both layers (`kctui context --json`)")


class AskCitation(_Out):
    item: str = Field(description="the packet item's id (its 1-based position in the packet)")
    ref: str | None = Field(default=None, description="extractive: the answer's marker [n] for this citation "
                                                      "(one per cited place; the model's answers use the item)")
    path: str = Field(description="wiki/<page> for a compiled page, sources/<path> for raw evidence")
    source: str = Field(default="", description="the source file the cited lines are in")
    lines: list[int] | None = Field(default=None, description="[start, end] source lines; null: the whole item")
    verified: bool
    why: str = ""


class AskAnswer(_Out):
    question: str
    answer: str
    mode: str = Field(description="model (a model's answer, citations verified) or extractive (no model: "
                                  "the packet's best cited statements, extracted, not written)")
    citations: list[AskCitation]
    flags: list[dict[str, Any]] = Field(description="cited pages not plainly current: qualify what they say")
    packet_bytes: int
    model: str | None = None
    usage: dict[str, Any] | None = None
    kept: str | None = Field(default=None, description="the output page the answer was kept as (keep=true)")
    verified: bool = Field(description="false: a citation does not hold what the answer states; not settled")
    unanswerable: bool = Field(description="true: nothing in the base answers the question")
