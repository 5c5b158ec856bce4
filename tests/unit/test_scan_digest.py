"""The snapshot digest (host.md §2), checked against an independent implementation, and its properties."""

from __future__ import annotations

import hashlib
import os
import struct
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kctui.sources.excludes import is_excluded_name
from kctui.sources.scan import SNAPSHOT_TAG, scan_sources, snapshot_digest
from kctui.sources.statcache import StatCache

# -- an independent implementation of the reference digest ---------------------------------------------

REFERENCE_NAMES = {".a3s", ".git", ".obsidian", ".trash", ".cache", "__pycache__", "node_modules", "target",
                   "wiki", "eval", ".DS_Store", ".tantivy"}  # fmt: skip


def excluded_independently(name: str) -> bool:
    low = name.lower()
    return (
        name in REFERENCE_NAMES
        or name.startswith("~$")
        or any(low.endswith(s) for s in (".tmp", ".temp", ".swp", ".part"))
        # ours: editor leftovers
        or name.startswith((".#", ".goutputstream-"))
        or any(low.endswith(s) for s in (".swo", ".swx", "~"))
        or name == "4913"
    )


def reference_digest(root: Path) -> str:
    """os.walk + whole-file sha256 + struct.pack('<Q'): written from host.md §2 alone."""
    found: list[tuple[bytes, str, int]] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = [n for n in dirnames if not excluded_independently(n)]
        for name in filenames:
            full = Path(dirpath, name)
            if excluded_independently(name) or full.is_symlink():
                continue
            rel = full.relative_to(root).as_posix().encode("utf-8")
            data = full.read_bytes()
            found.append((rel, "sha256:" + hashlib.sha256(data).hexdigest(), len(data)))
    found.sort(key=lambda f: f[0])
    h = hashlib.sha256(b"a3s-knowledge-source-snapshot-v1\x00")
    for rel, digest, size in found:
        for field in (rel, digest.encode("ascii"), struct.pack("<Q", size)):
            h.update(struct.pack("<Q", len(field)))
            h.update(field)
    return "sha256:" + h.hexdigest()


def write(root: Path, rel: str, data: bytes) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    return p


SMALL_TREE = {
    "a.md": b"alpha\n",
    "a-b.md": b"dash sorts before slash\n",
    "a/x.md": b"inside a\n",
    "B.md": b"capitals sort first\n",
    "empty.txt": b"",
    "deep/er/and/deeper.txt": b"deep\n",
    "caf\u00e9/na\u00efve.md": b"utf-8 names\n",
    "\u65e5\u672c/\u8a9e.md": b"cjk\n",
    "big.bin": bytes(range(256)) * 9000,  # 2.3 MB: several read chunks
}
LEFTOVERS = {
    ".git/HEAD": b"ref: refs/heads/main\n",
    "wiki/page.md": b"compiled output is not a source\n",
    "node_modules/x/index.js": b"",
    "notes/.DS_Store": b"\0",
    "draft.md.swp": b"vim swap",
    "draft.md.SWP": b"case-insensitive",
    "~$report.docx": b"office lock",
    "download.part": b"partial",
    ".#draft.md": b"emacs lock",
    "draft.md~": b"backup",
    "draft.md.swo": b"vim swap 2",
    "4913": b"",
    ".goutputstream-ABC123": b"gnome save",
}


def test_digest_equals_an_independent_implementation(tmp_path):
    for rel, data in {**SMALL_TREE, **LEFTOVERS}.items():
        write(tmp_path, rel, data)
    result = scan_sources(tmp_path)
    assert result.root_ok and result.limit_error is None
    assert result.digest == reference_digest(tmp_path)
    assert list(result.files) == sorted(SMALL_TREE, key=lambda p: p.encode("utf-8"))
    assert result.total_bytes == sum(len(v) for v in SMALL_TREE.values())
    assert result.files["big.bin"].digest == "sha256:" + hashlib.sha256(SMALL_TREE["big.bin"]).hexdigest()


