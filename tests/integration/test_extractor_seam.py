# size: the extractor protocol and the process pool share their fakes (a slow, a dying and a cancelled worker).
"""Issue 12 points 1 and 8: the extractor seam (one protocol, a registry by name) and the built-in
extractor's process pool (a pooled pass is byte for byte a serial one; a stop is noticed while a
worker is busy; a worker that dies skips its file, not the pass)."""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import time
from pathlib import Path

import pytest

from kctui.compiler.builtin import extractor as bx
from kctui.compiler.builtin.cache import cache_form
from kctui.compiler.builtin.document import Extraction
from kctui.compiler.builtin.extractor import BuiltinExtractor, extract_source
from kctui.compiler.extractors import (
    Extractor,
    ExtractorContext,
    extractor_factory,
    extractor_names,
    register_extractor,
    unregister_extractor,
)
from kctui.compiler.readers.source import digest_file
from kctui.compiler.runner import CompileCancelled, CompileFailure
from kctui.compiler.steps.gather import scan_sources
from kctui.compiler.steps.pipeline import VERSION, compile_pass
from kctui.core.trust import TrustPolicy
from tests.helpers.wiki import check_wiki, make_kb, pages, request, tree

NOTE = """# Service {n}

The billing-api {n} service runs Kubernetes 1.{n}.
Its on-call rota is kept by Lena Vogel.

| name | port |
| --- | --- |
| gateway-{n} | 80{n:02d} |
"""


def make_bigger_kb(root: Path, notes: int = 30) -> Path:
    src = make_kb(root)
    (src / "notes").mkdir()
    for n in range(notes):
        (src / "notes" / f"service-{n:02d}.md").write_text(NOTE.format(n=n), encoding="utf-8")
    return src


def no_workers_left(within: float = 10.0) -> bool:
    """No extraction worker outlives its pass. A terminated worker is reaped asynchronously, so a
    loaded machine gets a moment (polled, not slept through) before this says no."""
    deadline = time.monotonic() + within
    while multiprocessing.active_children():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def pooled(monkeypatch: pytest.MonkeyPatch, method: str | None = None) -> None:
    """Every pass of this test goes through the process pool, however small."""
    monkeypatch.setattr(bx, "PARALLEL_MIN_FILES", 1)
    monkeypatch.setattr(bx, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(bx, "worker_count", lambda: 2)
    if method:
        monkeypatch.setattr(bx, "start_method", lambda: method)


def serial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bx, "PARALLEL_MIN_FILES", 10**9)


def wiki_and_manifest(req) -> dict[str, bytes]:  # noqa: ANN001
    out = tree(req.output_path)
    manifest = req.output_path.parent / "review.json"
    if manifest.is_file():
        out["../review.json"] = manifest.read_bytes()
    return out


# -- the registry ---------------------------------------------------------------------------------

def test_the_registry_names_builtin_and_llm_and_refuses_an_unknown_name(tmp_path: Path) -> None:
    assert {"builtin", "llm"} <= set(extractor_names())
    assert extractor_factory("builtin") is BuiltinExtractor
    from kctui.compiler.llm.extractor import LlmExtractor

    assert extractor_factory("llm") is LlmExtractor
    src = make_kb(tmp_path)
    req = dataclasses.replace(request(src, "job-1"), extractor="gpt-in-a-box")
    with pytest.raises(CompileFailure) as info:
        compile_pass(req, cache_dir=None)
    assert info.value.code == "compiler_reported" and not info.value.transient
    assert "unknown extractor 'gpt-in-a-box'" in info.value.message and "builtin" in info.value.message
    assert not req.output_path.exists()  # nothing was written


def test_both_registered_extractors_implement_the_protocol(tmp_path: Path) -> None:
    src = make_kb(tmp_path)
    ctx = ExtractorContext(request(src, "job-1"), None, None, lambda: False)
    builtin = extractor_factory("builtin")(ctx)
    llm = extractor_factory("llm")(ctx)
    try:
        for extractor in (builtin, llm):
            assert isinstance(extractor, Extractor)
            assert extractor.lossy() == {}
        assert builtin.version == VERSION and builtin.usage() == "" and builtin.cache_hits() == 0
        assert " llm:" in llm.version
    finally:
        builtin.close()
        llm.close()


