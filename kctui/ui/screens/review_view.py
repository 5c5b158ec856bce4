"""What the review detail shows of a held change (issue 35): its hunks, each with its citation and the
cited source lines, marked with [x] and a cursor ▸ (never colour alone); and the page diff of each page
as one column (unified) or side by side (split), with − / + markers and the changed words highlighted.
Also where `e` / `E` open a file: the current hunk's cited source at its line, else the page."""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path
from typing import Any

from rich.text import Text

from kctui.core.page_status import split_page, strip_status_line

CONTEXT = 2
LEAD = 16  # cells of a long changed line kept before its first change in the split view
SHOWN = 6  # cells of the change itself a row must show, else it is shown from LEAD cells before it
_WORDS = re.compile(r"\s+|\w+|[^\w\s]")
_CITE = re.compile(r"^(?P<path>.+?):L(?P<start>\d+)")


def _words(line: str) -> list[str]:
    return _WORDS.findall(line)


def word_pair(old: str, new: str, tones: dict[str, str]) -> tuple[Text, Text]:
    """The old and new line with the words that differ highlighted (bold, reversed: visible without colour)."""
    a, b = _words(old), _words(new)
    left, right = Text(), Text()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            left.append("".join(a[i1:i2]))
            right.append("".join(b[j1:j2]))
            continue
        left.append("".join(a[i1:i2]), style=f"bold reverse {tones.get('error', '')}".strip())
        right.append("".join(b[j1:j2]), style=f"bold reverse {tones.get('success', '')}".strip())
    return left, right


def _side(marker: str, body: Text | str, style: str) -> Text:
    t = Text(f"{marker} ", style=f"bold {style}".strip())
    t.append_text(body if isinstance(body, Text) else Text(body, style=style))
    return t


def change_start(old: str, new: str, col: int) -> int:
    """Where a pair of lines `col` cells wide is shown from: 0, or (when their first difference would fall
    past the column's edge) a little before it, so the changed part is what the row shows."""
    common = len(os.path.commonprefix([old, new]))
    if max(len(old), len(new)) + 2 <= col or common + 2 + SHOWN <= col - 1:  # (− marker, … at the edge)
        return 0
    return max(0, common - LEAD)


def _from(body: Text, start: int) -> Text:
    if not start:
        return body
    out = Text("…")
    out.append_text(body[start:])
    return out


def _pairs(old: list[str], new: list[str], tones: dict[str, str],
           col: int | None = None) -> list[tuple[Text | None, Text | None]]:
    """Rows of a changed block: old and new lines paired (word-highlighted) as far as both go; with
    `col` (the split view's column), a long pair is shown from a little before its first change."""
    out: list[tuple[Text | None, Text | None]] = []
    err, ok = tones.get("error", ""), tones.get("success", "")
    for k in range(max(len(old), len(new))):
        if k < len(old) and k < len(new):
            left, right = word_pair(old[k], new[k], tones)
            start = change_start(old[k], new[k], col) if col else 0
            out.append((_side("−", _from(left, start), err), _side("+", _from(right, start), ok)))
        elif k < len(old):
            out.append((_side("−", old[k], err), None))
        else:
            out.append((None, _side("+", new[k], ok)))
    return out


def page_body(text: str | None) -> list[str]:
    """The page as a reader sees it: its body, without front matter or the status line (a decision sets those)."""
    return strip_status_line(split_page(text)[1]).split("\n") if text else []


def _blocks(cur: list[str], new: list[str]) -> list[tuple[str, int, int, int, int]]:
    ops = difflib.SequenceMatcher(None, cur, new, autojunk=False).get_opcodes()
    return ops


def unified(cur: list[str], new: list[str], tones: dict[str, str]) -> Text:
    t = Text(no_wrap=True, overflow="ellipsis")
    for tag, i1, i2, j1, j2 in _blocks(cur, new):
        if tag == "equal":
            _context(t, cur[i1:i2], first=i1 == 0, last=i2 == len(cur))
            continue
        pairs = _pairs(cur[i1:i2], new[j1:j2], tones)
        for left, _ in pairs:
            if left is not None:
                t.append_text(left)
                t.append("\n")
        for _, right in pairs:
            if right is not None:
                t.append_text(right)
                t.append("\n")
    return t


