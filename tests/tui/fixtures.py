"""Deterministic data for the app's tests, snapshots, screenshots and benchmark: bases in every phase,
jobs, a running job with live progress, a held update, a conflict and a brief — all made through the
services (a staged wiki plus `review.json`, reported as a success, like the review-queue tests)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from kctui import paths
from kctui.compiler.runner import ProgressEvent
from kctui.core.page_status import set_page_status
from kctui.services import bases, jobs, results
from kctui.services.progress import ProgressRecorder
from kctui.ui.screens.page_read import PageScreen
from kctui.ui.screens.pages import PagesScreen
from kctui.ui.screens.review_detail import ReviewDetailScreen

PAGE = ("---\ntype: Concept\ntitle: {title}\ncompile_status: compiled\nstatus: stable\n---\n\n# {title}\n\n"
        "- {fact}: {value} ^[{cite}]\n")
BRIEF = """# Change brief — Langs

**3 pages updated**, 1 held for review, 1 conflict.

## Updated
- `concepts/python.md` — end of life of 3.12 revised (held: above the autonomy ceiling)
- `concepts/sqlite.md` — WAL checkpoint default (conflict: two sources disagree)

## Sources read
| file | status |
| --- | --- |
| python.md | changed |
| notes.md | new |
"""


def make_base(svc, ws: Path, name: str, files: dict[str, str], policy: str = "manual"):
    _, base = bases.create_base(svc, ws, name, policy=policy)
    src = paths.sources_path(ws, base.id)
    for rel, text in files.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text, encoding="utf-8")
    return base


def compile_pass(svc, ws: Path, kb_id: str, pages: dict[str, str], items: list[dict] | None = None,
                 brief: str | None = None, outcome: str = "succeeded", error: str | None = None):
    jobs.request_compile(svc, ws, kb_id)
    _, job = jobs.claim(svc)
    staged = paths.staged_wiki(ws, kb_id, job.id)
    for rel, text in pages.items():
        (staged / rel).parent.mkdir(parents=True, exist_ok=True)
        (staged / rel).write_text(text, encoding="utf-8")
    if items is not None:
        (staged.parent / "review.json").write_text(json.dumps({"version": 1, "items": items}), encoding="utf-8")
    if brief is not None:
        (staged.parent / "brief.md").write_text(brief, encoding="utf-8")
    return results.report_result(svc, ws, kb_id, job.id, outcome, error=error)


def page(title: str, fact: str, value: str, cite: str) -> str:
    return PAGE.format(title=title, fact=fact, value=value, cite=cite)


def langs_with_reviews(svc, clock, ws: Path):
    """A base with a held update (python.md) and a conflict (sqlite.md), and a brief."""
    b = make_base(svc, ws, "Langs", {"python.md": "# Python\neol: 2028-10-31\n",
                                      "sqlite.md": "# SQLite\nwal_autocheckpoint: 1000\n",
                                      "notes.md": "# Notes\nPython 3.12 eol: 2028-11-30\nwal_autocheckpoint: 500\n"})
    py_old = page("Python", "eol (3.12)", "2028-10-31", "python.md:L2-L2")
    sq_old = page("SQLite", "wal_autocheckpoint", "1000", "sqlite.md:L2-L2")
    compile_pass(svc, ws, b.id, {"concepts/python.md": py_old, "concepts/sqlite.md": sq_old})
    clock.advance(600)
    (paths.sources_path(ws, b.id) / "extra.md").write_text("# extra\n", encoding="utf-8")
    compile_pass(svc, ws, b.id, {"concepts/python.md": set_page_status(py_old, "needs-review"),
                                 "concepts/sqlite.md": set_page_status(sq_old, "contradicted")}, [
        {"kind": "held", "page": "concepts/python.md", "title": "Python", "updateKind": "revise",
         "reason": "autonomy_ceiling", "summary": "eol of 3.12 revised to 2028-11-30",
         "proposedBody": page("Python", "eol (3.12)", "2028-11-30", "notes.md:L2-L2")},
        {"kind": "conflict", "page": "concepts/sqlite.md", "title": "SQLite", "reason": "contradiction",
         "summary": "wal_autocheckpoint: 1000 or 500?",
         "proposedBody": page("SQLite", "wal_autocheckpoint", "500", "notes.md:L3-L3"),
         "existing": {"value": "1000", "citation": "sqlite.md:L2-L2", "source": "sqlite.md"},
         "incoming": {"value": "500", "citation": "notes.md:L3-L3", "source": "notes.md"}},
    ], brief=BRIEF)
    return b


def paused_base(svc, clock, ws: Path):
    """A smart_auto base paused by the scheduler after most of its sources vanished at once."""
    files = {f"doc{i:02d}.md": f"# Doc {i}\n\nnote {i}\n" for i in range(30)}
    b = make_base(svc, ws, "Team notes", files, policy="smart_auto")
    compile_pass(svc, ws, b.id, {"sources/doc00.md": page("Doc", "n", "0", "doc00.md:L3-L3")})
    for i in range(25):
        (paths.sources_path(ws, b.id) / f"doc{i:02d}.md").unlink()
    clock.advance(120)
    try:
        from kctui.services.scheduler import Scheduler

        class NoWatcher:
            mode = "polling"

            def watch(self, *a): ...
            def unwatch(self, *a): ...
            def start(self): ...
            def stop(self): ...

        Scheduler(svc, watcher=NoWatcher()).tick()
    except ImportError:
        pass
    if bases.get_base(svc, ws, b.id).phase != "paused":  # an older scheduler: set it as the host would
        with svc.store.write() as conn:
            conn.execute("UPDATE bases SET phase = 'paused', paused_reason = ? WHERE workspace = ? AND id = ?",
                         ("automatic compilation paused because 25 of 30 source files disappeared", str(ws), b.id))
    return b


def failed_base(svc, clock, ws: Path):
    b = make_base(svc, ws, "Papers", {"a.md": "# A\n"})
    compile_pass(svc, ws, b.id, {}, outcome="failed", error="the compiler could not parse a.md")
    return b


def running_base(svc, clock, ws: Path, steps_done: int = 2):
    """A base whose compile is running, with the checklist part-way and a log tail."""
    b = make_base(svc, ws, "Ops runbook", {"deploy.md": "# Deploy\n", "rollback.md": "# Rollback\n",
                                           "oncall.md": "# On call\n"})
    jobs.request_compile(svc, ws, b.id)
    _, job = jobs.claim(svc)
    rec = ProgressRecorder(svc, min_interval=0)
    steps = ("gather", "extract", "match", "update", "flag", "brief")
    for s in steps[:steps_done]:
        rec(job.id, ProgressEvent(s, "started", 0, 3))
        rec(job.id, ProgressEvent(s, "done", 3, 3, message=f"{s}: 3 files"))
    if steps_done < len(steps):
        rec(job.id, ProgressEvent(steps[steps_done], "progress", 1, 3, current="rollback.md",
                                  message=f"{steps[steps_done]} rollback.md"))
    clock.advance(42)
    return b, job


def world(svc, clock, root: Path, running: bool = True) -> dict:
    """Every state at once, in one workspace folder called `notes`."""
    ws = root / "notes"
    ws.mkdir(parents=True, exist_ok=True)
    ws = ws.resolve()
    out = {"ws": ws}
    out["langs"] = langs_with_reviews(svc, clock, ws)
    clock.advance(300)
    out["paused"] = paused_base(svc, clock, ws)
    clock.advance(300)
    out["failed"] = failed_base(svc, clock, ws)
    clock.advance(60)
    fresh = make_base(svc, ws, "Inbox", {"todo.md": "# Todo\n"})
    out["fresh"] = fresh
    if running:
        out["running"], out["job"] = running_base(svc, clock, ws)
    return out


# -- driving the app ------------------------------------------------------------------------------------

def make_app(clock, **kw):
    """The app with no embedded host and the test's fake clock (its own store connections)."""
    from kctui.config import Settings
    from kctui.services.context import ServiceContext
    from kctui.ui.app import KctuiApp

    return KctuiApp(ctx_factory=lambda: ServiceContext.open(clock=clock, settings=Settings()), **kw)


