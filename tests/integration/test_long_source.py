"""QA s31 #5: one long source no longer holds the pass where a stop cannot reach it. A source of
LONG_FILE_BYTES or more is extracted in a worker process even on one core and without the pool's file
count; while it is read the running pane names it each second; a stop ends the worker at once."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from kctui.compiler.builtin import extractor as bx
from kctui.compiler.builtin.extractor import BuiltinExtractor
from kctui.compiler.extractors import ExtractorContext
from kctui.compiler.readers.source import SourceFile, digest_file
from kctui.compiler.runner import CompileCancelled
from tests.helpers.wiki import make_kb, request


def _slow_long(source, profile, cache_folder, salt):  # noqa: ANN001, ANN202 - runs in a worker
    if source.path == "app.log":
        Path(cache_folder, "started").write_text("yes", encoding="utf-8")
        time.sleep(60)  # the rules on a long file, as far as the pass can tell
    return bx._pooled(source, profile, cache_folder, salt)


def long_source(tmp_path: Path) -> tuple[ExtractorContext, SourceFile, Path, list[str]]:
    src = make_kb(tmp_path)
    log = src / "app.log"
    log.write_bytes(b"2026-11-20T10:00:00Z INFO worker-0 processed job 0 in 0 ms\n" * 5000)
    assert log.stat().st_size >= bx.LONG_FILE_BYTES
    cache = tmp_path / "cache"
    cache.mkdir()
    seen: list[str] = []
    ctx = ExtractorContext(request(src, "job-1"), None, cache, (cache / "stop").is_file, seen.append)
    source = SourceFile("app.log", str(log), log.stat().st_size)
    digest_file(source)
    return ctx, source, cache, seen


def test_a_long_source_is_named_while_read_and_a_stop_ends_its_worker(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bx, "worker_count", lambda: 1)  # one core: small passes stay in this process
    ctx, source, cache, seen = long_source(tmp_path)
    ex = BuiltinExtractor(ctx, task=_slow_long, method="fork")
    try:
        ex.submit([source])
        assert ex._pool is not None  # in a worker, though one source on one core
        deadline = time.monotonic() + 30

        def stop_later() -> bool:
            if seen and not (cache / "stop").exists():
                (cache / "stop").write_text("x", encoding="utf-8")
            return time.monotonic() > deadline

        ex.should_stop = lambda: stop_later() or (cache / "stop").is_file()
        began = time.monotonic()
        with pytest.raises(CompileCancelled):
            ex.result("app.log")
        assert time.monotonic() - began < 20  # not the worker's 60 s
    finally:
        ex.close()
    assert seen and seen[0] == "app.log (reading it for 1 s)"
    deadline = time.monotonic() + 10
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not multiprocessing.active_children()