class FakeExtractor:
    """A third extractor, registered by a test: the built-in rules under another actor's name, with a
    usage line and one source it says lost facts."""

    opened: list[FakeExtractor] = []

    def __init__(self, ctx: ExtractorContext) -> None:
        self.version = "kctui-test/1 fake"
        self.submitted: list[str] = []
        self.closed = False
        self._pending: dict[str, object] = {}
        FakeExtractor.opened.append(self)

    def submit(self, sources) -> None:  # noqa: ANN001
        for s in sources:
            self.submitted.append(s.path)
            self._pending[s.path] = s

    def result(self, path: str):  # noqa: ANN201
        return extract_source(self._pending.pop(path))

    def extract(self, source):  # noqa: ANN001, ANN201
        self.submit([source])
        return self.result(source.path)

    def lossy(self) -> dict[str, str]:
        return {"guides/setup.txt": "compile-loss guard: the fake lost everything"}

    def usage(self) -> str:
        return "fake model: 12 tokens in, 3 out"

    def cache_hits(self) -> int:
        return 0

    def close(self) -> None:
        self.closed = True


@pytest.fixture()
def fake_registered():  # noqa: ANN201
    FakeExtractor.opened = []
    register_extractor("fake", FakeExtractor)
    yield FakeExtractor
    unregister_extractor("fake")


def test_a_registered_extractor_goes_through_the_same_pipeline(tmp_path: Path, fake_registered) -> None:  # noqa: ANN001
    src = make_kb(tmp_path)
    builtin = request(src, "job-1", out="builtin")
    compile_pass(builtin, cache_dir=None)
    fake = dataclasses.replace(request(src, "job-1", out="fake"), extractor="fake")
    result = compile_pass(fake, cache_dir=None)
    (opened,) = fake_registered.opened
    assert opened.closed and sorted(opened.submitted) == sorted(p.relative_to(src).as_posix() for p in src.rglob("*")
                                                               if p.is_file())
    check_wiki(fake.output_path, src)
    # the same Extraction gives the same wiki; only the actor differs
    a, b = tree(builtin.output_path), tree(fake.output_path)
    assert a.keys() == b.keys()
    for name in a:
        assert a[name].replace(VERSION.encode(), b"kctui-test/1 fake") == b[name], name
    assert result.report.compiler_version == "kctui-test/1 fake"
    assert "fake model: 12 tokens in, 3 out" in result.report.brief_markdown
    assert "fake model" not in compile_pass(request(src, "job-1", out="again"), cache_dir=None).report.brief_markdown


def test_a_lossy_source_reported_through_the_protocol_is_held(tmp_path: Path, fake_registered) -> None:  # noqa: ANN001
    src = make_kb(tmp_path)
    req = dataclasses.replace(request(src, "job-1"), extractor="fake", trust_policy=TrustPolicy())
    result = compile_pass(req, cache_dir=None)
    held = {u.slug: u.reason for u in result.held}
    assert held.get("guides-setup-txt") == "compile_loss"  # its source page
    assert held.get("acme") == "compile_loss"  # the entity page it feeds (Acme Ltd.: a company)
    assert {slug for slug, why in held.items() if why == "compile_loss"} <= {"guides-setup-txt", "acme", "regex"}
    # one change set: the source page and the entity page it feeds, one decision
    [item] = [it for it in result.review_items if "sources/guides-setup-txt.md" in
              [p["page"] for p in it.get("pages") or [it]]]
    assert "the fake lost everything" in item["summary"]


def test_the_extractor_is_closed_when_the_pass_is_cancelled(tmp_path: Path, fake_registered) -> None:  # noqa: ANN001
    src = make_kb(tmp_path)
    seen = []
    req = dataclasses.replace(request(src, "job-1"), extractor="fake")
    with pytest.raises(CompileCancelled):
        compile_pass(req, progress=seen.append, cache_dir=None,
                     should_stop=lambda: any(e.step == "extract" and e.state == "progress" for e in seen))
    assert fake_registered.opened[0].closed


# -- the process pool -----------------------------------------------------------------------------

