"""Issue 15 part 3: the policy's `compile_sources` and `maintain_kinds` take effect. A source whose kind
is not listed is gathered but not extracted (the brief says so, and a page it had stands as it was);
a page class not maintained is never written by the compiler."""

from __future__ import annotations

import threading

from kctui import paths
from kctui.services import jobs
from kctui.services.briefs import find_brief
from kctui.services.local_transport import LocalTransport
from kctui.services.policy import update_policy
from kctui.services.worker import run_worker
from tests.helpers import make_base

FILES = {"billing.md": "# Billing API\n\nThe billing-api service handles invoices.\n\n"
                       "The on-call engineer for billing-api is Lena Vogel.\n",
         "notes.txt": "Ripgrep version 14.1 was released on 2024-01-06.\n"}


def _compile(svc, ws, kb) -> str:
    jobs.request_compile(svc, ws, kb)
    [outcome] = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
    assert outcome.result == "succeeded", outcome
    return find_brief(svc, ws, kb)["markdown"]


def _pages(wiki) -> set[str]:
    return {str(p.relative_to(wiki)) for p in wiki.glob("*/*.md")}


def test_sources_of_unlisted_kinds_are_gathered_not_extracted(svc, workspace) -> None:
    kb = make_base(svc, workspace, "Kinds", files=FILES).id
    update_policy(svc, workspace, kb, compile_sources=["markdown"])
    brief = _compile(svc, workspace, kb)
    wiki = paths.wiki_path(workspace, kb)
    assert "sources/billing-md.md" in _pages(wiki)
    assert not any("notes" in p or "ripgrep" in p for p in _pages(wiki))
    assert "1 source(s) gathered but not extracted" in brief and "notes.txt" in brief

    # listed again: it is extracted; unlisted once more after that, its page stands as it was, unread
    update_policy(svc, workspace, kb, compile_sources=["markdown", "text"])
    _compile(svc, workspace, kb)
    assert "sources/notes-txt.md" in _pages(wiki)
    page = (wiki / "sources" / "notes-txt.md").read_bytes()
    update_policy(svc, workspace, kb, compile_sources=["markdown"])
    src = paths.sources_path(workspace, kb)
    (src / "notes.txt").write_text("Ripgrep version 15.0 was released on 2025-10-01.\n", encoding="utf-8")
    brief = _compile(svc, workspace, kb)
    assert (wiki / "sources" / "notes-txt.md").read_bytes() == page
    assert "not extracted" in brief and "archived" not in (wiki / "sources" / "notes-txt.md").read_text()


def test_page_classes_not_maintained_are_never_written(svc, workspace) -> None:
    kb = make_base(svc, workspace, "Classes", files=FILES).id
    update_policy(svc, workspace, kb, maintain_kinds=["source"])
    brief = _compile(svc, workspace, kb)
    wiki = paths.wiki_path(workspace, kb)
    assert _pages(wiki) and all(p.startswith("sources/") for p in _pages(wiki))
    assert "not written (their class is not in the policy's maintain_kinds)" in brief

    update_policy(svc, workspace, kb, maintain_kinds=["source", "concept", "entity"])
    _compile(svc, workspace, kb)
    entities = {p for p in _pages(wiki) if p.startswith("entities/")}
    assert "entities/billing-api.md" in entities
    before = (wiki / "entities" / "billing-api.md").read_bytes()
    update_policy(svc, workspace, kb, maintain_kinds=["source", "concept"])
    src = paths.sources_path(workspace, kb)
    (src / "billing.md").write_text(FILES["billing.md"] + "\nThe billing-api service runs on Kubernetes.\n",
                                    encoding="utf-8")
    _compile(svc, workspace, kb)
    assert (wiki / "entities" / "billing-api.md").read_bytes() == before  # not maintained: not touched
    assert "Kubernetes" in (wiki / "sources" / "billing-md.md").read_text(encoding="utf-8")
