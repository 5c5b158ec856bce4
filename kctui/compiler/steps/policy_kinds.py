"""The policy's `compile_sources` and `maintain_kinds` in a pass (issue 15, trust.md §2): a source whose
kind is not listed is gathered but not extracted; a page class not maintained is never written (the
pipeline skips it), and the pass's version says which classes it maintained (`maintains_suffix`)."""

from __future__ import annotations

from kctui.compiler.contract import CompileRequest
from kctui.compiler.previous.wiki import PreviousWiki
from kctui.compiler.readers import source_kind
from kctui.compiler.readers.source import SourceFile
from kctui.compiler.trust.policy import policy_of

ALL_KINDS = ("source", "concept", "entity")


def maintains_suffix(request: CompileRequest) -> str:
    """Part of the pass's version (`generated.by`) while the policy maintains fewer page classes than
    all: pages written so are another version's, so once the policy maintains more, every source is
    read again once (as after switching extractor) and the pages of the classes added appear."""
    policy, _ = policy_of(request.trust_policy)
    if policy is None or set(ALL_KINDS) <= set(policy.maintain_kinds):
        return ""
    return " maintains " + "+".join(k for k in ALL_KINDS if k in policy.maintain_kinds)


def compiled_kinds(request: CompileRequest, readable: list[SourceFile],
                   prev: PreviousWiki) -> tuple[list[SourceFile], list[str]]:
    """The policy's compile_sources: a source of another kind is gathered but not extracted. One never
    compiled is left out of the pass; one compiled before keeps its page as it was (its previous digest
    stands, so it is neither re-read nor archived). Returns (sources of the pass, paths not extracted)."""
    policy, _ = policy_of(request.trust_policy)
    if policy is None:
        return readable, []
    kinds = set(policy.compile_sources)
    before = prev.source_digests()
    keep, skipped = [], []
    for f in readable:
        if source_kind(f.path) in kinds:
            keep.append(f)
            continue
        skipped.append(f.path)
        if f.path in before:
            f.digest = before[f.path]
            keep.append(f)
    return keep, skipped


__all__ = ["ALL_KINDS", "compiled_kinds", "maintains_suffix"]
