"""`kctui mcp`: the agent tools of seeds/003 over MCP (stdio), on the official `mcp` SDK's MCPServer.

Input schemas come from the typed signatures below (pydantic `Field`s), output schemas from the models
of `models.py`; every result is structured content and a text block. A tool error is an MCP tool
error (`isError`) whose text starts with its code in brackets, e.g. `[human_confirmed] revise of …`
(codes: `tools.FAILURE_CODES`). The work is done by `tools.Tools` in a worker thread, through the
same services as the CLI: a compile asks a running host and waits for it, or runs in this process
under the host lock (as `kctui compile --wait`); the other tools work on the store as the CLI does."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, Field, ValidationError

from kctui.mcp_server import models as m
from kctui.mcp_server.errors import tool_error_text
from kctui.mcp_server.tools import ToolFailure, Tools

INSTRUCTIONS = (
    "kctui keeps knowledge bases compiled: pages whose every claim cites the source lines it came from. "
    "Check the compiled layer first (list_knowledge_pages, search_knowledge, get_context, ask) and read raw "
    "sources only where no page covers a question. A page that is contradicted, needs review or is stale "
    "says so: qualify it. Conflicts and held updates wait for a person (list_conflicts); direct edits "
    "(update_knowledge_page) are append and revise only, never supersede, and a human-confirmed page "
    "takes appends only.")

Workspace = Annotated[str | None, Field(description="the workspace folder (absolute path); optional when kctui "
                                                    "mcp was started with one, or the base id is unique")]
Base = Annotated[str, Field(description="the knowledge base's id", min_length=1, max_length=200)]


def _result(pair: tuple[BaseModel, str]) -> Any:
    model, text = pair
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=model.model_dump(mode="json", by_alias=True))


async def _call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return _result(await anyio.to_thread.run_sync(lambda: fn(*args, **kwargs)))
    except ToolFailure as exc:
        raise ToolError(str(exc)) from None


class _Server(MCPServer):
    """The SDK's server, whose tool errors read `[code] …` (kctui.mcp_server.errors): a tool's own failure
    as it raised it, an argument error as one `[invalid_input]` line naming the arguments; not the SDK's
    `Error executing tool …` nor pydantic's report (QA s30 #11). A crash stays the SDK's (logged, generic)."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc, UnexpectedToolError):
                raise
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                text = tool_error_text(name, str(exc), arguments=arguments, schema=self._tool_input_schema(name),
                                       errors=list(cause.errors()))
            else:
                text = tool_error_text(name, str(cause) if isinstance(cause, ToolError) else str(exc))
            return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def build_server(tools: Tools) -> MCPServer:
    server = _Server("kctui", instructions=INSTRUCTIONS, log_level="WARNING")

    @server.tool(description="Run a compile pass of a knowledge base and return its change brief. dry_run: "
                             "run the whole pass and return the brief it would give, publishing nothing.")
    async def compile_knowledge_base(knowledge_base: Base, workspace: Workspace = None,
                                     dry_run: Annotated[bool, Field(description="preview without publishing")] = False
                                     ) -> m.CompileResult:
        return await _call(tools.compile_knowledge_base, workspace, knowledge_base, dry_run)

    @server.tool(description="The compiled layer: check here before searching raw sources. Archived pages are "
                             "left out unless archived is true (the recovery area).")
    async def list_knowledge_pages(
            knowledge_base: Base, workspace: Workspace = None,
            page_class: Annotated[Literal["source", "concept", "entity"] | None, Field(description="only this class")] = None,
            status: Annotated[Literal["compiled", "needs-review", "contradicted", "stale", "confirmed", "archived"] | None,
                              Field(description="only pages with this status")] = None,
            archived: Annotated[bool, Field(description="include archived pages")] = False,
            limit: Annotated[int, Field(ge=1, le=1000)] = 100, offset: Annotated[int, Field(ge=0)] = 0) -> m.PageList:
        return await _call(tools.list_knowledge_pages, workspace, knowledge_base, page_class, status, archived,
                           limit, offset)

    @server.tool(description="One page in full: body, claims with citations, status and flags, what people and "
                             "agents wrote on it, and its revisions (pass `revision` as expected_revision).")
    async def get_knowledge_page(knowledge_base: Base,
                                 page: Annotated[str, Field(description="a page path (entities/x.md) or slug",
                                                            min_length=1, max_length=1024)],
                                 workspace: Workspace = None) -> m.KnowledgePage:
        return await _call(tools.get_knowledge_page, workspace, knowledge_base, page)

    @server.tool(description="Write on a page directly, within the trust boundary: append a statement (which may "
                             "cite source lines that must contain its value) or a note, or revise a section "
                             "people write, or rewrite an earlier statement or note. Never supersede; a human-confirmed page takes appends only. "
                             "Recorded as the agent's edit; survives later compiles.")
    async def update_knowledge_page(
            knowledge_base: Base,
            page: Annotated[str, Field(description="a page path or slug", min_length=1, max_length=1024)],
            operation: Annotated[Literal["append", "revise", "supersede"],
                                 Field(description="append (statement or note) or revise (a section); supersede "
                                                   "is always refused")],
            text: Annotated[str, Field(min_length=1, max_length=8000)],
            workspace: Workspace = None,
            kind: Annotated[Literal["statement", "note", "section"] | None,
                            Field(description="append: statement (default) or note; revise: section")] = None,
            citation: Annotated[str | None, Field(description="PATH:Lstart-Lend in the base's sources/")] = None,
            value: Annotated[str | None, Field(description="the words the cited lines must contain "
                                                           "(default: the text)")] = None,
            section: Annotated[str | None, Field(description="revise: the section's name", max_length=200)] = None,
            edit_id: Annotated[str | None, Field(description="revise: rewrite this earlier statement or note "
                                                            "(its id, e.g. e2) instead of a section",
                                                 max_length=20)] = None,
            expected_revision: Annotated[int | None, Field(ge=1, description="refuse if the page moved on")] = None,
    ) -> m.PageEdit:
        return await _call(tools.update_knowledge_page, workspace, knowledge_base, page, operation, text, kind,
                           citation, value, section, expected_revision, edit_id)

    @server.tool(description="What awaits a person's decision: held updates and conflicts, with both sides "
                             "and their citations, and the revision to pass to resolve_conflict.")
    async def list_conflicts(workspace: Workspace = None,
                             knowledge_base: Annotated[str | None, Field(description="only this base")] = None,
                             kind: Annotated[Literal["held", "conflict"] | None, Field(description="only this kind")] = None,
                             limit: Annotated[int, Field(ge=1, le=500)] = 50,
                             offset: Annotated[int, Field(ge=0)] = 0) -> m.ConflictList:
        return await _call(tools.list_conflicts, workspace, knowledge_base, kind, limit, offset)

    @server.tool(description="Record a decision on a review item: approve or reject a held update; use-new, "
                             "keep or dismiss a conflict. expected_revision is the page revision the decision "
                             "was made on: if the page moved on, nothing is applied and the item is refreshed.")
    async def resolve_conflict(item_id: Annotated[int, Field(ge=1)],
                               decision: Literal["approve", "reject", "use-new", "keep", "dismiss"],
                               expected_revision: Annotated[int, Field(ge=0)],
                               reviewer: Annotated[str | None, Field(
                                   pattern=r"^human:\S{1,64}$",
                                   description="human:NAME when a person made this decision and the assistant "
                                               "records it (it then confirms the page); left out, the decision "
                                               "is the agent's own and confirms nothing")] = None,
                               hunks: Annotated[list[int] | None, Field(
                                   description="a held update's hunks (numbered from 1) the decision applies to; "
                                               "the others get the opposite")] = None) -> m.ReviewItemOut:
        return await _call(tools.resolve_conflict, item_id, decision, expected_revision, reviewer, hunks)

    @server.tool(description="Undo the latest review decision (of item_id): each page it wrote gets its previous "
                             "revision back through promotion, byte for byte, and its items are open again. "
                             "Refused when a page changed since the decision.")
    async def undo_review_decision(item_id: Annotated[int | None, Field(ge=1, description="the item")] = None,
                                   reviewer: Annotated[str | None, Field(pattern=r"^human:\S{1,64}$",
                                                                         description="human:NAME when a person "
                                                                                     "asked for it")] = None
                                   ) -> m.UndoOut:
        return await _call(tools.undo_review_decision, item_id, reviewer)

    @server.tool(description="What a pass changed: the change brief of a job (default: the latest pass).")
    async def get_change_brief(knowledge_base: Base, workspace: Workspace = None,
                               job_id: Annotated[str | None, Field(description="a job id")] = None) -> m.Brief:
        return await _call(tools.get_change_brief, workspace, knowledge_base, job_id)

    @server.tool(description="Edit a knowledge base's trust boundary and compile options; fields left out stay.")
    async def set_compile_policy(
            knowledge_base: Base, workspace: Workspace = None,
            compilation: Annotated[Literal["manual", "smart_auto"] | None, Field(description="when it compiles")] = None,
            enabled: bool | None = None,
            autonomy: Literal["suggest", "guarded", "auto"] | None = None,
            never_auto: Annotated[list[str] | None, Field(description="class:NAME, tag:NAME or title:REGEX")] = None,
            min_confidence: Annotated[float | None, Field(ge=0, le=1)] = None,
            stale_days: Annotated[int | None, Field(ge=1, le=36500)] = None,
            compile_sources: Annotated[list[Literal["markdown", "text", "pdf", "html"]] | None,
                                       Field(description="source kinds that are extracted")] = None,
            maintain_kinds: Annotated[list[Literal["source", "concept", "entity"]] | None,
                                      Field(description="page classes the compiler writes")] = None,
    ) -> m.PolicyOut:
        return await _call(tools.set_compile_policy, workspace, knowledge_base, compilation=compilation,
                           enabled=enabled, autonomy=autonomy, never_auto=never_auto, min_confidence=min_confidence,
                           stale_days=stale_days, compile_sources=compile_sources, maintain_kinds=maintain_kinds)

    @server.tool(description="Full-text search over the compiled pages (not raw sources): status, snippet and "
                             "the matching claims with citations.")
    async def search_knowledge(knowledge_base: Base, query: Annotated[str, Field(min_length=1, max_length=1000)],
                               workspace: Workspace = None,
                               limit: Annotated[int, Field(ge=1, le=100)] = 10) -> m.SearchResult:
        return await _call(tools.search_knowledge, workspace, knowledge_base, query, limit)

    @server.tool(description="A context packet for a question over both layers: the compiled pages' claims "
                             "(disputed, held or stale pages flagged inline) and the raw source passages, in one "
                             "ranking, each source line once, never over the byte budget.")
    async def get_context(knowledge_base: Base, query: Annotated[str, Field(min_length=1, max_length=1000)],
                          workspace: Workspace = None,
                          budget: Annotated[int | None, Field(ge=1024, le=131072,
                                                              description="bytes (default 16384)")] = None
                          ) -> m.ContextPacket:
        return await _call(tools.get_context, workspace, knowledge_base, query, budget)

    @server.tool(description="Ask the knowledge base a question: an answer citing the context packet's items "
                             "and source lines, every citation verified (verified=false: not settled), flagged "
                             "pages flagged; with no model configured, the packet's best cited statements, "
                             "extracted. keep=true keeps it as an output page under wiki/outputs/.")
    async def ask(knowledge_base: Base, question: Annotated[str, Field(min_length=1, max_length=1000)],
                  workspace: Workspace = None,
                  budget: Annotated[int | None, Field(ge=1024, le=131072, description="bytes (default 16384)")] = None,
                  keep: bool = False) -> m.AskAnswer:
        return await _call(tools.ask, workspace, knowledge_base, question, budget, keep)

    return server


TOOL_NAMES = ("compile_knowledge_base", "list_knowledge_pages", "get_knowledge_page", "update_knowledge_page",
              "list_conflicts", "resolve_conflict", "get_change_brief", "set_compile_policy", "search_knowledge",
              "get_context", "ask")


def serve_stdio(workspaces: list[str], *, agent: str) -> None:
    build_server(Tools(workspaces, agent=agent)).run("stdio")


__all__ = ["build_server", "serve_stdio", "TOOL_NAMES"]
