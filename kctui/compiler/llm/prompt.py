"""The versioned extraction prompt: chunks of a document (paragraph boundaries, at most `chunk_chars`
source characters, every line numbered with its real line number so the model can cite it), the
existing pages the chunk mentions (so the model reuses them), and the JSON schema of the reply.

A prompt is assembled in seed 004's order: the instruction (the system message), then in the user
message today's date, the base's schema (kctui.compiler.schema: `SCHEMA.md`, `CLAUDE.md` or
`AGENTS.md`, else the embedded default — the parts of it that apply to this source), the inventory of
existing pages, the non-negotiable rules, and the content (the numbered chunk).

The reply cache is keyed by (model, PROMPT_VERSION, chunk digest); the digest covers everything in the
prompt except the inventory of existing pages (which the parser re-checks against the current wiki)
and the date (which only frames the text), and it covers the digest of the schema text the prompt
carries: editing a schema section re-sends only the chunks whose prompts carry it.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass

from kctui.compiler.extractors import KnownWiki
from kctui.compiler.readers import Document
from kctui.core.slugs import identity_key

PROMPT_VERSION = "kctui-llm-extract/2"
MAX_CONTEXT_LINES = 6
_LOOKBACK = 400
_NAME_CHARS = 80
_MAX_ALIASES = 5
_WORD = re.compile(r"\w+")

SYSTEM = """You extract facts from one part of a source document for a knowledge wiki.
Reply with ONLY one JSON object (no markdown fences, no text before or after it) of this shape:
{"claims": [{"subject": "Widget Server", "attribute": "latest", "value": "2.1.4", "unit": "", "scope": "2.1",
   "confidence": 0.9, "start": 12, "end": 12}],
 "concepts": [{"name": "Long-Term Support", "aliases": ["LTS"], "page": "", "start": 30, "end": 30}],
 "entities": [{"name": "Acme Ltd.", "type": "company", "aliases": [], "page": "", "start": 3, "end": 3}]}
The user message gives, in this order: today's date, the knowledge base's schema (its page classes,
their sections and its rules: follow it), existing wiki pages, the non-negotiable rules, then the source
text. Leave empty the lists of page classes the schema does not have."""

RULES = """- A claim is one atomic fact. subject: the named thing it is about. attribute: a short name ("latest",
  "release date", "port", "definition"). value: copied exactly as the source writes it (a number, date,
  version or short phrase), never paraphrased. unit: the value's unit when it has one ("MB", "days"),
  else "". scope: what part of the subject the fact is limited to (a release cycle, a component, a
  period), else "". confidence: 0 to 1.
- start and end: the numbers of the source lines (for a PDF: the page) that contain the value, as
  numbered below; usually start == end. A claim whose lines do not contain its value is discarded.
- A definition is a claim with attribute "definition" whose value is the defining phrase, copied.
- concepts: ideas, methods and terms the text defines or relies on. entities: people, companies,
  products, tools, libraries, projects, technologies; type is one of person, company, organisation,
  product, tool, library, framework, technology, language, standard, model, project, team.
  start/end: a line where the name appears exactly as written there.
- When a concept or entity is one of the existing pages listed, use that page's title as name and its
  slug as "page". Otherwise "page" is "". Never invent slugs, paths or file names.
