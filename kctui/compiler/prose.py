"""Prose facts from simple statement patterns, defined terms, named entities, summary and questions.

Every claim is extractive: its value is a span of the sentence it came from, and its evidence is the
line range that sentence occupies.
"""

from __future__ import annotations

import re
from typing import Iterator

from kctui.compiler import lexicon
from kctui.compiler.extract import VERBS, Claim, Concept, Entity, Evidence, Question
from kctui.compiler.readers import Block, Document
from kctui.compiler.values import strip_inline
from kctui.core.slugs import identity_key, near_key

PROSE_KINDS = ("paragraph", "item", "quote")
MAX_STATEMENT_CHARS = 300
MAX_QUESTIONS = 8
_VERB_RE = "|".join(re.escape(v) for v in VERBS)
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z0-9`*_\[(\"])")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "Mr.", "Dr.", "St.", "No.")
_EMPH_DEF = re.compile(
    r"^(?:(?:A|An|The)\s+)?(?P<m>\*\*|\*|_|`)(?P<term>[^*_`\n]{2,60}?)(?P=m)\s+(?P<verb>is|are|refers to|means|denotes)\s+(?P<rest>.+?)\.?$",
    re.S,
)
_CALLED = re.compile(
    r"(?:\bcalled|\bknown as|\btermed|\bwe call(?: this| these| it| them)?|\breferred to as|\bdubbed)\s+"
    r"(?:an?\s+|the\s+)?(?P<m>\*\*|\*|_)(?P<term>[^*_\n]{2,60}?)(?P=m)"
)
_PLAIN_DEF = re.compile(
    r"^(?:A|An)\s+(?P<term>[a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9-]*){0,3})\s+(?P<verb>is|are)\s+(?P<rest>(?:a|an|the|any|one|some)\s.+?)\.?$",
    re.S,
)
_BOLD_ITEM = re.compile(r"^\*\*(?P<term>[^*\n]{2,60}?)\*\*\s*:?\s+(?P<rest>\S.*)$", re.S)
_CRATE = re.compile(r"(?:\bthe\s+`(?P<a>[A-Za-z_][\w-]*)`\s+crate\b|`(?P<b>[A-Za-z_][\w-]*)`\s+crate\b|\bcrate\s+`(?P<c>[A-Za-z_][\w-]*)`)")
_TEAM = re.compile(r"\b(?:the\s+)?(?P<name>[A-Za-z][\w-]{1,20})\s+[Tt]eam\b")
_TOOL = re.compile(r"\bthe\s+`(?P<name>[A-Za-z_][\w.-]*)`\s+(?:tool|command|binary|utility|program|compiler)\b")
_COMPANY = re.compile(
    r"\b(?P<name>(?:[A-Z][\w&.-]*\s+){0,3}[A-Z][\w&-]*),?\s+(?P<suffix>Inc\.?|Ltd\.?|Limited|Corporation|Corp\.|GmbH|LLC|Foundation)(?![\w])"
)
_TEAM_STOP = frozenset(
    {"the", "a", "an", "this", "that", "our", "each", "same", "every", "whole", "entire", "other", "one", "any",
     "your", "their", "its", "his", "her", "which", "whose", "new", "small", "large", "and", "or", "of", "relevant",
     "subteam", "sub", "respective", "appropriate"}
)
_TERM_STOP = frozenset(
    {"note", "notes", "warning", "example", "examples", "update", "edit", "caveat", "important", "tip", "todo",
     "nb", "n.b.", "this", "that", "it", "these", "those", "there", "here", "not", "yes", "no", "and", "or",
     "canonical examples", "pros", "cons", "drawbacks", "question", "answer", "summary", "motivation"}
)
_BOILERPLATE = frozenset(
    {"summary", "motivation", "detailed design", "design", "drawbacks", "alternatives", "unresolved questions",
     "prior art", "rationale", "rationale and alternatives", "guide-level explanation", "reference-level explanation",
     "future possibilities", "how we teach this", "examples", "example", "introduction", "overview", "background",
     "conclusion", "references", "see also", "notes", "note", "faq", "appendix", "appendices", "contents",
     "table of contents", "history", "ancient history", "recent history", "implementation", "naming", "phasing",
     "variations", "status quo", "the proposal", "proposal", "proposed design", "current design", "future work",
     "downsides", "do nothing", "acknowledgements", "acknowledgments", "api", "the rules", "design principles",
     "updates since being accepted", "open questions", "outstanding questions", "questions", "details",
     "discussion", "goals", "non-goals", "requirements", "usage", "changes", "changelog", "license", "credits",
     "about", "misc", "miscellaneous", "other", "others", "todo", "tl;dr", "abstract", "scope", "terminology",
     "definitions", "glossary", "support", "support policy", "release policy", "releases", "versions",
     "unresolved questions and future work", "detailed explanation", "technical details", "semantics", "syntax"}
)
_SUMMARY_HEADINGS = frozenset({"summary", "abstract", "overview", "introduction", "tl;dr"})


def _ev(doc: Document, first: int, last: int) -> Evidence:
    if doc.citation_unit == "page":
        return Evidence(doc.path, first, first, doc.digest, "page")
    return Evidence(doc.path, first, last, doc.digest)


def sentences(block: Block) -> Iterator[tuple[str, int, int]]:
    """(sentence, first line, last line) of a prose block, in order."""
    texts = block.text.split("\n")
    starts: list[int] = []
    pos = 0
    for t in texts:
        starts.append(pos)
        pos += len(t) + 1
    flat = "\n".join(texts)

    def line_at(offset: int) -> int:
        idx = 0
        for i, s in enumerate(starts):
            if s <= offset:
                idx = i
            else:
                break
        return block.lines[idx] if idx < len(block.lines) else block.end

    begin = 0
    for m in _SENTENCE_END.finditer(flat):
        head = flat[begin : m.start()].rstrip()
        if head.endswith(_ABBREVIATIONS):
            continue
        if head.strip():
            yield head.strip(), line_at(begin + (len(flat[begin:]) - len(flat[begin:].lstrip()))), line_at(m.start() - 1)
        begin = m.end()
    tail = flat[begin:].strip()
    if tail:
        lead = len(flat[begin:]) - len(flat[begin:].lstrip())
        yield tail, line_at(begin + lead), line_at(len(flat) - 1)


def _prose_blocks(doc: Document) -> Iterator[Block]:
    for block in doc.blocks:
        if block.kind in PROSE_KINDS and block.text.strip():
            yield block


_QUESTION_WORDS = frozenset({"what", "why", "how", "where", "when", "who", "which", "is", "are", "does", "do", "can",
                             "should", "it's", "its", "we", "i", "you"})
_PAREN_ALIAS = re.compile(r"^(?P<name>.+?)\s*\((?P<alias>[^()\s]{1,12})\)$")


def _good_term(term: str) -> str | None:
    raw = " ".join(strip_inline(term).split())
    if raw.rstrip().endswith("?"):
        return None
    term = raw.strip(" .,:;!\"'")
    if not (2 <= len(term) <= 60) or len(term.split()) > 6:
        return None
    if term.casefold() in _TERM_STOP or term.split()[0].casefold() in _QUESTION_WORDS:
        return None
    if any(w in ("example", "examples") for w in term.casefold().split()):
        return None
    if not (term[0].isalnum() or term[0] == "#"):
        return None
    plain = sum(ch.isalnum() or ch.isspace() or ch in "-_'" for ch in term)
    if plain < 0.8 * len(term) or any(ch in term for ch in "|;=/\\{}"):
        return None
    return term


def _concept(term: str, ev: Evidence, origin: str) -> Concept:
    """`Long-Term Support (LTS)` → Long-Term Support with alias LTS."""
    m = _PAREN_ALIAS.match(term)
    if m and len(m.group("name")) >= 2:
        return Concept(m.group("name").strip(), (m.group("alias"),), ev, origin)
    return Concept(term, (), ev, origin)


# -- definitions ----------------------------------------------------------------------------------


def definitions(doc: Document) -> tuple[list[Concept], list[Claim]]:
    """Defined terms: `*term* is …`, "… called a *term*", "A term is a …", `**Term**: …` list items, and a
    heading whose first sentence defines it."""
    concepts: list[Concept] = []
    claims: list[Claim] = []
    heading: str | None = None
    heading_fresh = False
    for position, block in enumerate(doc.blocks):
        if block.kind == "heading":
            heading = _heading_term(block.text)
            if position == 0 and block.level == 1 and " ".join(block.text.split()) == doc.title:
                heading = None  # the document's own title is no concept
            if heading:
                concepts.append(_concept(heading, _ev(doc, block.start, block.start), "heading"))
            heading_fresh = True
            continue
        if block.kind not in PROSE_KINDS:
            continue
        first_in_section = heading_fresh
        heading_fresh = False
        if block.kind == "item":
            m = _BOLD_ITEM.match(block.text.strip())
            term = _good_term(m.group("term")) if m else None
            if m and term:
                rest = next(iter(_split_plain(m.group("rest"))), "").rstrip(".")
                ev = _ev(doc, block.start, block.lines[0] if block.lines else block.start)
                concepts.append(con := _concept(term, ev, "glossary"))
                if rest and len(rest) <= MAX_STATEMENT_CHARS:
                    claims.append(Claim(con.name, "definition", strip_inline(rest), "", "fact", "definition",
                                        _ev(doc, block.start, _line_of(block, rest))))
                continue
        for index, (sentence, first, last) in enumerate(sentences(block)):
            ev = _ev(doc, first, last)
            m = _EMPH_DEF.match(sentence) or _PLAIN_DEF.match(sentence)
            if m and m.groupdict().get("m") == "`" and not re.match(r"(?:a|an|the|any|one|some)\s", m.group("rest")):
                m = None  # `code` is … : only "is a/an/the …" defines a code term
            if m and (term := _good_term(m.group("term"))):
                rest = strip_inline(m.group("rest"))
                concepts.append(con := _concept(term, ev, "definition"))
                if len(rest) <= MAX_STATEMENT_CHARS:
                    claims.append(Claim(con.name, m.group("verb"), rest, "", "statement", "definition", ev))
                continue
            c = _CALLED.search(sentence)
            if c and (term := _good_term(c.group("term"))):
                concepts.append(con := _concept(term, ev, "definition"))
                value = strip_inline(sentence).rstrip(".")
                if len(value) <= MAX_STATEMENT_CHARS:
                    claims.append(Claim(con.name, "definition", value, "", "fact", "definition", ev))
                continue
            if heading and first_in_section and index == 0 and block.kind == "paragraph":
                name = _concept(heading, ev, "heading").name
                plain = strip_inline(sentence).replace("`", "")
                hm = re.match(rf"^(?:(?:A|An|The)\s+)?{re.escape(name)}\s+({_VERB_RE})\s+(.+?)\.?$", plain, re.I | re.S)
                rest = hm.group(2) if hm else ""
                if hm and len(rest) <= MAX_STATEMENT_CHARS and rest in strip_inline(sentence):
                    claims.append(Claim(name, hm.group(1).lower(), rest, "", "statement", "definition", ev))
                elif 20 <= len(strip_inline(sentence)) <= MAX_STATEMENT_CHARS and not sentence.rstrip().endswith(":"):
                    # the section's opening sentence says what the heading's topic is about
                    claims.append(Claim(name, "context", strip_inline(sentence), "", "fact", "heading", ev))
    return concepts, claims


def _heading_term(text: str) -> str | None:
    """A heading that names a topic (a short noun phrase), not a section of every document."""
    plain = strip_inline(text).strip()
    if plain.casefold() in _BOILERPLATE or plain.endswith((":", "?", ".", "!")) or "=>" in plain:
        return None
    if re.match(r"^(?:[A-Z]|\d+|[ivx]+)[.)]\s", plain) or len(plain.split()) > 5:
        return None
    words = plain.casefold().replace("`", "").split()
    if not words or words[0] in _ACTION_WORDS or any(w.strip(",()") in _SECTION_WORDS for w in words) or "'s" in plain:
        return None
    return _good_term(plain.strip("`"))


# Headings that start with these words name an action or a question, not a topic.
_ACTION_WORDS = frozenset(
    {"a", "an", "about", "add", "adding", "allow", "allowing", "avoid", "change", "changing", "choose", "choosing",
     "disallow", "deprecate", "deprecating", "document", "don't", "dont", "do", "does", "how", "why", "what", "when",
     "where", "which", "who", "is", "are", "should", "can", "use", "using", "make", "making", "remove", "removing",
     "rename", "renaming", "introduce", "introducing", "keep", "keeping", "stabilize", "stabilizing", "move",
     "moving", "replace", "replacing", "require", "requiring", "support", "supporting", "provide", "providing",
     "extend", "extending", "implement", "implementing", "drop", "dropping", "fix", "fixing", "let", "leave",
     "if", "in", "on", "for", "with", "without", "to", "from", "of", "by", "and", "or", "not", "no", "other",
     "more", "some", "further", "possible", "potential", "proposed", "current", "new", "old", "our", "this", "that",
     "these", "those", "step", "part", "phase", "option", "case", "appendix", "annex", "aside"}
)
_SECTION_WORDS = frozenset(
    {"appendix", "alternative", "alternatives", "drawback", "drawbacks", "acknowledgement", "acknowledgements",
     "acknowledgment", "acknowledgments", "amendment", "amendments", "discussion", "question", "questions",
     "changes", "benefits", "history", "example", "examples", "motivation", "summary", "rationale", "conclusion",
     "detailed", "overview", "introduction", "faq", "todo", "notes", "study", "proposal", "design", "future",
     "status", "unresolved", "considerations", "problem", "problems", "solution", "solutions", "issue", "issues"}
)


def _split_plain(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(" ".join(text.split())) if s.strip()]


def _line_of(block: Block, fragment: str) -> int:
    """The last line of `block` needed to contain `fragment` (a prefix of the block's text)."""
    needed = len(" ".join(fragment.split()))
    seen = 0
    for i, text in enumerate(block.text.split("\n")):
        seen += len(strip_inline(text)) + 1
        if seen >= needed:
            return block.lines[i] if i < len(block.lines) else block.end
    return block.end


# -- statements about known names -----------------------------------------------------------------


def statement_claims(doc: Document, known: list[str]) -> list[Claim]:
    """"X is/was/has/costs Y" where X is a name this document defines or mentions."""
    by_first: dict[str, list[str]] = {}
    for name in {" ".join(strip_inline(n).strip("`").split()) for n in known if n}:
        if len(name) >= 2 and name.split():
            by_first.setdefault(name.split()[0].casefold(), []).append(name)
    for names in by_first.values():
        names.sort(key=lambda n: (-len(n), n))
    out: list[Claim] = []
    for block in _prose_blocks(doc):
        for sentence, first, last in sentences(block):
            plain = strip_inline(sentence).replace("`", "")
            words = plain.split()
            if len(words) < 3:
                continue
            offset = 4 if words[0] == "The" else 0
            lead = plain[offset:].split(" ", 1)[0].casefold()
            for name in by_first.get(lead, ()):
                head = plain[offset : offset + len(name)]
                if identity_key(head) != identity_key(name):
                    continue
                tail = plain[offset + len(name) :]
                m = re.match(rf"^\s+({_VERB_RE})\s+(.+?)\.?$", tail, re.S)
                if not m:
                    continue
                value = m.group(2).strip()
                if 3 <= len(value) <= MAX_STATEMENT_CHARS and value in strip_inline(sentence):
                    out.append(Claim(head, m.group(1), value, "", "statement", "statement", _ev(doc, first, last)))
                break
    return out


# -- entities -------------------------------------------------------------------------------------


def entity_mentions(doc: Document) -> list[Entity]:
    """Named things: known tools/libraries, "the `x` crate", "the core team", "Acme Ltd.": first mention
    per identity per document, typed by the noun the text uses."""
    found: dict[str, Entity] = {}

    def add(name: str, etype: str, surface: str, aliases: tuple[str, ...], line: int) -> None:
        key = near_key(name)
        if key not in found:
            found[key] = Entity(name, etype, surface, aliases, _ev(doc, line, line))

    for block in doc.blocks:
        if block.kind not in PROSE_KINDS + ("heading",):
            continue
        for i, raw in enumerate(block.text.split("\n")):
            line = block.lines[i] if i < len(block.lines) else block.start
            text = strip_inline(raw)  # names inside link targets are not mentions
            if "`" in text or "crate" in text:
                for m in _CRATE.finditer(text):
                    raw = m.group("a") or m.group("b") or m.group("c")
                    known = lexicon.canonical(raw)
                    if known:
                        add(known.title, known.entity_type, raw, known.aliases, line)
                    else:
                        add(raw, "library", raw, (), line)
                for m in _TOOL.finditer(text):
                    known = lexicon.canonical(m.group("name"))
                    if known:
                        add(known.title, known.entity_type, m.group("name"), known.aliases, line)
                    else:
                        add(m.group("name"), "tool", m.group("name"), (), line)
            for m in lexicon.KNOWN_PATTERN.finditer(text):
                known = lexicon.KNOWN_BY_SURFACE[m.group(0)]
                add(known.title, known.entity_type, m.group(0), known.aliases, line)
            if "eam" in text:
                for m in _TEAM.finditer(text):
                    word = m.group("name")
                    if word.casefold() in _TEAM_STOP:
                        continue
                    title = lexicon.TEAM_NAMES.get(word.casefold(), f"{word[:1].upper()}{word[1:]} team")
                    add(title, "team", m.group(0).removeprefix("the ").strip(), (), line)
            for m in _COMPANY.finditer(text):
                suffix = m.group("suffix")
                etype = "organisation" if suffix == "Foundation" else "company"
                name = f"{m.group('name')} {suffix}".strip()
                add(name, etype, m.group(0), (), line)
    return sorted(found.values(), key=lambda e: (e.evidence.start, near_key(e.name)))


# -- summary and questions ------------------------------------------------------------------------


def summary(doc: Document) -> tuple[str, Evidence] | None:
    """The first paragraph under a Summary-like heading, else the document's first prose paragraph."""
    chosen: Block | None = None
    under_summary = False
    for block in doc.blocks:
        if block.kind == "heading":
            under_summary = strip_inline(block.text).casefold() in _SUMMARY_HEADINGS
            continue
        if block.kind in ("paragraph", "quote") and block.text.strip() and not block.text.lstrip().startswith("*["):
            if under_summary:
                chosen = block
                break
            if chosen is None:
                chosen = block
    if chosen is None:
        return None
    parts = _split_plain(strip_inline(chosen.text))
    text = ""
    for part in parts:
        if len(text) + len(part) + 1 > 400 and text:
            break
        text = f"{text} {part}".strip()
    if len(text) > 400:
        text = text[:400].rsplit(" ", 1)[0]
    if not text:
        return None
    return text, _ev(doc, chosen.start, _line_of(chosen, text))


def questions(doc: Document) -> list[Question]:
    out: list[Question] = []
    for block in _prose_blocks(doc):
        for sentence, first, last in sentences(block):
            text = strip_inline(sentence)
            if text.endswith("?") and 10 <= len(text) <= MAX_STATEMENT_CHARS:
                out.append(Question(text, _ev(doc, first, last)))
                if len(out) >= MAX_QUESTIONS:
                    return out
    return out
