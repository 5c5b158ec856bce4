# size: the page grammar's renderer and its parser stay in one module, so that the two cannot drift apart.
"""The three page classes of wiki.md §2: render them to OKF Markdown and parse them back.

A page is the compiler's state: everything the next pass needs (claims with their evidence, mentions,
history, the disputed claims of an open conflict) is written on the page in a line grammar this module
renders and parses, so a compiler can rebuild its state from the previous wiki alone (wiki.md §4).

Claim lines (each ends with its citation; the grammar is `kctui.core.claims`):
    * **Apache Kafka** (4.3) — latest: 4.3.1 ^[products/apache-kafka.md:L39-L39]      (a fact)
    * **Apache Kafka** is an open-source event streaming platform ^[products/apache-kafka.md:L270-L272]
A list of records (claims of one subject and source, one row per scope) is written as one Markdown table
instead, one cited row per record, read back into the same claims (`kctui.core.record_tables`).
A page that is not plainly current opens with the status blockquote of `kctui.core.page_status`; on a
contradicted page it lists each disagreement's claim lines (the page's own value first). Claims shown
only there are the page's `disputed` claims: evidence that waits for a person, not part of the page.
Mention lines:
    * Mentioned as “libstd” in [[text-0040-libstd-facade|0040 libstd facade]] ^[text/0040-libstd-facade.md:L12-L12]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kctui.core import decided_values as decided_claims
from kctui.core.claims import (  # noqa: F401 - the claim-line grammar is re-exported for page users
    Claim,
    Evidence,
    Question,
    citation,
    claim_line,
    claim_sig,
    escape_text,
    parse_citation_suffix,
    parse_claim_line,
    read_claim_line,
    unescape_text,
)
from kctui.core.frontmatter import dump_yaml, parse_document
from kctui.core.page_edits import EDIT_DISPUTE_NOTE, disputed_ids, edit_entries, with_section
from kctui.core.page_status import (
    ARCHIVED_NOTE,
    block_claim_lines,
    conflict_note,
    okf_status,
    stale_note,
    status_block,
)
from kctui.core.record_tables import KEPT_MARK, mark_at, read_entries, tabulate
from kctui.core.values import attribute_key

KIND_DIRS = {"source": "sources", "concept": "concepts", "entity": "entities"}
KIND_TYPES = {"source": "Source", "concept": "Concept", "entity": "Entity"}
TYPE_KINDS = {v: k for k, v in KIND_TYPES.items()}
SECTIONS = {
    "source": ("Summary", "Key Claims", "Concepts Introduced or Reinforced", "Entities Mentioned",
               "Open Questions Raised", "Updates"),
    "concept": ("Definition", "Why It Matters", "Related Concepts", "Related Entities", "Sources", "Evolving Notes"),
    "entity": ("Description", "Relevance", "Key Positions/Products/Claims", "Related Concepts", "Related Entities",
               "Sources", "Updates"),
}
HISTORY = {"source": "Updates", "concept": "Evolving Notes", "entity": "Updates"}
DESCRIPTIVE = frozenset({"definition", "standsfor", "is", "are", "was", "were", "means", "refersto", "denotes"})
NONE_LINE = "_None yet._"
LEAD_ATTRIBUTES = frozenset({"context", "note", "description", "summary"})
STUB_KEY = "awaiting_review"
# Claims a person kept when the source changed (issue 13): frontmatter `kept_claims` lists each with the
# digest of the source revision its value came from; the claim line carries a visible marker before
# its citation: `* **Vendors** — Price: $2,400 / month (⚑ kept by a person on 2026-05-28: the source
# now says $2,750 / month; this value is from vendors.md at sha256:f37f99cc5fbb) ^[vendors.md:L7-L7]`.
KEPT_KEY = "kept_claims"
# A source page lists the names its source mentions in one sentence only (kctui.compiler.steps.recurrence).
MENTIONED_ONCE_KEY = "mentioned_once"
RECURRING_KEY = "mentioned_elsewhere"  # … those another source names too (they have pages)
# … and the names it gives pages of their own (its entities, their aliases, its subject), but those it
# mentions once: what an incremental pass counts for an unchanged source (recorded, not inferred)
OWN_NAMES_KEY = "own_names"
# … and the people it names by their full name (kctui.compiler.steps.people): the base's people, recorded
OWN_PEOPLE_KEY = "own_people"
# … and the names of several words it types as a company (kctui.compiler.steps.short_names): the base's firms
OWN_COMPANIES_KEY = "own_companies"
MAX_FRONTMATTER_SOURCES = 200
_KNOWN_KEYS = frozenset({"type", "title", "description", "tags", "sources", "generated", "status", "compile_status",
                         "aliases", "domain", "last_updated", "date_ingested", "source_type", "entity_type", "verified",
                         "sources_omitted"})

_MENTION = re.compile(r"^\* Mentioned as “(?P<surface>.*)” in .+$")
_WIKILINK = re.compile(r"\[\[(?P<slug>[^\]|\\]+)(?:\|(?:\\.|[^\]\\])*)?\]\]")
_MDLINK = re.compile(r"(?<!\\)\]\(/(?P<dir>sources|concepts|entities)/(?P<slug>[^)/\s]+)\.md\)")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")  # within a line: a lone backtick in a quoted line spans nothing


@dataclass(frozen=True, slots=True)
class SourceRef:
    resource: str  # path relative to sources/
    digest: str
    id: str  # the source page's slug


@dataclass(frozen=True, slots=True)
class Mention:
    surface: str
    evidence: Evidence


@dataclass
class Page:
    kind: str  # source | concept | entity
    slug: str
    title: str
    description: str = ""
    aliases: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    domain: str = ""
    sources: list[SourceRef] = field(default_factory=list)
    compile_status: str = "compiled"
    generated_by: str = ""
    generated_at: str = ""
    last_updated: str = ""
    date_ingested: str = ""
    source_type: str = ""
    entity_type: str = ""
    verified: list[Any] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    summary: tuple[str, Evidence] | None = None
    claims: list[Claim] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    links: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)  # section -> [(kind, slug, title)]
    conflicts: list[list[Claim]] = field(default_factory=list)  # open disputes: [page's claim, disputed …]
    disputed: list[Claim] = field(default_factory=list)  # claims shown only in the status block
    history: list[str] = field(default_factory=list)

    @property
    def rel_path(self) -> str:
        return f"{KIND_DIRS[self.kind]}/{self.slug}.md"

    @property
    def is_stub(self) -> bool:
        """A page whose creation waits for review: it holds no claims yet, only keeps links resolvable."""
        return self.extra.get(STUB_KEY) == "create"

    @property
    def human_confirmed(self) -> bool:
        return bool(self.verified) or self.compile_status == "confirmed"


# -- citations and links --------------------------------------------------------------------------


def link(slug: str, title: str, kind: str, style: str) -> str:
    if style == "markdown":
        text = title.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
        return f"[{text}](/{KIND_DIRS[kind]}/{slug}.md)"
    text = title.replace("\\", "\\\\").replace("|", "\\|").replace("]", "\\]").replace("[", "\\[")
    return f"[[{slug}|{text}]]"


def outgoing_links(body: str) -> set[str]:
    """Slugs this body links to (both link styles; code spans ignored). Each pattern runs only on a body
    holding what it cannot match without (a backtick, `[[`, `](/`)."""
    if "`" in body:
        body = _CODE_SPAN.sub("", body)
    found = {m.group("slug") for m in _WIKILINK.finditer(body)} if "[[" in body else set()
    if "](/" in body:
        found |= {m.group("slug") for m in _MDLINK.finditer(body)}
    return found


def mention_line(mention: Mention, source_link: str) -> str:
    return f"* Mentioned as “{escape_text(mention.surface)}” in {source_link} {citation(mention.evidence)}"


def kept_entries(extra: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in extra.get(KEPT_KEY) or [] if isinstance(e, dict)]


def kept_match(entry: dict[str, Any], claim: Claim) -> bool:
    return (str(entry.get("citation")) == citation(claim.evidence)[2:-1] and str(entry.get("value")) == claim.value
            and str(entry.get("subject")) == claim.subject and str(entry.get("attribute")) == claim.attribute
            and str(entry.get("scope") or "") == claim.scope)


def kept_suffix(entry: dict[str, Any]) -> str:
    now = entry.get("now")
    what = f"the source now says {escape_text(str(now))}" if now else "the source no longer says this"
    pinned = str(entry.get("pinned") or "")
    origin = f"; this value is from {escape_text(str(entry.get('source') or ''))} at {pinned[:19]}" if pinned else ""
    return f"{KEPT_MARK} on {str(entry.get('at') or '')[:10]}: {what}{origin})"


def claim_line_kept(claim: Claim, kept: list[dict[str, Any]]) -> str:
    """A claim line, with the kept marker before its citation when a person kept it."""
    line = claim_line(claim)
    for entry in kept:
        if kept_match(entry, claim):
            cut = line.rindex(" ^[")
            return line[:cut] + kept_suffix(entry) + line[cut:]
    return line


def strip_kept(line: str) -> str:
    """A claim line without its kept marker, or a decision's (kctui.core.decided_values): the compiler reads the
    value, not the flag."""
    start = mark_at(line)
    if start < 0:
        return line
    cut = line.rfind(" ^[")
    return line[:start] + line[cut:] if cut > start else line


def is_descriptive(claim: Claim) -> bool:
    return attribute_key(claim.attribute) in DESCRIPTIVE


# -- render ---------------------------------------------------------------------------------------


def frontmatter_of(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = dict(page.extra)
    data.update(
        {
            "type": KIND_TYPES[page.kind],
            "title": page.title,
            "description": page.description,
            "tags": list(page.tags),
            "sources": [{"id": s.id, "resource": s.resource, "digest": s.digest}
                        for s in page.sources[:MAX_FRONTMATTER_SOURCES]],
            "generated": {"by": page.generated_by, "at": page.generated_at},
            "status": okf_status(page.compile_status),
            "compile_status": page.compile_status,
            "aliases": list(page.aliases),
            "domain": page.domain,
            "last_updated": page.last_updated,
        }
    )
    if page.kind == "source":
        data["date_ingested"] = page.date_ingested
        data["source_type"] = page.source_type
    if page.kind == "entity":
        data["entity_type"] = page.entity_type or "thing"
    if page.verified:
        data["verified"] = page.verified
    if len(page.sources) > MAX_FRONTMATTER_SOURCES:
        # The frontmatter is capped (64 KiB): the body's Sources section lists them all.
        data["sources_omitted"] = len(page.sources) - MAX_FRONTMATTER_SOURCES
    return data


def render_page(page: Page, source_link: dict[str, str], style: str, body: str | None = None) -> str:
    """The whole page file. `source_link` maps a source path to the rendered link of its source page;
    `body` may be passed when already rendered (it does not depend on the frontmatter's timestamps)."""
    if body is None:
        body = render_body(page, source_link, style)
    return f"---\n{dump_yaml(frontmatter_of(page))}---\n\n{body}"


def render_body(page: Page, source_link: dict[str, str], style: str) -> str:
    out: list[str] = _notice(page) + [f"# {page.title}", ""]
    if page.is_stub:
        out += ["The compiler proposed this page; it has not been approved, so it holds nothing yet.", ""]
    bodies = _section_bodies(page, source_link, style)
    for name in SECTIONS[page.kind]:
        out += [f"## {name}", ""]
        out += bodies.get(name) or [NONE_LINE]
        out.append("")
    return with_section("\n".join(out), edit_entries(page.extra))  # people's and agents' edits (issue 15)


def _section_bodies(page: Page, source_link: dict[str, str], style: str) -> dict[str, list[str]]:
    """The lines of each section of the page's kind (a section left out shows `NONE_LINE`)."""
    lines_of = _claim_lines(page)
    links = {name: [link(slug, title, kind, style) for kind, slug, title in page.links.get(name, [])]
             for name in SECTIONS[page.kind]}
    bodies: dict[str, list[str]] = {}
    if page.kind == "source":
        if page.summary:
            bodies["Summary"] = [_summary_line(page)]
        bodies["Key Claims"] = lines_of(page.claims)
        bodies["Concepts Introduced or Reinforced"] = [f"* {x}" for x in links["Concepts Introduced or Reinforced"]]
        bodies["Entities Mentioned"] = [f"* {x}" for x in links["Entities Mentioned"]]
        bodies["Open Questions Raised"] = [f"* {escape_text(q.text)} {citation(q.evidence)}" for q in page.questions]
    else:
        descriptive, other = _lead_and_rest(page)
        mentions = [mention_line(m, source_link.get(m.evidence.path, escape_text(m.evidence.path)))
                    for m in page.mentions]
        if page.kind == "concept":
            bodies["Definition"] = lines_of(descriptive)
            bodies["Why It Matters"] = lines_of(other, mentions)
        else:
            bodies["Description"] = lines_of(descriptive)
            bodies["Relevance"] = mentions
            bodies["Key Positions/Products/Claims"] = lines_of(other)
    for name in ("Related Concepts", "Related Entities", "Sources"):
        if name in SECTIONS[page.kind]:
            bodies[name] = [f"* {x}" for x in links[name]]
    bodies[HISTORY[page.kind]] = list(page.history)
    return bodies


def _summary_line(page: Page) -> str:
    """A source page's summary and its citation, flagged when a person's decision covers it."""
    text, ev = page.summary  # type: ignore[misc]
    flag = ""
    decided = decided_claims.covered_of(page.extra)
    if decided:
        as_claim = decided_claims.summary_claim(text, ev)
        e = next((e for e in decided if decided_claims.matches(e, as_claim)), None)
        flag = decided_claims.suffix(e) if e is not None else ""
    return f"{escape_text(text)}{flag} {citation(ev)}"


def _claim_lines(page: Page) -> Callable[..., list[str]]:
    """`lines_of(claims, rest=())`: the lines of a list of claims, record lists as tables; the page's
    claim lines carry their kept markers."""
    kept = kept_entries(page.extra)
    decided = decided_claims.covered_of(page.extra)

    def line_of(c: Claim) -> str:
        line = claim_line_kept(c, kept)
        if decided and KEPT_MARK not in line:
            e = next((e for e in decided if decided_claims.matches(e, c)), None)
            if e is not None:
                cut = line.rindex(" ^[")
                return line[:cut] + decided_claims.suffix(e) + line[cut:]
        return line

    # a kept claim, one a person's decision covers, or the page's side of an open disagreement, keeps its
    # own (flagged) line: never a cell
    loose = {claim_sig(c) for group in page.conflicts for c in group}
    if kept or decided:
        loose |= {claim_sig(c) for c in page.claims
                  if any(kept_match(e, c) for e in kept) or any(decided_claims.matches(e, c) for e in decided)}

    def lines_of(claims: list[Claim], rest: tuple[str, ...] | list[str] = ()) -> list[str]:
        return tabulate([*claims, *rest], line_of, loose)

    return lines_of


def _lead_and_rest(page: Page) -> tuple[list[Claim], list[Claim]]:
    """A concept's or entity's descriptive claims and the others. When no source defines it, the first
    cited statement about it leads the page (shown as what it is): a statement that opens with its name
    first; a note about something else that names it in passing ("Textual is a Python framework" on
    Python) only when nothing else is said."""
    descriptive = [c for c in page.claims if is_descriptive(c)]
    other = [c for c in page.claims if not is_descriptive(c)]
    if descriptive or not other:
        return descriptive, other
    lead = _lead(page.title, other)
    return [lead], [c for c in other if c is not lead]


# a message's header field or a form's label line ("Date: 2 Dec 2026", "From: Hetzner Online <…>"): no lead
# while the page has a statement that is not one
_FIELD_LINE = re.compile(r"(?:From|To|Cc|Bcc|Date|Sent|Subject|Reply-To|Attendees|Present|Location|When|Where|Time)"
                         r":\s", re.I)


def _lead(title: str, other: list[Claim]) -> Claim:
    leads = [c for c in other if attribute_key(c.attribute) in LEAD_ATTRIBUTES] or other
    leads = [c for c in leads if not _FIELD_LINE.match(c.value)] or leads
    lead = next((c for c in leads if c.value.startswith((title, f"The {title}"))), None)
    if lead is None:
        lead = next((c for c in leads if attribute_key(c.attribute) != "note"), None) or next(
            (c for c in other if attribute_key(c.attribute) != "note"), leads[0])
    return lead


def _notice(page: Page) -> list[str]:
    """The status blockquote of `kctui.core.page_status` (one format for compiler and review queue)."""
    status, note, claims = page.compile_status, None, None
    if status == "archived":
        note = ARCHIVED_NOTE
    elif status == "contradicted":
        note = (conflict_note(len(page.conflicts)) if page.conflicts
                else EDIT_DISPUTE_NOTE if disputed_ids(edit_entries(page.extra)) else None)
        claims = [claim_line(c) for group in page.conflicts for c in group]
    elif status == "stale":
        note = stale_note(str(page.extra.get("stale_after") or "") or None)
    elif status == "needs-review" and page.is_stub:
        note = "proposed by the compiler; waiting for review, nothing here is settled yet"
    block = status_block(status, note, claims)
    return block + [""] if block else []


# -- parse ----------------------------------------------------------------------------------------


def split_sections(body: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in body.split("\n"):
        if line.startswith("## "):
            current = sections.setdefault(line[3:].strip(), [])
            continue
        if current is not None:
            current.append(line)
    for name, lines in sections.items():
        while lines and not lines[-1].strip():
            lines.pop()
        while lines and not lines[0].strip():
            lines.pop(0)
    return sections


def parse_page(text: str, slug: str) -> Page:
    data, body, _ = parse_document(text)
    page = _page_of(data or {}, slug)
    digests = {r.resource: r.digest for r in page.sources}
    sections = split_sections(body)
    _read_claims(page, sections, digests)
    _read_mentions(page, sections, digests)
    if page.kind == "source":
        _read_source_sections(page, sections, digests)
    history = sections.get(HISTORY[page.kind], [])
    page.history = [] if history == [NONE_LINE] else history
    _parse_disputes(page, block_claim_lines(body), digests)
    return page


def _page_of(data: dict[str, Any], slug: str) -> Page:
    """The page its frontmatter describes, its body not read yet."""
    kind = TYPE_KINDS.get(str(data.get("type")), "")
    if not kind:
        raise ValueError(f"not a compiled page: type {data.get('type')!r}")
    refs = [SourceRef(str(s.get("resource", "")), str(s.get("digest", "")), str(s.get("id", "")))
            for s in data.get("sources") or [] if isinstance(s, dict)]
    generated = data.get("generated") or {}
    if not isinstance(generated, dict):
        generated = {}
    return Page(
        kind=kind,
        slug=slug,
        title=str(data.get("title", slug)),
        description=str(data.get("description", "")),
        aliases=[str(a) for a in data.get("aliases") or []],
        tags=[str(t) for t in data.get("tags") or []],
        domain=str(data.get("domain", "")),
        sources=refs,
        compile_status=str(data.get("compile_status", "compiled")),
        generated_by=str(generated.get("by", "")),
        generated_at=str(generated.get("at", "")),
        last_updated=str(data.get("last_updated", "")),
        date_ingested=str(data.get("date_ingested", "")),
        source_type=str(data.get("source_type", "")),
        entity_type=str(data.get("entity_type", "")),
        verified=list(data.get("verified") or []),
        extra={k: v for k, v in data.items() if k not in _KNOWN_KEYS},
    )


_CLAIM_SECTIONS = {"source": ("Key Claims",), "concept": ("Definition", "Why It Matters"),
                   "entity": ("Description", "Key Positions/Products/Claims")}


def _read_claims(page: Page, sections: dict[str, list[str]], digests: dict[str, str]) -> None:
    for name in _CLAIM_SECTIONS[page.kind]:
        entries, _ = read_entries(sections.get(name, []), digests)  # a record table stands for its claims
        for entry in entries:
            claim = read_claim_line(strip_kept(entry), digests) if isinstance(entry, str) else entry
            if claim:
                page.claims.append(claim)


def _read_mentions(page: Page, sections: dict[str, list[str]], digests: dict[str, str]) -> None:
    for name in ("Why It Matters", "Relevance"):
        for line in sections.get(name, []):
            if _MENTION.match(line) and (split := parse_citation_suffix(line, digests)):
                m = re.match(r"^\* Mentioned as “(?P<surface>.*)” in ", line)
                if m:
                    page.mentions.append(Mention(unescape_text(m.group("surface")), split[1]))


def _read_source_sections(page: Page, sections: dict[str, list[str]], digests: dict[str, str]) -> None:
    """A source page's summary and open questions."""
    summary = [ln for ln in sections.get("Summary", []) if ln.strip() and ln != NONE_LINE]
    if summary and (split := parse_citation_suffix(strip_kept(summary[0]), digests)):
        page.summary = (unescape_text(split[0]), split[1])  # (a decision's flag left out)
    for line in sections.get("Open Questions Raised", []):
        if line.startswith("* ") and (split := parse_citation_suffix(line, digests)):
            page.questions.append(Question(unescape_text(split[0][2:]), split[1]))


def _parse_disputes(page: Page, lines: list[str], digests: dict[str, str]) -> None:
    """The status block of a contradicted page: groups of one key, the page's claim first."""
    if not lines:  # (the common case: no status block)
        return
    accepted = {claim_sig(c) for c in page.claims}
    groups: dict[tuple, list[Claim]] = {}
    for line in lines:
        claim = parse_claim_line(line, digests)
        if claim is None:
            continue
        key = (claim.key[1], claim.key[2], claim.key[3])
        groups.setdefault(key, []).append(claim)
        if claim_sig(claim) not in accepted:
            page.disputed.append(claim)
    page.conflicts = [g for g in groups.values() if len(g) > 1]
