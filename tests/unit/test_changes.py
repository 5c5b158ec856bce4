"""Change classes between two snapshots (host.md §2): added, deleted, modified, renamed, totalChanged."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kctui.sources.changes import classify_changes, file_states
from kctui.sources.scan import FileEntry, ScanResult


def d(n: int) -> str:
    return f"sha256:{n:064x}"


def test_no_previous_snapshot_means_everything_added():
    c = classify_changes(None, {"a.md": (d(1), 3), "b.md": (d(2), 4)})
    assert (c.added, c.deleted, c.modified, c.renamed, c.total_changed, c.previous_files) == (2, 0, 0, 0, 2, 0)


def test_identical_snapshots_have_no_changes():
    snap = {"a.md": (d(1), 3)}
    c = classify_changes(snap, dict(snap))
    assert not c.changed and c.total_changed == 0


def test_each_class():
    prev = {"keep.md": (d(1), 1), "edit.md": (d(2), 2), "gone.md": (d(3), 3), "old-name.md": (d(4), 4)}
    cur = {"keep.md": (d(1), 1), "edit.md": (d(22), 2), "new.md": (d(5), 5), "new-name.md": (d(4), 4)}
    c = classify_changes(prev, cur)
    assert c.added_paths == ("new.md",)
    assert c.deleted_paths == ("gone.md",)
    assert c.modified_paths == ("edit.md",)
    assert c.renamed_paths == (("old-name.md", "new-name.md"),)
    assert (c.added, c.deleted, c.modified, c.renamed, c.total_changed) == (1, 1, 1, 1, 4)
    assert c.vanished == 2  # the raw count includes the rename
    assert c.counts()["totalChanged"] == 4


def test_renames_are_counted_with_multiplicity():
    # Two deleted copies of the same bytes, one added copy: one rename, one deletion.
    c = classify_changes({"a.md": (d(7), 1), "b.md": (d(7), 1)}, {"c.md": (d(7), 1)})
    assert (c.renamed, c.deleted, c.added, c.vanished) == (1, 1, 0, 2)
    # One deleted, two added copies: one rename, one addition.
    c = classify_changes({"a.md": (d(7), 1)}, {"b.md": (d(7), 1), "c.md": (d(7), 1)})
    assert (c.renamed, c.deleted, c.added, c.vanished) == (1, 0, 1, 1)


def test_a_modified_file_is_not_a_rename_source():
    # "a" keeps its path (modified); "b" appears with a's old bytes: an addition, not a rename.
    c = classify_changes({"a.md": (d(1), 1)}, {"a.md": (d(2), 1), "b.md": (d(1), 1)})
    assert (c.modified, c.added, c.renamed, c.deleted) == (1, 1, 0, 0)


def test_accepts_a_scan_result():
    entry = FileEntry("a.md", 3, d(1), 0)
    scan = ScanResult(True, None, {"a.md": entry}, "sha256:x", 3, [], [], None)
    assert file_states(scan) == {"a.md": (d(1), 3)}
    c = classify_changes({"a.md": (d(2), 3)}, scan)
    assert c.modified == 1 and c.current_files == 1


snapshots = st.dictionaries(
    st.text(alphabet="abcdef/", min_size=1, max_size=6),
    st.tuples(st.integers(0, 5).map(d), st.integers(0, 3)),
    max_size=12,
)


@settings(deadline=None)
@given(snapshots, snapshots)
def test_class_invariants(prev, cur):
    c = classify_changes(prev, cur)
    gone = set(prev) - set(cur)
    new = set(cur) - set(prev)
    assert c.vanished == len(gone)
    assert c.deleted + c.renamed == len(gone)
    assert c.added + c.renamed == len(new)
    assert c.total_changed == c.added + c.deleted + c.modified + c.renamed
    assert set(c.added_paths) | {to for _, to in c.renamed_paths} == new
    assert set(c.deleted_paths) | {frm for frm, _ in c.renamed_paths} == gone
    assert all(prev[frm][0] == cur[to][0] for frm, to in c.renamed_paths)
    same = set(prev) == set(cur) and all(prev[p][0] == cur[p][0] for p in prev)
    assert (c.total_changed == 0) == same
