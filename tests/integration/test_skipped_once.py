"""A skipped file (empty, binary) is never counted as added, is listed once with why, and not again until
it changes (kctui.compiler.steps.skipped_memo); a pass that was not promoted does not count as reported."""

from __future__ import annotations

from pathlib import Path

from kctui.compiler.runner import CompileRequest
from kctui.compiler.steps.pipeline import compile_pass
from kctui.core.brief import BriefData, render_brief


def _pass(root: Path, job: str, prev: str | None, cache: Path):  # noqa: ANN202
    req = CompileRequest(job, "manual", "sha256:" + "0" * 64, "2026-10-01T00:00:00Z", root / "sources",
                         root / prev / "wiki" if prev else None, root / job / "wiki")
    return compile_pass(req, cache_dir=cache)


def test_a_skipped_file_is_listed_once_and_again_only_when_it_changes(tmp_path: Path) -> None:
    src, cache = tmp_path / "sources", tmp_path / "cache"
    src.mkdir()
    (src / "notes.md").write_text("# Notes\n\nThe queue runs on Kafka.\n", encoding="utf-8")
    (src / "empty.md").write_bytes(b"")
    (src / "image.bin").write_bytes(b"\x00\x01\x02abc\x00")
    first = _pass(tmp_path, "job-1", None, cache)
    assert first.changes.added == ["notes.md"]
    assert [s.path for s in first.skipped] == ["empty.md", "image.bin"] and first.skipped_before == 0

    (src / "notes.md").write_text("# Notes\n\nThe queue runs on Kafka and Redis.\n", encoding="utf-8")
    second = _pass(tmp_path, "job-2", "job-1", cache)
    assert second.changes.added == [] and second.changes.modified == ["notes.md"]
    assert second.skipped == [] and second.skipped_before == 2

    (src / "empty.md").write_bytes(b"x\x00y")  # changed, and still skipped: listed again
    third = _pass(tmp_path, "job-3", "job-2", cache)
    assert [(s.path, s.reason) for s in third.skipped] == [("empty.md", "binary")] and third.skipped_before == 1


def test_a_pass_that_was_not_promoted_has_reported_nothing(tmp_path: Path) -> None:
    src, cache = tmp_path / "sources", tmp_path / "cache"
    src.mkdir()
    (src / "notes.md").write_text("# Notes\n\nThe queue runs on Kafka.\n", encoding="utf-8")
    _pass(tmp_path, "job-1", None, cache)
    (src / "empty.md").write_bytes(b"")
    _pass(tmp_path, "job-2", "job-1", cache)  # never promoted: the next pass still builds on job-1
    again = _pass(tmp_path, "job-3", "job-1", cache)
    assert [s.path for s in again.skipped] == ["empty.md"] and again.changes.added == []


def test_the_brief_counts_what_it_does_not_list_again() -> None:
    b = BriefData("job-2", "manual", "2026-10-01T00:00:00Z", "sha256:0", "builtin", skipped_before=2)
    text = render_brief(b)
    assert "None new.\n2 file(s) skipped again, unchanged since an earlier brief listed them." in text
    assert "* added" not in text
