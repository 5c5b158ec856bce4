"""Disagreements on a concept or entity page (wiki.md §4 conflict rule, trust.md §4).

Claims with the same key (attribute, scope, unit) from different sources with different values are a
dispute, never settled by the machine. The page keeps one value per key — the value it already had
(its source's later revisions follow it), or for a new key the first source's in path order — and the
other values are *disputed*: shown with their citations in the page's status block until a person
decides. A decided dispute (keep, use-new, dismiss) is recorded on the page as a fingerprint of the key
and both values in `resolved_conflicts`, so no later pass raises the same disagreement again.
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field
from typing import Any

from kctui.compiler.trust.kept import holds
from kctui.core.claims import Claim, claim_line, parse_claim_line
from kctui.core.disputable import fact_key
from kctui.core.page_status import (
    block_claim_lines,
    conflict_note,
    render_page,
    set_page_status,
    split_page,
    strip_status_line,
)
from kctui.core.pages import Page, SourceRef, claim_sig, escape_text, strip_kept
from kctui.core.record_tables import explode, implode
from kctui.core.value_sense import same_value

RESOLVED_KEY = "resolved_conflicts"


def key3(c: Claim) -> tuple[str, str, str]:
    return (fact_key(c.key[1]), c.key[2], c.key[3])  # ("Renewal" and "renews on" are one fact: core.disputable)


def fingerprint(key: tuple[str, str, str], a: str, b: str) -> str:
    """One disagreement: the fact's key and the two normalised values, order-free."""
    lo, hi = sorted((a, b))
    return hashlib.sha256("\x1f".join((*key, lo, hi)).encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass(frozen=True)
class Dispute:
    key: tuple[str, str, str]
    existing: Claim  # the page's value
    incoming: Claim  # the disagreeing evidence

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key, self.existing.norm_value, self.incoming.norm_value)


@dataclass
class Settled:
    accepted: list[Claim] = field(default_factory=list)
    disputed: list[Claim] = field(default_factory=list)
    groups: list[list[Claim]] = field(default_factory=list)  # [page's claim, disputed …] per key
    disputes: list[Dispute] = field(default_factory=list)  # every open one
    opened: list[Dispute] = field(default_factory=list)  # open now, not open on the previous page
    rejected: list[Dispute] = field(default_factory=list)  # decided by a person: `incoming` left out


def resolved_of(page: Page | None) -> set[str]:
    return {str(f) for f in (page.extra.get(RESOLVED_KEY) or [])} if page else set()


def open_fingerprints(page: Page | None) -> set[str]:
    out: set[str] = set()
    for group in page.conflicts if page else []:
        head = group[0]
        out |= {fingerprint(key3(head), head.norm_value, c.norm_value) for c in group[1:]
                if not same_value(c.norm_value, head.norm_value)}
    return out


def settle(old: Page | None, claims: list[Claim], groups: dict[tuple[str, str, str], list[Claim]]) -> Settled:
    """Split `claims` (the page's, its disputed ones, and this pass's) into the page's own, the disputed
    and the dropped (decided by a person against them). `groups` is `update.conflicts_of(claims)`."""
    known = _Known(resolved_of(old), open_fingerprints(old))
    in_group = {claim_sig(c) for group in groups.values() for c in group}
    out = Settled(accepted=[c for c in claims if claim_sig(c) not in in_group])
    for key, group in groups.items():
        held_paths = {c.evidence.path for c in (old.claims if old else []) if key3(c) == key}
        head = next((c for c in group if c.evidence.path in held_paths), group[0])
        _settle_group(out, key, head, group, known)
    if out.rejected:  # QA s30 #5: a decision covers every claim stating that fact, not only its own
        out.accepted = [c for c in out.accepted
                        if not any(restates(c, d.incoming, d.existing) for d in out.rejected)]
    return out


def restates(c: Claim, rejected: Claim, kept: Claim) -> bool:
    """Whether `c`, another claim of the page, states the fact a person decided against (QA s30 #5): it
    cites the rejected claim's lines (the same source, overlapping lines), its text holds the rejected
    value and not the value the person chose (`kept`). Such a claim leaves the page with the rejected
    one, so the page (and every answer from it) gives one value."""
    if key3(c) == key3(rejected) or not rejected.norm_value:
        return False
    a, b = c.evidence, rejected.evidence
    if a.path != b.path or a.start > b.end or b.start > a.end:
        return False
    return holds(c.value, rejected.value) and not holds(c.value, kept.value)


@dataclass(frozen=True)
class _Known:
    """The disagreements of the previous page: decided by a person, and open."""

    resolved: set[str]
    before_open: set[str]