def test_a_pooled_pass_is_byte_identical_to_a_serial_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = make_bigger_kb(tmp_path)
    runs: dict[str, dict[str, bytes]] = {}
    pools: list[int] = []
    new_pool = BuiltinExtractor._new_pool
    monkeypatch.setattr(BuiltinExtractor, "_new_pool", lambda self, n: pools.append(n) or new_pool(self, n))
    for mode in ("serial", "pooled"):
        (serial if mode == "serial" else pooled)(monkeypatch)
        first = request(src, "job-1", out=f"{mode}-1")
        result = compile_pass(first, cache_dir=tmp_path / f"cache-{mode}")
        assert result.files_extracted == 35 and result.cache_hits == 0
        (src / "notes" / "service-07.md").write_text(NOTE.format(n=7) + "\nIt moved to Vault 1.15.\n", encoding="utf-8")
        second = request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z", out=f"{mode}-2")
        compile_pass(second, cache_dir=None, full=True)
        (src / "notes" / "service-07.md").write_text(NOTE.format(n=7), encoding="utf-8")
        runs[f"{mode}-1"] = wiki_and_manifest(first)
        runs[f"{mode}-2"] = wiki_and_manifest(second)
    assert pools == [2, 2]  # the pooled passes (the full one re-reads every source) used two workers
    assert runs["serial-1"] == runs["pooled-1"]
    assert runs["serial-2"] == runs["pooled-2"]
    check_wiki(request(src, "job-1", out="pooled-1").output_path, src)
    # the workers filled the cache: a warm pass reads nothing and writes the same bytes
    warm = request(src, "job-1", out="warm")
    assert compile_pass(warm, cache_dir=tmp_path / "cache-pooled").cache_hits == 35
    assert tree(warm.output_path) == runs["pooled-1"]
    assert no_workers_left()  # the pool ended with the pass


