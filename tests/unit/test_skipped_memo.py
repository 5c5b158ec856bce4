"""kctui.compiler.steps.skipped_memo: which skipped files a brief lists, and the record it keeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from kctui.compiler.readers.base import Skipped
from kctui.compiler.steps import skipped_memo as sm
from kctui.compiler.steps.results import SourceChanges

E, B = Skipped("e.md", "empty"), Skipped("i.bin", "binary")


@pytest.mark.parametrize(("before", "now", "listed", "counted"), [
    ({}, {"e.md": ("d1", "empty"), "i.bin": ("d2", "binary")}, ["e.md", "i.bin"], 0),
    ({"e.md": ("d1", "empty"), "i.bin": ("d2", "binary")}, {"e.md": ("d1", "empty"), "i.bin": ("d2", "binary")}, [], 2),
    ({"e.md": ("d1", "empty")}, {"e.md": ("d9", "binary"), "i.bin": ("d2", "binary")}, ["e.md", "i.bin"], 0),
    ({"e.md": ("d1", "empty"), "i.bin": ("d2", "binary")}, {"e.md": ("d1", "empty"), "i.bin": ("d3", "binary")}, ["i.bin"], 1),
])
def test_listed_when_new_or_changed(before: dict, now: dict, listed: list[str], counted: int) -> None:
    new, before_n = sm.split_reported([E, B], now, before)
    assert [s.path for s in new] == listed and before_n == counted


def test_a_skipped_file_is_not_added() -> None:
    ch = SourceChanges(added=["a.md", "e.md"], modified=["i.bin"])
    out = sm.not_added(ch, [E, B])
    assert out.added == ["a.md"] and out.modified == ["i.bin"] and ch.added == ["a.md", "e.md"]


@pytest.mark.parametrize(("log", "expected"), [
    ("* **Update**: 2026 job `job-7` (manual)", {"e.md": ("d1", "empty")}),
    ("* **Update**: 2026 job `job-6` (manual)", {}),  # job-7 was never promoted
    ("", {}),
])
def test_the_record_stands_only_for_a_promoted_pass(tmp_path: Path, log: str, expected: dict) -> None:
    sm.write_reported(tmp_path, "job-7", {"e.md": ("d1", "empty")})
    assert sm.read_reported(tmp_path, log) == expected


@pytest.mark.parametrize("body", ["", "{", '{"job": 3, "files": []}', '{"files": [[1]]}', "[]"])
def test_a_damaged_record_is_no_record(tmp_path: Path, body: str) -> None:
    (tmp_path / sm.NAME).write_text(body, encoding="utf-8")
    assert sm.read_reported(tmp_path, "job `3`") == {}
    assert sm.read_reported(None, "") == {}
