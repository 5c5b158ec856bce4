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
    joined = _Joined()
    keys = [_join_causes(joined, it, cause, source_root) for it, cause in zip(filed, causes)]
    cause_of = {id(it): cause for it, cause in zip(filed, causes)}
    result = []
    for it in _grouped(filed, keys, joined):
        result.append(it if isinstance(it, dict) else _change_set(it, cause_of))
    return result


class _Joined:
    """Keys joined into sets (union-find): the smallest key of a set stands for it."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        parent = self.parent
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _join_causes(joined: _Joined, it: dict[str, Any], cause: set[str], source_root: Path) -> list[str]:
    """A held item's keys (its source paths, or its page; and the deleted folders of its paths), joined
    into one set; none for a conflict."""
    if it["kind"] != "held":
        return []
    k = [f"src:{c}" for c in sorted(cause)] or [f"page:{it['page']}"]
    k += [f"dir:{d}" for c in sorted(cause) if (d := _gone_folder(source_root, c))]
    for other in k[1:]:
        joined.union(k[0], other)
    return k


def _grouped(filed: list[dict[str, Any]], keys: list[list[str]],
             joined: _Joined) -> list[dict[str, Any] | list[dict[str, Any]]]:
    """The filed items in first-filed order, the held ones of one set as one list (one item per page)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    out: list[dict[str, Any] | list[dict[str, Any]]] = []
    for it, k in zip(filed, keys):
        if not k:
            out.append(it)
            continue
        root = joined.find(k[0])
        if root not in groups:
            groups[root] = []
            out.append(groups[root])
        if all(p["page"] != it["page"] for p in groups[root]):
            groups[root].append(it)
    return out


def _change_set(pages: list[dict[str, Any]], cause_of: dict[int, set[str]]) -> dict[str, Any]:
    """One held item for the pages of one change set: the first page's, with the worst kind of update."""
    head = pages[0]
    kind = max((p["updateKind"] for p in pages), key=lambda k: _RANK.get(k, 0))
    summary = head["summary"] if len(pages) == 1 else (
        f"{len(pages)} pages change together: " + " | ".join(p["summary"] for p in pages))[:4000]
    return {**head, "updateKind": kind, "summary": summary,
            "sources": sorted({c for p in pages for c in cause_of[id(p)]}),
            "pages": [{"page": p["page"], "title": p["title"], "updateKind": p["updateKind"],
                       "reason": p["reason"], "summary": p["summary"], "proposedBody": p["proposedBody"]}
                      for p in pages]}


def kept_rechecks(prev: Any, unchanged: set[str]) -> list[str]:
    """Unchanged sources a kept claim was decided against at another revision (a deleted file came back,
    say): read again, so a source that says the kept value again clears the flag."""
    kept = [pair for info in prev.pages.values() for pair in info.kept]  # PageInfo.kept: no page is read
    if not kept:
        return []
    digests = prev.source_digests()
    return sorted({path for path, seen in kept if path in unchanged and seen != digests.get(path, "")})
