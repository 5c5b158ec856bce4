"""A section a person sets on a page (`kctui page revise … --section S`, QA session 29 item 17): the
text goes into the page's own `## S` section, first, above what the compiler writes there (it replaces
`_None yet._`), and not again under *Written by people and agents*. The edit stays in the frontmatter
(`page_edits`), so every later render puts it back; a section the page does not have is refused.

Pure: `page_sections(body)` the names a person may set, `section_named(name, sections)` the page's
spelling of a name (case aside) or None, `set_sections(lines, placed)` the body lines with each placed
section's text set.
"""

from __future__ import annotations

import re

NONE_LINE = "_None yet._"  # as kctui.core.pages writes an empty section (pages imports this layer)
EDITS_HEADING = "Written by people and agents"
# the line a person's section text is shown as (page_edits.entry_lines), dropped before it is set again
_WRITTEN = re.compile(r" \(written by (?:a person|an agent|someone) \([^()]*\) on [0-9-]*\)$")


def page_sections(body: str | list[str]) -> list[str]:
    """The `## ` sections of a page body, in order, but the one that lists people's and agents' edits."""
    lines = body.split("\n") if isinstance(body, str) else body
    return [ln[3:].strip() for ln in lines if ln.startswith("## ") and ln[3:].strip() != EDITS_HEADING]


def section_named(name: str, sections: list[str]) -> str | None:
    want = " ".join(str(name).split()).casefold()
    return next((s for s in sections if s.casefold() == want), None)


def set_sections(lines: list[str], placed: dict[str, str]) -> list[str]:
    """`lines` (a body without the edits section) with the text of each section in `placed` (name ->
    the line to show) first in it; a section holding an earlier such line that is no longer placed gets
    the compiler's lines alone. Other lines stay as they are."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if not line.startswith("## "):
            continue
        end = next((j for j in range(i, len(lines)) if lines[j].startswith("## ")), len(lines))
        content = lines[i:end]
        name = line[3:].strip()
        if name in placed or any(_WRITTEN.search(ln) for ln in content):
            content = _set_one(content, placed.get(name))
        out += content
        i = end
    return out


def _set_one(content: list[str], text: str | None) -> list[str]:
    kept = [ln for ln in content if not _WRITTEN.search(ln) and ln != NONE_LINE]
    while kept and not kept[0].strip():
        kept.pop(0)
    while kept and not kept[-1].strip():
        kept.pop()
    body = ([text, ""] if text else []) + kept
    if body and not body[-1].strip():
        body.pop()
    return [""] + (body or [NONE_LINE]) + [""]


__all__ = ["NONE_LINE", "page_sections", "section_named", "set_sections"]
