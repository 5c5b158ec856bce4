"""`index.md` (made anew every pass, its text remembered while the entries stand) and `log.md` (append-only: entries are never rewritten), wiki.md §5."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

OKF_VERSION = "0.2"
LOG_TITLE = "# Knowledge Base Log"
_DAY = re.compile(r"^## (\d{4}-\d{2}-\d{2})\s*$")
_CLASS_ORDER = (("source", "Sources", "sources"), ("concept", "Concepts", "concepts"), ("entity", "Entities", "entities"))


class IndexEntry(NamedTuple):  # one per page of every pass
    kind: str
    slug: str
    title: str
    description: str


def _one_line(text: str, limit: int = 240) -> str:
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1].rsplit(" ", 1)[0] + "…"
    return text


def _link_text(title: str) -> str:
    if "\\" in title or "[" in title or "]" in title:
        return title.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    return title


def _index_order(e: IndexEntry) -> tuple[str, str]:
    return (_casefold(e.title), e.slug)


_casefold = lru_cache(maxsize=1 << 16)(str.casefold)


@lru_cache(maxsize=1 << 16)  # a long-lived worker renders the same lines pass after pass
def _index_line(folder: str, title: str, slug: str, description: str) -> str:
    return f"* [{_link_text(title)}](/{folder}/{slug}.md) - {_one_line(description) or 'No description.'}"


def render_index(entries: list[IndexEntry]) -> str:
    by_kind: dict[str, list[IndexEntry]] = {kind: [] for kind, _, _ in _CLASS_ORDER}
    for e in entries:
        if e.kind in by_kind:
            by_kind[e.kind].append(e)
    counts = {kind: len(rows) for kind, rows in by_kind.items()}
    out = ["---", f"okf_version: '{OKF_VERSION}'", "---", "", "# Index", ""]
    out.append(
        f"{len(entries)} pages: {counts['source']} sources, {counts['concept']} concepts, {counts['entity']} entities."
    )
    for kind, heading, folder in _CLASS_ORDER:
        out += ["", f"## {heading}", ""]
        rows = sorted(by_kind[kind], key=_index_order)
        if not rows:
            out.append("_None yet._")
        out += [_index_line(folder, e.title, e.slug, e.description) for e in rows]
    return "\n".join(out) + "\n"


_LAST_INDEX: list[tuple[frozenset[IndexEntry], str]] = []  # the last index this process rendered


def index_text(entries: list[IndexEntry]) -> str:
    """`render_index(entries)`, remembered for the last set of entries (one per page, so the set is the
    list in any order, which the index does not depend on): a long-lived worker's passes mostly keep
    every title and description, and the index stands as it was."""
    key = frozenset(entries)
    if _LAST_INDEX and len(key) == len(entries) and _LAST_INDEX[0][0] == key:
        return _LAST_INDEX[0][1]
    text = render_index(entries)
    _LAST_INDEX[:] = [(key, text)] if len(key) == len(entries) else []
    return text


def render_log(previous: str | None, day: str, entry: str) -> str:
    """Add `entry` (one bullet line) under `## day`, newest day first and newest entry first within a
    day. Everything already in the log is kept byte for byte."""
    if not previous or not previous.strip():
        return f"{LOG_TITLE}\n\n## {day}\n\n{entry}\n"
    if not previous.lstrip().startswith("# "):  # not ours: kept below, never rewritten
        return f"{LOG_TITLE}\n\n## {day}\n\n{entry}\n\n{previous}"
    lines = previous.rstrip("\n").split("\n")
    for i, line in enumerate(lines):
        m = _DAY.match(line)
        if not m:
            continue
        if m.group(1) == day:
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            lines[j:j] = [entry]
            return "\n".join(lines) + "\n"
        if m.group(1) < day:
            lines[i:i] = [f"## {day}", "", entry, ""]
            return "\n".join(lines) + "\n"
    return "\n".join(lines) + f"\n\n## {day}\n\n{entry}\n"


def log_entry(*, at: str, job_id: str, trigger: str, source_digest: str, created: int, updated: int, archived: int,
              removed: int, held: int, conflicts: int, warnings: int) -> str:
    return (
        f"* **Update**: {at} job `{job_id}` ({trigger}), sources `{source_digest}`: "
        f"pages created {created}, updated {updated}, archived {archived}, removed {removed}, held {held}; "
        f"conflicts opened {conflicts}; warnings {warnings}."
    )
