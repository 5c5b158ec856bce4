"""Session 31 (G): the built-in compiler run as a remote worker (`kctui worker --url`, `HttpTransport`) is
gated as an external compiler, and must file for a person what the in-process worker files: the same
review items (a contradiction one conflict, not a conflict and a held revise of the same page; a
confirmed page's revise held as human_confirmed, its sign-off kept; a held revise its sources no longer
ask for settled, not held again) and the same promoted pages. And the
host owns `index.md` and `log.md` of an external result (wiki.md §5): the index made anew from the pages
it promotes (no link to nowhere), the log kept only when it adds entries to the live one."""

from __future__ import annotations

import re
import shutil
import threading
from pathlib import Path

from kctui import paths
from kctui.api.client import run_worker_cli
from kctui.core.frontmatter import parse_document
from kctui.services import jobs, review
from kctui.services.local_transport import LocalTransport
from kctui.services.result_books import host_index
from kctui.services.review_decide import resolve
from kctui.services.worker import run_worker
from tests.helpers import make_base
from tests.integration.api.support import TOKEN, claim, compile_base, data, report

DEMO = Path(__file__).resolve().parents[3] / "kctui" / "demo_sources"
TUNING = "# WAL tuning\n\n- SQLite 3.7.0 release date: 2010-07-22\n\nAtomic rename: renameat2 was added in Linux 3.16.\n"
STAMP = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+Z|job-\d+-\d+|sha256:[0-9a-f]+")


def _items(svc, ws: str, kb_id: str) -> list[tuple]:
    return sorted((i.kind, i.page_path, i.reason, i.update_kind)
                  for i in review.list_items(svc, ws, kb_id=kb_id))


def _pass(svc, ws: str, kb_id: str, remote: str | None) -> None:
    jobs.request_compile(svc, Path(ws), kb_id)
    if remote is None:
        [outcome] = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
        assert outcome.result == "succeeded", outcome
    else:
        assert run_worker_cli(remote, remote_token(), once=True) == 0


def remote_token() -> str:
    path = paths.state_dir() / "test-token"
    path.write_text(TOKEN)
    path.chmod(0o600)
    return str(path)


def _run(svc, ws: str, name: str, remote: str | None) -> tuple[list, list, dict[str, str]]:
    kb = make_base(svc, Path(ws), name, files={p.name: p.read_text() for p in DEMO.iterdir() if p.is_file()})
    _pass(svc, ws, kb.id, remote)
    [conflict] = [i for i in review.list_items(svc, ws, kb_id=kb.id) if i.kind == "conflict"]
    resolve(svc, conflict.id, "keep", actor="human:root")
    src = paths.sources_path(Path(ws), kb.id)
    for rel, old, new in (("sqlite-wal.md", "1000 pages", "2000 pages"),
                          ("python-release-cycle.md", "2024-10-07", "2024-10-08")):
        (src / rel).write_text((src / rel).read_text().replace(old, new))
    (src / "wal-tuning.md").write_text(TUNING)
    _pass(svc, ws, kb.id, remote)
    wiki = paths.wiki_path(Path(ws), kb.id)
    held = _items(svc, ws, kb.id)
    for rel, old, new in (("sqlite-wal.md", "2000 pages", "1000 pages"),  # the sources say it as before:
                          ("python-release-cycle.md", "2024-10-08", "2024-10-07")):  # the held revises are moot
        (src / rel).write_text((src / rel).read_text().replace(old, new))
    _pass(svc, ws, kb.id, remote)
    pages = {p.relative_to(wiki).as_posix(): STAMP.sub("", p.read_text()) for p in wiki.rglob("*.md")
             if p.name != "log.md"}
    return [conflict.page_path], held, _items(svc, ws, kb.id), pages


def test_a_remote_worker_files_what_the_in_process_worker_files(live, ws, make_ctx) -> None:
    svc = make_ctx()
    first_here, here, after_here, pages_here = _run(svc, ws, "Here", None)
    first_there, there, after_there, pages_there = _run(svc, ws, "There", live)
    assert first_here == first_there == ["entities/python.md"]
    assert here == there == [("conflict", "entities/linux.md", "contradiction", "append"),
                             ("held", "entities/python.md", "human_confirmed", "revise"),
                             ("held", "entities/sqlite-write-ahead-logging.md", "autonomy_ceiling", "revise")]
    # the sources back as they were: the held revises are settled on both paths (not held again)
    assert after_here == after_there == [("conflict", "entities/linux.md", "contradiction", "append")]
    assert pages_here == pages_there
    assert "verified:" in pages_there["entities/python.md"]  # the person's confirmation survives
    assert "compile_status: confirmed" in pages_there["entities/python.md"]


def test_the_host_owns_index_and_log_of_an_external_result(api, ws, make_ctx) -> None:
    svc = make_ctx()
    kb = make_base(svc, Path(ws), "Books", files={"vendors.md": "# Vendors\n\n## Datadog\n\nMonthly cost: $6,100\n"})
    _pass(svc, ws, kb.id, None)
    wiki = paths.wiki_path(Path(ws), kb.id)
    live_log = (wiki / "log.md").read_text()
    compile_base(api, ws, kb.id)
    c = claim(api, {"workspace": ws})
    out = Path(c["outputPath"])
    shutil.copytree(wiki, out, dirs_exist_ok=True)
    (out / "index.md").write_text("---\nokf_version: '0.2'\n---\n\n# Index\n\n* [Ghost](/entities/ghost.md) - gone\n")
    (out / "entities").mkdir(exist_ok=True)
    (out / "entities/index.md").write_text("# Index\n\n* [Ghost](/entities/ghost.md) - gone\n")
    (out / "log.md").write_text("# Knowledge Base Log\n\n## 2020-01-01\n\n* **Update**: nothing ever happened.\n")
    assert data(report(api, ws, c, outcome="succeeded"))["job"]["phase"] == "succeeded"
    index = (wiki / "index.md").read_text()
    assert "ghost" not in index and index == host_index(wiki)
    assert not (wiki / "entities/index.md").exists()
    log = (wiki / "log.md").read_text()
    assert "nothing ever happened" not in log and all(line in log for line in live_log.splitlines())
    assert c["job"]["id"] in log and "its log was not kept" in log
    for rel in re.findall(r"\]\(/([^)]+)\)", index):
        assert (wiki / rel).is_file() and parse_document((wiki / rel).read_text())[0]
