"""The page memo (kctui/compiler/previous/wiki.py): a previous page whose stat key the memo recorded is not
read again, yet the wiki a pass writes is exactly what a pass without caches writes, whatever was done
to the previous wiki's files behind the compiler's back."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from kctui.compiler.previous import wiki as wiki_state
from kctui.compiler.previous.tables import WikiTables
from kctui.compiler.previous.wiki import MEMO_NAME, stat_key
from kctui.compiler.runner import CompileFailure
from kctui.compiler.steps.pipeline import compile_pass
from tests.helpers.wiki import SETUP, make_kb, request, tree

HOUR_AGO_NS = time.time_ns() - 3600 * 10**9


def _age(wiki: Path) -> None:
    """Make every page older than any memo (so that a later record of it is not racily clean)."""
    for p in wiki.glob("*/*.md"):
        os.utime(p, ns=(HOUR_AGO_NS, HOUR_AGO_NS))


def _two_generations(tmp_path: Path) -> tuple[Path, Path, Path]:
    """sources, the cache folder and a second generation whose pages the memo vouches for."""
    src = make_kb(tmp_path)
    cache = tmp_path / "cache"
    first = request(src, "job-1")
    compile_pass(first, cache_dir=cache)
    _age(first.output_path)  # changes every mtime: the memo's keys no longer match, every page is read
    (src / "guides" / "setup.txt").write_text(SETUP + "- Region: eu-west\n", encoding="utf-8")
    second = request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z")
    compile_pass(second, cache_dir=cache)
    return src, cache, second.output_path


def _third(src: Path, prev: Path, out: str = "job-3"):  # noqa: ANN202
    return request(src, "job-3", prev=prev, at="2026-09-02T00:00:00Z", out=out)


def _memo_files(memo_file: Path) -> tuple[list[str], dict]:
    """The memo's header line and its records by slug ([slug, dev, inode, size, mtime_ns, racy, digest, …])."""
    lines = memo_file.read_text(encoding="utf-8").split("\n")
    return lines[:1], {e[0]: e for e in map(json.loads, filter(None, lines[1:]))}


def _forge(memo_file: Path, lines: list[str], files: dict) -> None:
    memo_file.write_text("\n".join([*lines, *map(json.dumps, files.values())]) + "\n", encoding="utf-8")


def _reads(monkeypatch) -> list[str]:  # noqa: ANN001
    seen: list[str] = []
    real = wiki_state._read_stable
    monkeypatch.setattr(wiki_state, "_read_stable", lambda path: (seen.append(Path(path).name), real(path))[1])
    return seen


def test_unchanged_previous_pages_are_not_read_and_the_wiki_is_the_same(tmp_path: Path, monkeypatch) -> None:
    src, cache, wiki2 = _two_generations(tmp_path)
    total = len(list(wiki2.glob("*/*.md")))
    _edit_facade(src)
    seen = _reads(monkeypatch)
    cached = compile_pass(_third(src, wiki2), cache_dir=cache)
    assert cached.changes.modified == ["rfcs/0040-facade.md"]
    # pages written by job-2 itself are racily clean and read again; pages carried unchanged are not
    assert 0 < len(seen) < total and "sprocket.md" not in seen and "papers-gizmo-report-pdf.md" not in seen
    monkeypatch.undo()
    compile_pass(_third(src, wiki2, out="plain"), cache_dir=None)
    assert tree(_third(src, wiki2).output_path) == tree(_third(src, wiki2, out="plain").output_path)


def test_the_memo_still_vouches_for_pages_once_the_old_generation_is_deleted(tmp_path: Path, monkeypatch) -> None:
    """Promotion deletes the generation a pass linked its unchanged pages from: each carried page's link
    count drops, which moves its ctime. The memo's key leaves the ctime out, so the next pass still
    reads only the pages the last pass wrote (a key with it read the whole wiki on every pass)."""
    src, cache, wiki2 = _two_generations(tmp_path)
    total = len(list(wiki2.glob("*/*.md")))
    before = (wiki2 / "concepts" / "sprocket.md").stat()
    shutil.rmtree(wiki2.parent.parent / "job-1")  # what promotion does to the old tree
    after = (wiki2 / "concepts" / "sprocket.md").stat()
    assert after.st_nlink < before.st_nlink and after.st_ctime_ns != before.st_ctime_ns
    _edit_facade(src)
    seen = _reads(monkeypatch)
    compile_pass(_third(src, wiki2), cache_dir=cache)
    assert 0 < len(seen) < total / 2 and "sprocket.md" not in seen and "papers-gizmo-report-pdf.md" not in seen
    monkeypatch.undo()
    compile_pass(_third(src, wiki2, out="plain"), cache_dir=None)
    assert tree(_third(src, wiki2).output_path) == tree(_third(src, wiki2, out="plain").output_path)


def _edit_facade(src: Path) -> None:
    (src / "rfcs" / "0040-facade.md").write_text(
        (src / "rfcs" / "0040-facade.md").read_text(encoding="utf-8") + "\nA gear is a toothed wheel.\n", encoding="utf-8")