- Only facts stated in the numbered lines. At most 200 claims. Empty lists are fine."""

REASK = ("Your previous reply could not be used ({reason}). Reply again with only the JSON object "
         "described in the instructions: no fences, no text before or after it.")


@dataclass(frozen=True)
class Chunk:
    index: int  # 1-based
    count: int
    first: int  # first line (or page) of the chunk
    last: int
    body: str  # the numbered text shown to the model
    context: str  # numbered lines before the chunk that say where it sits (YAML parents, last heading)
    lowest: int  # the first line the model may cite (context included)
    unit: str  # "line" | "page"

    @property
    def label(self) -> str:
        word = "pages" if self.unit == "page" else "lines"
        return f"{word} {self.first}-{self.last}"


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


def _numbered(n: int, text: str, unit: str) -> str:
    return f"P{n}| {text}" if unit == "page" else f"L{n}| {text}"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _context(doc: Document, first: int) -> list[int]:
    """Lines before `first` that frame it: each less indented ancestor (a YAML list item and its key)
    and the nearest heading above."""
    found = _ancestors(doc.lines, first)
    heading = max((b.start for b in doc.blocks if b.kind == "heading" and b.start < first), default=0)
    if heading and first - heading <= 4 * _LOOKBACK and heading not in found:
        found.append(heading)
    return sorted(found)


def _ancestors(lines: list[str], first: int) -> list[int]:
    """The less indented lines above `first` (its first non-blank line's indent), nearest first: each
    ancestor of a nested YAML or list line, within _LOOKBACK lines and MAX_CONTEXT_LINES - 1 of them."""
    start = next((i for i in range(first, min(len(lines), first + 50) + 1) if lines[i - 1].strip()), first)
    found: list[int] = []
    level = _indent(lines[start - 1]) if start <= len(lines) else 0
    n = first - 1
    while n >= 1 and level > 0 and first - n <= _LOOKBACK and len(found) < MAX_CONTEXT_LINES - 1:
        text = lines[n - 1]
        if text.strip() and _indent(text) < level:
            found.append(n)
            level = _indent(text)
        n -= 1
    return found


def _paragraphs(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) line numbers of runs of non-blank lines."""
    out: list[tuple[int, int]] = []
    start = 0
    for n, line in enumerate(lines, 1):
        if line.strip():
            if not start:
                start = n
        elif start:
            out.append((start, n - 1))
            start = 0
    if start:
        out.append((start, len(lines)))
    return out


def _line_spans(doc: Document, limit: int) -> list[tuple[int, int]]:
    """Chunks of whole paragraphs, each at most `limit` characters; a longer paragraph is cut at line
    boundaries, a longer single line is its own chunk."""
    size = [len(line) + 1 for line in doc.lines]
    spans: list[tuple[int, int]] = []
    cur: tuple[int, int] | None = None
    cur_chars = 0
    for a, b in _paragraphs(doc.lines):
        chars = sum(size[a - 1 : b])
        if cur is not None and cur_chars + chars <= limit:
            cur, cur_chars = (cur[0], b), cur_chars + chars
            continue
        if cur is not None:
            spans.append(cur)
            cur, cur_chars = None, 0
        if chars <= limit:
            cur, cur_chars = (a, b), chars
            continue
        piece_start, piece_chars = a, 0
        for n in range(a, b + 1):
            if piece_chars and piece_chars + size[n - 1] > limit:
                spans.append((piece_start, n - 1))
                piece_start, piece_chars = n, 0
            piece_chars += size[n - 1]
        cur, cur_chars = (piece_start, b), piece_chars
    if cur is not None:
        spans.append(cur)
    return spans


def chunk_document(doc: Document, chunk_chars: int) -> list[Chunk]:
    pieces: list[tuple[int, int, str, str, int]] = []
    if doc.citation_unit == "page":
        for n, page in enumerate(doc.lines, 1):
            text = page.strip()
            for k in range(0, len(text), chunk_chars) if text else ():
                pieces.append((n, n, _numbered(n, text[k : k + chunk_chars], "page"), "", n))
    else:
        for a, b in _line_spans(doc, chunk_chars):
            body = "\n".join(_numbered(n, _cut(doc.lines[n - 1], chunk_chars), "line") for n in range(a, b + 1))
            ctx = _context(doc, a)
            context = "\n".join(_numbered(n, _cut(doc.lines[n - 1], 300), "line") for n in ctx)
            pieces.append((a, b, body, context, min([a, *ctx])))
    unit = doc.citation_unit
    return [Chunk(i, len(pieces), a, b, body, ctx, low, unit) for i, (a, b, body, ctx, low) in enumerate(pieces, 1)]


def _cut(line: str, limit: int) -> str:
    return line if len(line) <= limit else line[:limit] + " …(line cut)"


def chunk_digest(doc: Document, chunk: Chunk, schema_text: str = "") -> str:
    """The cache digest of a chunk's prompt: its content and the digest of the schema text it carries."""
    h = hashlib.sha256()
    schema = hashlib.sha256(schema_text.encode("utf-8", "surrogatepass")).hexdigest() if schema_text else ""
    for part in (doc.path, doc.title, chunk.unit, chunk.context, chunk.body, schema):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\x00")
    return h.hexdigest()


def cache_key(model: str, digest: str) -> str:
    return hashlib.sha256(f"{model}\x00{PROMPT_VERSION}\x00{digest}".encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class InventoryEntry:
    slug: str
    kind: str
    title: str
    aliases: tuple[str, ...]


class Inventory:
    """The concept and entity pages of the previous wiki, found by the names a chunk mentions."""

    def __init__(self, prev: KnownWiki | None, limit: int) -> None:
        self.limit = limit
        self.entries: dict[str, InventoryEntry] = {}
        self._by_word: dict[str, list[tuple[str, str]]] = {}  # first word -> (name key, slug)
        for info in (prev.pages.values() if prev else ()):
            if info.kind not in ("concept", "entity"):
                continue
            self.entries[info.slug] = InventoryEntry(info.slug, info.kind, info.title, tuple(info.aliases))
            for name in (info.title, *info.aliases):
                key = identity_key(name)
                words = _WORD.findall(key)
                if words:
                    self._by_word.setdefault(words[0], []).append((key, info.slug))

    def relevant(self, text: str) -> list[InventoryEntry]:
        if not self.entries or not self.limit:
            return []
        hay = identity_key(text)
        words = set(_WORD.findall(hay))
        slugs = {slug for w in words for key, slug in self._by_word.get(w, ()) if key in hay}
        return [self.entries[s] for s in sorted(slugs)][: self.limit]


def _entry_line(e: InventoryEntry) -> str:
    aliases = [a[:_NAME_CHARS] for a in e.aliases[:_MAX_ALIASES]]
    also = f" (also: {'; '.join(aliases)})" if aliases else ""
    return f"- [{e.kind}] {e.slug}: {e.title[:_NAME_CHARS]}{also}"


def user_message(doc: Document, chunk: Chunk, pages: list[InventoryEntry], schema_text: str = "",
                 date: str = "", schema_name: str = "") -> str:
    """Seed 004's order after the instruction: date, schema, inventory, rules, content."""
    unit = "page" if chunk.unit == "page" else "line"
    out: list[str] = []
    if date:
        out += [f"Today's date: {date}", ""]
    if schema_text:
        where = f" ({schema_name})" if schema_name else " (kctui's default)"
        out += [f"The schema of this knowledge base{where}: its page classes, their sections and its rules.",
                schema_text.strip(), ""]
    if pages:
        out += ["Existing wiki pages this part mentions (reuse them: their title as name, their slug as page):"]
        out += [_entry_line(e) for e in pages] + [""]
    out += ["Rules (non-negotiable, whatever the schema says):", RULES, ""]
    out += [f"Source file: {doc.path}", f"Title: {doc.title}", f"This part: {chunk.label}.", ""]
    if chunk.context:
        out += ["Lines before this part, for context (they may be cited):", chunk.context, ""]
    out += [f"Source text, every {unit} numbered (cite these numbers):", chunk.body]
    return "\n".join(out)


def messages(doc: Document, chunk: Chunk, pages: list[InventoryEntry], schema_text: str = "", date: str = "",
             schema_name: str = "") -> list[dict[str, str]]:
    return [{"role": "system", "content": SYSTEM},
            {"role": "user", "content": user_message(doc, chunk, pages, schema_text, date, schema_name)}]


def reask(previous: list[dict[str, str]], reply: str, reason: str) -> list[dict[str, str]]:
    return previous + [{"role": "assistant", "content": reply[:4000]},
                       {"role": "user", "content": REASK.format(reason=reason)}]


def messages_tokens(msgs: list[dict[str, str]]) -> int:
    return sum(estimate_tokens(m["content"]) + 4 for m in msgs)
