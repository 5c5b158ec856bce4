"""The scanner on a real filesystem: symlinks, odd names and files, limits, the stat cache, stability."""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kctui.core.clock import US
from kctui.sources import walk as walk_module
from kctui.sources.excludes import is_excluded_name
from kctui.sources.scan import scan_sources, snapshot_digest
from kctui.sources.statcache import FileEntry, StatCache, stat_key

HOUR_NS = 3600 * 1_000_000_000


def write(root: Path, rel: str, data: bytes, *, age_s: float = 0) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    if age_s:
        t = time.time_ns() - int(age_s * 1e9)
        os.utime(p, ns=(t, t))
    return p


def old_tree(root: Path, n: int = 5) -> None:
    for i in range(n):
        write(root, f"notes/{i}.md", f"note {i}\n".encode(), age_s=3600)


# -- never follow a symlink, never read a special file -------------------------------------------------


def test_a_symlink_is_skipped_reported_and_never_read(tmp_path, monkeypatch):
    sources = tmp_path / "sources"
    old_tree(sources, 2)
    secret = tmp_path / "outside" / "secret.txt"
    write(tmp_path, "outside/secret.txt", b"never read me")
    (sources / "link.md").symlink_to(secret)
    (sources / "linked-dir").symlink_to(secret.parent, target_is_directory=True)
    (sources / "dangling.md").symlink_to(tmp_path / "nowhere")
    opened: list[str] = []
    real_open = os.open

    def spy_open(path, flags, *args, **kwargs):
        opened.append(os.path.realpath(os.fsdecode(path)) if not kwargs.get("dir_fd") else os.fsdecode(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy_open)
    result = scan_sources(sources, cache=StatCache())
    monkeypatch.undo()
    assert set(result.files) == {"notes/0.md", "notes/1.md"}
    assert ("link.md", "symlink") in result.skipped
    assert ("linked-dir", "symlink") in result.skipped
    assert ("dangling.md", "symlink") in result.skipped
    assert str(secret) not in opened and str(secret.parent) not in opened
    assert result.digest == scan_sources(sources).digest


def test_a_symlink_swapped_in_after_the_walk_is_refused(tmp_path):
    from kctui.sources.walk import hash_file

    secret = write(tmp_path, "secret.txt", b"never read me")
    link = tmp_path / "sources" / "a.md"
    link.parent.mkdir()
    link.symlink_to(secret)
    assert hash_file(link).outcome == "symlink"  # O_NOFOLLOW, not a read through the link


def test_a_fifo_is_skipped_without_blocking(tmp_path):
    old_tree(tmp_path, 1)
    os.mkfifo(tmp_path / "pipe.md")
    result = scan_sources(tmp_path)
    assert ("pipe.md", "special_file") in result.skipped
    assert list(result.files) == ["notes/0.md"]


# -- names that are not UTF-8 --------------------------------------------------------------------------


def test_non_utf8_names_are_skipped_and_reported(tmp_path):
    old_tree(tmp_path, 2)
    clean = scan_sources(tmp_path).digest
    root = os.fsencode(tmp_path)
    with open(root + b"/bad-\xff.md", "wb") as f:
        f.write(b"latin-1 name")
    os.mkdir(root + b"/dir-\xfe")
    with open(root + b"/dir-\xfe/inside.md", "wb") as f:
        f.write(b"inside a badly named folder")
    result = scan_sources(tmp_path, cache=StatCache())
    assert result.digest == clean
    assert ("bad-\\xff.md", "non_utf8_name") in result.skipped
    assert ("dir-\\xfe", "non_utf8_name") in result.skipped


name_bytes = st.binary(min_size=1, max_size=12).filter(lambda b: b"/" not in b and b"\0" not in b and b not in (b".", b".."))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(name_bytes, min_size=1, max_size=8, unique=True))
def test_any_byte_name_crashes_nothing(names):
    with tempfile.TemporaryDirectory() as tmp:
        root = os.fsencode(tmp)
        for n in names:
            with open(root + b"/" + n, "wb") as f:
                f.write(n)
        result = scan_sources(Path(tmp), cache=StatCache())
        assert result.root_ok and result.digest
        expected = set()
        for n in names:
            try:
                name = n.decode("utf-8")
            except UnicodeDecodeError:
                continue
            if not is_excluded_name(name):
                expected.add(name)
        assert set(result.files) == expected
        reported = sum(1 for _, reason in result.skipped if reason == "non_utf8_name")
        assert reported == sum(1 for n in names if not _is_utf8(n))


def _is_utf8(b: bytes) -> bool:
    try:
        b.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# -- the root and the limits ---------------------------------------------------------------------------


def test_missing_root_is_not_an_empty_tree(tmp_path):
    result = scan_sources(tmp_path / "sources")
    assert not result.root_ok and result.digest is None and "missing" in (result.root_error or "")
    (tmp_path / "file").write_text("x")
    result = scan_sources(tmp_path / "file")
    assert not result.root_ok and "not a folder" in (result.root_error or "")


