"""Structured facts: YAML frontmatter, definition lists, abbreviations and `key: value` lines (tables:
kctui.compiler.builtin.table_facts).

Frontmatter scalars cite the line of the scalar itself; a list of records (mappings sharing an
identifying key, like a product's release cycles) becomes scoped claims, the scope being each record's
identifying value (`releaseCycle: "4.3"` → scope 4.3): the identifying claim itself and one claim per
scalar value, all citing the record's lines, so a page shows the list as a table of cited rows
(`kctui.core.record_tables`). Nested values of a record cite their own lines.
"""

from __future__ import annotations

import re

import yaml

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.name_checks import clean_title
from kctui.compiler.builtin.name_types import type_from_noun
from kctui.compiler.builtin.table_facts import MAX_VALUE_CHARS, usable_value
from kctui.compiler.extraction import Concept, Entity
from kctui.compiler.readers import Block, Document, clean_text
from kctui.compiler.readers.markdown import mapping_get, scalar_text
from kctui.core.claims import Claim, Evidence
from kctui.core.values import strip_inline

# Keys that describe the document rather than state facts about its subject.
_NON_FACT_KEYS = frozenset({"title", "aliases", "tags", "layout", "permalink_old"})
_ENTITY_TYPE_KEYS = ("entity_type", "category", "kind")
_KV = re.compile(r"^(?P<key>[A-Za-z][A-Za-z0-9 ()'/._-]{0,40}?)\s*:\s+(?P<value>\S.*)$")
_KV_STOP = frozenset(
    {
        "note", "notes", "warning", "example", "examples", "e.g", "eg", "i.e", "ie", "todo", "tip", "important",
        "update", "edit", "see", "also", "caveat", "http", "https", "ftp", "mailto", "q", "a", "answer", "question",
        "error", "ok", "fn", "let", "where", "so", "then", "but", "and", "or", "because", "however", "therefore",
        "for example", "in particular", "in summary", "specifically", "in other words", "that is", "result",
    }
)
_ABBR = re.compile(r"^\*\[(?P<abbr>[^\]\n]{1,30})\]:\s+(?P<full>\S.*)$")
_DEF_LINE = re.compile(r"^:\s+(?P<def>\S.*)$")


def _ev(doc: Document, start: int, end: int | None = None) -> Evidence:
    if doc.citation_unit == "page":
        return Evidence(doc.path, start, start, doc.digest, "page")
    return Evidence(doc.path, start, end if end is not None else start, doc.digest)


def _fm_line(doc: Document, mark_line: int) -> int:
    return mark_line + 1 + doc.frontmatter_offset


def _node_span(doc: Document, node: yaml.Node) -> tuple[int, int]:
    first = _fm_line(doc, node.start_mark.line)
    end_line = node.end_mark.line - (1 if node.end_mark.column == 0 and node.end_mark.line > node.start_mark.line else 0)
    return first, max(first, _fm_line(doc, end_line))


def _record_span(doc: Document, node: yaml.MappingNode) -> tuple[int, int]:
    """The lines of one record of a list: its first key to the end of its last value (not the next item's
    dash, nor a comment or blank line after it)."""
    first = _fm_line(doc, node.start_mark.line)
    return first, max([first] + [_node_span(doc, v)[1] for _, v in node.value])


def _scalar_value(node: yaml.Node) -> str | None:
    if not isinstance(node, yaml.ScalarNode):
        return None
    if node.tag == "tag:yaml.org,2002:null" or node.value in ("", "~"):
        return None
    value = " ".join(clean_text(node.value).split())
    if not value or len(value) > MAX_VALUE_CHARS:
        return None
    return value


# -- document-level descriptors -----------------------------------------------------------------


def source_type(doc: Document) -> str:
    declared = scalar_text(mapping_get(doc.frontmatter, "source_type"))
    if declared:
        return declared.strip().lower()
    if doc.kind == "pdf":
        return "pdf"
    if isinstance(doc.frontmatter, yaml.MappingNode) and any(
            isinstance(v, yaml.SequenceNode) and len(v.value) > 1 and all(isinstance(i, yaml.MappingNode) for i in v.value)
            for _, v in doc.frontmatter.value):
        return "data"  # the header holds a list of records
    if doc.kind == "html":
        return "article"
    return "note" if doc.size < 4096 else "article"


