"""The hunks of a held change (issue 35): a proposal for a page cut into the pieces a person decides one
by one — a claim added, revised or removed, a section rewritten — and the page body that taking some of
them and leaving the others gives. Pure: both sides are page bodies (the status blockquote left out),
the cut is `difflib`'s, and merging takes each hunk whole from one side, so taking every hunk gives the
proposal's body exactly and taking none gives the current body exactly."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass

CITE = re.compile(r"\^\[([^\]]+)\]")


@dataclass(frozen=True)
class Hunk:
    """One change of a page's body: lines `old` of the current body (from `start`, 0-based) replaced by
    `new`. `kind`: added | revised | removed (of claims, when it touches a cited line) or rewritten (text
    without citations). `section`: the heading above it ("" at the top)."""

    kind: str
    section: str
    start: int
    old: tuple[str, ...]
    new: tuple[str, ...]

    @property
    def citations(self) -> list[str]:
        """The citations of its lines, new side first, each once."""
        return list(dict.fromkeys(m for ln in (*self.new, *self.old) for m in CITE.findall(ln)))

    @property
    def words(self) -> str:
        what = "claim" if self.kind != "rewritten" else "text"
        if self.kind == "rewritten" and any(ln.startswith("#") for ln in (*self.old, *self.new)):
            what = "section"
        return f"{what} {self.kind if self.kind != 'rewritten' else 'rewritten'}"


def _lines(body: str) -> list[str]:
    return body.split("\n")


def _kind(old: list[str], new: list[str]) -> str:
    cited_old = [ln for ln in old if CITE.search(ln)]
    cited_new = [ln for ln in new if CITE.search(ln)]
    if not cited_old and not cited_new:
        return "rewritten"
    if not cited_old:
        return "added"
    if not cited_new:
        return "removed"
    return "revised"


def _key(line: str) -> str:
    """What a line is about: without its citations, up to its first colon (a claim's subject and attribute)."""
    text = CITE.sub("", line).strip()
    return text.split(":", 1)[0] if ":" in text else text


def _opcodes(current: list[str], proposed: list[str]) -> list[tuple[str, int, int, int, int]]:
    """`difflib`'s opcodes with each replaced block cut finer: lines about the same thing (`_key`) paired
    one hunk each, so revising eight adjacent claims is eight hunks."""
    out: list[tuple[str, int, int, int, int]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, current, proposed, autojunk=False).get_opcodes():
        if tag != "replace":
            out.append((tag, i1, i2, j1, j2))
            continue
        inner = difflib.SequenceMatcher(None, [_key(x) for x in current[i1:i2]], [_key(x) for x in proposed[j1:j2]],
                                        autojunk=False)
        for t, a1, a2, b1, b2 in inner.get_opcodes():
            if t == "equal":
                out.extend(("replace", i1 + a1 + k, i1 + a1 + k + 1, j1 + b1 + k, j1 + b1 + k + 1)
                           for k in range(a2 - a1))
            else:
                out.append(("replace", i1 + a1, i1 + a2, j1 + b1, j1 + b2))
    return out


def page_hunks(current_body: str, proposed_body: str) -> list[Hunk]:
    """The hunks that turn `current_body` into `proposed_body`, in page order."""
    cur, new = _lines(current_body), _lines(proposed_body)
    out: list[Hunk] = []
    section = ""
    at = 0
    for tag, i1, i2, j1, j2 in _opcodes(cur, new):
        for ln in cur[at:i1]:
            if ln.startswith("#"):
                section = ln.lstrip("#").strip()
        at = i1
        if tag == "equal":
            continue
        out.append(Hunk(_kind(cur[i1:i2], new[j1:j2]), section, i1, tuple(cur[i1:i2]), tuple(new[j1:j2])))
    return out


def merge_hunks(current_body: str, proposed_body: str, accepted: Iterable[int]) -> str:
    """The body with the hunks numbered in `accepted` (0-based, in `page_hunks` order) taken from the
    proposal and every other hunk left as the current body has it."""
    take = set(accepted)
    cur, new = _lines(current_body), _lines(proposed_body)
    out: list[str] = []
    n = 0
    for tag, i1, i2, j1, j2 in _opcodes(cur, new):
        if tag == "equal":
            out.extend(cur[i1:i2])
            continue
        out.extend(new[j1:j2] if n in take else cur[i1:i2])
        n += 1
    return "\n".join(out)


def parse_hunk_numbers(text: str) -> list[int]:
    """"1,3" / "1-3,5" -> [1, 3] / [1, 2, 3, 5] (1-based, as a person counts); ValueError in words."""
    out: list[int] = []
    for part in (p.strip() for p in str(text).split(",")):
        if not part:
            continue
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            raise ValueError(f"'{part}' is not a hunk number (use numbers such as 1,3 or 2-4)")
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if lo < 1 or hi < lo:
            raise ValueError(f"'{part}' is not a hunk number (hunks count from 1)")
        out.extend(range(lo, hi + 1))
    if not out:
        raise ValueError("no hunk numbers given (use numbers such as 1,3)")
    return sorted(set(out))


def partial_words(action: str, chosen: Iterable[int], total: int) -> str:
    """What deciding `action` (approve | reject) on the hunks `chosen` of an item of `total` hunks does,
    in words (the others get the opposite decision: approved ones are published, rejected ones are left
    as the current page): "approved 1 of 17 hunks; 16 left as the current page"."""
    k = len({n for n in chosen if 1 <= n <= total})
    rest, noun = total - k, "hunk" if total == 1 else "hunks"
    if action == "approve":
        return f"approved {k} of {total} {noun}" + (f"; {rest} left as the current page" if rest else "")
    return f"rejected {k} of {total} {noun} (left as the current page)" + (f"; {rest} approved" if rest else "")


__all__ = ["Hunk", "page_hunks", "merge_hunks", "parse_hunk_numbers", "partial_words"]