def test_editor_leftovers_do_not_change_the_digest(tmp_path):
    for rel, data in SMALL_TREE.items():
        write(tmp_path, rel, data)
    clean = scan_sources(tmp_path).digest
    for rel, data in LEFTOVERS.items():
        write(tmp_path, rel, data)
    assert scan_sources(tmp_path).digest == clean


def test_snapshot_digest_function():
    assert snapshot_digest([]) == "sha256:" + hashlib.sha256(SNAPSHOT_TAG).hexdigest()
    entries = [("b.md", "sha256:" + "1" * 64, 2), ("a.md", "sha256:" + "2" * 64, 1)]
    assert snapshot_digest(entries) == snapshot_digest(reversed(entries))  # put in path order
    assert snapshot_digest(entries) != snapshot_digest([("b.md", "sha256:" + "1" * 64, 3), entries[1]])


def test_empty_sources_is_a_valid_snapshot(tmp_path):
    result = scan_sources(tmp_path)
    assert result.root_ok and result.files == {} and result.digest == snapshot_digest([])


def test_exclusion_predicate_matches_the_list():
    names = ["a.md", "wiki", "Wiki", ".gitignore", "x.TMP", "~$a", "~a", "a~", "4913", "49130", ".#a", "ok.swp.md"]
    assert [n for n in names if is_excluded_name(n)] == [n for n in names if excluded_independently(n)]


# -- properties ----------------------------------------------------------------------------------------

trees = st.dictionaries(
    st.lists(st.sampled_from(["a", "b", "z", "a-b", "\u00e9", "dir"]), min_size=1, max_size=3).map("/".join),
    st.binary(min_size=1, max_size=64),
    min_size=1,
    max_size=6,
).filter(lambda t: not any(other.startswith(p + "/") for p in t for other in t))  # a path is a file or a folder

PROPS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


def make_tree(tree: dict[str, bytes]) -> tuple[tempfile.TemporaryDirectory, Path]:
    tmp = tempfile.TemporaryDirectory()
    root = Path(tmp.name)
    for rel, data in tree.items():
        write(root, rel, data)
    return tmp, root


@PROPS
@given(trees, st.data())
def test_touch_and_identical_rewrite_keep_the_digest(tree, data):
    tmp, root = make_tree(tree)
    with tmp:
        cache = StatCache()
        before = scan_sources(root, cache=cache).digest
        rel = data.draw(st.sampled_from(sorted(tree)))
        p = root / rel
        os.utime(p, ns=(time.time_ns(), time.time_ns() + 10_000_000_000))  # touch
        assert scan_sources(root, cache=cache).digest == before
        p.write_bytes(tree[rel])  # the same bytes again
        assert scan_sources(root, cache=cache).digest == before
        assert scan_sources(root).digest == before == reference_digest(root)


@PROPS
@given(trees, st.data())
def test_a_same_size_edit_changes_the_digest(tree, data):
    tmp, root = make_tree(tree)
    with tmp:
        cache = StatCache()
        before = scan_sources(root, cache=cache).digest
        rel = data.draw(st.sampled_from(sorted(tree)))
        old = tree[rel]
        new = bytes([old[0] ^ 0xFF]) + old[1:]  # same size, other bytes, written at once (same mtime tick)
        (root / rel).write_bytes(new)
        after = scan_sources(root, cache=cache).digest  # racily clean entries are hashed again
        assert after != before
        assert after == scan_sources(root).digest == reference_digest(root)


@PROPS
@given(trees, st.data())
def test_a_rename_changes_the_digest(tree, data):
    tmp, root = make_tree(tree)
    with tmp:
        cache = StatCache()
        before = scan_sources(root, cache=cache).digest
        rel = data.draw(st.sampled_from(sorted(tree)))
        target = root / (rel + "-renamed")
        (root / rel).rename(target)
        after = scan_sources(root, cache=cache)
        assert after.digest != before
        assert after.digest == scan_sources(root).digest == reference_digest(root)
        assert rel + "-renamed" in after.files and rel not in after.files
