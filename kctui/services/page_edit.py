"""Direct page edits by a person or an agent (issue 15, seeds/003 `update_knowledge_page`): deliberately
narrower than the compiler — append a statement or a note, or revise a section a person wrote; never
supersede; a human-confirmed page takes appends only. The same `classify_update` decides, so there is
no way around the trust boundary:

- a person's edit is attended: the autonomy ceiling and never-auto guards (rules about what is written
  *unattended*) do not apply to it; human-confirmed, supersede and the rest do;
- an agent's edit is unattended: the base's policy applies as it stands (autonomy included);
- what the boundary would hold is refused with its reason code (`Refused`), and nothing changes.

A statement may cite a source line range; the lines must contain its value (the compiler's own check,
`kctui.compiler.trust.kept.says`), and the source revision it was checked against is recorded, so a later
source change that disagrees opens a conflict (`kctui.compiler.trust.page_edits`). Every edit is the
page's next immutable revision with its author, published through the page-level promotion (the one
writer of `wiki/`), in one transaction with its revision record; an open held proposal on the page is
rebased onto the edit, so approving it later does not drop what the person wrote.
"""

from __future__ import annotations

import copy
import os
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

from kctui import paths
from kctui.compiler.trust.kept import says
from kctui.core.claims import Claim, Evidence
from kctui.core.clock import rfc3339
from kctui.core.frontmatter import FrontmatterError
from kctui.core.page_edits import EDITS_KEY, edit_entries, next_id, parse_citation, with_section
from kctui.core.page_sections import page_sections, section_named
from kctui.core.page_status import page_compile_status, render_page, split_page
from kctui.core.pages import TYPE_KINDS
from kctui.core.trust import PageState, ProposedUpdate, classify_update
from kctui.services.bases import get_base
from kctui.services.context import ServiceContext
from kctui.services.errors import Conflict, InvalidInput, NotFound, Refused
from kctui.services.policy import PAGE_CLASSES, load_policy
from kctui.services.review_decide import _no_compile_running, actor_name, file_digest
from kctui.services.review_publish import after_publish, publish_pages
from kctui.services.review_queue import read_live_page
from kctui.services.revisions import _resolve_page, current_revision_number

OPS = ("append", "revise", "supersede")
MAX_TEXT = 8_000


def _digest(root: Path, rel: str) -> str:
    return file_digest(root, rel)


def apply_entries(text: str, entries: list[dict[str, Any]], *, split: tuple[dict, str] | None = None,
                  source: dict[str, Any] | None = None) -> str:
    """`text` (a page) with its edits set to `entries`: the frontmatter list and the section that shows it.
    `split`: `split_page(text)` when the caller has it (changed here); `source`: an entry whose cited
    source joins the page's `sources` (`_with_source`)."""
    fm, body = split if split is not None else split_page(text)
    if source is not None:
        _add_source(fm, source)
    if entries:
        fm[EDITS_KEY] = entries
    else:
        fm.pop(EDITS_KEY, None)
    return render_page(fm, with_section(body, entries))


def _add_source(fm: dict[str, Any], entry: dict[str, Any]) -> None:
    """The statement's cited source among the page's `sources`, so a pass that changes that source
    re-checks the page (the compiler keeps it there while a statement cites it)."""
    refs = [r for r in fm.get("sources") or [] if isinstance(r, dict)]
    if not any(str(r.get("resource")) == entry["source"] for r in refs):
        fm["sources"] = refs + [{"id": "", "resource": entry["source"], "digest": entry["digest"]}]


def _check_text(text: Any, what: str = "text") -> str:
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput(f"{what} must be non-empty text")
    if len(text) > MAX_TEXT:
        raise InvalidInput(f"{what} is {len(text):,} characters; at most {MAX_TEXT:,}")
    if "\0" in text:
        raise InvalidInput(f"{what} must not contain NUL characters")
    return " ".join(text.split())


