"""Ask a knowledge base a question (`kctui ask`, the MCP `ask` tool, the app's ask screen): the context
packet for the question (kctui.services.search.context), then

- with a model configured (the extractor's OpenAI-compatible settings, kctui.compiler.llm.settings):
  the packet and the question sent with a structured-output schema, the reply streamed
  (`on_text(partial answer)`), and every citation verified against the packet (kctui.search.answer);
- with none: an extractive answer, the best few cited statements of the packet, said to be extracted.

    ask(ctx, ws, kb, question, budget=…, keep=False, on_text=None) -> {question, answer, mode, citations,
        flags, packet_bytes, model, usage, kept, verified, unanswerable, generation}
    answer(ctx, ws, kb, question, …)  -> (that answer unkept, the packet's items)   (the app's ask screen)
    keep_result(ctx, ws, kb, result, items) -> the output page's path

`keep` writes the answer as an output page (kctui.services.outputs) through page promotion.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kctui.search import answer as answers
from kctui.search import context as packets
from kctui.services.ask_cited import check_citations, merge_refs, refs
from kctui.services.ask_kept import unverify_kept
from kctui.services.context import ServiceContext
from kctui.services.errors import InvalidInput, IOFailure
from kctui.services.search import context as packet_of

MAX_QUESTION = 1_000
MAX_REPLY_TOKENS = 1_500
SYSTEM = (
    "You answer questions about a knowledge base from its context packet only. The packet's items are "
    "numbered [1], [2], …; compiled page claims cite source lines as ^[path:La-Lb], EVIDENCE passages show "
    "their source lines as La-Lb. Answer briefly in plain text, stating the value (a date, a number, a name) "
    "as the packet writes it. Cite every item you use as {\"item\": \"<number>\", \"lines\": [start, end]} with "
    "the source lines that hold what you state. A page marked ⚠ is not plainly current: say so, never assert "
    "it as settled. A claim marked ✓ decided holds the value a person chose where sources disagreed, one marked "
    "⚑ decided against a value they rejected: answer with the chosen one. If the packet does not answer the "
    "question, set unanswerable to true and say so. Reply "
    "with one JSON object: {\"answer\", \"citations\", \"confidence\" (0 to 1), \"unanswerable\"}.")


def check_question(question: object) -> str:
    if not isinstance(question, str) or not question.strip():
        raise InvalidInput("the question must be non-empty text")
    if len(question) > MAX_QUESTION:
        raise InvalidInput(f"the question is longer than {MAX_QUESTION} characters")
    return " ".join(question.split())


def prompt(question: str, items: list[dict[str, Any]]) -> str:
    """The user message: the question and the packet's items, each headed by its id."""
    body = "".join(f"[{n}] {packets.item_text(item)}" for n, item in enumerate(items, 1))
    return f"Question: {question}\n\nContext packet ({len(items)} items):\n{body}"


def ask(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, question: object, *,
        budget: int = packets.DEFAULT_BUDGET, keep: bool = False, asker: str | None = None,
        on_text: Callable[[str], None] | None = None, settings: Any = None) -> dict[str, Any]:
    """The answer to `question` from the base (see the module's text), kept when `keep` (and it answers).
    Raises InvalidInput on a bad question, budget or model setting, IOFailure when the model fails or
    its reply is unusable (nothing is kept then)."""
    result, items = answer(ctx, workspace, kb_id, question, budget=budget, on_text=on_text, settings=settings)
    if keep and not result["unanswerable"]:
        result["kept"] = keep_result(ctx, workspace, kb_id, result, items, asker=asker)
    return result


def keep_result(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, result: dict[str, Any],
                items: list[dict[str, Any]], *, asker: str | None = None) -> str:
    """Keep an answer (from `answer`, with its packet's items) as an output page; returns its path."""
    from kctui.services.outputs import keep_answer  # noqa: PLC0415

    return keep_answer(ctx, workspace, kb_id, result, items, asker=asker)


