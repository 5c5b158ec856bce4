"""The three page classes of wiki.md §2: render them to OKF Markdown and parse them back.

A page is the compiler's state: everything the next pass needs (claims with their evidence, mentions,
history) is written on the page in a line grammar this module renders and parses, so a compiler can
rebuild its state from the previous wiki alone (wiki.md §4).

Claim lines (each ends with its citation):
    * **Apache Kafka** (4.3) — latest: 4.3.1 ^[products/apache-kafka.md:L39-L39]      (a fact)
    * **Apache Kafka** is an open-source event streaming platform ^[products/apache-kafka.md:L270-L272]
Mention lines:
    * Mentioned as “libstd” in [[text-0040-libstd-facade|0040 libstd facade]] ^[text/0040-libstd-facade.md:L12-L12]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from kctui.compiler.extract import VERBS, Claim, Evidence, Question
from kctui.compiler.values import attribute_key
from kctui.core.frontmatter import dump_yaml, parse_document

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
OKF_STATUS = {"needs-review": "draft", "contradicted": "draft", "archived": "deprecated"}
DESCRIPTIVE = frozenset({"definition", "standsfor", "is", "are", "was", "were", "means", "refersto", "denotes"})
NONE_LINE = "_None yet._"
MAX_FRONTMATTER_SOURCES = 200
_KNOWN_KEYS = frozenset({"type", "title", "description", "tags", "sources", "generated", "status", "compile_status",
                         "aliases", "domain", "last_updated", "date_ingested", "source_type", "entity_type", "verified",
                         "sources_omitted"})

_CITE = re.compile(r" \^\[(?P<path>(?:\\.|[^\]\\])+):(?:L(?P<a>\d+)-L(?P<b>\d+)|p(?P<p>\d+))\]$")
_VERB_ALT = "|".join(re.escape(v) for v in VERBS)
_CLAIM = re.compile(
    r"^\* \*\*(?P<subject>(?:\\.|[^*\\])+)\*\*(?: \((?P<scope>(?:\\.|[^)\\])*)\))?"
    rf"(?: — (?P<attr>(?:\\.|[^:\\])+): | (?P<verb>{_VERB_ALT}) )(?P<value>.*)$"
)
_MENTION = re.compile(r"^\* Mentioned as “(?P<surface>.*)” in .+$")
_ESCAPABLE = re.compile(r"([\\\[\]<&])")
_WIKILINK = re.compile(r"\[\[(?P<slug>[^\]|\\]+)(?:\|(?:\\.|[^\]\\])*)?\]\]")
_MDLINK = re.compile(r"(?<!\\)\]\(/(?P<dir>sources|concepts|entities)/(?P<slug>[^)/\s]+)\.md\)")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)


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
    conflicts: list[list[Claim]] = field(default_factory=list)  # derived: groups of disagreeing claims
    history: list[str] = field(default_factory=list)

    @property
    def rel_path(self) -> str:
        return f"{KIND_DIRS[self.kind]}/{self.slug}.md"


# -- citations and links --------------------------------------------------------------------------


def citation(ev: Evidence) -> str:
    path = ev.path.replace("\\", "\\\\").replace("]", "\\]")
    if ev.unit == "page":
        return f"^[{path}:p{ev.start}]"
    return f"^[{path}:L{ev.start}-L{ev.end}]"


def parse_citation_suffix(line: str, digests: dict[str, str]) -> tuple[str, Evidence] | None:
    """Split `text ^[path:L1-L2]` into (text, Evidence); the digest comes from the page's sources."""
    m = _CITE.search(line)
    if not m:
        return None
    path = re.sub(r"\\(.)", r"\1", m.group("path"))
    digest = digests.get(path, "")
    if m.group("p"):
        ev = Evidence(path, int(m.group("p")), int(m.group("p")), digest, "page")
    else:
        ev = Evidence(path, int(m.group("a")), int(m.group("b")), digest)
    return line[: m.start()], ev


def link(slug: str, title: str, kind: str, style: str) -> str:
    if style == "markdown":
        text = title.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
        return f"[{text}](/{KIND_DIRS[kind]}/{slug}.md)"
    text = title.replace("\\", "\\\\").replace("|", "\\|").replace("]", "\\]").replace("[", "\\[")
    return f"[[{slug}|{text}]]"


