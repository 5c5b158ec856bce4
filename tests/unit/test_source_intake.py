"""What a real folder does to a pass (QA session 31, problems 5, 6 and 15): a long file is skipped over
the `max_source_bytes` cap and otherwise extracted in a worker process a stop can end; a hidden file or
folder is never copied or compiled (one line each); a Latin-1 / Windows-1252 file reads as such."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kctui.compiler.builtin import extractor as bx
from kctui.compiler.builtin.candidates import _nested_tails
from kctui.compiler.readers import Skipped, read_source, text_cap
from kctui.compiler.readers.source import SourceFile
from kctui.compiler.steps.gather import scan_sources
from kctui.config import load_settings
from kctui.core.source_text import decode_source, source_lines
from kctui.services.source_copy import copy_paths_into
from kctui.sources.excludes import is_hidden_name


@pytest.mark.parametrize(("data", "text", "how"), [
    (b"plain\r\nline\n", "plain\nline\n", "utf-8"),
    ("R\u00e9union caf\u00e9 \u2013 Jos\u00e9 M\u00fcller".encode("cp1252"), "R\u00e9union caf\u00e9 \u2013 Jos\u00e9 M\u00fcller", "cp1252"),
    (b"\xef\xbb\xbfcaf\xc3\xa9", "caf\u00e9", "utf-8"),
    (b"caf\x81", "caf\ufffd", "replaced"),  # 0x81 is undefined in Windows-1252
    (b"caf\xe9\x01", "caf\ufffd\x01", "replaced"),  # a control byte: not a Windows-1252 text
])
def test_a_source_decodes_as_utf8_else_windows_1252_else_with_replacements(data: bytes, text: str, how: str) -> None:
    assert decode_source(data) == (text, how)


def test_the_cited_lines_are_read_as_the_compiler_read_them(tmp_path: Path) -> None:
    (tmp_path / "n.md").write_bytes("Le caf\u00e9 ouvre.\r\nJos\u00e9 M\u00fcller\r\n".encode("latin-1"))
    assert source_lines(tmp_path / "n.md") == ["Le caf\u00e9 ouvre.", "Jos\u00e9 M\u00fcller", ""]
    doc = read_source("n.md", (tmp_path / "n.md").read_bytes(), "sha256:x")
    assert doc.title == "n" or "\ufffd" not in doc.title
    assert doc.lines[:2] == ["Le caf\u00e9 ouvre.", "Jos\u00e9 M\u00fcller"]
    assert doc.warnings == ["not valid UTF-8 (first bad byte at offset 6); read as Windows-1252 (Latin-1)"]


def test_the_source_cap_is_a_setting_with_a_one_mib_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KCTUI_CONFIG_DIR", str(tmp_path))
    monkeypatch.delenv("KCTUI_MAX_SOURCE_BYTES", raising=False)
    assert load_settings().max_source_bytes == 1 << 20 == text_cap()
    big = read_source("app.log", b"INFO worker processed job\n" * 50_000, "sha256:x")
    assert isinstance(big, Skipped) and big.reason == "too_large"
    assert big.detail == "1,300,000 bytes, over the 1 MiB cap of one source; the setting max_source_bytes raises it"
    (tmp_path / "config.toml").write_text("max_source_bytes = 2097152\n", encoding="utf-8")
    assert text_cap() == 2 << 20
    assert not isinstance(read_source("app.log", b"INFO worker processed job\n" * 50_000, "sha256:x"), Skipped)
    monkeypatch.setenv("KCTUI_MAX_SOURCE_BYTES", "1024")
    assert text_cap() == 1024
    monkeypatch.setenv("KCTUI_MAX_SOURCE_BYTES", "many")  # unreadable: the host says so; the pass keeps the default
    assert text_cap() == 1 << 20


def test_a_long_file_is_extracted_in_a_worker_process_even_on_one_core() -> None:
    ex = bx.BuiltinExtractor.__new__(bx.BuiltinExtractor)
    ex._workers, ex._method = 1, "fork"
    small = SourceFile("a.md", "/x/a.md", 4_000)
    long = SourceFile("app.log", "/x/app.log", bx.LONG_FILE_BYTES)
    assert not ex._worth_a_pool([small])
    assert ex._worth_a_pool([small, long])  # a stop terminates the worker instead of waiting for the rules


def test_one_long_paragraph_of_names_is_not_quadratic() -> None:
    class Span:
        def __init__(self, start: int, end: int) -> None:
            self.start, self.end = start, end
    spans = [(Span(i * 10, i * 10 + 8), f"k{i % 7}") for i in range(40_000)]  # ~13 min on the old rule
    t0 = time.monotonic()
    _nested_tails({}, [spans])
    assert time.monotonic() - t0 < 10


@pytest.mark.parametrize(("name", "hidden"), [
    (".hidden-secrets.md", True), (".env", True), (".notes", True), (".git", False), (".#lock.md", False),
    ("notes.md", False), ("a.b.md", False),
])
def test_a_hidden_name(name: str, hidden: bool) -> None:
    assert is_hidden_name(name) is hidden


def hidden_tree(root: Path) -> Path:
    root.mkdir()
    (root / "ok.md").write_text("# OK\n\nThe cutover is on 14 Nov.\n", encoding="utf-8")
    (root / ".hidden-secrets.md").write_text("The root password is hunter2.\n", encoding="utf-8")
    (root / ".private").mkdir()
    (root / ".private" / "keys.md").write_text("The API key is abc.\n", encoding="utf-8")
    return root


def test_a_hidden_file_or_folder_is_not_compiled_and_says_so(tmp_path: Path) -> None:
    files, skipped = scan_sources(hidden_tree(tmp_path / "src"), lambda: False)
    assert [f.path for f in files] == ["ok.md"]
    assert [(s.path, s.reason) for s in skipped] == [(".hidden-secrets.md", "hidden"), (".private", "hidden")]
    assert all("starts with a dot" in s.detail for s in skipped)


def test_kb_create_from_a_folder_does_not_copy_a_hidden_file(tmp_path: Path) -> None:
    src = hidden_tree(tmp_path / "in")
    (tmp_path / "sources").mkdir()
    report = copy_paths_into(tmp_path / "sources", [str(src)], max_files=100, max_bytes=1 << 20)
    assert report.copied == ["ok.md"]
    assert sorted(Path(s.path).name for s in report.skipped) == [".hidden-secrets.md", ".private"]
    assert all("hidden" in s.reason for s in report.skipped)
    assert sorted(p.name for p in (tmp_path / "sources").iterdir()) == ["ok.md"]


def test_a_queued_job_says_which_job_it_waits_for() -> None:
    """QA s31 #5: one job runs at a time across workspaces (protocol.md); the queue says so."""
    from kctui.ui.format import job_cells
    from kctui.ui.messages import JobView

    def job(n: int, base: str, phase: str) -> JobView:
        return JobView(id=f"job-1-{n}", workspace="/w", base_id=base, trigger="manual", phase=phase, created_at=0,
                       not_before=None, started_at=0 if phase == "running" else None, completed_at=None, error=None,
                       error_words=None, cancel_requested=False)

    names = {"/w\0inputs": "inputs", "/w\0kestrel": "kestrel"}
    running, waiting = job(12, "inputs", "running"), job(13, "kestrel", "queued")
    assert job_cells(waiting, 5, names, {}, running)[-1].plain == "◔ queued (waiting for inputs #12)"
    assert job_cells(waiting, 5, names, {}, None)[-1].plain == "◔ queued"
    assert job_cells(running, 5, names, {}, running)[-1].plain.endswith("running")
