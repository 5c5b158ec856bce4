"""The memo of source digests (kctui.compiler.previous.digest_memo): a file whose stat is the one recorded, and
was not racily clean then, keeps its digest unread; the journal keeps every record a pass changed, and
whatever damages it costs only a re-read."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from kctui.compiler.previous import digest_memo
from kctui.compiler.previous.digest_memo import NAME, DigestMemo
from kctui.compiler.readers.source import digest_file
from kctui.compiler.steps.gather import scan_sources

OLD = time.time_ns() - 3600 * 10**9  # an mtime an hour old: not racily clean


@pytest.fixture(autouse=True)
def _fresh_process():  # noqa: ANN202 - each test starts as a new process would
    digest_memo._RESIDENT.clear()
    yield
    digest_memo._RESIDENT.clear()


def _sources(tmp_path: Path, n: int = 3) -> Path:
    src = tmp_path / "sources"
    src.mkdir(exist_ok=True)
    for i in range(n):
        f = src / f"note{i}.md"
        f.write_text(f"# Note {i}\n", encoding="utf-8")
        os.utime(f, ns=(OLD, OLD))
    return src


def _listed(src: Path, memo: DigestMemo) -> tuple[list, list[str]]:
    """The sources as a pass lists them, the ones the memo vouched for, the others digested."""
    files, _ = scan_sources(src, lambda: False)
    vouched = []
    for f in files:
        f.digest = memo.lookup(f) or ""
        if f.digest:
            vouched.append(f.path)
        else:
            digest_file(f)
    return files, vouched


def _pass(src: Path, cache: Path) -> list[str]:
    memo = DigestMemo(cache)
    files, vouched = _listed(src, memo)
    memo.save(files)
    return vouched


def test_an_unchanged_file_keeps_its_digest_unread_and_an_edit_is_read(tmp_path: Path) -> None:
    src, cache = _sources(tmp_path), tmp_path / "cache"
    assert _pass(src, cache) == []
    digest_memo._RESIDENT.clear()  # a restarted process reads the file
    assert _pass(src, cache) == ["note0.md", "note1.md", "note2.md"]
    (src / "note1.md").write_text("# Note 1, edited\n", encoding="utf-8")
    os.utime(src / "note1.md", ns=(OLD + 10**9, OLD + 10**9))
    memo = DigestMemo(cache)
    files, vouched = _listed(src, memo)
    assert vouched == ["note0.md", "note2.md"]
    assert next(f for f in files if f.path == "note1.md").digest != ""


def test_a_racily_clean_file_is_read_again_until_its_record_is_old_enough(tmp_path: Path) -> None:
    src, cache = _sources(tmp_path), tmp_path / "cache"
    fresh = src / "note0.md"
    os.utime(fresh, ns=(time.time_ns(), time.time_ns()))  # written just now: inside the racy window
    _pass(src, cache)
    assert "note0.md" not in _pass(src, cache)  # its record says nothing yet
    lines = (cache / NAME).read_text(encoding="utf-8").splitlines()
    assert sum('"note0.md"' in line for line in lines) == 2  # re-recorded by the second pass (a new time)


def test_only_changed_records_are_appended_and_a_new_process_reads_the_last_of_each(tmp_path: Path) -> None:
    src, cache = _sources(tmp_path), tmp_path / "cache"
    _pass(src, cache)
    assert len((cache / NAME).read_text(encoding="utf-8").splitlines()) == 4  # the header and three records
    _pass(src, cache)
    assert len((cache / NAME).read_text(encoding="utf-8").splitlines()) == 4  # nothing changed: nothing written
    (src / "note2.md").write_text("# Note 2 again\n", encoding="utf-8")
    os.utime(src / "note2.md", ns=(OLD + 10**9, OLD + 10**9))
    _pass(src, cache)
    assert len((cache / NAME).read_text(encoding="utf-8").splitlines()) == 5
    digest_memo._RESIDENT.clear()
    assert _pass(src, cache) == ["note0.md", "note1.md", "note2.md"]


def test_an_append_cut_short_drops_only_its_record(tmp_path: Path) -> None:
    src, cache = _sources(tmp_path), tmp_path / "cache"
    _pass(src, cache)
    memo_file = cache / NAME
    memo_file.write_text(memo_file.read_text(encoding="utf-8") + '["note9.md",1,2', encoding="utf-8")
    digest_memo._RESIDENT.clear()
    assert _pass(src, cache) == ["note0.md", "note1.md", "note2.md"]
    assert memo_file.read_text(encoding="utf-8").endswith("]\n")  # rewritten whole, the cut line gone


@pytest.mark.parametrize("damage", ['["note0.md","x",2,3,4,"sha256:y",5]\n', "not json\n", "{}\n"])
def test_a_damaged_memo_is_only_slower(tmp_path: Path, damage: str) -> None:
    src, cache = _sources(tmp_path), tmp_path / "cache"
    _pass(src, cache)
    memo_file = cache / NAME
    memo_file.write_text(memo_file.read_text(encoding="utf-8") + damage, encoding="utf-8")
    digest_memo._RESIDENT.clear()
    assert _pass(src, cache) == []  # every file read again
    digest_memo._RESIDENT.clear()
    assert _pass(src, cache) == ["note0.md", "note1.md", "note2.md"]  # and the memo written afresh


def test_the_journal_is_rewritten_before_it_grows_past_a_quarter_more_than_needed(tmp_path: Path) -> None:
    src, cache = _sources(tmp_path, 4), tmp_path / "cache"
    _pass(src, cache)
    for i in range(80):
        (src / "note0.md").write_text(f"# Note 0, edit {i}\n", encoding="utf-8")
        os.utime(src / "note0.md", ns=(OLD + i * 10**9, OLD + i * 10**9))
        _pass(src, cache)
        assert len((cache / NAME).read_text(encoding="utf-8").splitlines()) - 1 <= 4 + 1 + 64 + 1
    digest_memo._RESIDENT.clear()
    assert _pass(src, cache) == ["note0.md", "note1.md", "note2.md", "note3.md"]


def test_a_long_lived_process_takes_its_last_save_from_memory_unless_the_file_changed(
        tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    src, cache = _sources(tmp_path), tmp_path / "cache"
    _pass(src, cache)
    real = Path.read_text
    reads: list[str] = []
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: (reads.append(self.name), real(self, *a, **k))[1])
    assert _pass(src, cache) == ["note0.md", "note1.md", "note2.md"]
    assert NAME not in reads
    memo_file = cache / NAME  # another process writes the memo: it is read from the file
    memo_file.write_text(memo_file.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    assert _pass(src, cache) == []
    assert NAME in reads


def test_the_earlier_whole_file_memo_is_removed_when_the_journal_is_written(tmp_path: Path) -> None:
    src, cache = _sources(tmp_path), tmp_path / "cache"
    cache.mkdir()
    (cache / "source-digests-v1.json").write_text('{"files": {}, "written_ns": 0}', encoding="utf-8")
    _pass(src, cache)
    assert not (cache / "source-digests-v1.json").exists() and (cache / NAME).is_file()
