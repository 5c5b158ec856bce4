"""What one compile pass carries from step to step (`PassState`).

The pipeline (`kctui.compiler.steps.pipeline`) runs its steps in order over one `PassState`: gather fills the
sources and the previous wiki, extract the extractions, match the routing and the pages touched,
update the built pages and their trust decisions, flag the stale pages and links, and brief the
result. A field a step fills is set by that step; no step reads one a later step fills.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kctui.compiler.contract import CompileRequest

if TYPE_CHECKING:
    from kctui.compiler.extraction import Extraction
    from kctui.compiler.extractors import Extractor, ExtractorFactory
    from kctui.compiler.previous.page_memo import PageMemo
    from kctui.compiler.previous.prelink import Prelink
    from kctui.compiler.previous.wiki import PreviousWiki
    from kctui.compiler.readers.base import Skipped
    from kctui.compiler.readers.source import SourceFile
    from kctui.compiler.steps.gather import SourceChanges
    from kctui.compiler.steps.output import PageWriter
    from kctui.compiler.steps.registry import Registry
    from kctui.compiler.steps.reporter import StepReporter
    from kctui.compiler.trust.changes import ClaimChange, ConflictReport, PageUpdate, PassContext
    from kctui.compiler.trust.gate import TrustGate
    from kctui.compiler.trust.stale import StaleReport


@dataclass(repr=False, eq=False)
class PassState:
    # -- what the pass was asked ----------------------------------------------------------------
    request: CompileRequest
    steps: StepReporter
    cache_folder: Path | None
    full: bool
    dry_run: bool
    opener: ExtractorFactory
    opened: list[Extractor]  # every extractor the pass opened: closed when it ends, however it ends
    warnings: list[str] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    prelink: Prelink | None = None  # the staged page folders being linked ahead (kctui.compiler.previous.prelink)

    # -- gather ---------------------------------------------------------------------------------
    by_path: dict[str, SourceFile] = field(init=False)  # the readable sources of a compiled kind
    memo: PageMemo | None = field(init=False)
    prev: PreviousWiki = field(init=False)
    not_extracted: list[str] = field(init=False)  # gathered, but their kind is not in compile_sources
    extractor: Extractor = field(init=False)
    version: str = field(init=False)  # the actor of the pass (`generated.by`)
    changes: SourceChanges = field(init=False)

    # -- extract --------------------------------------------------------------------------------
    reread: list[str] = field(init=False)  # unchanged sources read again for pages under review
    recheck: list[str] = field(init=False)  # what `reread` held before the match step added to it
    skip: set[str] = field(init=False)  # not extracted: what their pages say stands
    to_read: list[str] = field(init=False)
    extractions: dict[str, Extraction] = field(init=False)
    again: list[str] = field(init=False)  # unchanged sources read again for a recurring name
    recurring: set[str] = field(init=False)

    # -- match ----------------------------------------------------------------------------------
    registry: Registry = field(init=False)
    skipped_paths: set[str] = field(init=False)
    live: dict[str, Extraction] = field(init=False)  # path -> the extraction its pages are built from
    source_page_of: dict[str, str] = field(init=False)
    changed: set[str] = field(init=False)
    routed: dict[str, dict] = field(init=False)  # path -> slug -> what it contributes to that page
    prev_fed: dict[str, set[str]] = field(init=False)  # path -> the pages it fed last time
    fed: dict[str, set[str]] = field(init=False)
    touched: set[str] = field(init=False)  # concept and entity pages to build
    restyle: set[str] = field(init=False)  # pages written in the other link style
    removed: list[str] = field(init=False)  # source pages whose source is gone

    # -- update ---------------------------------------------------------------------------------
    ctx: PassContext = field(init=False)
    writer: PageWriter = field(init=False)
    gate: TrustGate = field(init=False)
    updates: list[PageUpdate] = field(default_factory=list)
    claim_changes: list[ClaimChange] = field(default_factory=list)
    removed_now: list[str] = field(default_factory=list)

    # -- flag -----------------------------------------------------------------------------------
    final: dict[str, str] = field(init=False)  # slug -> class of every page of the staged wiki
    stale: list[StaleReport] = field(init=False)
    dropped_links: list[str] = field(init=False)
    conflicts: list[ConflictReport] = field(init=False)