def test_the_forkserver_pool_used_while_threads_run_gives_the_same_bytes(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    src = make_bigger_kb(tmp_path, notes=8)
    serial(monkeypatch)
    plain = request(src, "job-1", out="plain")
    compile_pass(plain, cache_dir=None)
    pooled(monkeypatch, "forkserver")
    served = request(src, "job-1", out="forkserver")
    compile_pass(served, cache_dir=None)
    assert tree(plain.output_path) == tree(served.output_path)


def test_the_start_method_avoids_fork_while_other_threads_run() -> None:
    import threading

    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        assert bx.start_method() in ("forkserver", "spawn")
    finally:
        stop.set()
        worker.join()


def test_small_passes_stay_in_this_process(tmp_path: Path) -> None:
    src = make_kb(tmp_path)
    ctx = ExtractorContext(request(src, "job-1"), None, None, lambda: False)
    files, _ = scan_sources(src, lambda: False)
    for f in files:
        digest_file(f)
    extractor = BuiltinExtractor(ctx, workers=2)
    try:
        extractor.submit(files)
        assert extractor._pool is None  # 5 files: no pool start-up to pay
        assert all(isinstance(extractor.result(f.path), Extraction) for f in files)
        assert no_workers_left()
    finally:
        extractor.close()


def _crash_on_setup(source, profile, cache_folder, salt):  # noqa: ANN001, ANN202 - runs in a worker
    if source.path == "guides/setup.txt":
        os._exit(3)  # as a segfault or the OOM killer would end it
    return bx._pooled(source, profile, cache_folder, salt)


def _slow_on_setup(source, profile, cache_folder, salt):  # noqa: ANN001, ANN202 - runs in a worker
    if source.path == "guides/setup.txt":
        Path(cache_folder, "started").write_text("yes", encoding="utf-8")
        time.sleep(60)  # a document the extractor takes forever on
    return bx._pooled(source, profile, cache_folder, salt)


def _with_task(task):  # noqa: ANN001, ANN202
    return lambda ctx: BuiltinExtractor(ctx, task=task, method="fork")


def test_a_worker_that_dies_skips_its_file_and_the_rest_compiles(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    pooled(monkeypatch)
    register_extractor("crashy", _with_task(_crash_on_setup))
    try:
        src = make_bigger_kb(tmp_path, notes=6)
        req = dataclasses.replace(request(src, "job-1"), extractor="crashy")
        result = compile_pass(req, cache_dir=None)
    finally:
        unregister_extractor("crashy")
    (skip,) = result.skipped
    assert skip.path == "guides/setup.txt" and skip.reason == "unreadable" and "crashed" in skip.detail
    compiled = {data["sources"][0]["resource"] for data, _ in pages(req.output_path).values()
                if data["type"] == "Source"}
    assert len(compiled) == 10 and "guides/setup.txt" not in compiled
    assert "guides/setup.txt: skipped (unreadable: the extractor process crashed on this file)" in result.report.warnings
    assert no_workers_left()


def test_workers_that_cannot_start_are_never_blamed_on_a_source(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures import ProcessPoolExecutor

    src = make_bigger_kb(tmp_path, notes=6)
    serial(monkeypatch)
    plain = request(src, "job-1", out="plain")
    compile_pass(plain, cache_dir=None)
    pooled(monkeypatch)
    monkeypatch.setattr(bx, "_pool_unusable", False)
    dead = lambda self, n: ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("fork"),  # noqa: E731
                                               initializer=os._exit, initargs=(1,))
    monkeypatch.setattr(BuiltinExtractor, "_new_pool", dead)
    broken = request(src, "job-1", out="broken")
    result = compile_pass(broken, cache_dir=None)
    assert result.skipped == [] and tree(broken.output_path) == tree(plain.output_path)
    assert bx._pool_unusable  # and later passes do not try again
    assert no_workers_left()


def test_a_stop_is_noticed_while_a_worker_is_busy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pooled(monkeypatch)
    register_extractor("slow", _with_task(_slow_on_setup))
    cache = tmp_path / "cache"
    cache.mkdir()
    try:
        src = make_bigger_kb(tmp_path, notes=2)
        req = dataclasses.replace(request(src, "job-1"), extractor="slow")
        began = time.monotonic()
        with pytest.raises(CompileCancelled):
            compile_pass(req, cache_dir=cache, should_stop=(cache / "started").is_file)
        waited = time.monotonic() - began
    finally:
        unregister_extractor("slow")
    assert waited < 30  # not the worker's 60 s: the pass did not wait for the document
    assert no_workers_left()  # the busy worker was ended


def test_the_cache_form_is_the_extractions_own_json(tmp_path: Path) -> None:
    src = make_bigger_kb(tmp_path, notes=2)
    files, _ = scan_sources(src, lambda: False)
    checked = 0
    for f in files:
        digest_file(f)
        ex = extract_source(f)
        if isinstance(ex, Extraction):
            assert cache_form(ex) == ex.to_json()
            checked += bool(ex.claims)
    assert checked >= 4


def _signals() -> tuple:  # runs in a worker
    import signal

    return signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)


def test_workers_leave_ctrl_c_to_the_pass_and_end_on_sigterm(tmp_path: Path) -> None:
    import signal

    ctx = ExtractorContext(request(make_kb(tmp_path), "job-1"), None, None, lambda: False)
    extractor = BuiltinExtractor(ctx, method="fork")
    pool = extractor._new_pool(1)
    try:
        assert pool.submit(_signals).result(timeout=30) == (signal.SIG_IGN, signal.SIG_DFL)
    finally:
        pool.shutdown(wait=True)


def test_a_base_profile_reaches_every_extraction_keys_the_cache_and_names_the_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`<kb>/.a3s/profile.toml` is data the extraction rules honour: a listed name gets its page; a
    changed profile misses the cache and re-reads every source once (the pass's version names it);
    an unusable profile fails the pass with its one-line reason and writes nothing."""
    src = make_kb(tmp_path)
    (src / "ops.md").write_text("# Ops\n\nWe deploy with zorp every morning.\n", encoding="utf-8")
    serial(monkeypatch)
    first = compile_pass(request(src, "job-1", out="none"), cache_dir=tmp_path / "cache")
    assert first.report.compiler_version == VERSION
    assert not any(p.startswith("entities/zorp") for p in pages(request(src, "job-1", out="none").output_path))
    (src.parent / ".a3s").mkdir(exist_ok=True)
    profile = src.parent / ".a3s" / "profile.toml"
    profile.write_text('[[names]]\nname = "Zorp"\ntype = "tool"\naliases = ["zorp"]\n', encoding="utf-8")
    second = compile_pass(request(src, "job-1", out="one"), cache_dir=tmp_path / "cache")
    assert second.cache_hits == 0 and second.report.compiler_version != VERSION
    assert "profile-" in second.report.compiler_version
    assert "entities/zorp.md" in pages(request(src, "job-1", out="one").output_path)
    assert compile_pass(request(src, "job-1", out="two"), cache_dir=tmp_path / "cache").cache_hits >= 5
    profile.write_text("[names]\nname = 3\n", encoding="utf-8")
    with pytest.raises(CompileFailure) as bad:
        compile_pass(request(src, "job-1", out="three"), cache_dir=tmp_path / "cache")
    assert bad.value.code == "compiler_reported" and "profile.toml" in str(bad.value) and "\n" not in str(bad.value)
