"""Knowledge bases for the review tests: one compiled by the real worker (`Base`, with a product table and
a note that disagrees with it), passes whose staged pages and review.json a test writes (`compile_pass`),
and a base with held updates on N pages and one conflict (`make_held`)."""

from __future__ import annotations

import json
import threading

from kctui import paths
from kctui.core.frontmatter import parse_document
from kctui.core.page_status import set_page_status
from kctui.core.pages import strip_kept
from kctui.services import jobs, results, review
from kctui.services.local_transport import LocalTransport
from kctui.services.worker import run_worker
from tests.helpers import make_base

WIDGET = ("# Widget Server\n\n| cycle | eol | latest |\n| --- | --- | --- |\n"
          "| 1.10 | 2024-11-06 | 1.10.2 |\n| 2.1 | 2026-03-01 | {latest} |\n")
NOTE = "# Widget Server\n\nOur support desk says:\n\n| cycle | eol | latest |\n| --- | --- | --- |\n| 1.10 | 2024-12-01 | 1.10.3 |\n"
WS_ENTITY = "entities/widget-server.md"


def said(body: str) -> str:
    """A page body as its claims say it: a person's decision's flags (✓ decided, ⚑ decided against, ⚑
    kept) left out of each line."""
    return "\n".join(strip_kept(ln) for ln in body.split("\n"))


class Base:
    """A knowledge base compiled by the built-in worker, as the host compiles it."""

    def __init__(self, svc, workspace, files: dict[str, str]) -> None:
        self.svc, self.ws = svc, workspace
        self.kb = make_base(svc, workspace, "Trust", files=files)
        self.src = paths.sources_path(workspace, self.kb.id)
        self.wiki = paths.wiki_path(workspace, self.kb.id)

    def compile(self) -> None:
        jobs.request_compile(self.svc, self.ws, self.kb.id)
        [outcome] = run_worker(LocalTransport(self.svc), stop_event=threading.Event(), once=True)
        assert outcome.result == "succeeded", outcome

    def write(self, rel: str, text: str) -> None:
        (self.src / rel).write_text(text, encoding="utf-8")

    def page(self, rel: str) -> tuple[dict, str]:
        data, body, _ = parse_document((self.wiki / rel).read_text(encoding="utf-8"))
        return data, body

    def items(self) -> list[review.ReviewItem]:
        return review.list_items(self.svc, kb_id=self.kb.id)


def compile_pass(svc, ws, kb_id, pages: dict[str, str], items: list[dict] | None = None):
    """A pass of the base whose staged pages (and review.json items) are the ones given, reported."""
    jobs.request_compile(svc, ws, kb_id)
    _, job = jobs.claim(svc)
    staged = paths.staged_wiki(ws, kb_id, job.id)
    for rel, text in pages.items():
        (staged / rel).parent.mkdir(parents=True, exist_ok=True)
        (staged / rel).write_text(text)
    if items is not None:
        (staged.parent / "review.json").write_text(json.dumps({"version": 1, "items": items}))
    return results.report_result(svc, ws, kb_id, job.id, "succeeded")


N = 6
_LANG_PAGE = ("---\ntype: Concept\ntitle: Lang {n}\ncompile_status: compiled\nstatus: stable\n---\n\n# Lang {n}\n\n"
              "- eol: {v} ^[lang{n}.md:L2-L2]\n")


def _lang_page(n: int, v: str) -> str:
    return _LANG_PAGE.format(n=n, v=v)


def make_held(svc, workspace, name="Langs"):
    """A base of N+2 pages; a second pass holds a revise of pages 0..N-1 and raises one conflict."""
    b = make_base(svc, workspace, name, files={f"lang{n}.md": f"# Lang {n}\neol: 2028\n" for n in range(N + 2)})
    compile_pass(svc, workspace, b.id, {f"concepts/lang{n}.md": _lang_page(n, "2028") for n in range(N + 2)})
    (paths.sources_path(workspace, b.id) / "extra.md").write_text("# extra\n")
    shown = {f"concepts/lang{n}.md": set_page_status(_lang_page(n, "2028"), "needs-review") for n in range(N + 2)}
    items = [{"kind": "held", "page": f"concepts/lang{n}.md", "title": f"Lang {n}", "updateKind": "revise",
              "reason": "autonomy_ceiling", "summary": f"eol of lang {n} revised", "proposedBody": _lang_page(n, "2029")}
             for n in range(N)]
    items.append({"kind": "conflict", "page": f"concepts/lang{N}.md", "title": f"Lang {N}", "reason": "contradiction",
                  "summary": "eol", "proposedBody": _lang_page(N, "2030"),
                  "existing": {"value": "2028", "citation": f"lang{N}.md:L2-L2", "source": f"lang{N}.md"},
                  "incoming": {"value": "2030", "citation": "extra.md:L1-L1", "source": "extra.md"},
                  "fingerprint": "f1"})
    compile_pass(svc, workspace, b.id, shown, items)
    return b
