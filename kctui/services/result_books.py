"""`index.md` and `log.md` of an external compiler's result, as the host owns them (wiki.md §5): the index
is rebuilt every pass from the pages, so the host makes it anew from the staged pages it is about to
promote (after its gate: a held page's stand-in is what the index lists) and no compiler can publish a
link to nowhere or a page list that differs from the pages; the log is the audit trail whose entries are
never rewritten, so the compiler's log is kept only when it is the live log with entries added (every
live line still there, in order; only day headings and link-free bullets added), else the host writes
the live log with its own entry for the job. A reserved file below the root (`concepts/index.md`) is not
the host's index: it is dropped.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from kctui.compiler.steps.index_log import IndexEntry, log_entry, render_index, render_log
from kctui.core.frontmatter import FrontmatterError, parse_document
from kctui.publish.validate import RESERVED_NAMES

_CLASSES = {"Source": ("source", "sources"), "Concept": ("concept", "concepts"), "Entity": ("entity", "entities")}
_DAY = re.compile(r"^## \d{4}-\d{2}-\d{2}\s*$")
_LINK = re.compile(r"\]\(|\[\[|<[a-z]+:", re.I)


def _front(path: Path) -> dict[str, Any]:
    try:
        data = parse_document(path.read_text(encoding="utf-8"))[0]
    except (OSError, UnicodeDecodeError, ValueError, FrontmatterError):
        return {}
    return data if isinstance(data, dict) else {}


def host_index(staged_root: Path) -> str:
    """The index of every page of the staged tree: the built-in compiler's sections (a page of a class
    in its class's folder), and any other page under "Other pages" with its own path."""
    entries: list[IndexEntry] = []
    other: list[str] = []
    for path in sorted(p for p in staged_root.rglob("*.md") if p.is_file() and p.name not in RESERVED_NAMES):
        rel = path.relative_to(staged_root).as_posix()
        data = _front(path)
        title, description = str(data.get("title") or path.stem), str(data.get("description") or "")
        kind, folder = _CLASSES.get(str(data.get("type")), ("", ""))
        if kind and rel == f"{folder}/{path.stem}.md":
            entries.append(IndexEntry(kind, path.stem, title, description))
        else:
            one = " ".join(description.split())[:240] or "No description."
            other.append(f"* [{_escaped(title)}](/{rel}) - {one}")
    text = render_index(entries)
    if not other:
        return text
    head = f"{len(entries)} pages: "
    text = text.replace(head, f"{len(entries) + len(other)} pages ({len(other)} other): ", 1)
    return text + "\n## Other pages\n\n" + "\n".join(other) + "\n"


def _escaped(title: str) -> str:
    return title.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def appended_log(live: str | None, staged: str | None) -> bool:
    """The staged log is the live one with entries added: every live line still there in order, and
    what was added only day headings, blank lines and bullets that link nowhere."""
    if staged is None:
        return False
    new = staged.rstrip("\n").split("\n")
    old = (live or "").rstrip("\n").split("\n") if live and live.strip() else []
    i = 0
    for line in new:
        if i < len(old) and line == old[i]:
            i += 1
        elif not (not line.strip() or _DAY.match(line) or (line.startswith("* ") and not _LINK.search(line))
                  or (not old and line.startswith("# ") and not _LINK.search(line))):
            return False
    return i == len(old)


def host_log(live: str | None, staged: str | None, *, at: str, job_id: str, trigger: str, source_digest: str,
             counts: dict[str, int]) -> str:
    """The log to promote: the compiler's when it only adds entries to the live one, else the live log
    with the host's entry for this job."""
    if appended_log(live, staged) and staged != live:
        return staged or ""
    entry = log_entry(at=at, job_id=job_id, trigger=trigger, source_digest=source_digest,
                      created=counts.get("create", 0), updated=counts.get("append", 0) + counts.get("revise", 0),
                      archived=0, removed=counts.get("supersede", 0), held=counts.get("held", 0),
                      conflicts=counts.get("conflicts", 0), warnings=0)
    return render_log(live, at[:10], entry + " (an external compiler's result; its log was not kept)")


def write_books(live_root: Path, staged_root: Path, *, at: str, job_id: str, trigger: str, source_digest: str,
                counts: dict[str, int]) -> None:
    """The staged tree's `index.md` and `log.md` as the host owns them; reserved files below its root
    dropped."""
    for path in [p for p in staged_root.rglob("*.md") if p.name in RESERVED_NAMES and p.parent != staged_root]:
        if path.is_file() and not path.is_symlink():
            path.unlink()
    (staged_root / "index.md").write_text(host_index(staged_root), encoding="utf-8")
    live = _read(live_root / "log.md")
    staged = _read(staged_root / "log.md")
    (staged_root / "log.md").write_text(host_log(live, staged, at=at, job_id=job_id, trigger=trigger,
                                                 source_digest=source_digest, counts=counts), encoding="utf-8")


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8") if path.is_file() and not path.is_symlink() else None
    except (OSError, UnicodeDecodeError):
        return None
