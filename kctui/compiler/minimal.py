"""A minimal compiler: one OKF source page per source file plus `index.md`.

It exercises the host path end to end (claim → staged tree → validation → promotion). The full
pipeline (issue 4) replaces it behind `kctui.compiler.runner.compile_job`.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from kctui import __version__
from kctui.compiler.runner import (
    COMPILER_NAME,
    CompileCancelled,
    CompileFailure,
    CompileReport,
    CompileRequest,
    ProgressEvent,
    ProgressFn,
    StopFn,
)
from kctui.core.frontmatter import dump_yaml

VERSION = f"{COMPILER_NAME}/{__version__} minimal"


def _slug(rel: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", rel.lower()).strip("-")
    return s or "source-" + hashlib.sha256(rel.encode()).hexdigest()[:12]


def _source_files(root: Path) -> list[tuple[str, Path]]:
    from kctui.sources.excludes import is_excluded_name  # noqa: PLC0415

    out: list[tuple[str, Path]] = []
    stack = [(root, "")]
    while stack:
        d, prefix = stack.pop()
        with os.scandir(d) as it:
            for e in it:
                if is_excluded_name(e.name):
                    continue
                rel = prefix + e.name
                if e.is_dir(follow_symlinks=False):
                    stack.append((Path(e.path), rel + "/"))
                elif e.is_file(follow_symlinks=False):
                    out.append((rel, Path(e.path)))
    out.sort(key=lambda t: t[0].encode("utf-8", "surrogateescape"))
    return out


def compile_minimal(request: CompileRequest, *, progress: ProgressFn, should_stop: StopFn) -> CompileReport:
    src = request.source_path
    if not src.is_dir():
        raise CompileFailure("source_unreadable", f"sources folder {src} is missing or unreadable", transient=True)
    files = _source_files(src)
    if not files:
        raise CompileFailure("source_unreadable", "the knowledge base has no source files to compile", transient=False)
    out = request.output_path
    (out / "sources").mkdir(parents=True, exist_ok=True)
    progress(ProgressEvent("gather", "done", len(files), len(files)))
    lines = []
    used: set[str] = set()
    for i, (rel, path) in enumerate(files, 1):
        if should_stop():
            raise CompileCancelled()
        data = path.read_bytes()
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        text = data.decode("utf-8", errors="replace")
        slug = _slug(rel)
        while slug in used:
            slug += "-" + hashlib.sha256(rel.encode()).hexdigest()[:6]
        used.add(slug)
        first = next((ln.strip("# ").strip() for ln in text.splitlines() if ln.strip()), rel)[:200]
        fm = {
            "type": "Source",
            "title": rel,
            "description": f"Source file {rel}.",
            "sources": [{"id": slug, "resource": rel, "digest": digest}],
            "generated": {"by": VERSION, "at": request.created_at},
            "compile_status": "compiled",
            "status": "stable",
        }
        body = f"# {rel}\n\n## Summary\n\n{first}\n"
        (out / "sources" / f"{slug}.md").write_text(f"---\n{dump_yaml(fm)}---\n\n{body}", encoding="utf-8")
        lines.append(f"* [{rel}](/sources/{slug}.md) - Source file {rel}.")
        progress(ProgressEvent("extract", "progress", i, len(files), current=rel))
    index = f"# Index\n\n{len(files)} pages.\n\n## Sources\n\n" + "\n".join(lines) + "\n"
    (out / "index.md").write_text(index, encoding="utf-8")
    progress(ProgressEvent("brief", "done", 1, 1))
    return CompileReport(compiler_version=VERSION, pages_written=len(files), files_read=len(files))
