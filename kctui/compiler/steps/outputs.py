"""Kept answers carried into the staged wiki (`wiki/outputs/`, kctui.core.outputs): every output page of
the previous generation is copied as it is, never read as evidence — no claim, page or link of the pass
comes from it — and one whose cited source lines changed, or whose cited page no longer carries the
citation, is marked stale here and named in the pass's brief."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kctui.core.outputs import CURRENT, OUTPUTS_DIR, mark_stale, read_output, stale_reasons

if TYPE_CHECKING:
    from kctui.compiler.contract import CompileRequest

MAX_OUTPUT_BYTES = 1 << 20


@dataclass(frozen=True)
class StaleOutput:
    path: str  # outputs/<name>.md
    question: str
    reasons: tuple[str, ...]


def _read(path: Path, limit: int = MAX_OUTPUT_BYTES) -> bytes | None:
    """A regular file's bytes, never through a symlink; None when absent, special or too large."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return None
        data = fh.read(limit + 1)
    return data if len(data) <= limit else None


def _text(path: Path) -> str | None:
    data = _read(path, 64 << 20)
    return None if data is None else data.decode("utf-8", "replace")


def carry_outputs(request: CompileRequest) -> list[StaleOutput]:
    """Copy the previous generation's `outputs/*.md` into the staged wiki (after its pages are written),
    marking stale the ones whose citations moved; returns those newly stale."""
    prev = request.previous_wiki_path
    if prev is None:
        return []
    folder = Path(prev) / OUTPUTS_DIR
    if not folder.is_dir() or folder.is_symlink():
        return []
    staged = Path(request.output_path)
    sources = Path(request.source_path)
    out = staged / OUTPUTS_DIR
    stale: list[StaleOutput] = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".md") or name.startswith("."):
            continue
        data = _read(folder / name)
        if data is None:
            continue
        out.mkdir(exist_ok=True)
        text = data.decode("utf-8", "replace")
        got = read_output(text)
        if got is not None and got[0].get("compile_status", CURRENT) == CURRENT:
            reasons = stale_reasons(got[0], lambda rel: _text(sources / rel), lambda rel: _text(staged / rel))
            if reasons:
                text = mark_stale(text, reasons, request.created_at)
                data = text.encode("utf-8")
                stale.append(StaleOutput(f"{OUTPUTS_DIR}/{name}", str(got[0].get("question", "")), tuple(reasons)))
        with open(out / name, "wb") as fh:
            fh.write(data)
    return stale
