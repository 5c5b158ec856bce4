"""What a pass does with the statements people and agents wrote on a page (issue 15): it never drops
them (they live in the page's frontmatter, which the compiler carries), and it re-checks each cited
statement whose source changed:

- the cited lines still contain its value → it is pinned to the new source revision, silently;
- the lines moved (the value is on exactly one other line range of the same size) → the citation
  follows it;
- otherwise the source now disagrees: the statement is flagged on the page, the page is
  `contradicted`, and one conflict goes to the review queue (fingerprint `edit:<id>`). It stays open
  across passes until a person decides: use the new source (the statement is withdrawn), keep it
  (pinned to the source as it is now) or dismiss.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kctui.compiler.trust.cited import file_lines
from kctui.compiler.trust.kept import _norm, says
from kctui.core.claims import Claim, Evidence
from kctui.core.frontmatter import FrontmatterError
from kctui.core.page_edits import DISPUTE_PREFIX, EDIT_DISPUTE_NOTE, EDITS_KEY, edit_entries, with_section
from kctui.core.page_status import conflict_note, render_page, set_page_status, split_page
from kctui.core.pages import Page


def _claim(entry: dict[str, Any], title: str, digest: str) -> Claim | None:
    try:
        cite = str(entry.get("citation") or "")
        path, _, lines = cite.rpartition(":L")
        start, _, end = lines.partition("-L")
        return Claim(subject=title, attribute="statement", value=str(entry.get("value") or entry.get("text") or ""),
                     scope="", form="statement", origin="statement", evidence=Evidence(path, int(start), int(end), digest))
    except (TypeError, ValueError):
        return None


def _relocate(root: Path, claim: Claim) -> str | None:
    """The one line range of the same size that contains the value now (None: none, or several)."""
    lines = file_lines(root, claim.evidence.path)
    if lines is None:
        return None
    size = claim.evidence.end - claim.evidence.start
    want = _norm(claim.value)
    found = [i for i in range(len(lines) - size) if want in _norm(" ".join(lines[i:i + size + 1]))]
    if len(found) != 1:
        return None
    return f"{claim.evidence.path}:L{found[0] + 1}-L{found[0] + size + 1}"


def cited_now(root: Path, claim: Claim) -> str:
    lines = file_lines(root, claim.evidence.path) or []
    return "\n".join(lines[claim.evidence.start - 1: claim.evidence.end])[:4000]


def recheck_edits(page: Page, digests: dict[str, str], root: Path) -> list[dict[str, Any]]:
    """Re-check the page's cited statements against the sources of this pass (`digests`: path ->
    digest of every current source). Mutates the page's entries; returns the ones newly disputed."""
    entries = edit_entries(page.extra)
    if not entries:
        return []
    out, new = [], []
    for e in entries:
        e = dict(e)
        src = str(e.get("source") or "")
        if _to_recheck(e, src, digests) and _disputed_now(e, page.title, digests.get(src, ""), root):
            new.append(e)
        out.append(e)
    page.extra[EDITS_KEY] = out
    return new


def _to_recheck(entry: dict[str, Any], src: str, digests: dict[str, str]) -> bool:
    """A cited statement, not disputed already, whose source changed (or is gone)."""
    return (entry.get("kind") == "statement" and bool(src) and not entry.get("disputed")
            and digests.get(src, "") != entry.get("digest"))


def _disputed_now(e: dict[str, Any], title: str, now: str, root: Path) -> bool:
    """One statement against its source's revision `now` ("": the file is gone): pinned to it, its citation
    moved, or (True) flagged disputed. Mutates the entry."""
    claim = _claim(e, title, now)
    if claim is None or not now:
        e["disputed"] = {"now": "", "digest": now}
        return True
    if says(root, claim):
        e["digest"] = now
        e.pop("seen", None)
        return False
    if e.get("seen") and _norm(cited_now(root, claim)) == _norm(str(e["seen"])):
        e["digest"] = now  # the lines still say what a person decided to keep the statement against
        return False
    moved = _relocate(root, claim)
    if moved is not None:
        e["citation"], e["digest"] = moved, now
        return False
    e["disputed"] = {"now": cited_now(root, claim), "digest": now}
    return True


def conflict_item(rel: str, title: str, entry: dict[str, Any], proposed: str) -> dict[str, Any]:
    """The review item (review.json) of a statement its source now disagrees with."""
    now = str((entry.get("disputed") or {}).get("now") or "")
    src = str(entry.get("source") or "")
    return {"kind": "conflict", "page": rel, "title": title, "updateKind": "revise", "reason": "contradiction",
            "fingerprint": f"{DISPUTE_PREFIX}{entry.get('id')}",
            "summary": (f"{title}: “{str(entry.get('text'))[:300]}” (written by {entry.get('by')}) vs what "
                        f"`{src}` says now")[:4000],
            "proposedBody": proposed,
            "existing": {"value": str(entry.get("value") or entry.get("text") or "")[:4000],
                         "citation": str(entry.get("citation") or ""), "source": src},
            "incoming": {"value": (now or "(the source no longer has these lines)")[:4000],
                         "citation": str(entry.get("citation") or ""), "source": src, "line": now}}


def mark_disputed(text: str, disputed: list[dict[str, Any]]) -> str:
    """A staged page's text with these entries flagged and the page contradicted (whatever else the
    pass decided for it: a held page keeps its body, and still shows the disagreement)."""
    try:
        fm, body = split_page(text)
    except FrontmatterError:
        return text
    by_id = {str(e.get("id")): e for e in disputed}
    entries = [by_id.get(str(e.get("id")), e) for e in edit_entries(fm)]
    if not any(str(e.get("id")) in by_id for e in entries):
        return text
    fm[EDITS_KEY] = entries
    out = render_page(fm, with_section(body, entries))
    if fm.get("compile_status") == "contradicted":
        return out
    return set_page_status(out, "contradicted", note=EDIT_DISPUTE_NOTE)


def decide_edit(text: str, fingerprint: str, action: str) -> str | None:
    """The page with the dispute of one edit decided (None: `fingerprint` is not an edit's):
    `use_new` withdraws the statement (the source wins), `keep` and `dismiss` keep it, pinned to the
    source revision the person decided against, so the same disagreement is not raised again."""
    if not fingerprint.startswith(DISPUTE_PREFIX):
        return None
    edit_id = fingerprint[len(DISPUTE_PREFIX):]
    fm, body = split_page(text)
    entries = []
    for e in edit_entries(fm):
        if str(e.get("id")) == edit_id:
            if action == "use_new":
                continue
            e = dict(e)
            seen = e.pop("disputed", None)
            if isinstance(seen, dict):
                e["digest"] = str(seen.get("digest") or e.get("digest") or "")
                e["seen"] = str(seen.get("now") or "")  # re-raised only when the cited lines change again
        entries.append(e)
    if entries:
        fm[EDITS_KEY] = entries
    else:
        fm.pop(EDITS_KEY, None)
    return render_page(fm, with_section(body, entries))


def open_edit_disputes(text: str) -> int:
    try:
        return sum(1 for e in edit_entries(split_page(text)[0]) if e.get("disputed"))
    except FrontmatterError:
        return 0


__all__ = ["recheck_edits", "conflict_item", "mark_disputed", "decide_edit", "open_edit_disputes",
           "conflict_note"]
