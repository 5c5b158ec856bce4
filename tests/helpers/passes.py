"""One compile pass over `root/sources` into `root/<job>/wiki` (or `<job>-full`), validated, and a
wiki read back as bytes: what the incremental = full tests and `benchmarks/incremental_full.py` compare."""

from __future__ import annotations

from pathlib import Path


def compile_into(root: Path, job: str, prev: str | None, *, full: bool = False, cache: Path | None = None) -> Path:
    from kctui.compiler.runner import CompileRequest
    from kctui.compiler.steps.pipeline import compile_pass
    from kctui.publish.validate import validate_staged_tree

    out = f"{job}-full" if full else job  # the same job id either way: the log line names it
    req = CompileRequest(job, "manual", "sha256:" + "0" * 64, "2026-10-01T00:00:00Z", root / "sources",
                         root / prev / "wiki" if prev else None, root / out / "wiki")
    compile_pass(req, cache_dir=cache, full=full)
    validate_staged_tree(req.output_path)  # raises on the first fault
    return req.output_path


def tree(wiki: Path) -> dict[str, bytes]:
    return {p.relative_to(wiki).as_posix(): p.read_bytes() for p in sorted(wiki.rglob("*.md"))}


def same_either_way(root: Path, job: str, prev: str, *, cache: Path | None = None) -> Path:
    """The pass `job` over `prev` run incremental (with `cache`) and full: asserts both give the same wiki,
    byte for byte; returns the incremental one."""
    inc = compile_into(root, job, prev, cache=cache)
    full = compile_into(root, job, prev, full=True)
    assert tree(inc) == tree(full), sorted(k for k in set(tree(inc)) | set(tree(full)) if tree(inc).get(k) != tree(full).get(k))
    return inc


def assert_archived_without(page: Path, source: str) -> None:
    """A page whose last evidence went: when it is still there it is proposed for archiving, and no claim
    above its sources cites `source`."""
    if page.exists():
        text = page.read_text(encoding="utf-8")
        assert "compile_status: archived" in text and f"^[{source}" not in text.split("## Sources")[0]