def domain(doc: Document) -> str:
    for key in ("domain", "category"):
        value = scalar_text(mapping_get(doc.frontmatter, key))
        if value and value.strip():
            return " ".join(value.split())[:80]
    head = doc.path.split("/", 1)[0] if "/" in doc.path else ""
    return head or "general"


def tags(doc: Document) -> tuple[str, ...]:
    node = mapping_get(doc.frontmatter, "tags")
    found: list[str] = []
    if isinstance(node, yaml.ScalarNode):
        found = re.split(r"[\s,]+", clean_text(node.value))
    elif isinstance(node, yaml.SequenceNode):
        found = [clean_text(n.value) for n in node.value if isinstance(n, yaml.ScalarNode)]
    return tuple(sorted({t.strip() for t in found if t.strip() and len(t) <= 64}))


def document_subject(doc: Document, *, has_facts: bool) -> Entity | None:
    """The named thing a document with facts is about (its frontmatter title, else its H1)."""
    if not has_facts:
        return None
    line = _subject_line(doc)
    if line is None:
        return None
    return Entity(doc.title, _declared_type(doc), doc.title, _declared_aliases(doc), _ev(doc, line))


def _subject_line(doc: Document) -> int | None:
    """The line that names the document's subject: its frontmatter title, else an H1 that is its title
    and a name; None when neither does."""
    node = mapping_get(doc.frontmatter, "title")
    if isinstance(node, yaml.ScalarNode) and node.value.strip():
        return _fm_line(doc, node.start_mark.line)
    h1 = doc.blocks[0] if doc.blocks and doc.blocks[0].kind == "heading" and doc.blocks[0].level == 1 else None
    if h1 is None or " ".join(h1.text.split()) != doc.title or not _names_a_thing(doc.title):
        return None
    return h1.start


def _declared_type(doc: Document) -> str:
    """The type the frontmatter declares (entity_type, category, kind): a product unless it names one."""
    for key in _ENTITY_TYPE_KEYS:
        declared = scalar_text(mapping_get(doc.frontmatter, key))
        if declared:
            return type_from_noun(declared.strip().lower()) or "product"
    return ""


def _declared_aliases(doc: Document) -> tuple[str, ...]:
    """The frontmatter's list of aliases, sorted."""
    alias_node = mapping_get(doc.frontmatter, "aliases")
    if not isinstance(alias_node, yaml.SequenceNode):
        return ()
    return tuple(sorted({clean_text(n.value).strip() for n in alias_node.value
                         if isinstance(n, yaml.ScalarNode) and n.value.strip()}))


def _names_a_thing(title: str) -> bool:
    """A heading that is a name ("Gizmo", "Apache Kafka"), not a document's title ("Vendors and contracts",
    "Platform sync, 2 March 2026", "ADR 7: Kafka for billing events")."""
    plain = strip_inline(title).strip("`* ")
    words = plain.split()
    if not words or len(words) > 4 or any(ch in plain for ch in ":,;!?()[]|/") or any(w[:1].isdigit() for w in words):
        return False
    if not all(w[:1].isupper() or wd.shaped(w) or w.casefold() in wd.PARTICLES for w in words):
        return False  # "Vendors and contracts" is a title; a name capitalises every word
    return not wd.common_phrase(plain) and clean_title(plain)


# -- frontmatter ----------------------------------------------------------------------------------


def frontmatter_claims(doc: Document) -> list[Claim]:
    root = doc.frontmatter
    if not isinstance(root, yaml.MappingNode):
        return []
    out: list[Claim] = []
    subject = doc.title
    for key_node, value in root.value:
        key = scalar_text(key_node)
        if not key or key in _NON_FACT_KEYS:
            continue
        _node_claims(doc, subject, key, value, "", out, depth=0)
    return out


