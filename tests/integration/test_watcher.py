"""The watcher on a real filesystem: dirty marks, ignored leftovers, overflow, polling fallback, and
5,000 files written by another process as fast as it can, all found."""

from __future__ import annotations

import errno
import logging
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from watchdog.events import (
    DirModifiedEvent,
    FileClosedNoWriteEvent,
    FileCreatedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileOpenedEvent,
)
from watchdog.observers import Observer

from kctui.sources import watcher as watcher_module
from kctui.sources.mounts import filesystem_type
from kctui.sources.scan import scan_sources
from kctui.sources.statcache import StatCache
from kctui.sources.watcher import DirtyKeys, SourceWatcher, _SourcesHandler

DEADLINE_S = 5.0


class Marks:
    """A mark_dirty callback that records keys and lets a test wait for one."""

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.cond = threading.Condition()

    def __call__(self, key: str) -> None:
        with self.cond:
            self.keys.append(key)
            self.cond.notify_all()

    def wait_for(self, key: str, timeout: float = DEADLINE_S) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: key in self.keys, timeout)

    def clear(self) -> None:
        with self.cond:
            self.keys.clear()


@pytest.fixture
def sources(tmp_path) -> Path:
    p = tmp_path / "kb" / "sources"
    p.mkdir(parents=True)
    return p


@pytest.fixture
def marks() -> Marks:
    return Marks()


@pytest.fixture
def watcher(marks):
    w = SourceWatcher(marks, poll_interval_s=0.1)
    yield w
    w.stop()


def quiet_for(marks: Marks, seconds: float) -> bool:
    """True when no mark arrived for `seconds` (the only way to observe that nothing happens)."""
    time.sleep(seconds)
    return marks.keys == []


# -- what counts -------------------------------------------------------------------------------------


def test_handler_relevance():
    h = _SourcesHandler("kb", "/w/sources", lambda key: None)
    assert h.relevant(FileCreatedEvent("/w/sources/a.md"))
    assert h.relevant(FileModifiedEvent("/w/sources/sub/a.md"))
    assert h.relevant(FileMovedEvent("/w/sources/.a.md.swp", "/w/sources/a.md"))  # an editor's atomic save
    assert not h.relevant(FileCreatedEvent("/w/sources/.a.md.swp"))
    assert not h.relevant(FileCreatedEvent("/w/sources/4913"))
    assert not h.relevant(FileCreatedEvent("/w/sources/.#a.md"))
    assert not h.relevant(FileCreatedEvent("/w/sources/a.md~"))
    assert not h.relevant(FileCreatedEvent("/w/sources/.goutputstream-XYZ"))
    assert not h.relevant(FileCreatedEvent("/w/sources/.git/index.lock"))
    assert not h.relevant(FileOpenedEvent("/w/sources/a.md"))  # reads, e.g. our own hashing
    assert not h.relevant(FileClosedNoWriteEvent("/w/sources/a.md"))
    assert not h.relevant(DirModifiedEvent("/w/sources"))  # only echoes the file events


def test_an_edit_marks_dirty_and_editor_files_do_not(sources, marks, watcher):
    (sources / "note.md").write_text("first")
    watcher.watch("kb", sources)
    watcher.start()
    assert watcher.mode == "live" and watcher.status_message is None
    for name in (".note.md.swp", "4913", ".#note.md", "note.md~", "x.tmp"):
        (sources / name).write_text("leftover")
        (sources / name).unlink()
    scan_sources(sources)  # our own reads
    assert quiet_for(marks, 0.4)
    (sources / "note.md").write_text("second")
    assert marks.wait_for("kb")


def test_overflow_warning_marks_every_base(tmp_path, marks, watcher):
    for key in ("a", "b"):
        (tmp_path / key).mkdir()
        watcher.watch(key, tmp_path / key)
    watcher.start()
    logging.getLogger("watchdog.observers.inotify_c").warning("Inotify queue overflowed; filesystem events were lost")
    assert marks.wait_for("a") and marks.wait_for("b")


def test_exhausted_inotify_falls_back_to_polling(sources, marks):
    class ExhaustedObserver(Observer):  # type: ignore[misc,valid-type]
        def schedule(self, *args, **kwargs):
            raise OSError(errno.ENOSPC, "inotify watch limit reached")

    w = SourceWatcher(marks, poll_interval_s=0.1, observer_factory=ExhaustedObserver)
    try:
        w.watch("kb", sources)
        w.start()
        assert w.mode == "polling" and w.key_mode("kb") == "polling"
        message = w.take_status_message()
        assert message and "max_user_watches" in message and "polling" in message
        assert w.take_status_message() is None  # said once
        (sources / "new.md").write_text("seen by polling")
        assert marks.wait_for("kb")
    finally:
        w.stop()


