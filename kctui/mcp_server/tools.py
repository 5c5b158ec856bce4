"""The agent tools as plain functions over the services the CLI uses (no MCP here: `server.py`
registers them). Each takes a fresh ServiceContext (one SQLite connection, in the calling thread) and
returns (output model, text for a person or a model to read). Errors are `ToolFailure`s carrying a code
from a closed set: the services' codes (`kctui.services.errors.CODES`), the trust boundary's hold reasons
(a refused edit) and the job failure codes (`kctui.core.models.FailureCode`, a failed compile)."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from kctui.core.models import TERMINAL_JOB_PHASES, FailureCode
from kctui.core.page_edits import edit_entries
from kctui.core.page_status import split_page
from kctui.core.trust import HoldReason
from kctui.mcp_server import models as m
from kctui.services.context import ServiceContext
from kctui.services.errors import CODES, InvalidInput, ServiceError

# Every code a tool error carries (the first word of its text, in brackets).
FAILURE_CODES = tuple(CODES) + tuple(r.value for r in HoldReason) + tuple(c.value for c in FailureCode)
DECISIONS = {"approve": "approve", "reject": "reject", "use-new": "use_new", "keep": "keep", "dismiss": "dismiss"}
DRY_RUN_REFUSED = ("dry_run is not available yet: kctui has no dry-run compile (it previews a pass without "
                   "publishing); run without dry_run, or look at list_conflicts after a pass")
DRY_RUN_SUPPORTED = True  # kctui.services.dry_run (issue 16)

T = TypeVar("T")


class ToolFailure(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"[{code}] {message}")
        self.code, self.message = code, message


def _check_decision(ctx: ServiceContext, item_id: int, decision: str) -> None:
    """A decision of the other kind of item refused in the tool's own words (QA s30 #11: not CLI flags)."""
    from kctui.services.review_queue import get_item  # noqa: PLC0415

    item = get_item(ctx, item_id)
    valid = {"held": ("approve", "reject"), "conflict": ("use-new", "keep", "dismiss")}.get(item.kind, ())
    if valid and decision not in valid:
        raise ToolFailure("invalid_input", f"review item {item_id} is a {item.kind} item: decide it with "
                                           f"resolve_conflict(decision={' | '.join(repr(v) for v in valid)})")


