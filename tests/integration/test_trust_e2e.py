"""Issue 5 end to end through the CLI (`python -m kctui …` in subprocesses, state in a temp folder) on the
demo workspace: a held update approved reaches `wiki/` as a new revision; a stale expected revision is
refused and changes nothing; a conflict kept leaves the page confirmed, the dispute cleared and not raised
again by the next compile; a conflict resolved with --use-new applies the new value."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kctui.core.frontmatter import parse_document
from tests.helpers.review import said

KB = "demo-notes"


@pytest.fixture
def cli(tmp_path: Path):
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("KCTUI_")},
           "KCTUI_STATE_DIR": str(tmp_path / "state"), "KCTUI_CONFIG_DIR": str(tmp_path / "config")}

    def run(*args: str, ok: bool = True) -> subprocess.CompletedProcess:
        proc = subprocess.run([sys.executable, "-m", "kctui", *args], capture_output=True, text=True, env=env,
                              timeout=120)
        if ok:
            assert proc.returncode == 0, f"kctui {' '.join(args)}: {proc.stdout}\n{proc.stderr}"
        return proc

    def as_json(*args: str) -> dict:
        return json.loads(run(*args, "--json").stdout)

    run.json = as_json  # type: ignore[attr-defined]
    return run


def test_review_queue_end_to_end_on_the_demo(cli, tmp_path: Path) -> None:
    ws = tmp_path / "demo"
    cli("demo", "--dir", str(ws), "--no-tui")
    ws = ws.resolve()
    base = ws / ".a3s" / "kb" / "bases" / KB
    wiki, sources = base / "wiki", base / "sources"

    def live(rel: str) -> tuple[dict, str]:
        data, body, _ = parse_document((wiki / rel).read_text(encoding="utf-8"))
        return data, body

    def items() -> list[dict]:
        return cli.json("review", "list", str(ws))["items"]

    def history(slug: str) -> list[dict]:
        return cli.json("page", "history", str(ws), KB, slug)["items"]

    # the demo's one real disagreement is one conflict; every create was written (guarded)
    [conflict] = items()
    assert (conflict["kind"], conflict["page"], conflict["reason"]) == ("conflict", "entities/python.md", "contradiction")
    assert live("entities/python.md")[0]["compile_status"] == "contradicted"
    assert "1 conflicts opened" in cli("brief", str(ws), KB).stdout

    # a source changes one of its facts: the revise is held, the live page keeps its value, flagged
    wal = sources / "sqlite-wal.md"
    wal.write_text(wal.read_text(encoding="utf-8").replace("1000 pages", "2000 pages"), encoding="utf-8")
    cli("compile", str(ws), KB, "--wait")
    held = {i["page"]: i for i in items() if i["kind"] == "held"}
    item = held["entities/sqlite-write-ahead-logging.md"]
    assert (item["updateKind"], item["reason"]) == ("revise", "autonomy_ceiling")
    data, body = live(item["page"])
    assert data["compile_status"] == "needs-review" and "1000 pages" in body and "2000 pages" not in body
    shown = cli.json("review", "show", str(item["id"]))
    assert "+* **SQLite write-ahead logging** — default checkpoint threshold: 2000 pages" in shown["diff"]
    seen = shown["expectedRevision"]
    before, revs = (wiki / item["page"]).read_bytes(), history("sqlite-write-ahead-logging")

    # a stale expected revision is refused with a revision conflict, and nothing changes
    refused = cli("review", "approve", str(item["id"]), "--expected-revision", str(seen - 1), ok=False)
    assert refused.returncode != 0 and f"changed since revision {seen - 1}" in refused.stderr + refused.stdout
    assert (wiki / item["page"]).read_bytes() == before and history("sqlite-write-ahead-logging") == revs
    assert next(i for i in items() if i["id"] == item["id"])["state"] == "open"

    # approved: the exact proposal reaches wiki/ through promotion, as the page's next revision
    cli("review", "approve", str(item["id"]), "--expected-revision", str(seen))
    data, body = live(item["page"])
    assert data["compile_status"] == "confirmed" and "2000 pages ^[sqlite-wal.md:L14-L14]" in body
    after = history("sqlite-write-ahead-logging")
    assert len(after) == len(revs) + 1 and after[-1]["author"].startswith(f"review:{item['id']}:approve:")
    assert after[-1]["revision"] == seen + 1
    shown_rev = cli("page", "show", str(ws), KB, "sqlite-write-ahead-logging", "--revision", str(seen)).stdout
    assert "1000 pages" in shown_rev  # the earlier revision is kept as it was

    # the conflict, kept: the page is confirmed with its own value and the dispute cleared …
    cli("review", "resolve", str(conflict["id"]), "--keep")
    data, body = live("entities/python.md")
    assert data["compile_status"] == "confirmed" and "> **Status:" not in body
    body = said(body)  # (the kept value is marked ✓ decided, over the other: QA s32)
    assert "2028-10-31" in body and "2028-10-02" not in body and data["resolved_conflicts"]
    # … and the next compile, re-reading the disagreeing note, does not raise it again
    notes = sources / "team-upgrade-notes.md"
    notes.write_text(notes.read_text(encoding="utf-8") + "\nThe meeting is on Thursdays.\n", encoding="utf-8")
    cli("compile", str(ws), KB, "--wait")
    assert not [i for i in items() if i["kind"] == "conflict"]
    assert live("entities/python.md")[0]["compile_status"] == "confirmed"

    # a new value is a new disagreement; --use-new applies it
    notes.write_text(notes.read_text(encoding="utf-8").replace("2028-10-02", "2028-10-03"), encoding="utf-8")
    cli("compile", str(ws), KB, "--wait")
    [again] = [i for i in items() if i["kind"] == "conflict"]
    assert (again["existing"]["value"], again["incoming"]["value"]) == ("2028-10-31", "2028-10-03")
    cli("review", "resolve", str(again["id"]), "--use-new")
    data, body = live("entities/python.md")
    assert data["compile_status"] == "confirmed" and "> **Status:" not in body
    body = said(body)
    assert "(3.12) — end of life: 2028-10-03 ^[team-upgrade-notes.md:L" in body
    assert "(3.12) — end of life: 2028-10-31 ^[" not in body
    cli("compile", str(ws), KB, "--wait")  # converged: nothing is raised again
    assert not [i for i in items() if i["kind"] == "conflict"]