def test_unreadable_root_is_reported(tmp_path, monkeypatch):
    old_tree(tmp_path, 1)
    real_scandir = os.scandir

    def refuse(path="."):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "scandir", refuse)
    result = scan_sources(tmp_path)
    monkeypatch.setattr(os, "scandir", real_scandir)
    assert not result.root_ok and "cannot be read" in (result.root_error or "")


def test_an_unreadable_subfolder_is_reported_not_silently_dropped(tmp_path, monkeypatch):
    old_tree(tmp_path, 1)
    write(tmp_path, "locked/a.md", b"x")
    real_open = os.open

    def refuse_locked(path, flags, *args, **kwargs):
        if os.fsdecode(path).endswith("/locked"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse_locked)
    result = scan_sources(tmp_path)
    assert ("locked", "unreadable") in result.skipped
    assert list(result.files) == ["notes/0.md"]


def test_file_limit_is_a_clear_error(tmp_path):
    old_tree(tmp_path, 4)
    result = scan_sources(tmp_path, max_files=3)
    assert result.root_ok and result.digest is None and result.files == {}
    assert "more than 3 files" in (result.limit_error or "")
    assert scan_sources(tmp_path, max_files=4).limit_error is None


def test_size_limit_is_a_clear_error(tmp_path):
    write(tmp_path, "big.bin", b"x" * 2048)
    result = scan_sources(tmp_path, max_bytes=2047)
    assert result.digest is None and "more than 2,047 bytes" in (result.limit_error or "")
    assert scan_sources(tmp_path, max_bytes=2048).limit_error is None
    assert "more than 1 KiB (1,024 bytes)" in (scan_sources(tmp_path, max_bytes=1024).limit_error or "")


# -- stability -----------------------------------------------------------------------------------------


def test_recent_files_are_unstable(tmp_path):
    old_tree(tmp_path, 2)
    p = write(tmp_path, "fresh.md", b"just written")
    mtime_us = p.stat().st_mtime_ns // 1000
    assert scan_sources(tmp_path, now_us=mtime_us + 4_999_999).unstable_paths == ["fresh.md"]
    assert scan_sources(tmp_path, now_us=mtime_us + 5 * US).unstable_paths == []
    assert scan_sources(tmp_path, now_us=mtime_us, stability_window_s=0).unstable_paths == []


# -- the stat cache ------------------------------------------------------------------------------------


def test_an_unchanged_rescan_reads_no_file(tmp_path):
    old_tree(tmp_path, 30)
    cache = StatCache()
    first = scan_sources(tmp_path, cache=cache)
    assert first.hashed_count == 30
    again = scan_sources(tmp_path, cache=cache)
    assert again.hashed_count == 0 and again.digest == first.digest and again.files == first.files
    write(tmp_path, "notes/3.md", b"edited", age_s=1800)
    edited = scan_sources(tmp_path, cache=cache)
    assert edited.hashed_count == 1 and edited.digest != first.digest
    assert edited.digest == scan_sources(tmp_path).digest
    (tmp_path / "notes/4.md").unlink()
    pruned = scan_sources(tmp_path, cache=cache)
    assert "notes/4.md" not in cache and pruned.file_count == 29


def test_a_racily_clean_file_is_hashed_again(tmp_path):
    p = write(tmp_path, "a.md", b"real content", age_s=60)
    key = stat_key(p.lstat())
    bogus = FileEntry("a.md", key[0], "sha256:" + "0" * 64, key[1])
    honest = scan_sources(tmp_path).digest

    # Recorded long after the file's mtime: the stat key is trusted (this proves the cache is used).
    trusted = StatCache()
    trusted.record("a.md", key, bogus, recorded_ns=key[1] + HOUR_NS)
    assert scan_sources(tmp_path, cache=trusted).digest == snapshot_digest([("a.md", bogus.digest, key[0])])

    # Recorded in the same instant as the mtime (racily clean): hashed again, never trusted.
    racy = StatCache()
    racy.record("a.md", key, bogus, recorded_ns=key[1])
    assert racy.is_racy("a.md")
    result = scan_sources(tmp_path, cache=racy)
    assert result.hashed_count == 1 and result.digest == honest


def test_a_file_modified_while_hashed_is_unstable_not_mis_hashed(tmp_path, monkeypatch):
    old_tree(tmp_path, 2)
    victim = write(tmp_path, "growing.log", b"line\n", age_s=3600)
    real_readv = os.readv
    victim_ino = victim.stat().st_ino

    def append_then_read(fd, buffers):
        if os.fstat(fd).st_ino == victim_ino:
            with open(victim, "ab") as f:  # another writer, every time we read
                f.write(b"more\n")
        return real_readv(fd, buffers)

    monkeypatch.setattr(walk_module.os, "readv", append_then_read)
    cache = StatCache()
    result = scan_sources(tmp_path, cache=cache, stability_window_s=0)
    assert result.changed_while_read == ["growing.log"]
    assert "growing.log" in result.unstable_paths
    assert "growing.log" not in cache  # never cached
    monkeypatch.undo()
    settled = scan_sources(tmp_path, cache=cache, stability_window_s=0)
    assert settled.unstable_paths == [] and settled.digest == scan_sources(tmp_path).digest


