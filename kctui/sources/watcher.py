"""One watchdog observer for every watched `sources/` folder; it only says "look again" (host.md §3).

The watcher makes detection *fast*; it is never the source of truth. Its handler does one thing: call
`mark_dirty(key)` for the base whose sources changed (pass `DirtyKeys.mark` for a thread-safe,
coalescing set). The host's reconcile scan — every few seconds, and at once on a dirty mark — decides
what changed, so an event lost to an inotify queue overflow loses nothing; on watchdog's overflow
warning every watched base is marked dirty at once.

Editor leftovers (swap, lock, probe and backup files) and reads (open/close without write, such as
our own hashing) never mark anything. Where inotify is unavailable or exhausted (ENOSPC: the watch
limit; EMFILE: the instance limit), or the folder is on a network filesystem that inotify cannot see
into, that folder is polled instead; `mode` then says 'polling' and `status_message` says why, once.
"""

from __future__ import annotations

import errno
import logging
import os
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from watchdog import events as wd_events
from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch
from watchdog.observers.polling import PollingObserver

from kctui.sources.excludes import is_excluded_relpath
from kctui.sources.mounts import NETWORK_FILESYSTEMS, filesystem_type

log = logging.getLogger(__name__)

DEFAULT_POLL_INTERVAL_S = 2.0
EXHAUSTION_ERRNOS = frozenset({errno.ENOSPC, errno.EMFILE, errno.ENFILE})
WATCHDOG_OVERFLOW_LOGGERS = ("watchdog.observers.inotify_c", "watchdog.observers.inotify")

# Events that can mean a changed source. Reads (opened, closed without writing) are left out, so our
# own hashing never wakes us; DirModifiedEvent is left out because it only echoes the file events.
_EVENT_CLASSES = tuple(
    cls
    for cls in (
        getattr(wd_events, name, None)
        for name in (
            "FileCreatedEvent", "FileDeletedEvent", "FileModifiedEvent", "FileMovedEvent", "FileClosedEvent",
            "FileAttribEvent", "DirCreatedEvent", "DirDeletedEvent", "DirMovedEvent", "DirAttribEvent",
        )
    )
    if cls is not None
)  # fmt: skip


class DirtyKeys:
    """A thread-safe, coalescing set of dirty keys; `on_new` runs when a key becomes dirty.

    Pass `loop.call_soon_threadsafe(event.set)` style wakers as `on_new`: it runs on the watcher's
    thread, once per key between two `drain()` calls, not once per filesystem event.
    """

    def __init__(self, on_new: Callable[[str], None] | None = None) -> None:
        self._lock = threading.Lock()
        self._keys: set[str] = set()
        self._on_new = on_new

    def mark(self, key: str) -> None:
        with self._lock:
            if key in self._keys:
                return
            self._keys.add(key)
        if self._on_new is not None:
            self._on_new(key)

    def drain(self) -> set[str]:
        with self._lock:
            keys, self._keys = self._keys, set()
        return keys

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._keys

    def __len__(self) -> int:
        with self._lock:
            return len(self._keys)


class _SourcesHandler(FileSystemEventHandler):
    def __init__(self, key: str, root: str, mark_dirty: Callable[[str], None]) -> None:
        super().__init__()
        self.key = key
        self.root = root.rstrip(os.sep)
        self.mark_dirty = mark_dirty

    def relevant(self, event: FileSystemEvent) -> bool:
        if not isinstance(event, _EVENT_CLASSES):
            return False
        paths = [os.fsdecode(event.src_path)]
        dest = getattr(event, "dest_path", "")
        if dest:
            paths.append(os.fsdecode(dest))
        return any(not self._ignored(p) for p in paths)

    def _ignored(self, path: str) -> bool:
        if path == self.root:
            return False  # the folder itself: deleted, moved, permissions changed
        prefix = self.root + os.sep
        if not path.startswith(prefix):
            return False
        return is_excluded_relpath(path[len(prefix):].replace(os.sep, "/"))

    def on_any_event(self, event: FileSystemEvent) -> None:
        if self.relevant(event):
            self.mark_dirty(self.key)


