"""The staged wiki's unchanged pages linked ahead of time by `cp -al` (kctui.compiler.previous.prelink): the same bytes
as a pass that links page by page, the live wiki never written through, nothing of the previous generation
kept that the new one does not hold, and a failed pass leaves no links behind."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from kctui.compiler.contract import CompileCancelled, CompileFailure
from kctui.compiler.previous import prelink as prelink_mod
from kctui.compiler.steps.pipeline import compile_pass
from tests.helpers.wiki import SETUP, make_kb, request, tree

pytestmark = pytest.mark.skipif(os.name != "posix" or shutil.which("cp") is None, reason="needs a POSIX cp")


def _first(tmp_path: Path) -> tuple[Path, Path]:
    src = make_kb(tmp_path)
    first = request(src, "job-1")
    compile_pass(first, cache_dir=tmp_path / "cache")
    return src, first.output_path


def _second(src: Path, prev: Path, out: str = "job-2"):  # noqa: ANN202
    return request(src, "job-2", prev=prev, at="2026-09-01T00:00:00Z", out=out)


def test_prelinked_pass_writes_what_a_page_by_page_pass_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src, prev = _first(tmp_path)
    live = tree(prev)
    (src / "guides" / "setup.txt").write_text(SETUP + "- Region: eu-west\n", encoding="utf-8")
    linked = _second(src, prev, "linked")
    compile_pass(linked, cache_dir=None)
    monkeypatch.setattr(prelink_mod, "_cp", lambda: None)  # no cp: pages carried one by one
    one_by_one = _second(src, prev, "one-by-one")
    compile_pass(one_by_one, cache_dir=None)
    assert tree(linked.output_path) == tree(one_by_one.output_path)
    assert tree(prev) == live  # the previous generation is untouched: no page was written through its link
    changed = [name for name, data in tree(linked.output_path).items() if live.get(name) != data]
    assert changed and all(name.endswith(".md") for name in changed)
    for name in tree(linked.output_path):
        if name.count("/") != 1:
            continue  # index.md, log.md
        same_file = os.stat(linked.output_path / name).st_ino == os.stat(prev / name).st_ino
        assert same_file == (name not in changed), name  # unchanged: the very file; changed: a new one


def test_what_the_previous_folders_hold_beyond_their_pages_is_not_carried(tmp_path: Path) -> None:
    src, prev = _first(tmp_path)
    outside = tmp_path / "outside.md"
    outside.write_text("not a page\n", encoding="utf-8")
    (prev / "sources" / "link.md").symlink_to(outside)
    (prev / "concepts" / "notes.txt").write_text("stray\n", encoding="utf-8")
    (prev / "entities" / "sub").mkdir()
    (prev / "entities" / "sub" / "deep.md").write_text("stray\n", encoding="utf-8")
    job = _second(src, prev)
    compile_pass(job, cache_dir=None)
    staged = job.output_path
    assert not (staged / "sources" / "link.md").exists() and not (staged / "sources" / "link.md").is_symlink()
    assert not (staged / "concepts" / "notes.txt").exists()
    assert not (staged / "entities" / "sub").exists()
    assert outside.read_text(encoding="utf-8") == "not a page\n"


def test_a_symlinked_page_folder_is_never_followed(tmp_path: Path) -> None:
    src, prev = _first(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    shutil.move(prev / "entities", elsewhere)
    (prev / "entities").symlink_to(elsewhere, target_is_directory=True)
    before = tree(elsewhere)
    job = _second(src, prev)
    compile_pass(job, cache_dir=None)
    staged = job.output_path / "entities"
    assert staged.is_dir() and not staged.is_symlink()
    assert tree(elsewhere) == before


def test_a_cancelled_pass_leaves_no_links_to_the_live_wiki(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src, prev = _first(tmp_path)
    start = prelink_mod.Prelink.start

    def finished(previous, out):  # noqa: ANN001, ANN202 - the links are all there before the pass is cancelled
        started = start(previous, out)
        assert started is not None and started.wait() and any(out.rglob("*.md"))
        return started

    monkeypatch.setattr(prelink_mod.Prelink, "start", staticmethod(finished))
    (src / "guides" / "setup.txt").write_text(SETUP + "- Region: eu-west\n", encoding="utf-8")
    job = _second(src, prev)
    calls = {"n": 0}

    def stop() -> bool:
        calls["n"] += 1
        return calls["n"] > 3

    with pytest.raises(CompileCancelled):
        compile_pass(job, cache_dir=None, should_stop=stop)
    staged = job.output_path
    assert not staged.exists() and not staged.is_symlink()  # as a pass without a prelink leaves it
    assert tree(prev)  # the live wiki is intact


def test_a_failing_cp_falls_back_to_linking_page_by_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src, prev = _first(tmp_path)
    fake = tmp_path / "bin" / "cp"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setattr(prelink_mod, "_cp", lambda: str(fake))
    job = _second(src, prev)
    compile_pass(job, cache_dir=None)
    assert tree(job.output_path).keys() == tree(prev).keys()
    page = next(p for p in (prev / "sources").glob("*.md"))
    assert os.stat(job.output_path / "sources" / page.name).st_ino == os.stat(page).st_ino


@pytest.mark.parametrize("linked_first", [False, True])
def test_a_page_replaced_while_the_pass_runs_is_never_carried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               linked_first: bool) -> None:
    """A previous page replaced after the pass read the previous wiki (another file renamed over it, as an
    editor saves) is not the file the pass read: its link is not carried, and the pass either writes the
    bytes it read or fails to be retried — it never publishes bytes it did not read."""
    src, prev = _first(tmp_path)
    page = prev / "concepts" / "sprocket.md"
    read = page.read_bytes()
    (src / "guides" / "setup.txt").write_text(SETUP + "- Region: eu-west\n", encoding="utf-8")
    from kctui.compiler.previous import store

    real, real_start = store.load_previous, store.Prelink.start
    started = []
    monkeypatch.setattr(store.Prelink, "start", lambda *a: started.append(real_start(*a)) or started[-1])

    def read_then_replace(*args):  # noqa: ANN002, ANN202 - after the read, while (or after) the links are made
        found = real(*args)
        if linked_first:  # the staged link is the file the pass read: carried as it is
            assert started[0] is not None and started[0].wait()
        other = page.with_name("sprocket.md.new")
        other.write_bytes(read.replace(b"toothed", b"toothex"))
        os.replace(other, page)
        return found

    monkeypatch.setattr(store, "load_previous", read_then_replace)
    job = _second(src, prev)
    try:
        compile_pass(job, cache_dir=tmp_path / "cache")
    except CompileFailure as failed:
        assert failed.transient and failed.code == "previous_wiki_changed"
        assert not job.output_path.exists()
    else:
        staged = job.output_path / "concepts" / "sprocket.md"
        assert staged.read_bytes() == read and os.stat(staged).st_ino != os.stat(page).st_ino


def test_a_page_replaced_after_it_was_linked_and_before_it_was_read_is_not_carried(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The links are made from the start of the pass: a page replaced after its link was made and before
    the pass read it is another inode than the one linked, so the staged wiki holds what the pass read."""
    src, prev = _first(tmp_path)
    page = prev / "concepts" / "sprocket.md"
    before, old_inode = page.read_bytes(), page.stat().st_ino
    (src / "guides" / "setup.txt").write_text(SETUP + "- Region: eu-west\n", encoding="utf-8")
    from kctui.compiler.previous import store

    real, real_start = store.load_previous, store.Prelink.start
    started = []
    monkeypatch.setattr(store.Prelink, "start", lambda *a: started.append(real_start(*a)) or started[-1])

    def link_replace_then_read(*args):  # noqa: ANN002, ANN202
        assert started[0] is not None and started[0].wait()  # the link to the old file is made
        other = page.with_name("sprocket.md.new")
        other.write_bytes(before.replace(b"toothed", b"toothex"))
        os.replace(other, page)
        return real(*args)

    monkeypatch.setattr(store, "load_previous", link_replace_then_read)
    job = _second(src, prev)
    compile_pass(job, cache_dir=tmp_path / "cache")
    staged = job.output_path / "concepts" / "sprocket.md"
    assert os.stat(staged).st_ino != old_inode and staged.read_bytes() != before  # not the file it did not read
    assert b"toothex" in staged.read_bytes()  # (what it read, carried or rebuilt)
