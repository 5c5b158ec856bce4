"""The extractor seam (issue 12): one protocol every extractor implements and a registry by name.

The pipeline's extract step only talks to an `Extractor`: it `submit`s the sources a pass reads (in
order), then takes each one's `result` in the same order; what comes back is the shared intermediate
form, `Extraction` (or `Skipped`). Everything after extraction (identity, links, the trust boundary,
the brief) is the same whichever extractor ran. An extractor also says which actor wrote the pass
(`version`, the pages' `generated.by`), which sources the compile-loss guard says lost facts
(`lossy`), the brief's model-usage line (`usage`) and how many results came from its cache.

Extractors are registered by the name a base's policy stores (`kctui kb policy --extractor NAME`):
"builtin" (offline, `kctui.compiler.builtin.extractor`) and "llm" (a model over an OpenAI-compatible
API, `kctui.compiler.llm.extractor`). `register_extractor` adds one (tests register a fake); an unknown
name is a clear, permanent `CompileFailure` before anything is read.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from kctui.compiler.contract import CompileFailure, CompileRequest, StopFn
from kctui.compiler.schema import Schema, load_schema

if TYPE_CHECKING:
    from kctui.compiler.extraction import Extraction
    from kctui.compiler.readers import Skipped
    from kctui.compiler.readers.source import SourceFile


class KnownPage(Protocol):
    """One page of the previous wiki as an extractor sees it (kctui.compiler.previous.page_info.PageInfo)."""

    slug: str
    kind: str
    title: str
    aliases: Sequence[str]


class KnownWiki(Protocol):
    """What an extractor may know of the previous wiki: its pages by slug (the model's inventory). The
    pass hands it the previous wiki it loaded (kctui.compiler.previous.wiki.PreviousWiki)."""

    @property
    def pages(self) -> Mapping[str, KnownPage]: ...


@dataclass(frozen=True)
class ExtractorContext:
    """What an extractor may know about the pass that opens it."""

    request: CompileRequest
    previous: KnownWiki | None  # the previous wiki's pages (the model's inventory)
    cache_folder: Path | None  # the base's compiler cache folder; None: caches disabled
    should_stop: StopFn  # checked at least every tenth of a second while waiting
    # a live line for the current step (the running pane, `compile --wait`), e.g. a reply's tokens/s;
    # call it from the thread that runs the pass
    progress: Callable[[str], None] | None = None
    schema: Schema | None = None  # the base's schema file as the pass read it (None: read it here)

    @property
    def kb_root(self) -> Path:
        """The knowledge base's folder (the parent of `sources/`), where `.a3s/` lives."""
        return Path(self.request.source_path).parent

    def base_schema(self) -> Schema:
        """The schema in force for this pass: read once by the pass, shared by its extractor."""
        return self.schema if self.schema is not None else load_schema(self.kb_root)


@runtime_checkable
class Extractor(Protocol):
    """One pass's extraction. `submit` may be called again with more sources (a source re-read for a
    page under review); `result` is taken once per submitted path. `close` is always called at the end
    of the pass, however it ends, and must release every thread and process the extractor started."""

    version: str  # the actor of the pass: `generated.by` of the pages it writes, e.g. "kctui/0.1 builtin"

    def submit(self, sources: Sequence[SourceFile]) -> None: ...

    def result(self, path: str) -> Extraction | Skipped: ...

    def extract(self, source: SourceFile) -> Extraction | Skipped: ...

    def lossy(self) -> dict[str, str]: ...  # path -> why its pages need a review (compile-loss guard)

    def usage(self) -> str: ...  # the brief's model-usage line; "" when the extractor spends nothing

    def cache_hits(self) -> int: ...  # results answered from the extraction cache this pass

    def close(self) -> None: ...


ExtractorFactory = Callable[[ExtractorContext], Extractor]

# name -> "module:callable" (imported on first use, so the model client loads only for "llm") or a factory
_REGISTRY: dict[str, str | ExtractorFactory] = {
    "builtin": "kctui.compiler.builtin.extractor:BuiltinExtractor",
    "llm": "kctui.compiler.llm.extractor:LlmExtractor",
}


def register_extractor(name: str, factory: ExtractorFactory | str) -> None:
    """Make `name` available to `open_extractor` (a factory, or "module:callable")."""
    if not name or not name.strip():
        raise ValueError("an extractor needs a name")
    _REGISTRY[name] = factory


def unregister_extractor(name: str) -> None:
    _REGISTRY.pop(name, None)


def extractor_names() -> list[str]:
    return sorted(_REGISTRY)


def extractor_factory(name: str) -> ExtractorFactory:
    """The factory registered as `name`; an unknown name is a permanent `CompileFailure`."""
    entry = _REGISTRY.get(name)
    if entry is None:
        known = ", ".join(extractor_names())
        raise CompileFailure("compiler_reported", f"unknown extractor {name!r} in the base's policy (known: {known})",
                             transient=False)
    if isinstance(entry, str):
        module, _, attr = entry.partition(":")
        entry = getattr(importlib.import_module(module), attr)
    return entry


def open_extractor(name: str, ctx: ExtractorContext) -> Extractor:
    return extractor_factory(name)(ctx)
