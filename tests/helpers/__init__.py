"""Small helpers for tests: knowledge bases with real files, staged pages, a watcher that watches nothing.
The modules beside this one hold the helpers of one area each (wiki checks, the fake model servers, review
bases, dry runs, the CLI, the corpora, the import graph); their fixtures are registered in tests/conftest.py."""

from __future__ import annotations

from pathlib import Path

from kctui import paths


def make_base(svc, workspace: Path, name: str = "Notes", files: dict[str, str] | None = None, policy: str = "manual"):
    from kctui.services import bases

    _, base = bases.create_base(svc, workspace, name, policy=policy)
    src = paths.sources_path(workspace, base.id)
    for rel, text in (files if files is not None else {"a.md": "# A\n\nAlpha is a letter.\n"}).items():
        p = src / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return base


def write_staged_page(workspace: Path, kb_id: str, job_id: str, name: str = "page.md", body: str = "hello",
                      title: str | None = None) -> Path:
    staged = paths.staged_wiki(workspace, kb_id, job_id)
    staged.mkdir(parents=True, exist_ok=True)
    p = staged / name
    p.write_text(f"---\ntype: Source\ntitle: {title or job_id}\n---\n\n{body}\n", encoding="utf-8")
    return p


class NoWatcher:
    """A source watcher that watches nothing: the scheduler's reconcile scan is all there is."""

    mode = "live"
    status_message = None
    watched_keys = ()

    def watch(self, key, path): ...
    def unwatch(self, key): ...
    def start(self): ...
    def stop(self): ...