class _OverflowSpy(logging.Handler):
    """Watchdog reports an inotify queue overflow only as a log warning; turn it into dirty marks."""

    def __init__(self, on_overflow: Callable[[], None]) -> None:
        super().__init__(level=logging.WARNING)
        self.on_overflow = on_overflow

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if "overflow" in record.getMessage().lower():
                self.on_overflow()
        except Exception:  # a logging handler must never raise
            self.handleError(record)


@dataclass
class _Watched:
    path: Path
    observer: BaseObserver | None = None  # None: not scheduled (folder missing, or not started yet)
    watch: ObservedWatch | None = None
    identity: tuple[int, int] | None = None  # (st_dev, st_ino) of the folder when scheduled
    polling: bool = False


class SourceWatcher:
    """Watches each base's `sources/` folder and calls `mark_dirty(key)` when something may have changed."""

    def __init__(
        self,
        mark_dirty: Callable[[str], None],
        *,
        poll_interval_s: float = DEFAULT_POLL_INTERVAL_S,
        force_polling: bool = False,
        observer_factory: Callable[[], BaseObserver] | None = None,
    ) -> None:
        self.mark_dirty = mark_dirty
        self.poll_interval_s = poll_interval_s
        self._force_polling = force_polling
        self._observer_factory = observer_factory or Observer
        self._lock = threading.RLock()
        self._watched: dict[str, _Watched] = {}
        self._live: BaseObserver | None = None
        self._poller: BaseObserver | None = None
        self._started = False
        self._live_broken: str | None = None  # why live watching cannot be used at all
        self._messages: list[str] = []
        self._message_taken = False
        self._spy = _OverflowSpy(self.mark_all_dirty)

    # -- public state --------------------------------------------------------------------------------

    @property
    def mode(self) -> str:
        """'live' when every watched folder gets inotify events, else 'polling'."""
        with self._lock:
            if self._force_polling or self._live_broken or any(w.polling for w in self._watched.values()):
                return "polling"
            return "live"

    @property
    def status_message(self) -> str | None:
        """Why some folders are polled, in words; None while everything is watched live."""
        with self._lock:
            return " ".join(self._messages) if self._messages else None

    def take_status_message(self) -> str | None:
        """`status_message` the first time it is asked for, None afterwards (a one-time notice)."""
        with self._lock:
            if self._message_taken or not self._messages:
                return None
            self._message_taken = True
            return self.status_message

    def key_mode(self, key: str) -> str | None:
        with self._lock:
            w = self._watched.get(key)
            if w is None:
                return None
            return "polling" if w.polling else "live"

    @property
    def watched_keys(self) -> list[str]:
        with self._lock:
            return list(self._watched)

    # -- lifecycle -----------------------------------------------------------------------------------

    def start(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
            for name in WATCHDOG_OVERFLOW_LOGGERS:
                logging.getLogger(name).addHandler(self._spy)
            for key in list(self._watched):
                self._schedule(key)

    def stop(self, timeout: float = 2.0) -> None:
        with self._lock:
            if not self._started:
                return
            self._started = False
            for name in WATCHDOG_OVERFLOW_LOGGERS:
                logging.getLogger(name).removeHandler(self._spy)
            observers = [o for o in (self._live, self._poller) if o is not None]
            self._live = self._poller = None
            for w in self._watched.values():
                w.observer = w.watch = None
        for o in observers:
            o.stop()
        for o in observers:
            if o.is_alive():
                o.join(timeout)

    def watch(self, key: str, path: Path) -> None:
        """Watch `path` (a base's sources/) for `key`; a missing folder is watched once it exists."""
        with self._lock:
            old = self._watched.get(key)
            if old is not None and old.path == Path(path) and old.observer is not None:
                return
            if old is not None:
                self._unschedule(old)
            self._watched[key] = _Watched(Path(path))
            if self._started:
                self._schedule(key)

    def unwatch(self, key: str) -> None:
        with self._lock:
            w = self._watched.pop(key, None)
            if w is not None:
                self._unschedule(w)

    def refresh(self) -> None:
        """Re-arm watches whose folder appeared, was replaced, or whose emitter stopped; call it from
        the reconcile loop. A re-armed folder is marked dirty: changes may have been missed meanwhile."""
        with self._lock:
            if not self._started:
                return
            for key, w in list(self._watched.items()):
                ident = _identity(w.path)
                if w.observer is None:
                    if ident is not None:
                        self._schedule(key)
                        self.mark_dirty(key)
                    continue
                if ident != w.identity or not self._emitter_alive(w):
                    self._unschedule(w)
                    self._schedule(key)
                    self.mark_dirty(key)

    def mark_all_dirty(self) -> None:
        for key in self.watched_keys:
            self.mark_dirty(key)

    # -- scheduling ----------------------------------------------------------------------------------

    def _schedule(self, key: str) -> None:
        """Watch one folder live, else by polling; never raises: the reconcile scan is the truth."""
        w = self._watched[key]
        ident = _identity(w.path)
        if ident is None:
            return  # missing for now; `refresh` schedules it when it appears
        handler = _SourcesHandler(key, str(w.path), self.mark_dirty)
        reason = self._polling_reason(w.path)
        if reason is None:
            try:
                live = self._live_observer()
                w.watch = live.schedule(handler, str(w.path), recursive=True, event_filter=list(_EVENT_CLASSES))
                w.observer, w.identity, w.polling = live, ident, False
                return
            except OSError as exc:
                if _identity(w.path) is None:
                    return  # vanished while we were scheduling it
                if exc.errno in EXHAUSTION_ERRNOS:
                    reason = self._live_broken = _exhaustion_words(exc)
                else:
                    reason = f"{w.path} cannot be watched live ({exc.strerror or exc});"
        try:
            poller = self._polling_observer()
            w.watch = poller.schedule(handler, str(w.path), recursive=True)
        except OSError as exc:
            log.warning("cannot watch %s (%s); the periodic scan still covers it", w.path, exc)
            return  # `refresh` tries again
        w.observer, w.identity, w.polling = poller, ident, True
        self._note(reason)

    def _unschedule(self, w: _Watched) -> None:
        if w.observer is not None and w.watch is not None:
            try:
                w.observer.unschedule(w.watch)
            except (KeyError, ValueError):
                pass
        w.observer = w.watch = None
        w.identity = None

    def _emitter_alive(self, w: _Watched) -> bool:
        if w.observer is None:
            return False
        for emitter in list(w.observer.emitters):
            if emitter.watch == w.watch:
                return emitter.is_alive()
        return False

    def _polling_reason(self, path: Path) -> str | None:
        if self._force_polling:
            return "live file watching is turned off;"
        if self._live_broken:
            return self._live_broken
        fstype = filesystem_type(path)
        if fstype in NETWORK_FILESYSTEMS:
            return f"{path} is on a network filesystem ({fstype}) that live watching cannot see into;"
        return None

    def _note(self, reason: str) -> None:
        message = f"{reason} sources are checked by polling every {self.poll_interval_s:g} s."
        if message not in self._messages:
            self._messages.append(message)
            log.warning("%s", message)

    def _live_observer(self) -> BaseObserver:
        if self._live is None:
            live = self._observer_factory()
            live.start()
            self._live = live
        return self._live

    def _polling_observer(self) -> BaseObserver:
        if self._poller is None:
            poller = PollingObserver(timeout=self.poll_interval_s)
            poller.start()
            self._poller = poller
        return self._poller


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode):
        return None
    return (st.st_dev, st.st_ino)


def _exhaustion_words(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return (
            "live file watching is unavailable: the inotify watch limit is reached"
            " (raise fs.inotify.max_user_watches);"
        )
    if exc.errno == errno.EMFILE:
        return (
            "live file watching is unavailable: the inotify instance limit is reached"
            " (raise fs.inotify.max_user_instances);"
        )
    return f"live file watching is unavailable ({exc.strerror or exc});"
