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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kctui.compiler.trust import cited as _cited
from kctui.core.claims import Claim, citation, claim_line
from kctui.core.frontmatter import FrontmatterError
from kctui.core.page_status import render_page, split_page
from kctui.core.pages import KEPT_KEY, Page, kept_entries, kept_match, kept_suffix, parse_page, strip_kept
from kctui.core.record_tables import explode, implode
from kctui.core.values import cited_lines_contain, normalise_value


def _key(c: Claim) -> tuple[str, str, str, str]:
    return (c.evidence.path, c.key[1], c.key[2], c.key[3])


def _parse(text: str, rel: str) -> Page | None:
    try:
        return parse_page(text, Path(rel).stem)
    except (ValueError, FrontmatterError):
        return None


def cited_lines(source_root: Path, rel: str, start: int, end: int) -> list[str] | None:
    """Lines `start`..`end` of the source `rel` under `source_root` as it is now; None for a path out of
    the root (absolute, "..", a symlink on the way: never followed out of sources/) or a file that cannot
    be read (`kctui.compiler.trust.cited`)."""
    return _cited.cited_lines(source_root, rel, start, end)


def says(source_root: Path, claim: Claim) -> bool:
    """The claim's cited lines in the current source contain its value (case and spacing aside; a PDF page
    citation: the page's text, as the compiler checks it); for one value of a record citing the whole
    record, on a line that gives it under its key."""
    ev = claim.evidence
    span = _cited.cited_span(source_root, ev.path, ev.unit, ev.start, ev.end)
    if span is None:
        return False
    if ev.unit == "page":
        return _holds(" ".join(span), claim.value) or cited_lines_contain(span, claim.value)
    if not _holds(" ".join(span), claim.value):
        return False
    if claim.form != "fact" or not claim.scope or len(span) < 2:
        return True
    # one value of a record citing the record's lines: it must be this key's value there, not another's
    holding = [ln for ln in span if _holds(ln, claim.value)]
    key = re.compile(rf"(?:^|[\s\-{{,\"'|])[\"']?{re.escape(claim.attribute.rsplit('.', 1)[-1])}[\"']?\s*[:=]", re.I)
    return not holding or any(key.search(ln) for ln in holding)


def holds(text: str, value: str) -> bool:
    """`text` contains `value` (case, spacing and the value's normal form aside)."""
    return _holds(text, value)


def _holds(text: str, value: str) -> bool:
    return _norm(value) in _norm(text) or normalise_value(value) in _norm(text)


def _norm(text: str) -> str:
    return " ".join(text.replace("\\", "").split()).casefold()


def pin_kept(current: str, proposed: str | None, rel: str, *, by: str, at: str,
             split: tuple[dict[str, Any], str] | None = None, seen_refs: dict[str, str] | None = None) -> str:
    """The current page text with every claim the proposal revises or retracts kept and flagged, and its
    sources' digests moved to the proposal's (the person decided against that revision: the next pass
    does not propose it again). `split`: `split_page(current)` when the caller has it (changed here).
    `seen_refs`: resource -> digest every page of the decided change set cites (`change_set_refs`): the
    revision the person saw of a source this page's proposal no longer cites (QA s31 item 1: a claim
    retracted from this page is kept against that revision, not against a deleted file)."""
    cur = _parse(current, rel)
    new = _parse(proposed, rel) if proposed else None
    if cur is None or cur.is_stub:
        return current
    proposal = _Proposal.of(cur, new, seen_refs or {})
    pinning = _Pinning(kept_entries(cur.extra))
    for c in cur.claims:
        _pin(c, proposal, pinning, by=by, at=at)
    fm, body = split if split is not None else split_page(current)
    _cite_revisions(fm, proposal.new_refs)
    _set_kept(fm, pinning.entries + pinning.added)
    pinning.moved.update(_flagged_lines(cur.claims, pinning.added))
    gone = {claim_line(c) for c in _restating(cur.claims, pinning.added)}
    return render_page(fm, _replace_lines(body, pinning.moved, gone))