def _node_claims(doc: Document, subject: str, attribute: str, node: yaml.Node, scope: str, out: list[Claim], depth: int) -> None:
    if depth > 3:
        return
    value = _scalar_value(node)
    if value is not None:
        first, last = _node_span(doc, node)
        out.append(Claim(subject, attribute, value, scope, "fact", "frontmatter", _ev(doc, first, last)))
        return
    if isinstance(node, yaml.MappingNode):
        _mapping_claims(doc, subject, attribute, node, scope, out, depth + 1)
        return
    if isinstance(node, yaml.SequenceNode):
        items = node.value
        scope_field = _scope_field(items)
        for item in items:
            if isinstance(item, yaml.ScalarNode):
                _node_claims(doc, subject, attribute, item, scope, out, depth + 1)
            elif isinstance(item, yaml.MappingNode) and scope_field:
                _record_claims(doc, subject, item, scope_field, scope, len(items) > 1, out, depth + 1)
            elif isinstance(item, yaml.MappingNode):
                _mapping_claims(doc, subject, attribute, item, scope, out, depth + 1)


def _mapping_claims(doc: Document, subject: str, attribute: str, node: yaml.MappingNode, scope: str,
                    out: list[Claim], depth: int) -> None:
    """Each value of a mapping as the attribute `attribute.key`; `depth` is the values' depth."""
    for k, v in node.value:
        sub = scalar_text(k)
        if sub:
            _node_claims(doc, subject, f"{attribute}.{sub}", v, scope, out, depth)


def _record_claims(doc: Document, subject: str, item: yaml.MappingNode, scope_field: str, scope: str, several: bool,
                   out: list[Claim], depth: int) -> None:
    """One record of a list of records, scoped by its value of `scope_field`; when the list has several
    and no scope of its own, its scalar values cite the record (a table row). `depth` is the values' depth."""
    item_scope = _scalar_value(mapping_get(item, scope_field)) or ""
    full_scope = f"{scope} {item_scope}".strip()
    record = _ev(doc, *_record_span(doc, item)) if not scope and several else None
    if record is not None:  # one record of a list of records: its values cite it (a table row)
        out.append(Claim(subject, scope_field, item_scope, item_scope, "fact", "frontmatter", record))
    for k, v in item.value:
        sub = scalar_text(k)
        if not sub or sub == scope_field:
            continue
        value = _scalar_value(v) if record is not None else None
        if value is not None:
            out.append(Claim(subject, sub, value, full_scope, "fact", "frontmatter", record))
        else:
            _node_claims(doc, subject, sub, v, full_scope, out, depth)


def _scope_field(items: list[yaml.Node]) -> str | None:
    """The key that identifies each mapping of a list of records: the first key of the first record that
    every record has, with a short, unique scalar value."""
    maps = [i for i in items if isinstance(i, yaml.MappingNode)]
    if not maps or len(maps) != len(items):
        return None
    for key in [k for k in (scalar_text(k) for k, _ in maps[0].value) if k]:
        values = [_scalar_value(mapping_get(m, key)) for m in maps]
        if not all(values) or len(set(values)) != len(values):
            continue
        if all(len(v) <= 40 and "://" not in v for v in values):  # type: ignore[arg-type]
            return key
    return None


# -- glossaries, key: value lines ---------------------------------------------------------------




def glossary(doc: Document) -> tuple[list[Claim], list[Concept]]:
    """Definition lists (`Term` / `: definition`, HTML `<dl>`) and abbreviations (`*[LTS]: Long-Term Support`)."""
    claims: list[Claim] = []
    concepts: list[Concept] = []
    for block in doc.blocks:
        if block.kind == "deflist":
            for line, (term, definition) in block.rows:
                term, definition = strip_inline(term), strip_inline(definition)
                if term and usable_value(definition):
                    claims.append(Claim(term, "definition", definition, "", "fact", "deflist", _ev(doc, line)))
                    concepts.append(Concept(term, (), _ev(doc, line), "deflist"))
            continue
        if block.kind not in ("paragraph", "item"):
            continue
        texts = block.text.split("\n")
        for i, text in enumerate(texts):
            line = block.lines[i] if i < len(block.lines) else block.start
            m = _ABBR.match(text.strip())
            got = _abbreviation(doc, m, line) if m else _definition_line(doc, block, texts, i, line)
            if got is not None:
                claims.append(got[0])
                concepts.append(got[1])
    return claims, concepts