def test_a_page_edited_behind_the_compilers_back_is_read_again(tmp_path: Path) -> None:
    src, cache, wiki2 = _two_generations(tmp_path)
    page = wiki2 / "concepts" / "sprocket.md"
    st = page.stat()
    text = page.read_text(encoding="utf-8")
    assert "description: sprocket is a toothed wheel" in text
    page.write_text(text.replace("a toothed wheel", "a toothex wheel", 1), encoding="utf-8")  # same size
    assert page.stat().st_ino == st.st_ino and page.stat().st_size == st.st_size  # in place: the mtime tells
    compile_pass(_third(src, wiki2), cache_dir=cache)
    compile_pass(_third(src, wiki2, out="plain"), cache_dir=None)
    cached, plain = tree(_third(src, wiki2).output_path), tree(_third(src, wiki2, out="plain").output_path)
    assert cached == plain and "a toothex wheel" in cached["index.md"].decode()


def test_a_racily_clean_entry_is_never_trusted(tmp_path: Path) -> None:
    """An edit inside the timestamp tick of the record (same inode, size and mtime) is read."""
    src = make_kb(tmp_path)
    cache = tmp_path / "cache"
    first = request(src, "job-1")
    compile_pass(first, cache_dir=cache)  # its pages are written now: racily clean in the memo
    page = first.output_path / "concepts" / "sprocket.md"
    st = page.stat()
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("a toothed wheel", "a toothex wheel", 1), encoding="utf-8")
    os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns))
    memo_file = cache / MEMO_NAME
    lines, files = _memo_files(memo_file)
    assert files["sprocket"][5] and tuple(files["sprocket"][1:5]) == stat_key(page.stat())  # only racy tells
    again = request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z")
    compile_pass(again, cache_dir=cache)
    compile_pass(request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z", out="plain"), cache_dir=None)
    cached, plain = tree(again.output_path), tree(request(src, "job-2", out="plain").output_path)
    assert cached == plain and "a toothex wheel" in cached["index.md"].decode()


def test_a_tampered_page_the_memo_vouches_for_fails_the_pass_and_the_retry_is_right(tmp_path: Path) -> None:
    """The same stat key with other bytes (forged here in the memo): when the pass needs the page's
    bytes they are checked against the recorded digest; the pass fails transiently, the memo is dropped."""
    src, cache, wiki2 = _two_generations(tmp_path)
    page = wiki2 / "sources" / "rfcs-0040-facade-md.md"
    page.write_text(page.read_text(encoding="utf-8") + "A line nobody compiled.\n", encoding="utf-8")
    memo_file = cache / MEMO_NAME
    lines, files = _memo_files(memo_file)
    entry = files["rfcs-0040-facade-md"]
    entry[1:6] = [*stat_key(page.stat()), False]  # the memo vouches for the old bytes under the new key
    _forge(memo_file, lines, files)
    (src / "rfcs" / "0040-facade.md").write_text(
        (src / "rfcs" / "0040-facade.md").read_text(encoding="utf-8") + "\nA gear is a toothed wheel.\n", encoding="utf-8")
    with pytest.raises(CompileFailure) as failed:
        compile_pass(_third(src, wiki2), cache_dir=cache)
    assert failed.value.transient and failed.value.code == "previous_wiki_changed" and not memo_file.exists()
    compile_pass(_third(src, wiki2), cache_dir=cache)
    compile_pass(_third(src, wiki2, out="plain"), cache_dir=None)
    assert tree(_third(src, wiki2).output_path) == tree(_third(src, wiki2, out="plain").output_path)


@pytest.mark.parametrize(("mtime_ns", "recorded_ns", "racy"), [
    (10_500_000_000, 10_500_000_000, True),  # recorded in the tick of the write
    (10_500_000_000, 10_590_000_000, True),  # within 100 ms: the kernel's clock may lag a tick
    (10_500_000_000, 10_700_000_000, False),
    (10_000_000_000, 11_500_000_000, True),  # whole seconds: a filesystem with coarse timestamps
    (10_000_000_000, 12_000_000_001, False),
])
def test_racily_clean_rule(mtime_ns: int, recorded_ns: int, racy: bool) -> None:
    assert wiki_state.racily_clean(mtime_ns, recorded_ns) is racy


def test_an_unreadable_memo_is_only_slower(tmp_path: Path) -> None:
    src, cache, wiki2 = _two_generations(tmp_path)
    (cache / MEMO_NAME).write_text("kctui page memo 3\n{not json\n", encoding="utf-8")
    compile_pass(_third(src, wiki2), cache_dir=cache)
    compile_pass(_third(src, wiki2, out="plain"), cache_dir=None)
    assert tree(_third(src, wiki2).output_path) == tree(_third(src, wiki2, out="plain").output_path)


def _taken_whole(monkeypatch) -> list[bool]:  # noqa: ANN001
    """Whether each pass took the previous wiki whole, as the generation this process wrote."""
    hits: list[bool] = []
    real = wiki_state._as_written
    monkeypatch.setattr(wiki_state, "_as_written", lambda *a: hits.append(real(*a)) or hits[-1])
    return hits


@pytest.mark.parametrize("change", ["none", "added", "removed", "replaced", "edited", "symlink"])
def test_the_generation_this_process_wrote_is_taken_whole_unless_a_file_of_it_changed(
        tmp_path: Path, monkeypatch, change: str) -> None:
    """A long-lived worker's next pass takes the wiki it wrote last from memory, reading only the pages
    that were racily clean; a page file added, removed, replaced (another inode, the same bytes), edited
    or turned into a symlink since is seen, and the pages are then checked one by one. Either way the
    wiki written is the one a pass without caches writes."""
    src, cache, wiki2 = _two_generations(tmp_path)
    page = wiki2 / "concepts" / "sprocket.md"
    if change == "added":
        shutil.copy(page, wiki2 / "concepts" / "sprocket-copy.md")
    elif change == "removed":
        page.unlink()
    elif change == "replaced":
        data = page.read_bytes()
        st = page.stat()
        page.unlink()
        page.write_bytes(data)
        os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns))
    elif change == "edited":
        page.write_text(page.read_text(encoding="utf-8").replace("a toothed wheel", "a toothex wheel", 1),
                        encoding="utf-8")
    elif change == "symlink":
        data = page.read_bytes()
        page.unlink()
        (tmp_path / "elsewhere.md").write_bytes(data)
        page.symlink_to(tmp_path / "elsewhere.md")
    _edit_facade(src)
    hits = _taken_whole(monkeypatch)
    seen = _reads(monkeypatch)
    compile_pass(_third(src, wiki2), cache_dir=cache)
    assert hits == [change == "none"]
    if change == "none":
        assert seen and "sprocket.md" not in seen  # the pages job-2 wrote are read (racily clean), no other
    monkeypatch.undo()
    compile_pass(_third(src, wiki2, out="plain"), cache_dir=None)
    assert tree(_third(src, wiki2).output_path) == tree(_third(src, wiki2, out="plain").output_path)


