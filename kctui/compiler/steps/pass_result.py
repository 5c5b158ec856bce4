"""What one compile pass hands back (`kctui.compiler.steps.pipeline.compile_pass`): the host's report, the
source changes it saw, every page update and claim change, what it held, skipped and flagged. The
brief (`kctui.compiler.steps.brief_files.brief_data`) and the dry run read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kctui.compiler.contract import CompileReport

if TYPE_CHECKING:
    from kctui.compiler.readers.base import Skipped
    from kctui.compiler.steps.outputs import StaleOutput
    from kctui.compiler.steps.results import SourceChanges
    from kctui.compiler.trust.changes import ClaimChange, ConflictReport, PageUpdate
    from kctui.compiler.trust.stale import StaleReport


@dataclass
class PassResult:
    report: CompileReport
    changes: SourceChanges
    updates: list[PageUpdate] = field(default_factory=list)
    claim_changes: list[ClaimChange] = field(default_factory=list)
    conflicts: list[ConflictReport] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)  # new, or changed since a pass reported them
    skipped_before: int = 0  # skipped again, unchanged since a promoted pass reported them
    files_extracted: int = 0
    cache_hits: int = 0
    held: list[PageUpdate] = field(default_factory=list)  # updates the trust policy held for a person
    stale: list[StaleReport] = field(default_factory=list)  # pages gone stale this pass
    review_items: list[dict] = field(default_factory=list)  # what review.json lists (held and conflicts)
    reread: list[str] = field(default_factory=list)  # unchanged sources read again for pages under review
    outputs_stale: list[StaleOutput] = field(default_factory=list)  # kept answers whose citations moved this pass
