"""The compile contract: what a host hands the compiler (`CompileRequest`), what it hears back while the
pass runs (`ProgressEvent`) and at the end (`CompileReport`), and how a pass stops short
(`CompileFailure` with a code from the closed set of `kctui.core.failures`, or `CompileCancelled` when
the host asked it to stop). A leaf: every compiler module and every host may import it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

COMPILER_NAME = "kctui"


@dataclass(frozen=True)
class CompileRequest:
    job_id: str
    trigger: str
    source_digest: str
    created_at: str  # RFC 3339 UTC: the job's own timestamp, the only time written into pages
    source_path: Path
    previous_wiki_path: Path | None
    output_path: Path
    link_style: str = "wikilink"  # or "markdown"
    extractor: str = "builtin"
    # The knowledge base's trust policy (trust.md §2): the JSON of `kctui kb policy --json` (or a
    # `kctui.core.trust.TrustPolicy`). Every host path passes one — the worker falls back to the default
    # policy (guarded) when its transport gives none. None means no trust boundary at all: a bare
    # compile outside any host (tests of the compiler's mechanics, benchmarks) writes every change.
    trust_policy: Any = None


@dataclass(frozen=True)
class ProgressEvent:
    step: str  # gather | extract | match | update | flag | brief
    state: str  # started | progress | done
    done: int = 0
    total: int = 0
    current: str = ""
    message: str = ""


@dataclass
class CompileReport:
    compiler_version: str
    pages_written: int = 0
    files_read: int = 0
    warnings: list[str] = field(default_factory=list)
    brief_markdown: str | None = None


class CompileFailure(Exception):
    def __init__(self, code: str, message: str, *, transient: bool) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.transient = transient


class CompileCancelled(Exception):
    """The host asked this job to stop; nothing is reported as a result by the compiler itself."""


ProgressFn = Callable[[ProgressEvent], None]
StopFn = Callable[[], bool]