class Tools:
    """The tools, bound to the workspaces `kctui mcp` was started with and to who the edits are by."""

    def __init__(self, workspaces: list[str], *, agent: str = "agent:mcp",
                 ctx_factory: Callable[[], ServiceContext] = ServiceContext.open) -> None:
        self.workspaces = list(workspaces)
        self.agent = agent
        self.ctx_factory = ctx_factory
        # one compile at a time from this server: run in process, a pass ends when its own job does, so a
        # second concurrent call would wait on a job nobody runs
        self._compiling = threading.Lock()

    # -- plumbing -------------------------------------------------------------------------------

    def run(self, fn: Callable[[ServiceContext], T]) -> T:
        from kctui.store.db import StoreError  # noqa: PLC0415

        ctx = self.ctx_factory()
        try:
            return fn(ctx)
        except ToolFailure:
            raise
        except ServiceError as exc:
            raise ToolFailure(getattr(exc, "code", "internal_error"), exc.message) from None
        except (StoreError, sqlite3.Error, OSError) as exc:
            raise ToolFailure("io_failure", str(exc)) from None
        finally:
            ctx.close()

    def _ws(self, ctx: ServiceContext, workspace: str | None, kb: str | None = None) -> str:
        from kctui.services.bases import list_bases  # noqa: PLC0415

        if workspace:
            return os.path.abspath(os.path.expanduser(workspace))
        if len(self.workspaces) == 1:
            return self.workspaces[0]
        if kb:
            found = sorted({b.workspace for b in list_bases(ctx) if b.id == kb})
            if len(found) == 1:
                return found[0]
        raise InvalidInput("name the workspace (kctui mcp was started with "
                           f"{len(self.workspaces) or 'no'} workspace{'s' if len(self.workspaces) != 1 else ''})")

    # -- the tools ------------------------------------------------------------------------------

    def compile_knowledge_base(self, workspace: str | None, knowledge_base: str,
                               dry_run: bool = False) -> tuple[m.CompileResult, str]:
        if dry_run and not DRY_RUN_SUPPORTED:
            raise ToolFailure("invalid_input", DRY_RUN_REFUSED)
        if dry_run:
            return self._dry_run(workspace, knowledge_base)

        def go(ctx: ServiceContext) -> tuple[m.CompileResult, str]:
            from kctui.services.briefs import find_brief  # noqa: PLC0415
            from kctui.services.compile_wait import compile_and_wait  # noqa: PLC0415 - a running host does it, else this process
            from kctui.services.errors import NotFound  # noqa: PLC0415

            ws = self._ws(ctx, workspace, knowledge_base)
            with self._compiling:
                changed, base, job = compile_and_wait(ctx, ws, knowledge_base)
            if job is not None and job.phase in TERMINAL_JOB_PHASES and job.phase != "succeeded":
                code = job.error_code or ("cancelled" if job.phase == "cancelled" else "compiler_reported")
                raise ToolFailure(code, f"compile {job.id} of {base.id} {job.phase}: {job.error or 'no reason given'}")
            try:
                brief = find_brief(ctx, base.workspace, base.id, job.id if job is not None else None)
            except NotFound:
                brief = None
            out = m.CompileResult(knowledgeBaseId=base.id, jobId=job.id if job else None,
                                  phase=job.phase if job else None, changed=changed,
                                  brief=brief["markdown"] if brief else None,
                                  briefJobId=brief["jobId"] if brief else None)
            head = (f"compile {job.id} of {base.id}: {job.phase}" if job else
                    f"{base.id}: nothing new to compile (the latest brief follows)")
            return out, head + ("\n\n" + brief["markdown"] if brief else "")

        return self.run(go)

    def _dry_run(self, workspace: str | None, knowledge_base: str) -> tuple[m.CompileResult, str]:
        """A whole pass whose brief says what a compile would change, publishing and recording nothing
        (kctui.services.dry_run): `changed` is false, `jobId` the dry run's id."""
        from kctui.services.dry_run import run_dry_run  # noqa: PLC0415

        def go(ctx: ServiceContext) -> tuple[m.CompileResult, str]:
            ws = self._ws(ctx, workspace, knowledge_base)
            run = run_dry_run(ctx, ws, knowledge_base)
            if run.phase != "succeeded":
                raise ToolFailure(run.error_code or "compiler_reported",
                                  f"dry run {run.id} of {run.base_id} {run.phase}: {run.error or 'no reason given'}")
            brief = run.brief.get("markdown")
            out = m.CompileResult(knowledgeBaseId=run.base_id, jobId=run.id, phase=run.phase, changed=False,
                                  brief=brief, briefJobId=run.id)
            return out, f"dry run {run.id} of {run.base_id}: nothing published" + ("\n\n" + brief if brief else "")

        return self.run(go)

    def list_knowledge_pages(self, workspace: str | None, knowledge_base: str, page_class: str | None = None,
                             status: str | None = None, archived: bool = False, limit: int = 100,
                             offset: int = 0) -> tuple[m.PageList, str]:
        from kctui.services.pages_list import list_pages  # noqa: PLC0415

        def go(ctx: ServiceContext) -> tuple[m.PageList, str]:
            data = list_pages(ctx, self._ws(ctx, workspace, knowledge_base), knowledge_base, page_class=page_class,
                              status=status, archived=archived, limit=limit, offset=offset)
            out = m.PageList.model_validate(data)
            lines = [f"{data['total']} page(s) in {data['knowledgeBaseId']}"
                     + (f", showing {offset + 1}–{offset + len(out.items)}" if out.items else "")]
            lines += [f"- {p.page} [{p.page_class}, {p.status}] {p.title}" for p in out.items]
            return out, "\n".join(lines)

        return self.run(go)

    def get_knowledge_page(self, workspace: str | None, knowledge_base: str, page: str) -> tuple[m.KnowledgePage, str]:
        from kctui.services.search import page_view  # noqa: PLC0415

        def go(ctx: ServiceContext) -> tuple[m.KnowledgePage, str]:
            v = page_view(ctx, self._ws(ctx, workspace, knowledge_base), knowledge_base, page)
            try:
                fm = split_page(v["body"])[0]
            except Exception:  # noqa: BLE001 - a page the index holds always parses; never fail a read on it
                fm = {}
            history = v["history"]
            out = m.KnowledgePage(
                knowledgeBaseId=v["knowledgeBaseId"], page=v["page"], slug=v["slug"], title=v["title"],
                pageClass=v["pageClass"], compileStatus=v["compileStatus"], status=v["status"],
                statusLine=v["statusLine"], flag=v["flag"], description=v["description"], claims=v["claims"],
                humanConfirmed=bool(fm.get("verified")) or v["compileStatus"] == "confirmed",
                revision=history[-1]["revision"] if history else 0, edits=edit_entries(fm), body=v["body"],
                revisions=[m.Revision.model_validate(r) for r in history])
            return out, f"{v['page']} — {v['statusLine']} (revision {out.revision})\n\n{v['body']}"

        return self.run(go)

    def update_knowledge_page(self, workspace: str | None, knowledge_base: str, page: str, operation: str, text: str,
                              kind: str | None = None, citation: str | None = None, value: str | None = None,
                              section: str | None = None, expected_revision: int | None = None,
                              edit_id: str | None = None) -> tuple[m.PageEdit, str]:
        from kctui.services.page_edit import edit_page  # noqa: PLC0415

        def go(ctx: ServiceContext) -> tuple[m.PageEdit, str]:
            data = edit_page(ctx, self._ws(ctx, workspace, knowledge_base), knowledge_base, page, op=operation,
                             text=text, kind=kind, citation=citation, value=value, section=section,
                             author=self.agent, expected_revision=expected_revision, edit_id=edit_id)
            e = data["edit"]
            return m.PageEdit.model_validate(data), (
                f"{data['page']}: {operation} {e['id']} ({e['kind']}) recorded as {data['author']}; "
                f"now revision {data['revision']}")

        return self.run(go)

    def list_conflicts(self, workspace: str | None = None, knowledge_base: str | None = None, kind: str | None = None,
                       limit: int = 50, offset: int = 0) -> tuple[m.ConflictList, str]:
        from kctui.services.review_queue import list_page  # noqa: PLC0415

        if kind not in (None, "held", "conflict"):
            raise ToolFailure("invalid_input", "kind must be held or conflict")

        def go(ctx: ServiceContext) -> tuple[m.ConflictList, str]:
            ws = self._ws(ctx, workspace, knowledge_base) if (workspace or knowledge_base or len(self.workspaces) == 1) else None
            listing = list_page(ctx, ws, kb_id=knowledge_base, limit=limit, offset=offset, kind=kind)
            items = [_item_out(i) for i in listing.items]
            out = m.ConflictList(items=items, total=listing.total, limit=listing.limit, offset=listing.offset,
                                 next=listing.next, counts={"held": listing.counts.held,
                                                            "conflicts": listing.counts.conflicts})
            lines = [listing.counts.words(len(listing.items))]
            lines += [f"- #{i.id} {i.kind} {i.page} ({i.reason}; revision {i.expected_revision}): {i.summary}"
                      for i in items]
            return out, "\n".join(lines)

        return self.run(go)

    def resolve_conflict(self, item_id: int, decision: str, expected_revision: int,
                         reviewer: str | None = None, hunks: list[int] | None = None) -> tuple[m.ReviewItemOut, str]:
        """`reviewer` (`human:NAME`): the person whose decision the assistant records, which confirms the
        page; without it the decision is the agent's and confirms nothing (trust.md: only a person does)."""
        from kctui.services.review_decide import resolve  # noqa: PLC0415

        if decision not in DECISIONS:
            raise ToolFailure("invalid_input", f"decision must be one of {', '.join(DECISIONS)}")
        if reviewer is not None and not (reviewer.startswith("human:") and len(reviewer) > len("human:")):
            raise ToolFailure("invalid_input", "reviewer must be human:NAME")
        actor = reviewer or self.agent

        def go(ctx: ServiceContext) -> tuple[m.ReviewItemOut, str]:
            from kctui.core.hunks import partial_words  # noqa: PLC0415
            from kctui.services.review_partial import hunk_total  # noqa: PLC0415

            _check_decision(ctx, item_id, decision)
            total = hunk_total(ctx, item_id) if hunks else 0
            item = resolve(ctx, item_id, DECISIONS[decision], expected_revision=expected_revision, actor=actor,
                           hunks=hunks)
            did = partial_words(DECISIONS[decision], hunks, total) if hunks and total else item.state
            return _item_out(item), f"#{item.id} {did}: {item.page_path} (recorded as {actor})"

        return self.run(go)

    def undo_review_decision(self, item_id: int | None = None,
                             reviewer: str | None = None) -> tuple[m.UndoOut, str]:
        """Undo the latest review decision (of `item_id`): pages restored through promotion, items reopened."""
        from kctui.services.review_undo import undo_decision  # noqa: PLC0415

        if reviewer is not None and not (reviewer.startswith("human:") and len(reviewer) > len("human:")):
            raise ToolFailure("invalid_input", "reviewer must be human:NAME")

        def go(ctx: ServiceContext) -> tuple[m.UndoOut, str]:
            done = undo_decision(ctx, item_id=item_id, actor=reviewer or self.agent)
            return m.UndoOut.model_validate(done.json()), f"undone decision {done.id} ({done.words}); items reopened"

        return self.run(go)

    def get_change_brief(self, workspace: str | None, knowledge_base: str, job_id: str | None = None) -> tuple[m.Brief, str]:
        from kctui.services.briefs import find_brief  # noqa: PLC0415

        def go(ctx: ServiceContext) -> tuple[m.Brief, str]:
            data = find_brief(ctx, self._ws(ctx, workspace, knowledge_base), knowledge_base, job_id)
            return m.Brief.model_validate(data), data["markdown"]

        return self.run(go)

    def set_compile_policy(self, workspace: str | None, knowledge_base: str, **changes: Any) -> tuple[m.PolicyOut, str]:
        from kctui.services.bases import set_compilation_policy  # noqa: PLC0415
        from kctui.services.policy import policy_json, update_policy  # noqa: PLC0415

        compilation = changes.pop("compilation", None)
        given = {k: v for k, v in changes.items() if v is not None}

        def go(ctx: ServiceContext) -> tuple[m.PolicyOut, str]:
            ws = self._ws(ctx, workspace, knowledge_base)
            changed = False
            if compilation is not None:
                changed, _ = set_compilation_policy(ctx, ws, knowledge_base, compilation)
            if given:
                more, _ = update_policy(ctx, ws, knowledge_base, **given)
                changed = changed or more
            data = policy_json(ctx, ws, knowledge_base)
            words = ", ".join(f"{k}={v}" for k, v in sorted(data.items()))
            return m.PolicyOut(changed=changed, policy=data), ("changed: " if changed else "unchanged: ") + words

        return self.run(go)

    def search_knowledge(self, workspace: str | None, knowledge_base: str, query: str,
                         limit: int = 10) -> tuple[m.SearchResult, str]:
        from kctui.services.search import search  # noqa: PLC0415

        def go(ctx: ServiceContext) -> tuple[m.SearchResult, str]:
            data = search(ctx, self._ws(ctx, workspace, knowledge_base), knowledge_base, query, limit=limit)
            lines = [f"{data['total']} compiled page(s) match “{data['query']}”"]
            for hit in data["items"]:
                lines.append(f"- {hit.get('page')} [{hit.get('status')}] {hit.get('title')}")
                lines += [f"    {c.get('text')} {c.get('citation', '')}" for c in hit.get("claims") or []]
            lines += data.get("nextActions") or []
            return m.SearchResult.model_validate(data), "\n".join(lines)

        return self.run(go)

    def get_context(self, workspace: str | None, knowledge_base: str, query: str,
                    budget: int | None = None) -> tuple[m.ContextPacket, str]:
        import json  # noqa: PLC0415

        from kctui.search.context import DEFAULT_BUDGET  # noqa: PLC0415
        from kctui.services.search import context  # noqa: PLC0415

        def go(ctx: ServiceContext) -> tuple[m.ContextPacket, str]:
            ws = self._ws(ctx, workspace, knowledge_base)
            size = budget if budget is not None else DEFAULT_BUDGET
            raw = context(ctx, ws, knowledge_base, query, budget=size, fmt="json")
            text = context(ctx, ws, knowledge_base, query, budget=size, fmt="text")
            return m.ContextPacket(budget=size, bytes=len(raw.encode("utf-8")), packet=json.loads(raw)), text

        return self.run(go)

    def ask(self, workspace: str | None, knowledge_base: str, question: str, budget: int | None = None,
            keep: bool = False) -> tuple[m.AskAnswer, str]:
        from kctui.search.context import DEFAULT_BUDGET  # noqa: PLC0415
        from kctui.services.ask import ask  # noqa: PLC0415

        def go(ctx: ServiceContext) -> tuple[m.AskAnswer, str]:
            ws = self._ws(ctx, workspace, knowledge_base)
            size = budget if budget is not None else DEFAULT_BUDGET
            result = ask(ctx, ws, knowledge_base, question, budget=size, keep=keep, asker=self.agent)
            return m.AskAnswer(**result), _answer_text(result)

        return self.run(go)