def _settle_group(out: Settled, key: tuple[str, str, str], head: Claim, group: list[Claim], known: _Known) -> None:
    """One key's claims: those agreeing with the page's value (`head`) accepted, the others disputed unless
    a person decided against them."""
    shown = [head]
    asked: set[str] = set()  # (one question a value pair: five sources saying "8.6.1" against "8.6.1-hf2" open one)
    for c in group:
        if same_value(c.norm_value, head.norm_value):
            if c is not head:
                out.accepted.append(c)
            continue
        dispute = Dispute(key, head, c)
        if dispute.fingerprint in known.resolved:
            out.rejected.append(dispute)
            continue  # a person decided: the page's value stands
        out.disputed.append(c)
        out.disputes.append(dispute)
        shown.append(c)
        if dispute.fingerprint not in known.before_open and dispute.fingerprint not in asked:
            out.opened.append(dispute)
        asked.add(dispute.fingerprint)
    out.accepted.append(head)
    if len(shown) > 1:
        out.groups.append(shown)


def _shared(page: Page) -> dict[int, Any]:
    """A deepcopy memo that keeps the page's claims, mentions and questions as they are: frozen values,
    so a copy would be equal and never differ (copying them was most of the cost of a page's copy)."""
    kept = (*page.claims, *page.disputed, *(c for group in page.conflicts for c in group), *page.mentions,
            *page.questions)
    return {id(x): x for x in kept}


def use_new_variant(page: Page, dispute: Dispute, at: str, digests: dict[str, str],
                    source_slugs: dict[str, str]) -> Page:
    """The page as it reads when a person takes the new value: the incoming claim replaces the page's
    claims of that key, the dispute is recorded as decided."""
    new = copy.deepcopy(page, _shared(page))
    new.claims = [c for c in new.claims if key3(c) != dispute.key] + [dispute.incoming]
    new.disputed = [c for c in new.disputed if claim_sig(c) != claim_sig(dispute.incoming)]
    groups = []
    for group in new.conflicts:
        if key3(group[0]) != dispute.key:
            groups.append(group)
    new.conflicts = groups
    new.extra[RESOLVED_KEY] = sorted(resolved_of(new) | {dispute.fingerprint})
    used = {c.evidence.path for c in new.claims + new.disputed} | {m.evidence.path for m in new.mentions}
    refs = {s.resource: s for s in new.sources if s.resource in used}
    for path in used - set(refs):
        refs[path] = SourceRef(path, digests.get(path, ""), source_slugs.get(path, ""))
    new.sources = [refs[p] for p in sorted(refs, key=lambda p: p.encode())]
    old_claim, incoming = dispute.existing, dispute.incoming
    scope = f" ({old_claim.scope})" if old_claim.scope else ""
    new.history = list(new.history) + [
        f"* {at}: {escape_text(old_claim.subject)}{escape_text(scope)} {escape_text(old_claim.attribute)}: "
        f"`{incoming.evidence.path}` says {escape_text(incoming.value)} where `{old_claim.evidence.path}` says "
        f"{escape_text(old_claim.value)}; the new value is used."]
    return new


# -- a person's decision on one dispute, applied to a page's text (issue 13) ----------------------------

def _block_groups(body: str, digests: dict[str, str]) -> list[list[tuple[str, Claim]]]:
    """The status block's disagreement groups as (line, claim), the page's claim first."""
    groups: dict[tuple[str, str, str], list[tuple[str, Claim]]] = {}
    for line in block_claim_lines(body):
        c = parse_claim_line(line, digests)
        if c is not None:
            groups.setdefault(key3(c), []).append((line, c))
    return [g for g in groups.values() if len(g) > 1]


def decide_dispute(text: str, fingerprint_: str, action: str) -> tuple[str, int]:
    """The page `text` with one dispute decided — `use_new`: the incoming claim replaces the page's claim
    of that key; `keep` / `dismiss`: the page's value stands — and only that: every other line of the
    page (a held change, another dispute) is left as it is. The dispute leaves the status block and is
    recorded in `resolved_conflicts`. Returns (text, disputes still open in the block); the caller sets
    the page's status (a block with no dispute left is dropped by `set_page_status`)."""
    fm, body = split_page(text)
    digests = _digests(fm)
    groups = _block_groups(body, digests)
    taken = _take_dispute(groups, fingerprint_)
    main = explode(strip_status_line(body))  # a record table's claims as lines, to edit one of them
    if action == "use_new" and taken.head_line is not None and taken.new_line is not None:
        main = _use_new_line(main, fm, digests, taken.head_line, taken.new_line)
    if action in ("use_new", "keep") and taken.head_line is not None and taken.new_line is not None:
        main = _drop_restating(main, digests, taken, action)
    if fingerprint_:
        done = {str(f) for f in fm.get(RESOLVED_KEY) or []}
        fm[RESOLVED_KEY] = sorted(done | {fingerprint_})
    status = str(fm.get("compile_status") or "compiled")
    out = render_page(fm, implode(main, taken.remaining))
    n = sum(1 for g in groups if any(ln in taken.remaining for ln, _ in g[1:]))
    if status == "contradicted" and n:
        out = set_page_status(out, "contradicted", note=conflict_note(n), claim_lines=taken.remaining)
    return out, n