def split(cur: list[str], new: list[str], tones: dict[str, str], width: int) -> Text:
    """Side by side: the page now on the left, the proposal on the right, `width` cells in all."""
    col = max(12, (width - 3) // 2)
    t = Text(no_wrap=True, overflow="ellipsis")

    def row(left: Text | None, right: Text | None) -> None:
        lt = (left or Text("")).copy()
        lt.truncate(col, overflow="ellipsis", pad=True)
        t.append_text(lt)
        t.append(" │ ", style=tones.get("muted", ""))
        rt = (right or Text("")).copy()
        rt.truncate(col, overflow="ellipsis")
        t.append_text(rt)
        t.append("\n")

    for tag, i1, i2, j1, j2 in _blocks(cur, new):
        if tag == "equal":
            lines = cur[i1:i2]
            if len(lines) > 2 * CONTEXT + 1:
                for ln in lines[:CONTEXT] if i1 else []:
                    row(Text("  " + ln), Text("  " + ln))
                row(Text(f"  … {len(lines) - (CONTEXT if i1 else 0) - CONTEXT} unchanged lines", style="dim"), None)
                for ln in lines[-CONTEXT:] if i2 < len(cur) else []:
                    row(Text("  " + ln), Text("  " + ln))
            else:
                for ln in lines:
                    row(Text("  " + ln), Text("  " + ln))
            continue
        for left, right in _pairs(cur[i1:i2], new[j1:j2], tones, col):
            row(left, right)
    return t


def _context(t: Text, lines: list[str], *, first: bool, last: bool) -> None:
    if len(lines) <= 2 * CONTEXT + 1:
        for ln in lines:
            t.append("  " + ln + "\n")
        return
    head = [] if first else lines[:CONTEXT]
    tail = [] if last else lines[-CONTEXT:]
    for ln in head:
        t.append("  " + ln + "\n")
    t.append(f"  … {len(lines) - len(head) - len(tail)} unchanged lines\n", style="dim")
    for ln in tail:
        t.append("  " + ln + "\n")


def render_hunks(hunks: list[dict[str, Any]], marked: set[int], cursor: int | None,
                 tones: dict[str, str]) -> tuple[Text, int]:
    """The hunk list, and the line the current hunk starts on (0 when there is none)."""
    t = Text(no_wrap=True, overflow="ellipsis")
    at = 0
    if not hunks:
        t.append("(no hunks: the proposal changes only the page's front matter)\n", style="dim")
        return t, at
    t.append(f"Hunks ({len(hunks)}) — space marks, a / r act on the marked (else the current, else all)\n",
             style="bold underline")
    err, ok = tones.get("error", ""), tones.get("success", "")
    for h in hunks:
        n = h["hunk"]
        here = cursor is not None and cursor == n - 1
        if here:
            at = t.plain.count("\n")
        t.append("▸ " if here else "  ", style="bold")
        t.append("[x] " if n in marked else "[ ] ", style="bold" if n in marked else "")
        t.append(f"{n} {h['what']}", style=f"bold {tones.get('accent', '')}" if here else "bold")
        t.append(f"  {h['page']}" + (f" § {h['section']}" if h.get("section") else ""), style=tones.get("muted", ""))
        if h.get("citations"):
            t.append(f"  ^[{', '.join(h['citations'])}]")
        t.append("\n")
        for left, right in _pairs(list(h["removed"]), list(h["added"]), {"error": err, "success": ok}):
            for side in (left, right):
                if side is not None:
                    t.append("      ")
                    t.append_text(side)
                    t.append("\n")
        for cite, lines in (h.get("citedLines") or {}).items():
            if lines:
                t.append(f"      cited {cite}:\n", style="dim")
                for ln in str(lines).splitlines()[:4]:
                    t.append(f"      {ln}\n", style=tones.get("muted", ""))
    return t, at


def render_page_diffs(data: dict[str, Any], mode: str, width: int, tones: dict[str, str]) -> Text:
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(f"Page diff ({mode}; s switches to {'unified' if mode == 'split' else 'split'})\n", style="bold underline")
    for p in data.get("pages") or []:
        t.append(f"── {p['page']} (revision {p.get('expectedRevision')} → proposed)\n", style="bold")
        cur, new = page_body(p.get("currentText")), page_body(p.get("proposedText"))
        if cur == new:
            t.append("  (the page's text is unchanged)\n", style="dim")
            continue
        t.append_text(split(cur, new, tones, width) if mode == "split" else unified(cur, new, tones))
    return t


def outside_target(data: dict[str, Any], cursor: int | None) -> tuple[Path, int]:
    """(file, line) `e` / `E` open: the current hunk's cited source at its first line when it cites one,
    else its page at the hunk's line; with no hunk, the item's page (a conflict: the new side's source)."""
    ws, kb = Path(data["workspaceRoot"]), data["knowledgeBaseId"]
    from kctui import paths  # noqa: PLC0415

    hunks = data.get("hunks") or []
    if cursor is not None and 0 <= cursor < len(hunks):
        h = hunks[cursor]
        for cite in h.get("citations") or []:
            m = _CITE.match(cite)
            if m:
                return paths.sources_path(ws, kb) / m.group("path"), int(m.group("start"))
        return paths.wiki_path(ws, kb) / h["page"], _page_line(data, h)
    side = data.get("incoming") if data.get("kind") == "conflict" else None
    m = _CITE.match(str((side or {}).get("citation") or ""))
    if m:
        return paths.sources_path(ws, kb) / m.group("path"), int(m.group("start"))
    return paths.wiki_path(ws, kb) / data["page"], 1


def _page_line(data: dict[str, Any], hunk: dict[str, Any]) -> int:
    """The hunk's first line in its live page (1-based), found by its text; 1 when it adds only."""
    page = next((p for p in data.get("pages") or [] if p["page"] == hunk["page"]), None)
    lines = str((page or {}).get("currentText") or "").split("\n")
    for probe in hunk.get("removed") or []:
        if probe in lines:
            return lines.index(probe) + 1
    return 1