def test_a_file_changed_once_while_read_is_read_again(tmp_path, monkeypatch):
    victim = write(tmp_path, "a.md", b"first", age_s=3600)
    real_readv = os.readv
    calls = {"n": 0}

    def change_once(fd, buffers):
        calls["n"] += 1
        if calls["n"] == 1:
            with open(victim, "ab") as f:
                f.write(b" and second")
        return real_readv(fd, buffers)

    monkeypatch.setattr(walk_module.os, "readv", change_once)
    result = scan_sources(tmp_path, stability_window_s=0)
    monkeypatch.undo()
    assert result.changed_while_read == [] and result.unstable_paths == []
    assert result.digest == scan_sources(tmp_path).digest  # the hash of the final bytes


def test_cache_persists_atomically_and_a_corrupt_file_is_discarded(tmp_path):
    sources = tmp_path / "sources"
    old_tree(sources, 10)
    cache_file = tmp_path / "state" / "statcache" / "kb.json"
    cache = StatCache.load(cache_file)
    assert len(cache) == 0 and cache.discarded_reason is None
    digest = scan_sources(sources, cache=cache).digest
    assert cache.save() and not cache.save()  # the second save has nothing new to write
    assert os.listdir(cache_file.parent) == ["kb.json"]  # no temp file left behind
    loaded = StatCache.load(cache_file)
    again = scan_sources(sources, cache=loaded)
    assert again.hashed_count == 0 and again.digest == digest

    for garbage in (b"\x00\xff not json", b'{"format": "kctui-statcache", "version": 1}', b"[1, 2",
                    json.dumps({"format": "other"}).encode()):  # fmt: skip
        cache_file.write_bytes(garbage)
        broken = StatCache.load(cache_file)
        assert len(broken) == 0 and "discarded" in (broken.discarded_reason or "")
        assert scan_sources(sources, cache=broken).digest == digest
        broken.save()
        assert len(StatCache.load(cache_file)) == 10


def test_a_changed_file_after_a_remembered_listing_is_seen(tmp_path):
    old_tree(tmp_path, 5)
    cache = StatCache()
    first = scan_sources(tmp_path, cache=cache)
    assert scan_sources(tmp_path, cache=cache).hashed_count == 0  # the remembered listing
    write(tmp_path, "notes/2.md", b"changed!", age_s=600)
    after = scan_sources(tmp_path, cache=cache)
    assert after.digest != first.digest and after.digest == scan_sources(tmp_path).digest
    os.utime(tmp_path / "notes/2.md", ns=(time.time_ns(), time.time_ns() - HOUR_NS))  # touch: same bytes
    assert scan_sources(tmp_path, cache=cache).digest == after.digest


def test_an_unreadable_file_is_reported(tmp_path, monkeypatch):
    old_tree(tmp_path, 1)
    write(tmp_path, "private.md", b"x", age_s=60)
    real_open = os.open

    def refuse_private(path, flags, *args, **kwargs):
        if os.fsdecode(path).endswith("/private.md"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse_private)
    result = scan_sources(tmp_path)
    assert ("private.md", "unreadable") in result.skipped
    assert list(result.files) == ["notes/0.md"]


def age_folders(root: Path, age_s: float = 3600) -> None:
    t = time.time_ns() - int(age_s * 1e9)
    for dirpath, _, _ in os.walk(root):
        os.utime(dirpath, ns=(t, t))


def test_folder_listings_follow_every_change(tmp_path):
    sources = tmp_path / "sources"
    old_tree(sources, 6)
    write(sources, "deep/er/x.md", b"x", age_s=3600)
    age_folders(sources)
    cache = StatCache()
    scan_sources(sources, cache=cache)
    assert len(cache.folders) == 4  # sources/, notes/, deep/, deep/er/: all old enough to trust
    assert scan_sources(sources, cache=cache).hashed_count == 0

    write(sources, "notes/new.md", b"new", age_s=3600)  # the folder's mtime moves
    assert "notes/new.md" in scan_sources(sources, cache=cache).files
    (sources / "notes/0.md").unlink()
    (sources / "notes/0.md").symlink_to(tmp_path / "elsewhere")
    (sources / "deep/er/x.md").unlink()
    result = scan_sources(sources, cache=cache)
    assert ("notes/0.md", "symlink") in result.skipped
    assert "notes/0.md" not in result.files and "deep/er/x.md" not in result.files
    assert result.digest == scan_sources(sources).digest


def test_a_root_that_vanishes_during_the_scan_leaves_the_cache_alone(tmp_path, monkeypatch):
    from kctui.sources import scan as scan_module

    old_tree(tmp_path, 5)
    cache = StatCache()
    scan_sources(tmp_path, cache=cache)
    real = scan_module._root_problem
    calls = {"n": 0}

    def gone_after_the_walk(root, root_b):
        calls["n"] += 1
        return real(root, root_b) if calls["n"] == 1 else f"the sources folder {root} is missing"

    monkeypatch.setattr(scan_module, "_root_problem", gone_after_the_walk)
    result = scan_sources(tmp_path, cache=cache)
    assert not result.root_ok and result.digest is None and "missing" in (result.root_error or "")
    assert len(cache) == 5