def _drop_restating(main: str, digests: dict[str, str], taken: _Taken, action: str) -> str:
    """The page's lines without the other claims that state the value the person decided against."""
    head, new = parse_claim_line(str(taken.head_line), digests), parse_claim_line(str(taken.new_line), digests)
    if head is None or new is None:
        return main
    rejected, kept = (head, new) if action == "use_new" else (new, head)
    out = []
    for ln in main.split("\n"):
        c = parse_claim_line(strip_kept(ln), digests) if ln.startswith("* ") else None
        if c is None or not restates(c, rejected, kept):
            out.append(ln)
    return "\n".join(out)


def _digests(fm: dict) -> dict[str, str]:
    return {str(s.get("resource")): str(s.get("digest")) for s in fm.get("sources") or [] if isinstance(s, dict)}


@dataclass(frozen=True)
class _Taken:
    """The status block without one dispute: the lines left, and the claim lines of the dispute taken out
    (the page's and the incoming one; None when no dispute has the fingerprint)."""

    remaining: list[str]
    head_line: str | None
    new_line: str | None


def _take_dispute(groups: list[list[tuple[str, Claim]]], fingerprint_: str) -> _Taken:
    remaining: list[str] = []
    head_line = new_line = None
    for group in groups:
        head = group[0][1]
        rest = [(ln, c) for ln, c in group[1:]
                if not (c.norm_value != head.norm_value
                        and fingerprint(key3(head), head.norm_value, c.norm_value) == fingerprint_)]
        if len(rest) != len(group) - 1:
            incoming = next(c for _, c in group[1:] if (_, c) not in rest)
            head_line, new_line = claim_line(head), claim_line(incoming)
        if rest:
            remaining += [group[0][0]] + [ln for ln, _ in rest]
    return _Taken(remaining, head_line, new_line)


def _use_new_line(main: str, fm: dict, digests: dict[str, str], head_line: str, new_line: str) -> str:
    """The page's claim line replaced by the incoming one, whose source the frontmatter then lists."""
    lines = main.split("\n")
    for i, ln in enumerate(lines):
        if strip_kept(ln) == head_line:
            lines[i] = new_line
            break
    src = new_line[new_line.rindex("^[") + 2: -1].rsplit(":", 1)[0]
    if src not in digests:
        fm.setdefault("sources", []).append({"id": "", "resource": src, "digest": ""})
    return "\n".join(lines)


def block_dispute_count(text: str, lines: list[str] | None = None) -> int:
    """How many disagreements a page's status block (or the given block lines) lists."""
    fm, body = split_page(text)
    if lines is not None:
        body = "> **Status: contradicted** — x\n>\n" + "\n".join(f"> {ln}" for ln in lines) + "\n"
    return len(_block_groups(body, _digests(fm)))


def swap_by_sides(text: str, existing: dict, incoming: dict) -> str | None:
    """use-new for a conflict whose page lists no disagreement block (an external compiler's): the
    claim line citing `existing` with its value takes the incoming value and citation. None when the
    page has no such line."""
    old_cite, new_cite = f"^[{existing.get('citation', '')}]", f"^[{incoming.get('citation', '')}]"
    old_value, new_value = str(existing.get("value") or ""), str(incoming.get("value") or "")
    if not old_value or not new_value or old_cite == "^[]" or new_cite == "^[]":
        return None
    fm, body = split_page(text)
    lines = body.split("\n")
    at = _claim_line_citing(lines, old_cite, old_value)
    if at is None:
        return None
    head = lines[at][: -len(old_cite) - 1]
    cut = head.rfind(old_value)
    lines[at] = f"{head[:cut]}{new_value}{head[cut + len(old_value):]} {new_cite}"
    _list_source(fm, str(incoming.get("source") or ""))
    return render_page(fm, "\n".join(lines))


def _claim_line_citing(lines: list[str], cite: str, value: str) -> int | None:
    """The index of the first claim line with `value` that ends with the citation `cite`."""
    for i, ln in enumerate(lines):
        if ln.startswith("* ") and ln.endswith(" " + cite) and value in ln:
            return i
    return None


def _list_source(fm: dict, src: str) -> None:
    """The frontmatter's sources with `src` among them (nothing for "")."""
    known = {str(s.get("resource")) for s in fm.get("sources") or [] if isinstance(s, dict)}
    if src and src not in known:
        fm.setdefault("sources", []).append({"id": "", "resource": src, "digest": ""})
