"""The `kctui` command run as a user runs it (`python -m kctui` in a subprocess), its one-line errors, and
a knowledge base made through it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def run(*args: str, check: bool = False) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "kctui", *args], capture_output=True, text=True, timeout=60,
                          env=os.environ.copy())
    if check and proc.returncode != 0:
        raise AssertionError(f"kctui {' '.join(args)} failed: {proc.stderr}")
    return proc


def assert_one_line_error(proc: subprocess.CompletedProcess, *needles: str) -> None:
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("kctui: error: ")
    for n in needles:
        assert n in lines[0], lines[0]


def create_notes_kb(workspace: Path) -> str:
    """`kctui kb create … --from` a folder of two notes beside the workspace; the new base's id."""
    src = workspace.parent / "notes"
    src.mkdir()
    (src / "one.md").write_text("# One\n\nOne is a number.\n")
    (src / "two.txt").write_text("Two is also a number.\n")
    proc = run("kb", "create", str(workspace), "My Notes", "--from", str(src), "--json", check=True)
    data = json.loads(proc.stdout)
    assert data["changed"] is True and data["knowledgeBase"]["id"] == "my-notes"
    return "my-notes"
