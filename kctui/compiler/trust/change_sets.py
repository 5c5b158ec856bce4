"""Held pages grouped into change sets (issue 13: one decision per change), and the unchanged sources a
kept claim asks to re-read. Pure functions of the pass's filed items (and, for a deleted folder, which
folders are gone from `sources/`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

_RANK = {"create": 0, "append": 1, "revise": 2, "supersede": 3}


def _gone_folder(source_root: Path, path: str) -> str | None:
    """The top-most folder of `path` that no longer exists under `source_root` (None: its folder is there)."""
    top = None
    parent = Path(path).parent
    while parent != Path("."):
        if not (source_root / parent).exists():
            top = parent.as_posix()
        parent = parent.parent
    return top


def change_sets(filed: list[dict[str, Any]], causes: list[set[str]], source_root: Path) -> list[dict[str, Any]]:
    """Held pages whose causes share a source path (or a deleted folder) become one held item with
    `pages` (each page's proposal); conflicts stay one item each. Deterministic: first-filed order."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    keys: list[list[str]] = []
    cause_of = {id(it): cause for it, cause in zip(filed, causes)}
    for it, cause in zip(filed, causes):
        if it["kind"] != "held":
            keys.append([])
            continue
        k = [f"src:{c}" for c in sorted(cause)] or [f"page:{it['page']}"]
        k += [f"dir:{d}" for c in sorted(cause) if (d := _gone_folder(source_root, c))]
        for other in k[1:]:
            union(k[0], other)
        keys.append(k)
    groups: dict[str, list[dict[str, Any]]] = {}
    out: list[dict[str, Any]] = []
    for it, k in zip(filed, keys):
        if not k:
            out.append(it)
            continue
        root = find(k[0])
        if root not in groups:
            groups[root] = []
            out.append({"_group": root})
        if all(p["page"] != it["page"] for p in groups[root]):
            groups[root].append(it)
    result = []
    for it in out:
        if "_group" not in it:
            result.append(it)
            continue
        pages = groups[it["_group"]]
        head = pages[0]
        kind = max((p["updateKind"] for p in pages), key=lambda k: _RANK.get(k, 0))
        summary = head["summary"] if len(pages) == 1 else (
            f"{len(pages)} pages change together: " + " | ".join(p["summary"] for p in pages))[:4000]
        result.append({**head, "updateKind": kind, "summary": summary,
                       "sources": sorted({c for p in pages for c in cause_of[id(p)]}),
                       "pages": [{"page": p["page"], "title": p["title"], "updateKind": p["updateKind"],
                                  "reason": p["reason"], "summary": p["summary"], "proposedBody": p["proposedBody"]}
                                 for p in pages]})
    return result


def kept_rechecks(prev: Any, unchanged: set[str]) -> list[str]:
    """Unchanged sources a kept claim was decided against at another revision (a deleted file came back,
    say): read again, so a source that says the kept value again clears the flag."""
    kept = [pair for info in prev.pages.values() for pair in info.kept]  # PageInfo.kept: no page is read
    if not kept:
        return []
    digests = prev.source_digests()
    return sorted({path for path, seen in kept if path in unchanged and seen != digests.get(path, "")})
