"""The policy's `compile_sources` and `maintain_kinds` in a pass (issue 15, trust.md §2): a source whose
kind is not listed is gathered but not extracted; a page class not maintained is never written (the
pipeline skips it), and a source page written while fewer classes were maintained says so
(`maintained_kinds`), so the source is read again once more are."""

from __future__ import annotations

import re

from kctui.compiler import gather as g
from kctui.compiler.readers import source_kind
from kctui.compiler.runner import CompileRequest
from kctui.compiler.trust_step import policy_of
from kctui.compiler.wiki_state import PreviousWiki

ALL_KINDS = ("source", "concept", "entity")
MAINTAINED_KEY = "maintained_kinds"


def recompile_for_kinds(request: CompileRequest, prev: PreviousWiki, changes: g.SourceChanges) -> None:
    """An unchanged source whose page was written while the policy maintained fewer page classes than it
    does now is read again, as if it had changed, so the pages of the classes added appear."""
    policy, _ = policy_of(request.trust_policy)
    wanted = set(policy.maintain_kinds) if policy is not None else set(ALL_KINDS)
    pages_of = prev.source_page_of()
    again = []
    for path in changes.unchanged:
        head = prev.raw.get(pages_of.get(path, ""), b"").split(b"\n---\n", 1)[0]
        m = re.search(rb"^maintained_kinds:\n((?:- .*\n?)+)", head, re.M)
        if m and not wanted <= {ln[2:].strip().decode("utf-8", "replace") for ln in m.group(1).split(b"\n") if ln}:
            again.append(path)
    if again:
        changes.unchanged = [p for p in changes.unchanged if p not in set(again)]
        changes.modified = sorted(changes.modified + again, key=lambda p: p.encode())


def compiled_kinds(request: CompileRequest, readable: list[g.SourceFile],
                    prev: PreviousWiki) -> tuple[list[g.SourceFile], list[str]]:
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


__all__ = ["ALL_KINDS", "MAINTAINED_KEY", "compiled_kinds", "recompile_for_kinds"]