def answer(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, question: object, *,
           budget: int = packets.DEFAULT_BUDGET, on_text: Callable[[str], None] | None = None,
           settings: Any = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the answer as `ask` returns it, unkept; the packet's items it was made from)."""
    from kctui.compiler.llm.settings import load_llm_settings  # noqa: PLC0415 - pydantic only when asking
    from kctui.config import ConfigError  # noqa: PLC0415

    q = check_question(question)
    raw = packet_of(ctx, workspace, kb_id, q, budget=budget, fmt="json")
    packet = json.loads(raw)
    items: list[dict[str, Any]] = [packets.full_item(i) for i in packet.get("items") or []]  # (a 2 KB evidence item is an array)
    if settings is None:
        try:
            settings = load_llm_settings()
        except ConfigError as exc:
            raise InvalidInput(str(exc)) from None
    result: dict[str, Any] = {"question": q, "answer": "", "mode": "extractive", "citations": [], "flags": [],
                              "packet_bytes": len(raw.encode("utf-8")), "model": None, "usage": None,
                              "kept": None, "verified": False, "unanswerable": True,
                              "generation": _generation(ctx, workspace, kb_id)}
    if settings.configured:
        _model_answer(result, settings, q, items, on_text)
    else:
        _extractive_answer(result, q, items, _source_root(ctx, workspace, kb_id))
    return result, items


def _source_root(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str) -> Path:
    from kctui import paths  # noqa: PLC0415
    from kctui.services.bases import get_base  # noqa: PLC0415

    base = get_base(ctx, workspace, kb_id)
    return paths.kb_path(Path(base.workspace), base.id) / "sources"


def _generation(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str) -> str | None:
    from kctui.services.bases import get_base  # noqa: PLC0415

    base = get_base(ctx, workspace, kb_id)
    row = ctx.store.query_one(
        "SELECT id FROM jobs WHERE workspace = ? AND base_id = ? AND phase = 'succeeded' "
        "ORDER BY completed_at DESC, id DESC LIMIT 1", (base.workspace, base.id))
    return str(row[0]) if row else None


def _extractive_answer(result: dict[str, Any], question: str, items: list[dict[str, Any]], source_root: Path) -> None:
    chosen = answers.extract(question, items)
    if not chosen:
        return
    marks = refs(chosen)  # QA s30 #12: two different citations never share a number
    result["answer"] = "\n".join(f"{s.text} [{n}]" for s, n in zip(chosen, marks))
    result["citations"] = [{"item": s.item, "ref": n, "path": s.path, "source": f"sources/{s.source}" if s.source else "",
                            "lines": list(s.lines) if s.lines else None, "verified": False,
                            "why": ""} for s, n in zip(chosen, marks)]
    result["flags"] = answers.flags(items, {s.item for s in chosen})
    check_citations(result, chosen, source_root)  # QA s30 #2: checked against the source lines, not assumed
    result["unanswerable"] = False
    unverify_kept(result, items)
    merge_refs(result)


def _model_answer(result: dict[str, Any], settings: Any, question: str, items: list[dict[str, Any]],
                  on_text: Callable[[str], None] | None) -> None:
    from kctui.services.ask_model import chat  # noqa: PLC0415 - httpx only when a model is asked

    result["mode"], result["model"] = "model", settings.model
    if not items:
        return
    content, usage = chat(settings, [{"role": "system", "content": SYSTEM},
                                     {"role": "user", "content": prompt(question, items)}],
                          answers.ANSWER_SCHEMA, MAX_REPLY_TOKENS, on_text)
    result["usage"] = usage
    try:
        reply = answers.parse_reply(content)
    except answers.ReplyError as exc:
        raise IOFailure(f"{exc}; no answer given") from None
    if not reply.answer.strip() and not reply.unanswerable:  # QA s30 #12: the model's failure, not the base's
        raise IOFailure(f"the model ({settings.model}) replied with an empty answer without saying the base cannot "
                        "answer; no answer given (try again, or `kctui llm check`)")
    result["answer"] = reply.answer
    result["unanswerable"] = reply.unanswerable or not reply.answer
    result["confidence"] = reply.confidence
    if result["unanswerable"]:
        return
    result["citations"], result["verified"] = answers.verify(reply.answer, list(reply.citations), items)
    unverify_kept(result, items)
    result["flags"] = answers.flags(items, {c["item"] for c in result["citations"]})