def _abbreviation(doc: Document, m: re.Match, line: int) -> tuple[Claim, Concept] | None:
    """`*[LTS]: Long-Term Support`: what the abbreviation stands for, and the concept it names."""
    abbr, full = m.group("abbr").strip(), strip_inline(m.group("full"))
    if not (abbr and full and len(full) <= 120):
        return None
    return (Claim(abbr, "stands for", full, "", "fact", "abbreviation", _ev(doc, line)),
            Concept(full, (abbr,), _ev(doc, line), "abbreviation"))


def _definition_line(doc: Document, block: Block, texts: list[str], i: int, line: int) -> tuple[Claim, Concept] | None:
    """A `: definition` line under its term's line (the first of such lines): the definition and the term."""
    d = _DEF_LINE.match(texts[i].strip())
    if not d or i == 0 or _DEF_LINE.match(texts[i - 1].strip()):
        return None
    term = strip_inline(texts[i - 1]).strip("*_` ")
    definition = strip_inline(d.group("def"))
    term_line = block.lines[i - 1] if i - 1 < len(block.lines) else block.start
    if not (term and len(term) <= 80 and usable_value(definition)):
        return None
    return (Claim(term, "definition", definition, "", "fact", "deflist", _ev(doc, term_line, line)),
            Concept(term, (), _ev(doc, term_line), "deflist"))


def key_value_claims(doc: Document) -> list[Claim]:
    """`Key: value` lines: every line of a list item, or a paragraph whose every line is one."""
    out: list[Claim] = []
    for block in doc.blocks:
        if block.kind not in ("paragraph", "item"):
            continue
        texts = block.text.split("\n")
        matches = [fields(t) for t in texts]
        if block.kind == "paragraph" and not all(matches):
            continue
        if block.kind == "item":
            matches = matches[:1]
        for i, found in enumerate(matches):
            line = block.lines[i] if i < len(block.lines) else block.start
            # (a "Decision:" field is the note's decision, its attribute the one decisions share: the sentence
            # rules' "decision" claim of the same line and value is this one)
            out += [Claim(doc.title, "decision" if key.casefold() == "decision" else key, value, "", "fact", "kv", _ev(doc, line))
                    for key, value in found]
    return out


_BOLD_LABEL = re.compile(r"\*\*(?P<key>[A-Za-z][A-Za-z0-9 ()'/._-]{0,40}?):\*\*\s*")
_FIELD_SEP = re.compile(r"\s+(?:[|·•]|(?:→|->)(?=\s+[A-Za-z][\w ()/-]{0,30}:\s))\s+")  # (an arrow before a label: "From: Tom → To: Grace")


def fields(text: str) -> list[tuple[str, str]]:
    """The `key: value` fields of a line: one ("Owner: Osei Mensah"), a run of bold labels each with its
    value ("**Severity:** SEV2 **Duration:** 47 min **Commander:** Hana Sato"), or fields set apart by
    bars or dots ("Severity: SEV2 | Duration: 47 min"), or by an arrow before the next label (a handover's
    "From: Jonas → To: Mireille"; "Status: draft → final" is one field). A line with any part that is no
    field has none."""
    if ":" not in text:
        return []  # (every field has its colon: most lines are read no further)
    text = text.strip()
    labels = list(_BOLD_LABEL.finditer(text))
    if labels and labels[0].start() == 0:
        parts = [f"{m.group('key')}: {text[m.end():labels[k + 1].start() if k + 1 < len(labels) else len(text)]}"
                 for k, m in enumerate(labels)]
    else:
        parts = _FIELD_SEP.split(text)
    found = [_kv(part.strip().rstrip("|·•").strip()) for part in parts]
    return [f for f in found if f] if all(found) else []


def _kv(text: str) -> tuple[str, str] | None:
    text = text.strip()
    if text.startswith(("*[", "**", "`", ":")):
        return None
    m = _KV.match(text)
    if not m:
        return None
    key = m.group("key").strip()
    value = strip_inline(m.group("value"))
    if key.lower() in _KV_STOP or len(key.split()) > 4 or not usable_value(value):
        return None
    if value[:1].islower() and nt.person_shape(key):
        return None  # "Priya Raman: write the consumer" is an action item, not a field
    if value.startswith("//") or key.endswith("."):
        return None
    return key, value
