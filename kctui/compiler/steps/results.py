"""What one compile pass carries from step to step: the pass's fixed context (`PassRun`) and one frozen
result per step, each made by its step and read by the steps after it, never changed in place:

    gather(run)                              -> Gathered   the sources, the previous wiki, what changed
    extract(run, gathered)                   -> Extracted  the extractions, recurring names
    match(run, gathered, extracted)          -> Matched    routing, the pages touched
    update(run, gathered, matched)           -> Updated    the pages built and their trust decisions
    flag(run, updated)                       -> Flagged    stale pages, dropped links, conflicts
    brief(run, gathered, …, flagged)         -> PassResult the staged wiki written, the brief

A step that changes what an earlier one found (the source changes, the sources skipped, the sources
read again) makes its own copy and hands it on in its result. Two working objects go from step to step
by reference, each written by one step only: the registry of pages (made by extract from the previous
wiki, given this pass's source pages by match) and the page writer (the staged wiki, which update
fills, flag finishes and brief writes out).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kctui.compiler.contract import CompileRequest

if TYPE_CHECKING:
    from kctui.compiler.extraction import Extraction
    from kctui.compiler.extractors import Extractor, ExtractorFactory
    from kctui.compiler.previous.store import PreviousStore
    from kctui.compiler.previous.wiki import PreviousWiki
    from kctui.compiler.readers.base import Skipped
    from kctui.compiler.readers.source import SourceFile
    from kctui.compiler.steps.output import PageWriter
    from kctui.compiler.steps.registry import Registry
    from kctui.compiler.steps.reporter import StepReporter
    from kctui.compiler.trust.changes import ClaimChange, ConflictReport, PageUpdate, PassContext
    from kctui.compiler.trust.gate import TrustGate
    from kctui.compiler.trust.stale import StaleReport


@dataclass
class SourceChanges:
    """What changed in `sources/` since the previous wiki (paths in byte order). A step that moves a path
    from one class to another makes a new one (`dataclasses.replace`)."""

    added: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)  # (old path, new path), content equal
    unchanged: list[str] = field(default_factory=list)


@dataclass(repr=False, eq=False)
class PassRun:
    """What the pass was asked, and the resources it holds until it ends (closed however it ends)."""

    request: CompileRequest
    steps: StepReporter
    cache_folder: Path | None
    full: bool
    dry_run: bool
    opener: ExtractorFactory
    store: PreviousStore  # what the last pass knew (kctui.compiler.previous.store)
    opened: list[Extractor]  # every extractor the pass opened: closed when it ends


@dataclass(frozen=True, repr=False, eq=False)
class Gathered:
    by_path: dict[str, SourceFile]  # the readable sources of a compiled kind
    prev: PreviousWiki
    not_extracted: list[str]  # gathered, but their kind is not in compile_sources
    extractor: Extractor
    version: str  # the actor of the pass (`generated.by`)
    changes: SourceChanges
    skipped: list[Skipped]  # unreadable or refused at the scan
    warnings: list[str]


@dataclass(frozen=True, repr=False, eq=False)
class Extracted:
    changes: SourceChanges  # the sources not extracted moved back to unchanged
    skip: set[str]  # not extracted: what their pages say stands
    reread: list[str]  # unchanged sources read again for pages under review
    to_read: list[str]
    extractions: dict[str, Extraction]
    again: list[str]  # unchanged sources read again for a recurring name
    recurring: set[str]
    registry: Registry  # the previous wiki's pages; match registers this pass's source pages in it
    skipped: list[Skipped]
    # a full pass: unchanged sources one of whose one-word names now stands for a person whose page they do
    # not feed (kctui.compiler.steps.people): changed, as an incremental pass reads them again
    refolded: list[str] = field(default_factory=list)


@dataclass(frozen=True, repr=False, eq=False)
class Matched:
    changes: SourceChanges  # a full pass's unchanged sources verified against their pages
    reread: list[str]  # with the sources of the pages proposed again in full
    registry: Registry
    skipped: list[Skipped]
    skipped_paths: set[str]
    live: dict[str, Extraction]  # path -> the extraction its pages are built from
    changed: set[str]
    routed: dict[str, dict]  # path -> slug -> what it contributes to that page
    fed: dict[str, set[str]]
    touched: set[str]  # concept and entity pages to build
    restyle: set[str]  # pages written in the other link style
    removed: list[str]  # source pages whose source is gone


@dataclass(frozen=True, repr=False, eq=False)
class Updated:
    ctx: PassContext
    writer: PageWriter
    gate: TrustGate
    updates: list[PageUpdate]
    claim_changes: list[ClaimChange]
    removed_now: list[str]
    warnings: list[str]


@dataclass(frozen=True, repr=False, eq=False)
class Flagged:
    final: dict[str, str]  # slug -> class of every page of the staged wiki
    stale: list[StaleReport]
    dropped_links: list[str]
    conflicts: list[ConflictReport]