def test_a_network_filesystem_is_polled(sources, marks, monkeypatch):
    monkeypatch.setattr(watcher_module, "filesystem_type", lambda path: "nfs4")
    w = SourceWatcher(marks, poll_interval_s=0.1)
    try:
        w.watch("kb", sources)
        w.start()
        assert w.mode == "polling" and "network filesystem (nfs4)" in (w.status_message or "")
    finally:
        w.stop()


def test_filesystem_type_from_mountinfo():
    mountinfo = "\n".join(
        [
            "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw",
            "40 22 0:35 / /mnt/team rw,relatime shared:20 - nfs4 server:/export rw,vers=4.2",
            r"41 22 0:36 / /mnt/my\040share rw - cifs //nas/share rw",
        ]
    )
    assert filesystem_type(Path("/mnt/team/kb/sources"), mountinfo) == "nfs4"
    assert filesystem_type(Path("/mnt/teamwork"), mountinfo) == "ext4"
    assert filesystem_type(Path("/mnt/my share/x"), mountinfo) == "cifs"
    assert filesystem_type(Path("/home/me"), mountinfo) == "ext4"


def test_a_vanished_then_recreated_folder_is_watched_again(sources, marks, watcher):
    watcher.watch("kb", sources)
    watcher.start()
    shutil.rmtree(sources)
    assert marks.wait_for("kb")  # the folder itself went away
    watcher.refresh()
    sources.mkdir()
    marks.clear()
    watcher.refresh()
    assert marks.wait_for("kb")  # re-armed: changes may have been missed
    marks.clear()
    (sources / "back.md").write_text("hello")
    assert marks.wait_for("kb")


def test_a_folder_that_does_not_exist_yet(tmp_path, marks, watcher):
    later = tmp_path / "later" / "sources"
    watcher.start()
    watcher.watch("kb", later)
    later.mkdir(parents=True)
    watcher.refresh()
    marks.clear()
    (later / "a.md").write_text("x")
    assert marks.wait_for("kb")


def test_stop_is_prompt(sources, marks):
    w = SourceWatcher(marks, poll_interval_s=0.1)
    w.watch("kb", sources)
    w.start()
    t0 = time.monotonic()
    w.stop()
    assert time.monotonic() - t0 < 2.0


def test_dirty_keys_coalesce():
    woken: list[str] = []
    dirty = DirtyKeys(on_new=woken.append)
    for _ in range(1000):
        dirty.mark("kb")
    dirty.mark("other")
    assert woken == ["kb", "other"]
    assert dirty.drain() == {"kb", "other"} and len(dirty) == 0
    dirty.mark("kb")
    assert woken == ["kb", "other", "kb"]


# -- 5,000 files from another process ------------------------------------------------------------------

WRITER = r"""
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(root, "batch-%02d" % (i // 100))
    if i % 100 == 0:
        os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "file-%05d.md" % i), "wb") as f:
        f.write(("file %d\n" % i).encode() * (1 + i % 7))
"""


def test_5000_files_written_by_another_process_are_all_found(sources):
    wake = threading.Event()
    dirty = DirtyKeys(on_new=lambda key: wake.set())
    w = SourceWatcher(dirty.mark)
    w.watch("kb", sources)
    w.start()
    cache = StatCache()
    marks = 0
    try:
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(sources), "5000"])
        deadline = time.monotonic() + 60
        settled = None
        while time.monotonic() < deadline:
            woke = wake.wait(0.25)  # a dirty mark, or the reconcile interval (shortened for the test)
            wake.clear()
            marks += len(dirty.drain())
            result = scan_sources(sources, cache=cache)
            if writer.poll() is not None and not woke:
                settled = result  # the writer is done and nothing moved for a whole interval
                break
        assert writer.wait(5) == 0
    finally:
        w.stop()
    assert settled is not None, "the scan never settled"
    assert marks > 0, "the watcher never marked the base dirty"
    fresh = scan_sources(sources)  # a full scan with no cache
    assert settled.file_count == fresh.file_count == 5000
    assert settled.digest == fresh.digest
    assert settled.skipped == [] and fresh.skipped == []


def test_a_folder_that_cannot_be_watched_live_is_polled(sources, marks):
    class RefusingObserver(Observer):  # type: ignore[misc,valid-type]
        def schedule(self, *args, **kwargs):
            raise PermissionError(errno.EACCES, "Permission denied")

    w = SourceWatcher(marks, poll_interval_s=0.1, observer_factory=RefusingObserver)
    try:
        w.watch("kb", sources)  # never raises
        w.start()
        assert w.key_mode("kb") == "polling" and "cannot be watched live" in (w.status_message or "")
        (sources / "a.md").write_text("x")
        assert marks.wait_for("kb")
    finally:
        w.stop()
