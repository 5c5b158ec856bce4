"""Kept values (issue 13): a person rejected a change (or kept what the page has) while the source says
something else now. The old claim stays, pinned to the source revision it came from, and visibly
flagged, until the source or a person changes it:

- frontmatter `kept_claims`: one entry per kept claim — subject, attribute, scope, value, citation,
  source, `pinned` (the digest of the source revision the value came from), `seen` (the digest the
  person decided against; "" when the file was deleted), `now` (what the source says now; "" when it
  no longer says it), `by` and `at`;
- the claim line carries the marker of `kctui.core.pages.kept_suffix` before its citation.

Every later pass re-checks the entries (`recheck`): the source says the kept value again → the flag
goes away; the source is still the revision the person decided against → the kept claim stays (a
re-read does not propose the rejected change again); the source changed again → the proposal drops
the flag, so the change is classified (and held) like any other.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from kctui.core.claims import Claim, citation, claim_line
from kctui.core.frontmatter import FrontmatterError
from kctui.core.page_status import render_page, split_page
from kctui.core.pages import KEPT_KEY, Page, kept_entries, kept_match, kept_suffix, parse_page, strip_kept
from kctui.core.record_tables import explode, implode
from kctui.core.values import normalise_value


def _key(c: Claim) -> tuple[str, str, str, str]:
    return (c.evidence.path, c.key[1], c.key[2], c.key[3])


def _parse(text: str, rel: str) -> Page | None:
    try:
        return parse_page(text, Path(rel).stem)
    except (ValueError, FrontmatterError):
        return None


def says(source_root: Path, claim: Claim) -> bool:
    """The claim's cited lines in the current source contain its value (case and spacing aside); for one
    value of a record citing the whole record, on a line that gives it under its key."""
    ev = claim.evidence
    if ev.unit != "line":
        return False
    if ev.path.startswith("/") or ".." in ev.path.split("/"):
        return False
    target, cur = source_root / ev.path, source_root
    try:
        for part in Path(ev.path).parts:
            cur = cur / part
            if cur.is_symlink():
                return False
        lines = target.read_text(encoding="utf-8", errors="replace").split("\n")
    except OSError:
        return False
    span = lines[ev.start - 1: ev.end]
    if not _holds(" ".join(span), claim.value):
        return False
    if claim.form != "fact" or not claim.scope or len(span) < 2:
        return True
    # one value of a record citing the record's lines: it must be this key's value there, not another's
    holding = [ln for ln in span if _holds(ln, claim.value)]
    key = re.compile(rf"(?:^|[\s\-{{,\"'|])[\"']?{re.escape(claim.attribute.rsplit('.', 1)[-1])}[\"']?\s*[:=]", re.I)
    return not holding or any(key.search(ln) for ln in holding)


def _holds(text: str, value: str) -> bool:
    return _norm(value) in _norm(text) or normalise_value(value) in _norm(text)


def _norm(text: str) -> str:
    return " ".join(text.replace("\\", "").split()).casefold()


def pin_kept(current: str, proposed: str | None, rel: str, *, by: str, at: str,
             split: tuple[dict[str, Any], str] | None = None) -> str:
    """The current page text with every claim the proposal revises or retracts kept and flagged, and its
    sources' digests moved to the proposal's (the person decided against that revision: the next pass
    does not propose it again). `split`: `split_page(current)` when the caller has it (changed here)."""
    cur = _parse(current, rel)
    new = _parse(proposed, rel) if proposed else None
    if cur is None or cur.is_stub:
        return current
    new_refs = {s.resource: s.digest for s in new.sources} if new is not None and not new.is_stub else {}
    old_refs = {s.resource: s.digest for s in cur.sources}
    new_claims: dict[tuple, list[Claim]] = {}
    for c in new.claims if new is not None else []:
        new_claims.setdefault(_key(c), []).append(c)
    entries = kept_entries(cur.extra)
    new_kept = kept_entries(new.extra) if new is not None else []
    added: list[dict[str, Any]] = []
    moved: dict[str, str] = {}
    for c in cur.claims:
        path = c.evidence.path
        if new_refs.get(path, "") == old_refs.get(path, "") and new is not None:
            continue  # its source did not change under this proposal
        alike = new_claims.get(_key(c), [])
        same = next((o for o in alike if o.norm_value == c.norm_value), None)
        earlier = next((e for e in entries if kept_match(e, c)), None)
        if same is not None and (any(kept_match(e, same) for e in new_kept) or not new_refs.get(path)):
            continue  # the proposal only carries the kept value (its source does not say it): still kept
        if earlier is not None:  # kept before: this decision replaces that one
            entries.remove(earlier)
        if same is not None:  # the source says the same: cite its lines (the flag, if any, goes away)
            moved[claim_line(c)] = claim_line(same)
            continue
        added.append({"subject": c.subject, "attribute": c.attribute, "scope": c.scope, "value": c.value,
                      "citation": citation(c.evidence)[2:-1], "source": path,
                      "pinned": str(earlier["pinned"]) if earlier else old_refs.get(path, ""),
                      "seen": new_refs.get(path, ""), "now": alike[0].value if alike else "", "by": by, "at": at})
    fm, body = split if split is not None else split_page(current)
    if new_refs:
        for s in fm.get("sources") or []:
            if isinstance(s, dict) and str(s.get("resource")) in new_refs:
                s["digest"] = new_refs[str(s.get("resource"))]
    if entries + added:
        fm[KEPT_KEY] = entries + added
    else:
        fm.pop(KEPT_KEY, None)
    for c in cur.claims:
        entry = next((e for e in added if kept_match(e, c)), None)
        if entry is not None:
            line = claim_line(c)
            cut = line.rindex(" ^[")
            moved[line] = line[:cut] + kept_suffix(entry) + line[cut:]
    out = []
    for line in explode(body).split("\n"):  # record tables as claim lines, edited, then tables again
        key = strip_kept(line)
        out.append(moved[key] if not line.startswith(">") and key in moved else line)
    return render_page(fm, implode("\n".join(out)))


def recheck(page: Page, old: Page | None, digests: dict[str, str], source_root: Path,
            changed: set[str] | frozenset[str] = frozenset()) -> bool:
    """A pass's proposal for a page with kept claims (see the module doc). Mutates `page`. True when
    the proposal is only the change a person already decided against (every changed source of the
    page is the revision they saw, and with the kept claims restored it says what the page says):
    the previous page stands as it is."""
    entries = kept_entries(old.extra) if old is not None else []
    if not entries and KEPT_KEY not in page.extra:
        return False
    old_claims = old.claims if old is not None else []
    keep: list[dict[str, Any]] = []
    for e in entries:
        kept = next((c for c in old_claims if kept_match(e, c)), None)
        if kept is None:
            continue  # a person or a compile changed it since
        path = kept.evidence.path
        current = digests.get(path, "")
        if says(source_root, kept) and current:
            continue  # the source says the kept value again: the flag goes away
        if current != str(e.get("seen") or ""):
            continue  # the source changed again: this proposal is classified like any other
        same = [c for c in page.claims if _key(c) == _key(kept)]
        if any(c.norm_value == kept.norm_value and c.evidence == kept.evidence for c in same):
            keep.append(e)
            continue
        # the source is the revision the person decided against: the rejected value is not proposed again
        page.claims = [c for c in page.claims if _key(c) != _key(kept)] + [kept]
        keep.append(e)
    if keep:
        page.extra[KEPT_KEY] = keep
    else:
        page.extra.pop(KEPT_KEY, None)
    if not keep or old is None:
        return False
    covered = {str(e.get("source")) for e in keep}
    touched = ({s.resource for s in page.sources} | {s.resource for s in old.sources}) & set(changed)
    return touched <= covered and _claims_of(page) == _claims_of(old)


def _claims_of(page: Page) -> list[tuple]:
    return sorted((c.claim_id, c.value, citation(c.evidence)) for c in page.claims)


__all__ = ["pin_kept", "recheck", "says"]
