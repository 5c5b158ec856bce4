"""The page memo as a journal (kctui/compiler/previous/page_memo.py): a save appends only the records that changed,
the file is rewritten whole before it holds a quarter more records than it needs, an append cut short
is dropped, and a long-lived process reads back what it saved from memory — unless another writer
changed the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kctui.compiler.previous import page_memo
from kctui.compiler.previous.page_info import PageInfo
from kctui.compiler.previous.page_memo import INFO_FIELDS, MEMO_NAME, MemoRecord, PageFile, PageMemo


def _info(slug: str, title: str) -> PageInfo:
    return PageInfo("concept", slug, title, f"{title} is a thing.", (), (("a.md", "sha256:1"),), "compiled", ())


def _wiki(n: int, version: int = 0) -> tuple[dict, dict, dict]:
    infos = {f"p{i}": _info(f"p{i}", f"Page {i} v{version if i == 0 else 0}") for i in range(n)}
    digests = {slug: f"d-{slug}-{info.title}" for slug, info in infos.items()}
    files = {slug: PageFile(1, 100 + i, 10, 1_000 + i, False, digests[slug]) for i, slug in enumerate(infos)}
    return infos, digests, files


def _records(folder: Path) -> list[list]:
    return [json.loads(line) for line in (folder / MEMO_NAME).read_text(encoding="utf-8").split("\n")[1:] if line]


@pytest.fixture(autouse=True)
def _no_resident(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(page_memo, "_RESIDENT", {})


def test_a_save_appends_only_the_records_that_changed(tmp_path: Path) -> None:
    infos, digests, files = _wiki(20)
    PageMemo(tmp_path).save(infos, digests, files)
    first = (tmp_path / MEMO_NAME).read_bytes()
    memo = PageMemo(tmp_path)
    carried = {slug: memo.vouched(slug, tuple(files[slug][:4]))[1] for slug in infos}  # as a pass gets them
    infos2, digests2, files2 = _wiki(20, version=1)
    carried["p0"] = infos2["p0"]  # one page rewritten
    memo.save(carried, digests2, files2)
    after = (tmp_path / MEMO_NAME).read_bytes()
    assert after.startswith(first) and len(_records(tmp_path)) == 21
    got = PageMemo(tmp_path)
    assert got.vouched("p0", tuple(files2["p0"][:4]))[1] == infos2["p0"]
    assert got.vouched("p5", tuple(files["p5"][:4]))[1] == infos["p5"]


def test_nothing_is_written_when_nothing_changed(tmp_path: Path) -> None:
    infos, digests, files = _wiki(5)
    PageMemo(tmp_path).save(infos, digests, files)
    before = (tmp_path / MEMO_NAME).stat()
    memo = PageMemo(tmp_path)
    same = {slug: memo.vouched(slug, tuple(files[slug][:4]))[1] for slug in infos}
    memo.save(same, digests, files)
    after = (tmp_path / MEMO_NAME).stat()
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size, before.st_mtime_ns)


def test_the_journal_is_rewritten_whole_before_it_grows_by_a_quarter(tmp_path: Path) -> None:
    infos, digests, files = _wiki(10)
    PageMemo(tmp_path).save(infos, digests, files)
    for version in range(1, 200):
        memo = PageMemo(tmp_path)
        now = {slug: memo.get(digests[slug], slug)[0] for slug in infos}
        infos_v, digests, files = _wiki(10, version)
        now["p0"] = infos_v["p0"]
        memo.save(now, digests, files)
        assert len(_records(tmp_path)) <= 10 + 10 // 4 + 64
    latest = PageMemo(tmp_path)
    assert latest.get(digests["p0"], "p0")[0].title == "Page 0 v199"


def test_an_append_cut_short_is_dropped_and_the_next_save_rewrites_the_file(tmp_path: Path) -> None:
    infos, digests, files = _wiki(6)
    PageMemo(tmp_path).save(infos, digests, files)
    path = tmp_path / MEMO_NAME
    path.write_text(path.read_text(encoding="utf-8") + '["p0",1,100,10,1000,false,"d-p0', encoding="utf-8")  # a kill
    memo = PageMemo(tmp_path)
    assert memo.vouched("p3", tuple(files["p3"][:4]))[1] == infos["p3"]  # the records before it stand
    infos2, digests2, files2 = _wiki(6, version=1)
    kept = {slug: memo.get(digests[slug], slug)[0] for slug in infos}
    kept["p0"] = infos2["p0"]
    memo.save(kept, digests2, files2)
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n") and len(_records(tmp_path)) == 6  # whole again, every line a record
    assert PageMemo(tmp_path).get(digests2["p0"], "p0")[0] == infos2["p0"]


@pytest.mark.parametrize("damage", ['["p0"]\n', "not json\n", '[1,2]\n', '{"a": 1}\n'])
def test_a_damaged_memo_vouches_for_nothing(tmp_path: Path, damage: str) -> None:
    infos, digests, files = _wiki(3)
    PageMemo(tmp_path).save(infos, digests, files)
    path = tmp_path / MEMO_NAME
    path.write_text(path.read_text(encoding="utf-8") + damage, encoding="utf-8")
    memo = PageMemo(tmp_path)
    assert all(memo.vouched(slug, tuple(files[slug][:4])) is None for slug in infos)


def test_a_long_lived_process_reads_back_what_it_saved_from_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    infos, digests, files = _wiki(8)
    PageMemo(tmp_path).save(infos, digests, files)
    monkeypatch.setattr(Path, "read_text", lambda *a, **k: (_ for _ in ()).throw(AssertionError("read from disk")))
    memo = PageMemo(tmp_path)
    assert memo.vouched("p2", tuple(files["p2"][:4]))[1] is infos["p2"]  # the very summary it saved
    monkeypatch.undo()
    # another writer replaces the file (the pages were compiled elsewhere): it is read, not remembered
    other = _info("p2", "Written elsewhere")
    path = tmp_path / MEMO_NAME
    lines = path.read_text(encoding="utf-8").split("\n")
    lines = [line if not line.startswith('["p2"') else json.dumps(
        ["p2", *files["p2"][:5], digests["p2"], 1, 1, *page_memo._info_values(other)]) for line in lines]
    path.write_text("\n".join(lines), encoding="utf-8")
    assert PageMemo(tmp_path).vouched("p2", tuple(files["p2"][:4]))[1].title == "Written elsewhere"


def test_a_record_holds_every_field_of_a_page_summary_by_name() -> None:
    """Adding a field to PageInfo without adding it to MemoRecord (in the same place, by the same name)
    fails here; a summary with every field set comes back whole through a record and its JSON line."""
    assert INFO_FIELDS == tuple(f for f in PageInfo._fields if f != "slug")
    full = PageInfo("entity", "x", "X", "X is a thing.", ("Ex",), (("a.md", "sha256:1"),), "compiled", ("y",),
                    "kctui/1 builtin", ("Z",), ("W",), (("a.md", "sha256:0"),), (1, 2, 3), ("V",))
    record = MemoRecord("x", 1, 2, 3, 4, False, "d", 1, 0, *page_memo._info_values(full))
    back = page_memo._record_new(MemoRecord, json.loads(json.dumps(record)))
    assert page_memo._info_of(back, "x") == (full, (True, False))
    assert back.file == PageFile(1, 2, 3, 4, False, "d") and back.styles == (True, False)
    # a source page that records no own names (None: an older pass's) is not one that records none (())
    for own in (None, ()):
        info = full._replace(kind="source", own=own)
        line = json.loads(json.dumps(MemoRecord("x", 1, 2, 3, 4, False, "d", 1, 0, *page_memo._info_values(info))))
        assert page_memo._info_of(page_memo._record_new(MemoRecord, line), "x")[0].own == own
