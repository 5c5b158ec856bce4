"""Pages a person or an agent writes (issue 15), in the pure core: what an edit is, where it lives on a
page, and how it is shown.

An edit is kept in the page's frontmatter, `page_edits`, one entry each, so the compiler (which carries
a page's unknown frontmatter from pass to pass) appends around it and never drops it:

    page_edits:
    - id: e1
      kind: statement | note | section
      text: what the person or agent wrote
      section: the section's name (kind section)
      value: the value the cited lines must contain (a statement with a citation)
      citation: notes/oncall.md:L3-L4
      source: notes/oncall.md
      digest: sha256:… (the source revision the statement was checked against)
      by: human:lena | agent:claude
      at: 2026-05-28T10:00:00Z
      disputed: {now: "…the cited lines now…", digest: sha256:…}   (a source change disagrees)

The page shows them in one last section, `## Written by people and agents`, so a reader tells a
person's words from the compiler's claims; a disputed statement carries a visible flag.
"""

from __future__ import annotations

import re
from typing import Any

from kctui.core.page_sections import page_sections, section_named, set_sections

EDITS_KEY = "page_edits"
SECTION = "Written by people and agents"
EDIT_KINDS = ("statement", "note", "section")
CITATION_RE = re.compile(r"^(?P<path>[^\s:][^:]*):L(?P<start>[0-9]{1,7})-L(?P<end>[0-9]{1,7})$")
DISPUTE_PREFIX = "edit:"
EDIT_DISPUTE_NOTE = "a source no longer says what a person or an agent wrote here; a person decides."


def edit_entries(extra: dict[str, Any]) -> list[dict[str, Any]]:
    """The page's edits (entries that are not mappings are ignored)."""
    return [e for e in extra.get(EDITS_KEY) or [] if isinstance(e, dict)]


def parse_citation(text: str) -> tuple[str, int, int]:
    """`path:Lstart-Lend` -> (path, start, end); ValueError with one line for anything else."""
    m = CITATION_RE.match(text.strip())
    if not m:
        raise ValueError(f"citation {text!r} must be PATH:Lstart-Lend (e.g. notes/a.md:L3-L4)")
    path, start, end = m.group("path"), int(m.group("start")), int(m.group("end"))
    if path.startswith("/") or ".." in path.split("/") or "\\" in path:
        raise ValueError(f"citation path {path!r} must be relative to the base's sources/ and stay inside it")
    if start < 1 or end < start:
        raise ValueError(f"citation {text!r}: the line range must start at 1 or later and not end before it")
    return path, start, end


def _clean(text: str) -> str:
    """One paragraph of text as a list item: whitespace folded, nothing that starts a Markdown block."""
    return " ".join(str(text).split())


def _who(entry: dict[str, Any]) -> str:
    by = str(entry.get("by") or "unknown")
    kind, _, name = by.partition(":")
    who = {"human": "a person", "agent": "an agent"}.get(kind, "someone")
    return f"{who} ({name or by}) on {str(entry.get('at') or '')[:10]}"


def entry_lines(entry: dict[str, Any]) -> list[str]:
    kind = entry.get("kind")
    text = _clean(entry.get("text") or "")
    if kind == "section":
        return [f"### {_clean(entry.get('section') or 'Notes')}", "", f"{text} (written by {_who(entry)})", ""]
    cite = f" ^[{entry['citation']}]" if entry.get("citation") else ""
    flag = ""
    if entry.get("disputed"):
        now = _clean((entry.get("disputed") or {}).get("now") or "") if isinstance(entry.get("disputed"), dict) else ""
        flag = (f" (⚑ disputed: the cited source now says “{now[:300]}”; a person decides)" if now
                else " (⚑ disputed: the cited source no longer says this; a person decides)")
    label = "Note" if kind == "note" else "Statement"
    return [f"* {label} by {_who(entry)}: {text}{flag}{cite}"]


def section_lines(entries: list[dict[str, Any]]) -> list[str]:
    """The page's last section (empty list without edits): statements and notes first, in the order
    they were written, then the sections a person wrote."""
    if not entries:
        return []
    out = [f"## {SECTION}", ""]
    items = [e for e in entries if e.get("kind") != "section"]
    for e in items:
        out += entry_lines(e)
    if items:
        out.append("")
    for e in entries:
        if e.get("kind") == "section":
            out += entry_lines(e)
    return out


def with_section(body: str, entries: list[dict[str, Any]]) -> str:
    """`body` with its edits section replaced by one for `entries` (it is always the last section); a
    section a person set that the page has is shown in that section instead (`kctui.core.page_sections`)."""
    lines = body.rstrip("\n").split("\n")
    head = f"## {SECTION}"
    if head in lines:
        lines = lines[:lines.index(head)]
    while lines and not lines[-1].strip():
        lines.pop()
    names, placed, rest = page_sections(lines), {}, []
    for e in entries:
        name = section_named(str(e.get("section") or ""), names) if e.get("kind") == "section" else None
        if name is None:
            rest.append(e)
        else:
            placed[name] = entry_lines(e)[2]
    lines = set_sections(lines, placed)
    section = section_lines(rest)
    text = "\n".join(lines + ([""] + section if section else []))
    return text.rstrip("\n") + "\n"


def next_id(entries: list[dict[str, Any]]) -> str:
    used = {str(e.get("id")) for e in entries}
    n = len(entries) + 1
    while f"e{n}" in used:
        n += 1
    return f"e{n}"


def disputed_ids(entries: list[dict[str, Any]]) -> list[str]:
    return [str(e.get("id")) for e in entries if e.get("disputed")]


__all__ = ["EDITS_KEY", "SECTION", "EDIT_KINDS", "DISPUTE_PREFIX", "edit_entries", "parse_citation", "entry_lines",
           "section_lines", "with_section", "next_id", "disputed_ids"]