@dataclass(frozen=True)
class _Proposal:
    """What the rejected proposal cites and says, beside what the current page cites."""

    given: bool  # there is a proposal (a page that reads back)
    new_refs: dict[str, str]  # resource -> digest, the proposal's ({} for none, or a stub)
    old_refs: dict[str, str]  # … the current page's
    claims: dict[tuple, list[Claim]]  # the proposal's claims by `_key`
    kept: list[dict[str, Any]]  # the proposal's kept entries
    seen_refs: dict[str, str]  # resource -> digest the whole change set cites

    @classmethod
    def of(cls, cur: Page, new: Page | None, seen_refs: dict[str, str]) -> _Proposal:
        new_refs = {s.resource: s.digest for s in new.sources} if new is not None and not new.is_stub else {}
        claims: dict[tuple, list[Claim]] = {}
        for c in new.claims if new is not None else []:
            claims.setdefault(_key(c), []).append(c)
        return cls(new is not None, new_refs, {s.resource: s.digest for s in cur.sources}, claims,
                   kept_entries(new.extra) if new is not None else [], seen_refs)


@dataclass
class _Pinning:
    """`pin_kept`'s work in progress: the page's kept entries (an earlier decision on a claim is replaced),
    the entries made now, and claim lines to replace (old line -> new line)."""

    entries: list[dict[str, Any]]
    added: list[dict[str, Any]] = field(default_factory=list)
    moved: dict[str, str] = field(default_factory=dict)


def _pin(c: Claim, proposal: _Proposal, pinning: _Pinning, *, by: str, at: str) -> None:
    """One claim of the current page: kept against the proposal, moved to its citation, or left alone."""
    path = c.evidence.path
    if proposal.new_refs.get(path, "") == proposal.old_refs.get(path, "") and proposal.given:
        return  # its source did not change under this proposal
    alike = proposal.claims.get(_key(c), [])
    same = next((o for o in alike if o.norm_value == c.norm_value), None)
    earlier = next((e for e in pinning.entries if kept_match(e, c)), None)
    if same is not None and (any(kept_match(e, same) for e in proposal.kept) or not proposal.new_refs.get(path)):
        return  # the proposal only carries the kept value (its source does not say it): still kept
    if earlier is not None:  # kept before: this decision replaces that one
        pinning.entries.remove(earlier)
    if same is not None:  # the source says the same: cite its lines (the flag, if any, goes away)
        pinning.moved[claim_line(c)] = claim_line(same)
        return
    pinning.added.append({
        "subject": c.subject, "attribute": c.attribute, "scope": c.scope, "value": c.value,
        "citation": citation(c.evidence)[2:-1], "source": path,
        "pinned": str(earlier["pinned"]) if earlier else proposal.old_refs.get(path, ""),
        "seen": proposal.new_refs.get(path) or proposal.seen_refs.get(path, ""), "now": _now_at(c, alike), "by": by, "at": at})


def change_set_refs(proposals: list[str | None]) -> dict[str, str]:
    """resource -> digest that the proposals of one change set cite (their frontmatter `sources`)."""
    out: dict[str, str] = {}
    for text in proposals:
        page = _parse(text, "page.md") if text else None
        if page is not None and not page.is_stub:
            out.update({s.resource: s.digest for s in page.sources if s.digest})
    return out


def restates_kept(c: Claim, kept: Claim, now: str) -> bool:
    """Whether `c`, another claim of the page, states the value a person rejected in favour of `kept` (QA s31
    item 2, as `disputes.restates` does for a conflict): it cites the kept claim's lines (same source,
    overlapping lines), its text holds the rejected value `now` and not the kept one — the table row's
    `note:` "Datadog | Monitoring | … | Ines Duarte" beside the kept `Owner: Jonas Weber`. It leaves the
    page with the rejected value, so the page (and every answer from it) gives the kept one."""
    if not now or (c.key == kept.key and c.norm_value == kept.norm_value):
        return False
    a, b = c.evidence, kept.evidence
    if a.path != b.path or a.start > b.end or b.start > a.end:
        return False
    return _holds(c.value, now) and not _holds(c.value, kept.value)


def _restating(claims: list[Claim], entries: list[dict[str, Any]]) -> list[Claim]:
    """The claims restating the rejected value of a kept entry (`restates_kept`)."""
    out = []
    for e in entries:
        kept = next((c for c in claims if kept_match(e, c)), None)
        if kept is not None:
            out += [c for c in claims if c is not kept and restates_kept(c, kept, str(e.get("now") or ""))]
    return out


def _now_at(c: Claim, alike: list[Claim]) -> str:
    """What the proposal says at the kept claim's cited lines (QA s29 item 1): its claim of the same key
    citing those lines, else one that overlaps them; else a fact's one value from the same source (the
    lines moved); else "" ("no longer says this") — never another line's claim of the same source."""
    ev = c.evidence
    for o in alike:
        if (o.evidence.start, o.evidence.end) == (ev.start, ev.end):
            return o.value
    for o in alike:
        if o.evidence.start <= ev.end and ev.start <= o.evidence.end:
            return o.value
    return alike[0].value if c.is_atomic and len(alike) == 1 else ""


