"""A person's decision on a conflict, recorded and carried (QA session 32, T; `kctui.core.decided_values`).

- `decision_of`: the record of a `keep` / `use-new` decision, from the page as the person saw it — the
  fact, the value chosen and the value rejected, and every line of the page stating the rejected value
  of that fact (the disputed claim's, and another source's claim of the same fact with the same value).
- `decided_page`: the decided page after `disputes.decide_dispute`, without its other claims of the
  rejected value (another source saying it, a note restating it), the record in its frontmatter and its
  claims flagged. A later pass leaves the same page: the page's value is the chosen one, the rejected
  value's disagreements are decided (`resolved_conflicts`) and their restating claims leave with them.
- `mark_page`: a page a pass builds, its claims the base's decisions cover flagged (every pass, every
  page it builds: a new page citing a rejected line is flagged too).
- `base_records`: the decisions of a base, from its pages' frontmatter.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from kctui.compiler.trust.disputes import key3, restates
from kctui.core.claims import Claim, citation, parse_claim_line
from kctui.core.decided_values import (
    CLAIMS_KEY,
    DECIDED_KEY,
    covered,
    flag_text,
    holds,
    record,
    records_of,
    summary_claim,
)
from kctui.core.page_status import block_claim_lines, render_page, split_page, strip_status_line
from kctui.core.pages import Page, strip_kept
from kctui.core.record_tables import explode, implode
from kctui.core.value_sense import same_value


def _claims(text: str) -> tuple[dict[str, Any], list[tuple[str, Claim]], list[Claim]]:
    """(frontmatter, the body's claim lines with their claims, the status block's claims)."""
    fm, body = split_page(text)
    digests = {str(s.get("resource")): str(s.get("digest")) for s in fm.get("sources") or [] if isinstance(s, dict)}
    main = []
    for ln in explode(strip_status_line(body)).split("\n"):
        c = parse_claim_line(strip_kept(ln), digests) if ln.startswith("* ") else None
        if c is not None:
            main.append((ln, c))
    block = [c for c in (parse_claim_line(ln, digests) for ln in block_claim_lines(body)) if c is not None]
    return fm, main, block


def _side_claim(claims: list[Claim], side: dict[str, Any]) -> Claim | None:
    """The claim of a conflict's side: the one citing its lines with its value (before one whose text only
    holds it, a note restating the line)."""
    cited, value = str(side.get("citation") or ""), str(side.get("value") or "")
    at = [c for c in claims if citation(c.evidence)[2:-1] == cited and holds(c.value, value)]
    return next((c for c in at if c.value == value), None) or next(iter(at), None)


def decision_of(seen: str, details: dict[str, Any], action: str, *, by: str, at: str) -> dict[str, Any] | None:
    """The record of deciding the conflict `details` (its `existing` and `incoming` sides) with `action`
    on the page `seen` (its text before the decision); None for `dismiss` or sides the page does not show."""
    if action not in ("use_new", "keep"):
        return None
    existing, incoming = details.get("existing") or {}, details.get("incoming") or {}
    chosen_side, rejected_side = (incoming, existing) if action == "use_new" else (existing, incoming)
    _, main, block = _claims(seen)
    claims = [c for _, c in main] + block
    rejected, chosen = _side_claim(claims, rejected_side), _side_claim(claims, chosen_side)
    if rejected is None or chosen is None:
        return None
    lines = [citation(c.evidence)[2:-1] for c in claims
             if key3(c) == key3(rejected) and same_value(c.norm_value, rejected.norm_value)]
    return record(subject=rejected.subject, attribute=rejected.attribute, scope=rejected.scope, chosen=chosen.value,
                  chosen_citation=citation(chosen.evidence)[2:-1], rejected=rejected.value, rejected_lines=lines,
                  action=action, by=by, at=at)


def decided_page(text: str, rec: dict[str, Any], seen: str) -> str:
    """The decided page `text` (the dispute decided) without its other claims stating the rejected value
    of the fact, with the decision recorded and its claims flagged. `seen`: the page before the decision
    (where the rejected claims are read)."""
    _, main_seen, block_seen = _claims(seen)
    rejected = [c for c in [c for _, c in main_seen] + block_seen
                if citation(c.evidence)[2:-1] in rec["rejected_lines"] and holds(c.value, str(rec["rejected"]))]
    kept = _chosen_claim(main_seen, block_seen, rec)
    fm, body = split_page(text)
    digests = {str(s.get("resource")): str(s.get("digest")) for s in fm.get("sources") or [] if isinstance(s, dict)}
    out = []
    for ln in explode(body).split("\n"):
        c = parse_claim_line(strip_kept(ln), digests) if ln.startswith("* ") else None
        if c is not None and kept is not None and _states_rejected(c, rejected, kept):
            continue
        out.append(ln)
    fm[DECIDED_KEY] = [r for r in records_of(fm) if r.get("chosen_citation") != rec["chosen_citation"]
                       or r.get("rejected") != rec["rejected"]] + [rec]
    return flag_text(render_page(fm, implode("\n".join(out))), [rec])


def _chosen_claim(main: list[tuple[str, Claim]], block: list[Claim], rec: dict[str, Any]) -> Claim | None:
    return next((c for c in [c for _, c in main] + block
                 if citation(c.evidence)[2:-1] == rec["chosen_citation"] and holds(c.value, str(rec["chosen"]))), None)


def _states_rejected(c: Claim, rejected: list[Claim], kept: Claim) -> bool:
    """The claim is one of the rejected value of the fact, or restates one (`disputes.restates`)."""
    for r in rejected:
        if key3(c) == key3(r) and same_value(c.norm_value, r.norm_value):
            return True
        if restates(c, r, kept):
            return True
    return False


def mark_page(page: Page, records: list[dict[str, Any]]) -> None:
    """The page's claims the decisions `records` cover flagged (`decided_claims`); none: the key goes."""
    claims = list(page.claims)
    if page.summary is not None and records:
        claims.append(summary_claim(*page.summary))
    entries = covered(claims, records) if records else []
    if entries:
        page.extra[CLAIMS_KEY] = entries
    else:
        page.extra.pop(CLAIMS_KEY, None)


def encoded(extra: dict[str, Any]) -> tuple[str, ...]:
    """A page's decision records as compact JSON strings (the page memo keeps them)."""
    return tuple(json.dumps(r, sort_keys=True, ensure_ascii=False) for r in records_of(extra))


def base_records(encoded_records: Iterable[str]) -> list[dict[str, Any]]:
    """The decision records of a base, from the encoded records of its pages."""
    out = []
    for s in encoded_records:
        try:
            r = json.loads(s)
        except ValueError:
            continue
        if isinstance(r, dict):
            out.append(r)
    return out


__all__ = ["base_records", "decided_page", "decision_of", "encoded", "mark_page"]