def _entry(root: Path, *, kind: str, text: str, citation: str | None, value: str | None, section: str | None,
           author: str, at: str, entries: list[dict[str, Any]], title: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": next_id(entries), "kind": kind, "text": text, "by": author, "at": at}
    if kind == "section":
        entry["section"] = _check_text(section, "section")
        return entry
    if citation:
        if kind != "statement":
            raise InvalidInput("only a statement cites source lines (a note is the writer's own words)")
        try:
            path, start, end = parse_citation(citation)
        except ValueError as exc:
            raise InvalidInput(str(exc)) from None
        digest = _digest(root, path)
        if not digest:
            raise InvalidInput(f"cited source {path} is not a readable file in the base's sources/")
        wanted = _check_text(value, "value") if value is not None else text
        claim = Claim(subject=title, attribute="statement", value=wanted, scope="", form="statement",
                      origin="statement", evidence=Evidence(path, start, end, digest))
        if not says(root, claim):
            raise InvalidInput(f"the cited lines {path}:L{start}-L{end} do not contain “{wanted[:200]}”"
                               + ("" if value is not None else "; give the value the lines contain (--value)"))
        entry.update(citation=f"{path}:L{start}-L{end}", source=path, value=wanted, digest=digest)
    elif value is not None:
        raise InvalidInput("a value is checked against cited lines: give a citation with it")
    return entry


def _policy_for(ctx: ServiceContext, workspace: str, kb_id: str, author: str):
    policy = load_policy(ctx, workspace, kb_id)[0]
    policy = replace(policy, enabled=True, maintain_kinds=PAGE_CLASSES)
    if author.startswith("human:"):  # attended: the rules about unattended writes do not apply
        policy = replace(policy, autonomy="auto", never_auto=())
    return policy


def edit_page(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, slug: str, *, op: str,
              text: str, kind: str | None = None, citation: str | None = None, value: str | None = None,
              section: str | None = None, author: str | None = None, edit_id: str | None = None,
              expected_revision: int | None = None) -> dict[str, Any]:
    """One direct edit of page `slug` (a slug or a page path). op `append` (kind `statement` — the
    default — or `note`), `revise` (kind `section`: set the text of the section named `section`; or
    `edit_id`: rewrite that earlier statement or note, a statement checked against its citation again),
    or `supersede` (always refused). Returns what was written: page, revision, the edit, its author."""
    kind = _checked_request(op, kind, edit_id)
    body_text = _check_text(text)
    author = _checked_author(author)
    if expected_revision is not None and (not isinstance(expected_revision, int) or expected_revision < 1):
        raise InvalidInput("expected revision must be a revision number (1 or more)")
    base = get_base(ctx, workspace, kb_id)
    ws, kb = base.workspace, base.id
    rel = _resolve_page(ctx, ws, kb, slug)
    wiki = paths.wiki_path(Path(ws), kb)
    root = paths.sources_path(Path(ws), kb)
    now = ctx.now()
    at = rfc3339(now) or ""
    with ctx.store.write() as conn:
        _no_compile_running(conn, ws, kb)
        current, (fm, _body), state = _editable_page(conn, wiki, ws, kb, rel, slug, expected_revision)
        decision = classify_update(ProposedUpdate(kind=op, confidence=1.0, title=state.title, tags=state.tags),
                                   state, _policy_for(ctx, ws, kb, author))
        if not decision.applies:
            raise Refused(f"{op} of {rel} refused ({decision.reason}): {decision.words}", decision.reason or "refused")
        entries = copy.deepcopy(edit_entries(fm))
        target = None
        if edit_id is not None:
            target = _earlier_edit(entries, edit_id, kind, rel)
            kind, section = str(target.get("kind")), section or target.get("section")
            if kind == "statement" and citation is None and target.get("citation"):
                citation = str(target["citation"])
                value = value if value is not None else target.get("value")
        if kind == "section" and edit_id is None:
            section = _page_section(section, _body, rel)
        entry = _entry(root, kind=kind, text=body_text, citation=citation, value=value, section=section,
                       author=author, at=at, entries=entries, title=state.title)
        _place(entries, entry, target)
        cited = entry if entry.get("source") else None
        new_text = apply_entries(current, entries, split=(fm, _body), source=cited)
        what = f"{op} {entry['id']} ({kind})"
        publish_pages(conn, ws, kb, {rel: new_text}, author=author, reason=f"{what} by {author}", now_us=now)
        after_publish(conn, ws, kb, [rel], _rebased_proposals(conn, ws, kb, rel, entries, cited))
        revision = current_revision_number(conn, ws, kb, rel)
    return {"knowledgeBaseId": kb, "page": rel, "revision": revision, "operation": op, "edit": entry,
            "author": author, "decision": decision.action}


def _checked_request(op: str, kind: str | None, edit_id: str | None) -> str | None:
    """The edit's kind (its default for `op`: append a statement, revise a section; None when revise
    rewrites an earlier edit of the kind that edit has); InvalidInput for an operation or kind that
    does not go together, Refused for supersede."""
    if op not in OPS:
        raise InvalidInput(f"operation {op!r} must be append or revise (supersede is never a direct edit)")
    if op == "supersede":  # the one kind classify_update holds at every level: a direct edit never asks
        raise Refused("a direct edit never supersedes a page (replacing, merging, splitting or archiving it "
                      "needs a person's review of a compile's proposal); append or revise instead", "supersede")
    if edit_id is not None and op != "revise":
        raise InvalidInput("an earlier edit is rewritten with revise")
    kind = kind or ("section" if op == "revise" and edit_id is None else "statement" if op == "append" else None)
    if op == "append" and kind not in ("statement", "note"):
        raise InvalidInput(f"append adds a statement or a note (got {kind!r}); revise sets a section")
    if op == "revise" and edit_id is None and kind != "section":
        raise InvalidInput(f"revise sets the text of a section (got {kind!r}) or rewrites an earlier edit "
                           "(give its id); append adds statements and notes")
    return kind


def _page_section(name: str | None, body: str, rel: str) -> str:
    """The page's own spelling of section `name`; InvalidInput (one line, listing them) when it has none."""
    sections = page_sections(body)
    found = section_named(name or "", sections)
    if found is None:
        raise InvalidInput(f"page {rel} has no section {str(name or '')[:80]!r}; its sections: {', '.join(sections)}")
    return found


def _checked_author(author: str | None) -> str:
    """The edit's author (default: this process's actor): human:NAME or agent:NAME, else InvalidInput."""
    author = author or actor_name()
    if not author.startswith(("human:", "agent:")):
        raise InvalidInput(f"author {author!r} must be human:NAME or agent:NAME")
    return author


def _editable_page(conn: sqlite3.Connection, wiki: Path, ws: str, kb: str, rel: str, slug: str,
                   expected_revision: int | None) -> tuple[str, tuple[dict[str, Any], str], PageState]:
    """The live page `rel` that takes an edit: its text, `split_page` of it and its state for the trust
    boundary. NotFound when it is not in the wiki; Conflict when it cannot be read, is archived or a
    proposal waiting for review, or is no longer at `expected_revision`."""
    current = read_live_page(wiki, rel)
    if current is None:
        raise NotFound(f"page {rel} is not in the promoted wiki of {kb}")
    try:
        fm, body = split_page(current)
    except FrontmatterError as exc:
        raise Conflict(f"page {rel} cannot be read ({exc}); nothing was changed") from None
    page_class = TYPE_KINDS.get(str(fm.get("type")), "")
    status = page_compile_status(current)
    if status == "archived" or fm.get("awaiting_review") == "create":
        raise Conflict(f"page {rel} is {'archived' if status == 'archived' else 'a proposal waiting for review'}; "
                       "it takes no edits")
    rev = current_revision_number(conn, ws, kb, rel)
    if expected_revision is not None and expected_revision != rev:
        raise Conflict(f"page {rel} changed since revision {expected_revision} (it is now {rev}); read it again")
    state = PageState(exists=True, page_class=page_class, title=str(fm.get("title") or slug),
                      tags=tuple(str(t) for t in fm.get("tags") or []),
                      human_confirmed=bool(fm.get("verified")) or status == "confirmed", compile_status=status)
    return current, (fm, body), state


def _earlier_edit(entries: list[dict[str, Any]], edit_id: str, kind: str | None, rel: str) -> dict[str, Any]:
    """The page's edit `edit_id`, to be rewritten: NotFound when there is none, Conflict when its source
    disputes it, InvalidInput when it is not of `kind`."""
    target = next((e for e in entries if str(e.get("id")) == str(edit_id)), None)
    if target is None:
        raise NotFound(f"page {rel} has no edit {edit_id!r} (its edits: "
                       f"{', '.join(str(e.get('id')) for e in entries) or 'none'})")
    if target.get("disputed"):
        raise Conflict(f"edit {edit_id} of {rel} is disputed by its source; its conflict waits for a "
                       "person's decision first")
    if kind is not None and kind != target.get("kind"):
        raise InvalidInput(f"edit {edit_id} is a {target.get('kind')}, not a {kind}")
    return target


def _place(entries: list[dict[str, Any]], entry: dict[str, Any], target: dict[str, Any] | None) -> None:
    """`entry` among `entries`: in place of the edit it rewrites (`target`) or of the same section's
    earlier text, with that one's id; else at the end."""
    if target is None and entry["kind"] == "section":
        target = next((e for e in entries if e.get("kind") == "section" and e.get("section") == entry["section"]), None)
    if target is not None:
        entry["id"] = target.get("id")
        entries[entries.index(target)] = entry
    else:
        entries.append(entry)


def _rebased_proposals(conn: sqlite3.Connection, ws: str, kb: str, rel: str, entries: list[dict[str, Any]],
                       cited: dict[str, Any] | None) -> list[tuple[int, str, str]]:
    """The open held proposals for page `rel` with the page's edits set to `entries` (one whose
    frontmatter cannot be read is left as it is)."""
    rebased = []
    for item_id, body in conn.execute(
            "SELECT p.item_id, p.proposed_body FROM review_item_pages p JOIN review_items i ON i.id = p.item_id "
            "WHERE i.workspace = ? AND i.base_id = ? AND i.state = 'open' AND i.kind = 'held' AND p.page_path = ?",
            (ws, kb, rel)).fetchall():
        if body:
            try:
                rebased.append((int(item_id), rel, apply_entries(str(body), entries, source=cited)))
            except FrontmatterError:
                continue
    return rebased


__all__ = ["edit_page", "apply_entries", "OPS"]
