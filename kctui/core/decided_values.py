"""A person's decision on a conflict, on every page that states its values (QA session 32, T).

`keep` or `use-new` decides one fact of one page. The lines that state the rejected value are seldom on
that page alone: the source page of each source that says it, another entity's page citing the same line.
Those pages must not go on reading as if nobody had decided.

- The decided page records the decision in its frontmatter `decided_values` (`record`): the fact (subject,
  attribute, scope), the value chosen and its citation, the value rejected and EVERY line stating it
  (`rejected_lines`: the rejected claim's and those of the page's other claims of that fact with that
  value), who decided and when.
- Every page's claims that a decision covers (`side`) carry a flag before their citation and an entry in
  the page's frontmatter `decided_claims` (`covered`): a claim citing a rejected line and stating the
  rejected value (not the chosen one) `⚑ decided against by a person on DATE, for CHOSEN`; a claim citing
  the chosen line and stating the chosen value `✓ decided by a person on DATE, over REJECTED`. A value a
  person kept when its source changed keeps its own flag (`kctui.core.pages.kept_suffix`).
- A claim that does not name the decided thing (its subject, attribute or value) is not covered: a line
  may state facts of other things beside the decided one ("Kafka — date: 14 Nov" on the same line).

Pure: the compiler marks the pages it builds (`kctui.compiler.trust.gate`), the review queue the live
pages when a person decides (`flag_text`); search and ask read the flags from the claim lines.
"""

from __future__ import annotations

import re
from typing import Any

from kctui.core.claims import (
    Claim,
    Evidence,
    citation,
    escape_text,
    parse_citation_suffix,
    parse_claim_line,
    unescape_text,
)
from kctui.core.page_status import render_page, split_page
from kctui.core.record_tables import AGAINST_MARK, DECIDED_MARK, KEPT_MARK, explode, implode, mark_at
from kctui.core.values import normalise_value

DECIDED_KEY = "decided_values"  # on the page a person decided: one record per decision
CLAIMS_KEY = "decided_claims"  # on any page: its claims a decision covers, each with its side
CHOSEN, REJECTED = "chosen", "rejected"
SUMMARY = "summary"  # the attribute of a source page's summary as a covered claim
_CITED = re.compile(r"^(?P<path>(?:\\.|[^\\])+):(?:L(?P<start>\d+)-L(?P<end>\d+)|p(?P<page>\d+))$")


def record(*, subject: str, attribute: str, scope: str, chosen: str, chosen_citation: str, rejected: str,
           rejected_lines: list[str], action: str, by: str, at: str) -> dict[str, Any]:
    """One decision as the decided page's frontmatter keeps it (citations as `path:La-Lb`)."""
    return {"subject": subject, "attribute": attribute, "scope": scope, "chosen": chosen,
            "chosen_citation": chosen_citation, "rejected": rejected,
            "rejected_lines": sorted(dict.fromkeys(rejected_lines)), "action": action, "by": by, "at": at}


def records_of(extra: dict[str, Any]) -> list[dict[str, Any]]:
    """The decision records of a page's frontmatter (malformed entries left out)."""
    return [r for r in extra.get(DECIDED_KEY) or [] if isinstance(r, dict) and r.get("chosen") and r.get("rejected")]


def covered_of(extra: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in extra.get(CLAIMS_KEY) or [] if isinstance(e, dict)]


def holds(text: str, value: str) -> bool:
    """`text` contains `value` (case, spacing and the value's normal form aside)."""
    hay = _norm(text)
    return bool(value) and (_norm(value) in hay or normalise_value(value) in hay)


def _norm(text: str) -> str:
    return " ".join(text.replace("\\", "").split()).casefold()


def span(cited: str) -> tuple[str, int, int] | None:
    """`path:La-Lb` (or `path:pN`) -> (path, a, b)."""
    m = _CITED.match(cited)
    if not m:
        return None
    path = re.sub(r"\\(.)", r"\1", m.group("path"))
    if m.group("page"):
        return path, int(m.group("page")), int(m.group("page"))
    return path, int(m.group("start")), int(m.group("end"))


def _cites(claim: Claim, cited: str) -> bool:
    at = span(cited)
    ev = claim.evidence
    return at is not None and at[0] == ev.path and ev.start <= at[2] and at[1] <= ev.end


def side(rec: dict[str, Any], claim: Claim) -> str | None:
    """Which side of the decision `rec` the claim states (CHOSEN, REJECTED), or None."""
    chosen, rejected = str(rec.get("chosen") or ""), str(rec.get("rejected") or "")
    if not chosen or not rejected:
        return None
    if not holds(f"{claim.subject} {claim.attribute} {claim.value}", str(rec.get("subject") or "")):
        return None  # a line stating more than one fact: the claim of another thing ("Kafka — date: 14 Nov")
    value = claim.value
    if holds(value, rejected) and not holds(value, chosen):
        lines = [str(x) for x in rec.get("rejected_lines") or []]
        return REJECTED if any(_cites(claim, x) for x in lines) else None
    if holds(value, chosen) and not holds(value, rejected):
        return CHOSEN if _cites(claim, str(rec.get("chosen_citation") or "")) else None
    return None


