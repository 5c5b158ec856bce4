"""An extractive answer's citations checked against the source lines they cite (QA session 30 #2).

With no model, `ask` answers with the packet's own cited statements. That the statement is the packet's
text says nothing about the source now: a claim's cited lines may have changed since the pass that made
it (a runbook that now names another owner). Each citation is checked as the compiler checks a claim
(`kctui.compiler.trust.kept`: the cited lines contain its value, case and spacing aside):

- a compiled claim: its value (`attribute: value` → value) in the cited lines of the current source;
- a raw passage: its words, in the cited lines of the current source;
- a statement with no cited lines (a page's description): not checked, so never called verified.

A citation that fails says why: `the cited lines no longer say “Aisha Bello”`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from kctui.compiler.trust.cited import file_lines
from kctui.compiler.trust.kept import cited_lines, holds
from kctui.core.record_tables import mark_at

HELD_WHY = "the cited source lines hold it"
UNCHECKED_WHY = "not checked: it cites no source lines"
_FACT = re.compile(r"(?:\([^)]*\)\s*—\s*)?[^:]{1,60}?:\s+(?P<value>.+)")
_WORD = re.compile(r"\w+")


def stated_value(kind: str, text: str) -> str:
    """What a statement of the packet states, to look for in its cited lines: a claim's value (its text
    after `attribute: `, a kept or decided claim's flag left out), a passage's whole text."""
    at = mark_at(text)
    text = (text[:at] if at >= 0 else text).strip()
    if kind != "claim":
        return text
    m = _FACT.fullmatch(text)
    return m.group("value").strip() if m else text


def lines_of(source_root: Path, rel: str, lines: tuple[int, int]) -> str | None:
    """The cited lines of a source (joined), None when the file cannot be read or is outside the root
    (`kept.cited_lines`, the compiler's reader of cited lines)."""
    span = cited_lines(source_root, rel, lines[0], lines[1])
    return " ".join(span) if span else None


def source_text_lines(source_root: Path, rel: str) -> list[str] | None:
    """Every line of a source for the ask screen's excerpt (`cited.file_lines`: never through a symlink out of
    sources/, decoded as the compiler reads it)."""
    return file_lines(source_root, rel)


def check(kind: str, text: str, cited: str | None) -> tuple[bool, str]:
    """(verified, why) for one statement against its cited lines' current text (None: unreadable)."""
    if cited is None:
        return False, "the cited lines are gone (the source no longer has them)"
    value = stated_value(kind, text)
    if holds(cited, value):
        return True, HELD_WHY
    if kind != "claim":  # a passage as the index keeps it: its words in order, markup aside
        words, have = _WORD.findall(value.casefold()), _WORD.findall(cited.casefold())
        if words and _in_order(words, have):
            return True, HELD_WHY
    shown = value if len(value) <= 80 else value[:77] + "…"
    return False, f"the cited lines no longer say “{shown}”"


def _in_order(words: list[str], have: list[str]) -> bool:
    it = iter(have)
    return all(w in it for w in words)


def check_citations(result: dict[str, Any], chosen: list[Any], source_root: Path) -> None:
    """Mark each citation of an extractive `result` (one per statement of `chosen`, in order) verified
    only when its cited source lines hold what it states; the answer is verified when every one is.
    Mutates `result`."""
    ok_all = bool(chosen)
    for c, s in zip(result.get("citations") or [], chosen):
        if not s.source or not s.lines:
            c["verified"], c["why"] = False, UNCHECKED_WHY
        else:
            c["verified"], c["why"] = check(s.kind, s.text, lines_of(source_root, s.source, s.lines))
        ok_all = ok_all and c["verified"]
    result["verified"] = ok_all


def refs(chosen: list[Any]) -> list[str]:
    """The answer's marker of each chosen statement (QA s30 #12): one number per distinct cited place (an
    item and its lines), from 1 in answer order, so two different citations never share a number (the
    packet's item stays in each citation's `item`)."""
    seen: dict[tuple, str] = {}
    return [seen.setdefault((s.item, s.source, s.lines), str(len(seen) + 1)) for s in chosen]


def failing(result: dict[str, Any]) -> bool:
    """Whether a citation of the answer was checked and its lines do not hold it (not merely unchecked)."""
    return any(not c.get("verified") and c.get("why") != UNCHECKED_WHY for c in result.get("citations") or [])


def mark(c: dict[str, Any]) -> str:
    """A citation's mark in words: `✓`, `– not checked: …`, or `✗ why`."""
    if c.get("verified"):
        return "✓"
    return f"– {UNCHECKED_WHY}" if c.get("why") == UNCHECKED_WHY else f"✗ {c.get('why') or 'unverified'}"


def merge_refs(result: dict[str, Any]) -> None:
    """One citation per marker: statements citing the same place share it, verified only when each is
    (the first failing one's why). Mutates `result`."""
    out: dict[str, dict[str, Any]] = {}
    for c in result.get("citations") or []:
        have = out.setdefault(str(c.get("ref") or c.get("item")), c)
        if have is not c and have["verified"] and not c["verified"]:
            have["verified"], have["why"] = False, c.get("why", "")
    result["citations"] = list(out.values())


def where(c: dict[str, Any]) -> str:
    """A citation's place as people read it: `wiki/page.md ← sources/x.md L3-L4`, or `sources/x.md L3-L4`."""
    lines = c.get("lines")
    at = f" L{lines[0]}-L{lines[1]}" if lines else ""
    return str(c.get("path") or "") + (f" ← {c['source']}{at}" if c.get("source") and c["source"] != c.get("path") else at)


__all__ = ["HELD_WHY", "UNCHECKED_WHY", "check", "check_citations", "failing", "lines_of", "mark", "merge_refs", "refs", "stated_value", "where"]