def test_the_generation_kept_in_memory_is_the_one_its_records_describe(tmp_path: Path, monkeypatch) -> None:
    """Pass after pass (a source edited, one added, one deleted, nothing changed), the generation the
    memo keeps in memory — carried forward from the last one where the pages stand — is the one its
    records describe, in the order the wiki lists its pages."""
    from kctui.compiler.previous import page_memo
    from kctui.compiler.steps import registry as match

    src = make_kb(tmp_path)
    cache = tmp_path / "cache"
    prev = None
    patched: list[bool] = []
    real_patch = match._Base.patch
    monkeypatch.setattr(match._Base, "patch", lambda self, *a: patched.append(real_patch(self, *a)) or patched[-1])
    tables_patched: list[bool] = []
    real_tables_patch = WikiTables.patch
    monkeypatch.setattr(WikiTables, "patch",
                        lambda self, *a: tables_patched.append(real_tables_patch(self, *a)) or tables_patched[-1])
    steps = [lambda: None, lambda: _edit_facade(src),
             lambda: (src / "guides" / "new.txt").write_text("Gizmo Works is a vendor.\n", encoding="utf-8"),
             lambda: (src / "guides" / "new.txt").unlink(), lambda: None, lambda: _edit_facade(src)]
    for i, step in enumerate(steps):
        step()
        job = request(src, f"job-{i}", prev=prev, at=f"2026-09-{i + 1:02d}T00:00:00Z")
        compile_pass(job, cache_dir=cache)
        _, _, entries, decoded, kept = page_memo._RESIDENT[cache / MEMO_NAME]
        fresh = page_memo.Generation.of(entries, decoded)
        assert kept is not None and kept[:-1] == fresh[:-1] and list(kept.pages) == list(fresh.pages)  # (not `derived`)
        assert all(list(kept.expected[f]) == list(fresh.expected[f]) or kept.expected[f] == fresh.expected[f]
                   for f in fresh.expected)
        listed = [p.stem for folder in ("sources", "concepts", "entities")
                  for p in sorted((job.output_path / folder).glob("*.md"), key=lambda p: p.name)]
        assert list(kept.pages) == listed
        # the registry's base the next pass starts from (carried forward from the last one where the pages
        # stand) is the one built from the pages themselves
        loaded = wiki_state.load_previous(job.output_path, page_memo.PageMemo(cache), lambda: False)
        assert loaded.generation is kept
        base, fresh = match._base_of(loaded), match._Base(loaded.pages)
        for name in ("kinds", "titles", "taken", "source_slugs"):
            assert list(getattr(base, name).items()) == list(getattr(fresh, name).items()), name
        assert {k: (i.exact, i.near) for k, i in base.index.items()} == {k: (i.exact, i.near) for k, i in fresh.index.items()}
        # so are the lookups by source (kctui.compiler.previous.tables)
        assert loaded.tables.same_as(WikiTables(loaded.pages, loaded.styles))
        prev = job.output_path
    assert True in patched  # a carried-forward base was checked, not only fresh ones
    assert True in tables_patched