def entry(rec: dict[str, Any], claim: Claim, which: str) -> dict[str, Any]:
    return {"subject": claim.subject, "attribute": claim.attribute, "scope": claim.scope, "value": claim.value,
            "citation": citation(claim.evidence)[2:-1], "side": which, "chosen": str(rec.get("chosen") or ""),
            "rejected": str(rec.get("rejected") or ""), "at": str(rec.get("at") or "")}


def covered(claims: list[Claim], records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries of the claims the decisions `records` cover (one per claim: the latest decision first)."""
    ordered = sorted(records, key=lambda r: str(r.get("at") or ""), reverse=True)
    out = []
    for c in claims:
        for rec in ordered:
            which = side(rec, c)
            if which is not None:
                out.append(entry(rec, c, which))
                break
    return out


def summary_claim(text: str, evidence: Evidence) -> Claim:
    """A source page's summary as a claim, to be covered as one (its flag, its entry)."""
    return Claim("", SUMMARY, text, "", "statement", "summary", evidence)


def matches(e: dict[str, Any], claim: Claim) -> bool:
    return (str(e.get("citation")) == citation(claim.evidence)[2:-1] and str(e.get("value")) == claim.value
            and str(e.get("subject")) == claim.subject and str(e.get("attribute")) == claim.attribute
            and str(e.get("scope") or "") == claim.scope)


def suffix(e: dict[str, Any]) -> str:
    """The flag a covered claim carries before its citation."""
    day = str(e.get("at") or "")[:10]
    if e.get("side") == CHOSEN:
        return f"{DECIDED_MARK} on {day}, over {escape_text(str(e.get('rejected') or ''))})"
    return f"{AGAINST_MARK} on {day}, for {escape_text(str(e.get('chosen') or ''))})"


def flag_text(text: str, records: list[dict[str, Any]], *, replace: bool = False) -> str:
    """A live page's text with the claims `records` cover flagged, its `decided_claims` set to match; the
    text itself when nothing changes. The flags of earlier decisions stay (`replace`: `records` are every
    decision, a claim none covers is unflagged). The status block's lines (an open disagreement) and a
    kept value's line are left as they are."""
    fm, body = split_page(text)
    digests = {str(s.get("resource")): str(s.get("digest")) for s in fm.get("sources") or [] if isinstance(s, dict)}
    before = covered_of(fm)
    entries: list[dict[str, Any]] = []
    out = []
    section = ""
    for ln in explode(body).split("\n"):
        if ln.startswith("## "):
            section = ln[3:].strip()
        summary = section == "Summary" and bool(ln.strip()) and not ln.startswith("## ")
        if not (ln.startswith("* ") or summary) or KEPT_MARK in ln:
            out.append(ln)
            continue
        base = _unflagged(ln)
        claim = _summary_of(base, digests) if summary else parse_claim_line(base, digests)
        found = covered([claim], records) if claim is not None else []
        if claim is not None and not found and not replace:  # an earlier decision's flag stays
            found = [e for e in before if matches(e, claim)][:1]
        entries += found
        out.append(_flagged(base, found[0]) if found else base)
    if entries:
        fm[CLAIMS_KEY] = entries
    else:
        fm.pop(CLAIMS_KEY, None)
    new = render_page(fm, implode("\n".join(out)))
    return text if new == render_page(*split_page(text)) else new


def _summary_of(line: str, digests: dict[str, str]) -> Claim | None:
    split = parse_citation_suffix(line, digests)
    return summary_claim(unescape_text(split[0]), split[1]) if split else None


def decided_rank(text: str) -> int:
    """0: a statement of a value a person decided for (✓, or kept against its changed source); 2: one they
    decided against (⚑); 1: any other. Search and ask put a decided value first (QA session 32, T)."""
    if DECIDED_MARK in text or KEPT_MARK in text:
        return 0
    return 2 if AGAINST_MARK in text else 1


def _unflagged(line: str) -> str:
    at = mark_at(line)
    cut = line.rfind(" ^[")
    return line[:at] + line[cut:] if 0 <= at < cut else line


def _flagged(line: str, e: dict[str, Any]) -> str:
    cut = line.rindex(" ^[")
    return line[:cut] + suffix(e) + line[cut:]


__all__ = ["CHOSEN", "CLAIMS_KEY", "DECIDED_KEY", "REJECTED", "covered", "covered_of", "decided_rank", "flag_text", "holds",
           "matches", "record", "records_of", "side", "span", "suffix", "summary_claim"]