def outgoing_links(body: str) -> set[str]:
    """Slugs this body links to (both link styles; code spans ignored)."""
    body = _CODE_SPAN.sub("", body)
    found = {m.group("slug") for m in _WIKILINK.finditer(body)}
    found |= {m.group("slug") for m in _MDLINK.finditer(body)}
    return found


# -- text escaping (outside code spans: backslash, brackets, < and & so values never form links or HTML)


def _segments(text: str) -> list[tuple[bool, str]]:
    """(is_code, segment) pieces of inline text, code spans per CommonMark backtick-run matching."""
    out: list[tuple[bool, str]] = []
    pos = 0
    for m in _CODE_SPAN.finditer(text):
        if m.start() > pos:
            out.append((False, text[pos : m.start()]))
        out.append((True, m.group(0)))
        pos = m.end()
    if pos < len(text):
        out.append((False, text[pos:]))
    return out


def escape_text(text: str) -> str:
    if not _ESCAPABLE.search(text):
        return text
    return "".join(seg if code else _ESCAPABLE.sub(r"\\\1", seg) for code, seg in _segments(text))


def unescape_text(text: str) -> str:
    if "\\" not in text:
        return text
    return "".join(seg if code else re.sub(r"\\([\\\[\]<&])", r"\1", seg) for code, seg in _segments(text))


# -- claim lines ----------------------------------------------------------------------------------


def _esc_subject(text: str) -> str:
    return re.sub(r"([\\*\[\]<&])", r"\\\1", text)


def _esc_scope(text: str) -> str:
    return re.sub(r"([\\()\[\]<&*])", r"\\\1", text)


def _esc_attr(text: str) -> str:
    return re.sub(r"([\\:\[\]<&*])", r"\\\1", text)


def _unesc(text: str) -> str:
    if "\\" not in text:
        return text
    return re.sub(r"\\(.)", r"\1", text)


def claim_line(claim: Claim) -> str:
    subject = _esc_subject(claim.subject)
    value = escape_text(claim.value)
    if claim.form == "statement":
        body = f"* **{subject}** {claim.attribute} {value}"
    else:
        scope = f" ({_esc_scope(claim.scope)})" if claim.scope else ""
        body = f"* **{subject}**{scope} — {_esc_attr(claim.attribute)}: {value}"
    return f"{body} {citation(claim.evidence)}"


def parse_claim_line(line: str, digests: dict[str, str]) -> Claim | None:
    split = parse_citation_suffix(line, digests)
    if not split:
        return None
    text, ev = split
    m = _CLAIM.match(text)
    if not m:
        return None
    subject = _unesc(m.group("subject"))
    value = unescape_text(m.group("value"))
    if m.group("verb"):
        return Claim(subject, m.group("verb"), value, "", "statement", "statement", ev)
    scope = _unesc(m.group("scope") or "")
    return Claim(subject, _unesc(m.group("attr")), value, scope, "fact", "fact", ev)