async def settle(pilot, timeout: float = 10.0) -> None:
    """Wait until no key action and no poll is in flight and the UI has caught up."""
    import time

    app = pilot.app
    deadline = time.monotonic() + timeout
    calm = 0
    while time.monotonic() < deadline:
        await app.workers.wait_for_complete()
        await pilot.pause()
        calm = calm + 1 if app.is_idle() else 0
        if calm >= 2:
            return
    raise AssertionError("the app did not settle")


async def ready(pilot) -> None:
    """The first snapshot is on screen."""
    from kctui.ui.messages import EMPTY

    await settle(pilot)
    for _ in range(100):
        if pilot.app.main.snapshot is not EMPTY:
            return
        await pilot.pause(0.02)
    raise AssertionError("no snapshot reached the screen")


async def open_detail(pilot) -> ReviewDetailScreen:
    """The first review item opened from pane 3, read."""
    await ready(pilot)
    await pilot.press("3")
    await pilot.press("enter")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, ReviewDetailScreen) and screen.data is not None
    return screen


# -- driving the main screen in key tests ------------------------------------------------------------

SIZE = (120, 36)  # the wide layout the key tests run at


async def select_base(pilot, kb_id: str) -> None:
    main = pilot.app.main
    await pilot.press("1")
    for _ in range(12):
        if main.selected_base() is not None and main.selected_base().id == kb_id:
            return
        await pilot.press("j")
    raise AssertionError(f"{kb_id} is not in the queue")


async def select_item(pilot, kind: str) -> int:
    main = pilot.app.main
    await pilot.press("3")
    for _ in range(10):
        item = main.selected_item()
        if item is not None and item.kind == kind:
            return item.id
        await pilot.press("down")
    raise AssertionError(f"no {kind} item")


def notes(app) -> str:
    return " | ".join(n.message for n in app._notifications)


async def select_base_from_top(pilot, kb_id: str) -> None:
    main = pilot.app.main
    await pilot.press("1", *["k"] * 8)
    for _ in range(12):
        if main.selected_base() is not None and main.selected_base().id == kb_id:
            return
        await pilot.press("j")
    raise AssertionError(f"{kb_id} is not in the queue")


async def until(pilot, pred, timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.05)):
        await settle(pilot)
        if pred():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the screen did not get there")


# -- the pages screen ---------------------------------------------------------------------------

PYTHON = "entities/python.md"


async def open_pages(pilot) -> PagesScreen:
    await ready(pilot)
    await select_base(pilot, "demo")
    await pilot.press("g")
    await until(pilot, lambda: isinstance(pilot.app.screen, PagesScreen) and pilot.app.screen.pages is not None)
    return pilot.app.screen  # type: ignore[return-value]


async def open_python(pilot) -> PageScreen:
    pages = await open_pages(pilot)
    await pilot.press(*"entities/python")
    await until(pilot, lambda: pages.selected_page() == PYTHON)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, PageScreen) and pilot.app.screen.data is not None)
    return pilot.app.screen  # type: ignore[return-value]
