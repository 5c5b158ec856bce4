"""The sources a pass reads again because of what waits for a person (trust.md §3): the sources of a
page whose proposal waits for review (so it is proposed again in full), unchanged sources whose held
source page may withdraw its proposal, and the archived source pages a returning file revives."""

from __future__ import annotations

import re
from typing import Any

from kctui.compiler.trust.change_sets import kept_rechecks
from kctui.core.frontmatter import FrontmatterError, safe_load_yaml

PENDING = frozenset({"needs-review", "contradicted"})  # a page whose proposal waits for a person
_ARCHIVED = re.compile(rb"^archived_source: (.+)$", re.M)
_STUB = re.compile(rb"^awaiting_review: create$", re.M)


def pending_sources(prev: Any, touched: set[str], have: set[str], current: set[str]) -> set[str]:
    """Sources to re-read so a touched page with a proposal waiting for review is proposed again in
    full (not only with this pass's changes): every current source it cites that was not read."""
    need: set[str] = set()
    for slug in touched:
        info = prev.pages.get(slug)
        if info is not None and info.compile_status in PENDING:
            need |= {resource for resource, _ in info.sources if resource in current and resource not in have}
    return need


def recheck_sources(prev: Any, changes: Any) -> list[str]:
    """Unchanged sources whose source page holds a proposal (not a held create): a held page keeps the
    digest it had, so a file changed back to it would otherwise never withdraw the proposal. They move
    from `changes.unchanged` to the returned list (read again, as changed, in every kind of pass)."""
    unchanged = set(changes.unchanged)
    out = []
    for slug, info in prev.pages.items():
        if info.kind != "source" or info.compile_status != "needs-review" or not info.sources:
            continue
        path = info.sources[0][0]
        if path in unchanged and not _STUB.search(prev.raw.get(slug, b"").split(b"\n---\n", 1)[0]):
            out.append(path)
    out += [p for p in kept_rechecks(prev, unchanged) if p not in set(out)]
    out.sort(key=lambda p: p.encode())
    changes.unchanged = [p for p in changes.unchanged if p not in set(out)]
    return out


def archived_sources(prev: Any) -> dict[str, str]:
    """source path -> slug of the archived source pages (their file was deleted; a source page that
    comes back is revived in place rather than created beside them)."""
    out: dict[str, str] = {}
    for slug in prev.archived_pages():
        m = _ARCHIVED.search(prev.raw.get(slug, b"").split(b"\n---\n", 1)[0])
        if m:
            try:
                out[str(safe_load_yaml(m.group(1).decode("utf-8")))] = slug
            except (FrontmatterError, UnicodeDecodeError):
                continue
    return out