def mention_line(mention: Mention, source_link: str) -> str:
    return f"* Mentioned as “{escape_text(mention.surface)}” in {source_link} {citation(mention.evidence)}"


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
            "status": OKF_STATUS.get(page.compile_status, "stable"),
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
    out: list[str] = [f"# {page.title}", ""]
    out += _notice(page)
    descriptive = [c for c in page.claims if is_descriptive(c)]
    other = [c for c in page.claims if not is_descriptive(c)]
    mentions = [mention_line(m, source_link.get(m.evidence.path, escape_text(m.evidence.path))) for m in page.mentions]
    links = {name: [link(slug, title, kind, style) for kind, slug, title in page.links.get(name, [])]
             for name in SECTIONS[page.kind]}
    bodies: dict[str, list[str]] = {}
    if page.kind == "source":
        if page.summary:
            bodies["Summary"] = [f"{escape_text(page.summary[0])} {citation(page.summary[1])}"]
        bodies["Key Claims"] = [claim_line(c) for c in page.claims]
        bodies["Concepts Introduced or Reinforced"] = [f"* {x}" for x in links["Concepts Introduced or Reinforced"]]
        bodies["Entities Mentioned"] = [f"* {x}" for x in links["Entities Mentioned"]]
        bodies["Open Questions Raised"] = [f"* {escape_text(q.text)} {citation(q.evidence)}" for q in page.questions]
    elif page.kind == "concept":
        bodies["Definition"] = [claim_line(c) for c in descriptive]
        bodies["Why It Matters"] = [claim_line(c) for c in other] + mentions
    else:
        bodies["Description"] = [claim_line(c) for c in descriptive]
        bodies["Relevance"] = mentions
        bodies["Key Positions/Products/Claims"] = [claim_line(c) for c in other]
    for name in ("Related Concepts", "Related Entities", "Sources"):
        if name in SECTIONS[page.kind]:
            bodies[name] = [f"* {x}" for x in links[name]]
    bodies[HISTORY[page.kind]] = list(page.history)
    for name in SECTIONS[page.kind]:
        out += [f"## {name}", ""]
        out += bodies.get(name) or [NONE_LINE]
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _notice(page: Page) -> list[str]:
    if page.compile_status == "archived":
        return ["> **Archived**: no source supports this page any more; it is kept for recovery.", ""]
    if page.compile_status == "contradicted" and page.conflicts:
        lines = [f"> **Contradicted**: the sources disagree on {len(page.conflicts)} "
                 f"fact{'s' if len(page.conflicts) != 1 else ''}; a person decides.", ">"]
        for group in page.conflicts:
            lines += [f"> {claim_line(c)}" for c in group]
        return lines + [""]
    if page.compile_status == "needs-review":
        return ["> **Needs review**: an update to this page waits for a person.", ""]
    return []


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
    data = data or {}
    kind = TYPE_KINDS.get(str(data.get("type")), "")
    if not kind:
        raise ValueError(f"not a compiled page: type {data.get('type')!r}")
    refs = [SourceRef(str(s.get("resource", "")), str(s.get("digest", "")), str(s.get("id", "")))
            for s in data.get("sources") or [] if isinstance(s, dict)]
    digests = {r.resource: r.digest for r in refs}
    generated = data.get("generated") or {}
    page = Page(
        kind=kind,
        slug=slug,
        title=str(data.get("title", slug)),
        description=str(data.get("description", "")),
        aliases=[str(a) for a in data.get("aliases") or []],
        tags=[str(t) for t in data.get("tags") or []],
        domain=str(data.get("domain", "")),
        sources=refs,
        compile_status=str(data.get("compile_status", "compiled")),
        generated_by=str(generated.get("by", "")) if isinstance(generated, dict) else "",
        generated_at=str(generated.get("at", "")) if isinstance(generated, dict) else "",
        last_updated=str(data.get("last_updated", "")),
        date_ingested=str(data.get("date_ingested", "")),
        source_type=str(data.get("source_type", "")),
        entity_type=str(data.get("entity_type", "")),
        verified=list(data.get("verified") or []),
        extra={k: v for k, v in data.items() if k not in _KNOWN_KEYS},
    )
    sections = split_sections(body)
    claim_sections = {"source": ("Key Claims",), "concept": ("Definition", "Why It Matters"),
                      "entity": ("Description", "Key Positions/Products/Claims")}[kind]
    for name in claim_sections:
        for line in sections.get(name, []):
            claim = parse_claim_line(line, digests)
            if claim:
                page.claims.append(claim)
    for name in ("Why It Matters", "Relevance"):
        for line in sections.get(name, []):
            if _MENTION.match(line) and (split := parse_citation_suffix(line, digests)):
                m = re.match(r"^\* Mentioned as “(?P<surface>.*)” in ", line)
                if m:
                    page.mentions.append(Mention(unescape_text(m.group("surface")), split[1]))
    if kind == "source":
        summary = [ln for ln in sections.get("Summary", []) if ln.strip() and ln != NONE_LINE]
        if summary and (split := parse_citation_suffix(summary[0], digests)):
            page.summary = (unescape_text(split[0]), split[1])
        for line in sections.get("Open Questions Raised", []):
            if line.startswith("* ") and (split := parse_citation_suffix(line, digests)):
                page.questions.append(Question(unescape_text(split[0][2:]), split[1]))
    history = sections.get(HISTORY[kind], [])
    page.history = [] if history == [NONE_LINE] else history
    return page
