"""`index.md` when it stands: the same bytes a fresh render gives, carried as the previous generation's
file (a hard link, as an unchanged page is), and written anew as soon as one entry differs."""

from __future__ import annotations

import random
from pathlib import Path

from kctui.compiler.steps import index_log
from kctui.compiler.steps.index_log import IndexEntry, index_text, render_index
from kctui.compiler.steps.output import link_same
from kctui.compiler.steps.pipeline import compile_pass
from tests.helpers.wiki import make_kb, request


def test_the_index_text_is_the_rendered_one_for_the_entries_in_any_order() -> None:
    index_log._LAST_INDEX.clear()
    entries = [IndexEntry(kind, f"{kind}-{i}", f"Title {i}", f"About {i}") for kind in ("source", "concept", "entity")
               for i in range(30)]
    first = index_text(entries)
    assert first == render_index(entries)
    shuffled = random.Random(7).sample(entries, len(entries))
    assert index_text(shuffled) == first
    changed = [*entries[:-1], entries[-1]._replace(description="Something else")]
    assert index_text(changed) == render_index(changed) != first


def test_an_index_that_stands_is_the_previous_file_and_one_that_changed_is_new(tmp_path: Path) -> None:
    src = make_kb(tmp_path)
    cache = tmp_path / "cache"
    one = request(src, "job-1")
    compile_pass(one, cache_dir=cache)
    (src / "guides" / "extra.txt").write_text("A line about nothing in particular.\n", encoding="utf-8")
    two = request(src, "job-2", prev=one.output_path, at="2026-08-23T00:00:00Z")
    compile_pass(two, cache_dir=cache)
    three = request(src, "job-3", prev=two.output_path, at="2026-08-24T00:00:00Z")
    compile_pass(three, cache_dir=cache)  # nothing changed since job-2
    index_log._LAST_INDEX.clear()
    fresh = request(src, "job-3", prev=two.output_path, at="2026-08-24T00:00:00Z", out="fresh")
    compile_pass(fresh, cache_dir=None)
    index2, index3 = two.output_path / "index.md", three.output_path / "index.md"
    assert index3.read_bytes() == (fresh.output_path / "index.md").read_bytes()
    assert index3.stat().st_ino == index2.stat().st_ino  # carried, as an unchanged page is
    assert index2.stat().st_ino != (one.output_path / "index.md").stat().st_ino  # a page was added: a new index
    assert index2.read_bytes() != (one.output_path / "index.md").read_bytes()


def test_only_the_very_bytes_are_linked(tmp_path: Path) -> None:
    previous = tmp_path / "prev.md"
    previous.write_bytes(b"index\n")
    assert link_same(previous, tmp_path / "a.md", b"index\n")
    assert (tmp_path / "a.md").stat().st_ino == previous.stat().st_ino
    assert not link_same(previous, tmp_path / "b.md", b"other\n") and not (tmp_path / "b.md").exists()
    (tmp_path / "link.md").symlink_to(previous)
    assert not link_same(tmp_path / "link.md", tmp_path / "c.md", b"index\n") and not (tmp_path / "c.md").exists()
    assert not link_same(tmp_path / "missing.md", tmp_path / "d.md", b"index\n")
