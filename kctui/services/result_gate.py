"""The trust boundary on the result route (trust.md §1–§4) for a result no host compiler gated: an
external compiler's staged wiki is compared page by page with the live one before anything is promoted.

The built-in compiler classifies every change inside its pass (`kctui.compiler.trust.gate.TrustGate`);
a job the host's own worker claimed in process (`claimed_by` builtin, set by the host at claim time — the
API's claim route always records `external`) is not gated again. Every other success passes here:

- each page that differs from the live one is a create, an append (every line of the live page is still
  there, every field kept or a list only grown, every cited source still cited — its digest may move —,
  the description remade), a revise (anything else: a line changed or gone, a frontmatter field changed, a person's
  `verified` sign-off dropped) or a remove; `classify_update` decides it with the base's stored policy,
  as the built-in gate does (a remove is a supersede: always held);
- a page whose only change is its flag turning worse (needs-review, contradicted, stale) passes;
- every claim the change adds must cite lines of a source file that hold its value (`kept.says`); a page
  with one that does not is held with `unsupported_claim` (the live page stands, the compiler's page is
  what the reviewer sees);
- a new or changed page that names no existing source file at all refuses the whole result
  (`InvalidOutput`: one line naming the page).

A held change keeps the live page in the staged tree, marked needs-review (a held create is a stub that
says it awaits review; a held removal restores the page), and the exact page the compiler wrote goes to
the job's `review.json` beside the compiler's own items, so the queue files it with the promotion (and
start-up recovery files it after a crash) as it files the built-in compiler's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kctui.compiler.trust.gate import held_note
from kctui.compiler.trust.kept import says
from kctui.core.claims import Claim, citation, claim_sig, read_claim_line
from kctui.core.frontmatter import FrontmatterError, parse_document
from kctui.core.page_status import (
    FLAG_KEYS,
    page_compile_status,
    render_page,
    same_content,
    set_page_status,
    split_page,
)
from kctui.core.pages import STUB_KEY, parse_page
from kctui.core.trust import HoldReason, PageState, ProposedUpdate, TrustPolicy, classify_update
from kctui.publish.validate import RESERVED_NAMES, InvalidOutput

WORSE_FLAGS = frozenset({"needs-review", "contradicted", "stale"})
# remade every pass from what the page holds (the built-in compiler's "mentioned in 2 sources"), as the
# index is; an append may change it (the compiler's own append does: trust.md §1 counts claims)
_REMADE = frozenset({"sources", "description"})
_CLAIM_SHAPE = re.compile(r"^\s*[*-]\s+\*\*.+?\*\*\s+—\s")  # `* **Subject** — attribute: value`
_WHAT = {"create": "create the page", "append": "add to the page", "revise": "change what the page says",
         "supersede": "remove the page"}


@dataclass(frozen=True)
class Change:
    """One page the staged tree changes: its kind (trust.md §1), and the texts before and after."""

    page: str
    kind: str  # create | append | revise | supersede (a removal)
    live: str | None
    staged: str | None


def page_paths(root: Path) -> set[str]:
    """Every page of a wiki tree (reserved index and log files aside), relative to it."""
    if not root.is_dir():
        return set()
    return {p.relative_to(root).as_posix() for p in root.rglob("*.md")
            if p.is_file() and p.name not in RESERVED_NAMES}


def _body_lines(text: str) -> list[str]:
    _, body = split_page(text)
    return [ln.rstrip() for ln in body.split("\n") if ln.strip() and not ln.startswith(">")]


def change_kind(live: str | None, staged: str | None, settled: bool = False) -> str | None:
    """The kind of change from `live` to `staged` (None: nothing a policy decides — the same page, or
    only its flag turned worse, or, for a page the compiler `settled`, a wait for review ended with the
    page as it is: see `settles`)."""
    if live == staged or (live is None and staged is None):
        return None
    if live is None:
        return "create"
    if staged is None:
        return "supersede"
    if same_content(live, staged):
        old, new = page_compile_status(live), page_compile_status(staged)
        return None if new == old or new in WORSE_FLAGS or (settled and settles(live, staged)) else "revise"
    (fl, _), (fs, _) = split_page(live), split_page(staged)
    kept_fields = all(_kept(v, fs.get(k)) for k, v in fl.items() if k not in FLAG_KEYS | _REMADE)
    sources_kept = _resources(fl) <= _resources(fs)
    lines_kept = set(_body_lines(live)) <= set(_body_lines(staged))
    return "append" if kept_fields and sources_kept and lines_kept else "revise"


def _kept(live: Any, staged: Any) -> bool:
    """A frontmatter field an append keeps: the same value, or a list that only grew (an alias, a tag,
    a sign-off added; one dropped is a revise)."""
    if isinstance(live, list) and isinstance(staged, list):
        return all(item in staged for item in live)
    return live == staged


def _resources(fm: dict[str, Any]) -> set[str]:
    """The source files a page cites in its `sources` (a digest moves with its file's new revision)."""
    return {str(s.get("resource")) for s in fm.get("sources") or [] if isinstance(s, dict)}


def settles(live: str, staged: str) -> bool:
    """The page waited for review and the compiler's pass reads it as it is now (the same content, its
    flag back to compiled or confirmed): the proposal that waited is moot, as the built-in gate settles
    it (`TrustGate._only_flag_changes`). Nothing of the page changes; a conflict is never closed so."""
    return (same_content(live, staged) and page_compile_status(live) == "needs-review"
            and page_compile_status(staged) in ("compiled", "confirmed"))


def changes_of(live_root: Path, staged_root: Path, settled: frozenset[str] | set[str] = frozenset()) -> list[Change]:
    """Every page the staged tree creates, changes or removes, in path order (`settled`: the pages the
    compiler's review.json says it settled)."""
    out: list[Change] = []
    for rel in sorted(page_paths(live_root) | page_paths(staged_root)):
        live, staged = _read(live_root / rel), _read(staged_root / rel)
        kind = change_kind(live, staged, rel in settled)
        if kind is not None:
            out.append(Change(rel, kind, live, staged))
    return out


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8") if path.is_file() else None
    except (OSError, UnicodeDecodeError):
        return None


def _claims(text: str | None) -> tuple[list[Claim], list[str]]:
    """The claims a page holds (its sections, record tables and status block, and any cited claim line
    elsewhere in its body), and its claim-shaped lines that cite nothing."""
    if text is None:
        return [], []
    claims: list[Claim] = []
    try:
        page = parse_page(text, "page")
        claims = list(page.claims) + list(page.disputed)
    except (ValueError, FrontmatterError):
        pass
    uncited: list[str] = []
    for line in split_page(text)[1].split("\n"):
        line = line.lstrip("> ").rstrip() if line.startswith(">") else line.rstrip()
        if not _CLAIM_SHAPE.match(line):
            continue
        claim = read_claim_line(line.strip(), {})
        if claim is None:
            uncited.append(line.strip())
        else:
            claims.append(claim)
    return claims, uncited


def unsupported(change: Change, source_root: Path) -> str | None:
    """The first claim the change adds that its cited lines do not hold (or a claim line citing
    nothing), in words; None when every added claim says what its lines say."""
    before, before_uncited = _claims(change.live)
    after, after_uncited = _claims(change.staged)
    known = {claim_sig(c) for c in before}
    for line in after_uncited:
        if line not in before_uncited:
            return f"the claim line “{line[:160]}” cites no source line"
    for claim in after:
        if claim_sig(claim) not in known and not says(source_root, claim):
            return (f"the claim “{claim.subject} — {claim.attribute}: {claim.value[:120]}” cites "
                    f"{citation(claim.evidence)[2:-1]}, whose lines do not hold that value")
    return None


def has_source(text: str, source_root: Path) -> bool:
    """The page names at least one existing source file (in its `sources`, or in a claim's citation)."""
    data, _, _ = parse_document(text)
    named = [str(s.get("resource", "")) for s in (data or {}).get("sources") or [] if isinstance(s, dict)]
    named += [c.evidence.path for c in _claims(text)[0]]
    return any(_is_source(source_root, p) for p in named)


def _is_source(root: Path, rel: str) -> bool:
    if not rel or rel.startswith("/") or ".." in rel.split("/") or "\\" in rel:
        return False
    return (root / rel).is_file() and not (root / rel).is_symlink()


def _state(change: Change) -> PageState:
    if change.live is None:
        data = parse_document(change.staged or "")[0] or {}
        return PageState(False, _page_class(data), str(data.get("title", "")))
    data = parse_document(change.live)[0] or {}
    status = str(data.get("compile_status", "compiled"))
    return PageState(True, _page_class(data), str(data.get("title", "")), _tags(data),
                     bool(data.get("verified")) or status == "confirmed", status)


def _page_class(data: dict[str, Any]) -> str:
    return {"Source": "source", "Concept": "concept", "Entity": "entity"}.get(str(data.get("type")), "other")


def _tags(data: dict[str, Any]) -> tuple[str, ...]:
    tags = data.get("tags") or []
    return tuple(str(t) for t in tags) if isinstance(tags, list) else ()


def decide(change: Change, policy: TrustPolicy, source_root: Path) -> tuple[str | None, str]:
    """(the hold reason, or None when the change applies; the summary a reviewer reads). Raises
    InvalidOutput for a new or changed page with no source at all."""
    if change.staged is not None and not has_source(change.staged, source_root):
        raise InvalidOutput(f"{change.page}: the page names no source file of the knowledge base "
                            "(no `sources` entry and no citation of an existing source)")
    state = _state(change)
    staged_data = parse_document(change.staged)[0] or {} if change.staged is not None else {}
    title = str(staged_data.get("title") or state.title or change.page)
    summary = f"{title}: {_WHAT[change.kind]} (an external compiler's result)"
    decision = classify_update(ProposedUpdate(kind=change.kind, title=title, tags=_tags(staged_data)),
                               state, policy)
    reason = None if decision.applies else decision.reason or HoldReason.SUPERSEDE.value
    why = unsupported(change, source_root) if change.kind != "supersede" else None
    if why is None:
        return reason, summary
    # the evidence's fault ranks as low_confidence does: after the rules about the target page
    first = reason in (HoldReason.NEVER_AUTO, HoldReason.HUMAN_CONFIRMED)
    return (reason if first else HoldReason.UNSUPPORTED.value), f"{summary}; {why}"


def held_stand_in(change: Change, reason: str) -> str:
    """What the staged tree holds for a held change: the live page marked needs-review (a contradicted
    page keeps that worse flag), or, for a held create, a stub that says the page awaits review."""
    if change.live is not None:
        if page_compile_status(change.live) == "contradicted":
            return change.live
        return set_page_status(change.live, "needs-review", note=held_note(change.kind, reason))
    data = parse_document(change.staged or "")[0] or {}
    title = str(data.get("title") or Path(change.page).stem)
    fm = {"type": data.get("type", "Concept"), "title": title,
          "description": f"{title}: proposed by a compiler, waiting for review.",
          "sources": data.get("sources") or [], STUB_KEY: "create"}
    return set_page_status(render_page(fm, f"# {title}\n"), "needs-review", note=held_note("create", reason))


def proposed_page(change: Change) -> str:
    """The exact page the compiler wanted (for a removal: the live page, archived)."""
    if change.staged is not None:
        return change.staged
    return set_page_status(change.live or "", "archived", note="the compiler's result removed this page")


def gate_result(live_root: Path, staged_root: Path, source_root: Path, policy: TrustPolicy,
                tally: dict[str, int] | None = None, settled: frozenset[str] | set[str] = frozenset(),
                ) -> list[dict[str, Any]]:
    """Gate a staged tree in place: every held change's live page (or stub) is written back into it.
    Returns the review items (review.json's `held` shape) of the held changes; `tally` (when given)
    counts the changes applied by kind and the held ones (for the log). Raises InvalidOutput, before
    anything is written, when a page has no source at all."""
    decided = [(c, *decide(c, policy, source_root)) for c in changes_of(live_root, staged_root, settled)]
    items: list[dict[str, Any]] = []
    for change, reason, summary in decided:
        if tally is not None:
            key = change.kind if reason is None else "held"
            tally[key] = tally.get(key, 0) + 1
        if reason is None:
            continue
        title = str((parse_document(proposed_page(change))[0] or {}).get("title") or change.page)
        items.append({"kind": "held", "page": change.page, "title": title, "updateKind": change.kind,
                      "reason": reason, "summary": summary[:4000], "proposedBody": proposed_page(change)})
        target = staged_root / change.page
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(held_stand_in(change, reason), encoding="utf-8")
    return items


def rewrite_manifest(job_dir: Path, items: list[dict[str, Any]], live_root: Path | None = None) -> bool:
    """The job's `review.json` as the host files it for an external result: the host's held items added
    (they replace the compiler's own held items on the same pages), and the compiler's `closedConflicts`
    dropped and its `settled` kept only for pages it left as they are (`settles`, against `live_root`):
    an external compiler may propose, and end a wait on a page it does not change, never close a
    conflict or a change that waits for a person. Returns whether the file changed."""
    path = job_dir / "review.json"
    if not items and not path.is_file():
        return False
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"version": 1}
    before = json.dumps(data, sort_keys=True)
    held = {it["page"] for it in items}
    data["items"] = [it for it in data.get("items") or []
                     if not (isinstance(it, dict) and it.get("kind") == "held" and it.get("page") in held)] + items
    kept = [p for p in data.get("settled") or [] if isinstance(p, str) and p not in held
            and live_root is not None and _settled_here(live_root, job_dir / "wiki", p)]
    data.pop("settled", None)
    if kept:
        data["settled"] = kept
    data.pop("closedConflicts", None)
    if json.dumps(data, sort_keys=True) == before:
        return False
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return True


def _settled_here(live_root: Path, staged_root: Path, rel: str) -> bool:
    live, staged = _read(live_root / rel), _read(staged_root / rel)
    return live is not None and staged is not None and settles(live, staged)
