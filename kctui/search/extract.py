"""What the search index keeps of one promoted wiki page: its title, aliases, tags and a clean body
text for FTS5, its trust status with the visible notice that explains it, and its claims with their
citations (`^[path:Lstart-Lend]`, wiki.md §4). Pure text in, data out.

The indexed body drops citation suffixes, link targets and the standard section headings, so that a
page is found by what it says, not by the file names it cites; the claims keep their citations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from kctui.core.frontmatter import FrontmatterError, parse_document
from kctui.core.page_status import COMPILE_STATUSES
from kctui.core.pages import (
    NONE_LINE,
    SECTIONS,
    TYPE_KINDS,
    parse_citation_suffix,
    parse_claim_line,
)
from kctui.core.record_tables import explode

MAX_CLAIMS = 2000
MAX_LIST = 100
MAX_BODY_CHARS = 1_000_000
MAX_FIELD_CHARS = 2000

_STANDARD_HEADINGS = frozenset(name for names in SECTIONS.values() for name in names)
_CITE_ANY = re.compile(r"\s*\^\[(?:\\.|[^\]\\])*\]")
_WIKILINK = re.compile(r"\[\[(?:[^\]|\\]+)\|((?:\\.|[^\]\\])*)\]\]|\[\[([^\]|\\]+)\]\]")
_MDLINK = re.compile(r"\[((?:\\.|[^\]\\])*)\]\([^)\s]*\)")
_MENTION = re.compile(r"^\* Mentioned as “")
_EMPHASIS = re.compile(r"\*\*|__|`")
_DIGEST = re.compile(r"\(?sha256:[0-9a-f]{16,}\)?")


@dataclass
class PageDoc:
    path: str
    slug: str
    kind: str  # source | concept | entity | page (anything else)
    title: str
    description: str = ""
    aliases: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    compile_status: str = "compiled"
    stale_after: str = ""
    notice: list[str] = field(default_factory=list)  # the visible status lines, as plain text
    claims: list[dict[str, Any]] = field(default_factory=list)
    body_text: str = ""


def _str_list(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [v for v in re.split(r"[,\s]+", value) if v]
    if not isinstance(value, list):
        return []
    return [str(v)[:MAX_FIELD_CHARS] for v in value if isinstance(v, (str, int, float))][:MAX_LIST]


def plain(text: str) -> str:
    """Markdown line to plain words: links to their text, citations and emphasis gone."""
    text = _CITE_ANY.sub("", text)
    text = _WIKILINK.sub(lambda m: m.group(1) or m.group(2) or "", text)
    text = _MDLINK.sub(lambda m: m.group(1), text)
    text = _EMPHASIS.sub("", text)
    text = _DIGEST.sub("", text)
    text = re.sub(r"\\([\\\[\]<&*()|:])", r"\1", text)
    return text.strip()


def _claim(line: str, digests: dict[str, str], section: str) -> dict[str, Any] | None:
    split = parse_citation_suffix(line, digests)
    if not split:
        return None
    text, ev = split
    cite = line[len(text):].strip()
    where: dict[str, Any] = {"source": ev.path}
    if ev.unit == "page":
        where["page"] = ev.start
    else:
        where["lines"] = [ev.start, ev.end]
    claim = parse_claim_line(line, digests)
    if claim is not None:
        if claim.form == "statement":
            words = f"{claim.subject} {claim.attribute} {claim.value}"
        else:
            words = f"{claim.subject}{f' ({claim.scope})' if claim.scope else ''} — {claim.attribute}: {claim.value}"
        return {"text": words, "subject": claim.subject, "scope": claim.scope, "attribute": claim.attribute,
                "value": claim.value, "form": claim.form, "citation": cite, **where, "conflict": False}
    if section == "Summary":
        return {"text": plain(text), "subject": "", "scope": "", "attribute": "", "value": plain(text),
                "form": "summary", "citation": cite, **where, "conflict": False}
    return None


def extract_page(rel: str, text: str) -> PageDoc:
    """Read one page. A page without (valid) frontmatter is still searchable, as kind `page`."""
    try:
        data, body, _ = parse_document(text)
    except FrontmatterError:
        data, body = None, text
    data = data or {}
    slug = PurePosixPath(rel).stem
    status = data.get("compile_status")
    doc = PageDoc(path=rel, slug=slug, kind=TYPE_KINDS.get(str(data.get("type", "")), "page"), title="",
                  compile_status=status if isinstance(status, str) and status in COMPILE_STATUSES else "compiled",
                  description=str(data.get("description") or "")[:MAX_FIELD_CHARS],
                  aliases=_str_list(data.get("aliases")), tags=_str_list(data.get("tags")),
                  stale_after=str(data.get("stale_after") or "")[:64])
    reader = _BodyReader(doc, _source_digests(data.get("sources")))
    for raw in explode(body[:MAX_BODY_CHARS]).split("\n"):  # a record table's rows as their claim lines
        reader.line(raw.rstrip("\r"))
    doc.title = (_title(data.get("title")) or reader.h1 or slug)[:MAX_FIELD_CHARS]
    doc.body_text = "\n".join(x for x in [plain(doc.description)] + reader.body_lines if x)[:MAX_BODY_CHARS]
    return doc


def _source_digests(sources: object) -> dict[str, str]:
    """resource -> digest of the page's `sources` (entries that are not mappings ignored)."""
    refs = [s for s in sources if isinstance(s, dict)] if isinstance(sources, list) else []
    return {str(s.get("resource", "")): str(s.get("digest", "")) for s in refs}


def _title(value: object) -> str:
    return str(value) if isinstance(value, (str, int, float)) and str(value).strip() else ""


class _BodyReader:
    """A page's body line by line: its first heading, its sections, the status notice before them (and
    the disputed claims it lists), the claims of each section and the searchable text."""

    def __init__(self, doc: PageDoc, digests: dict[str, str]) -> None:
        self.doc, self.digests = doc, digests
        self.h1 = ""
        self.section = ""
        self.seen_section = False
        self.body_lines: list[str] = []
        self.notice_claims: set[tuple[str, str]] = set()

    def line(self, line: str) -> None:
        if line.startswith("# ") and not self.h1 and not self.seen_section:
            self.h1 = line[2:].strip()
        elif line.startswith("## "):
            self.section, self.seen_section = line[3:].strip(), True
            if self.section not in _STANDARD_HEADINGS:
                self.body_lines.append(plain(self.section))
        elif not self.seen_section and line.startswith(">"):
            self._notice(line[1:].strip())
        elif line.strip() not in ("", NONE_LINE):
            self._statement(line)

    def _notice(self, inner: str) -> None:
        if not inner:
            return
        doc = self.doc
        if inner.startswith("* ") and (claim := _claim(inner, self.digests, "")):
            claim["conflict"] = True
            self.notice_claims.add((claim["text"], claim["citation"]))
            if len(doc.claims) < MAX_CLAIMS:
                doc.claims.append(claim)
        else:
            doc.notice.append(plain(inner))
        self.body_lines.append(plain(inner.lstrip("*-+ ")))

    def _statement(self, line: str) -> None:
        doc = self.doc
        item = line.lstrip().startswith(("* ", "- ", "+ "))
        self.body_lines.append(plain(line.lstrip("*-+ ").strip()) if item else plain(line))
        if _MENTION.match(line) or len(doc.claims) >= MAX_CLAIMS:
            return
        claim = _claim(line, self.digests, self.section)
        if claim is not None and (claim["text"], claim["citation"]) not in self.notice_claims:
            doc.claims.append(claim)  # (one the notice listed, as a conflicting claim, is not listed again)


