"""The CLI of issue 16 points 1 and 2: `kctui compile … --dry-run [--json]` and `kctui kb show`'s
schema line, through `python -m kctui` in subprocesses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import assert_one_line_error, create_notes_kb, run


@pytest.fixture
def kb(workspace: Path) -> str:
    return create_notes_kb(workspace)


def test_compile_dry_run_prints_the_brief_and_queues_nothing(workspace: Path, kb: str) -> None:
    proc = run("compile", str(workspace), kb, "--dry-run", check=True)
    assert proc.stdout.startswith("# Change brief: job `dry-run-") and "**Dry run**: nothing was promoted" in proc.stdout
    assert "would create" in proc.stderr and "/.a3s/dry-run/dry-run-" in proc.stderr
    data = json.loads(run("compile", str(workspace), kb, "--dry-run", "--json", check=True).stdout)
    job = data["job"]
    assert data["changed"] is False and job["dryRun"] is True and job["phase"] == "succeeded"
    assert job["result"]["brief"]["counts"]["created"] >= 2 and Path(job["outputPath"]).is_dir()
    assert len(list(Path(job["outputPath"]).parent.iterdir())) == 1  # the first one was replaced
    assert json.loads(run("jobs", "--json", check=True).stdout)["items"] == []
    assert not (workspace / ".a3s" / "kb" / "bases" / kb / "wiki").exists()
    assert_one_line_error(run("compile", str(workspace), "nope", "--dry-run"), "nope")


def test_kb_show_says_which_schema_is_in_force(workspace: Path, kb: str) -> None:
    base = workspace / ".a3s" / "kb" / "bases" / kb
    assert "  schema         embedded default" in run("kb", "show", str(workspace), kb, check=True).stdout
    (base / "CLAUDE.md").write_text("## Sources\n## Concepts\n", encoding="utf-8")
    shown = run("kb", "show", str(workspace), kb, check=True).stdout
    assert "  schema         CLAUDE.md (sha256 " in shown and "classes source, concept)" in shown
    as_json = json.loads(run("kb", "show", str(workspace), kb, "--json", check=True).stdout)["schema"]
    assert (as_json["file"], as_json["classes"], as_json["problem"]) == ("CLAUDE.md", ["source", "concept"], None)
    (base / "SCHEMA.md").write_text("## Entities\n## Entities\n", encoding="utf-8")
    shown = run("kb", "show", str(workspace), kb, check=True).stdout
    assert "embedded default (SCHEMA.md: line 2: the entity class is described twice)" in shown