def _cite_revisions(fm: dict[str, Any], new_refs: dict[str, str]) -> None:
    """The frontmatter's sources moved to the digests the proposal cites."""
    if not new_refs:
        return
    for s in fm.get("sources") or []:
        if isinstance(s, dict) and str(s.get("resource")) in new_refs:
            s["digest"] = new_refs[str(s.get("resource"))]


def _set_kept(extra: dict[str, Any], entries: list[dict[str, Any]]) -> None:
    if entries:
        extra[KEPT_KEY] = entries
    else:
        extra.pop(KEPT_KEY, None)


def _flagged_lines(claims: list[Claim], added: list[dict[str, Any]]) -> dict[str, str]:
    """The claim line of each claim kept now -> the line with the kept marker before its citation."""
    out: dict[str, str] = {}
    for c in claims:
        entry = next((e for e in added if kept_match(e, c)), None)
        if entry is not None:
            line = claim_line(c)
            cut = line.rindex(" ^[")
            out[line] = line[:cut] + kept_suffix(entry) + line[cut:]
    return out


def _replace_lines(body: str, moved: dict[str, str], gone: set[str] | frozenset[str] = frozenset()) -> str:
    out = []
    for line in explode(body).split("\n"):  # record tables as claim lines, edited, then tables again
        key = strip_kept(line)
        if key in gone and not line.startswith(">"):
            continue
        out.append(moved[key] if not line.startswith(">") and key in moved else line)
    return implode("\n".join(out))


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
        if kept is not None and _still_kept(page, e, kept, digests, source_root):
            keep.append(e)
    _set_kept(page.extra, keep)
    return bool(keep) and old is not None and _only_the_rejected_change(page, old, keep, changed)


def _only_the_rejected_change(page: Page, old: Page, keep: list[dict[str, Any]],
                              changed: set[str] | frozenset[str]) -> bool:
    """Every changed source of the page is one a kept claim was decided against, and the proposal (its
    kept claims restored) says what the page says."""
    covered = {str(e.get("source")) for e in keep}
    touched = ({s.resource for s in page.sources} | {s.resource for s in old.sources}) & set(changed)
    return touched <= covered and _claims_of(page) == _claims_of(old)


def _still_kept(page: Page, entry: dict[str, Any], kept: Claim, digests: dict[str, str], source_root: Path) -> bool:
    """Whether the kept claim stays (restored in the proposal when it dropped it). A person or a compile
    changed it since when the caller finds no `kept` claim for the entry."""
    current = digests.get(kept.evidence.path, "")
    if says(source_root, kept) and current:
        return False  # the source says the kept value again: the flag goes away
    same = [c for c in page.claims if _key(c) == _key(kept)]
    if current != str(entry.get("seen") or "") and not _asks_again(kept, entry, same, current):
        return False  # the source changed again there: this proposal is classified like any other
    if not any(c.norm_value == kept.norm_value and c.evidence == kept.evidence for c in same):
        # the source is the revision the person decided against: the rejected value is not proposed again
        # (a fact has one value, the kept one; a note is one of many, the others stand beside it)
        others = [c for c in page.claims if _key(c) != _key(kept)] if kept.is_atomic else page.claims
        page.claims = others + [kept]
    now = str(entry.get("now") or "")
    page.claims = [c for c in page.claims if c is kept or not restates_kept(c, kept, now)]
    return True


def _asks_again(kept: Claim, entry: dict[str, Any], same: list[Claim], current: str) -> bool:
    """The source changed since the decision, elsewhere than at the kept claim (QA s31 item 1: a row added
    to a table whose other row a person kept): the proposal says at the kept claim's lines exactly what the
    person rejected (`now`; or, as then, nothing there), so the rejection holds. A file that is gone, or
    a proposal saying anything else there, asks again."""
    if not current or not str(entry.get("seen") or ""):
        return False
    mine = [c for c in same if c.subject == kept.subject]
    now = str(entry.get("now") or "")
    if not now:
        return not any(c.evidence.start <= kept.evidence.end and kept.evidence.start <= c.evidence.end for c in mine)
    return _now_at(kept, mine) == now


def _claims_of(page: Page) -> list[tuple]:
    return sorted((c.claim_id, c.value, citation(c.evidence)) for c in page.claims)


__all__ = ["change_set_refs", "holds", "pin_kept", "recheck", "says"]