def _answer_text(result: dict[str, Any]) -> str:
    from kctui.services.ask_cited import where  # noqa: PLC0415

    if result["unanswerable"]:
        return f"nothing in the base answers “{result['question']}”" + (f": {result['answer']}" if result["answer"] else "")
    head = ("EXTRACTED, not written (no model): the base's best cited statements" if result["mode"] == "extractive"
            else "verified answer" if result["verified"] else "UNVERIFIED answer: do not take it as settled")
    lines = [head, result["answer"]]
    lines += [f"⚠ {f['status'].upper()}: {f['page']} — {f['why']}" for f in result["flags"]]
    lines += [f"[{c.get('ref') or c['item']}] {where(c)} "  # (QA s30 #11: the path once, lines as L3-L4)
              f"{'verified' if c['verified'] else 'UNVERIFIED: ' + c.get('why', '')}".rstrip() for c in result["citations"]]
    if result["kept"]:
        lines.append(f"kept as {result['kept']}")
    return "\n".join(lines)


def _item_out(item: Any) -> m.ReviewItemOut:
    data = item.json()
    decisions = ["approve", "reject"] if item.kind == "held" else ["use-new", "keep", "dismiss"]
    details = {k: data[k] for k in ("existing", "incoming") if data.get(k)}
    return m.ReviewItemOut(id=item.id, knowledgeBaseId=item.base_id, kind=item.kind, page=item.page_path,
                           title=item.title, reason=item.reason, reasonWords=item.reason_words, summary=item.summary,
                           state=item.state, stateWords=item.state_words, expectedRevision=item.expected_revision,
                           decisions=decisions if item.state == "open" else [], details=details)


__all__ = ["Tools", "ToolFailure", "FAILURE_CODES", "DECISIONS", "DRY_RUN_SUPPORTED"]
