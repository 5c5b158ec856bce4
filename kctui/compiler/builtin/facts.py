# size: the structured readers of one document (frontmatter, tables and their name column, glossaries, key: value lines) share their helpers; split by reader when it grows again.
"""Structured facts: YAML frontmatter, tables, definition lists, abbreviations and `key: value` lines.

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
from kctui.compiler.builtin import names
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.name_types import type_from_noun
from kctui.compiler.extraction import Concept, Entity
from kctui.compiler.readers import Block, Document, clean_text
from kctui.compiler.readers.markdown import mapping_get, scalar_text
from kctui.core.claims import Claim, Evidence
from kctui.core.values import VERSION, strip_inline

MAX_VALUE_CHARS = 300
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
    return not wd.common_phrase(plain) and names.clean_title(plain)


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


# -- tables, glossaries, key: value lines ---------------------------------------------------------


def _heading_context(doc: Document) -> dict[int, str]:
    """For each block start line, the nearest heading above it (level 2+), by start line."""
    ctx: dict[int, str] = {}
    current = ""
    for block in doc.blocks:
        if block.kind == "heading":
            current = strip_inline(block.text) if block.level >= 2 else ""
        ctx[block.start] = current
    return ctx


def _row_name(cell: str, typed: bool = False) -> bool:
    """A table cell that names a thing (the subject of its row): not a number, date or version. Under a
    header that says what the column holds (Vendor, Service, Tool) any capitalised uncommon word will do;
    otherwise the cell must look like a name on its own."""
    text = cell.strip().strip("`*_")
    if _value_cell(text):
        return False
    words = text.split()
    if wd.IDENT.match(text) or (any(wd.shaped(w) for w in words) and not _phrase_words(words)):
        return True
    if not text[0].isupper() or wd.common_phrase(text) or wd.placeholder(text) or wd.ACRONYM.match(text):
        return False
    if typed:
        return True
    if len(words) > 1:  # untyped: a title-case name ("Dataset Project"), not a phrase ("Service logs")
        return all(w[:1].isupper() or w.casefold() in wd.PARTICLES for w in words)
    return wd.zipf(text) < wd.RARE_ZIPF


def _phrase_words(words: list[str]) -> bool:
    """Lower-case words after a cell's first word that make it a phrase, not a name: a task or a
    description that names something ("Renew PagerDuty seats", "Bluebeam licence for Amara"), where a
    name holding a shaped word writes its other words capitalised ("Jamf Pro", "PowerEdge R760") or as
    particles and numbers."""
    return any(w[:1].islower() and w.isalpha() and w.casefold() not in wd.PARTICLES for w in words[1:])


def _value_cell(text: str) -> bool:
    """An empty cell, a number, date or version, or more than a name's length."""
    return not text or text[0].isdigit() or bool(VERSION.match(text)) or len(text.split()) > 5 or len(text) > 60


Rows = tuple[tuple[int, tuple[str, ...]], ...]  # a table's rows: (line, cells)
_KV_HEADERS = frozenset({"value", "values", "description", "meaning", "definition"})


def table_claims(doc: Document) -> tuple[list[Claim], list[Entity]]:
    """Cells as claims. When the first column names things (a vendor list, an inventory), each row's name
    is the subject of its cells; otherwise the document is, scoped by the row's first cell."""
    out: list[Claim] = []
    found: list[Entity] = []
    ctx = _heading_context(doc)
    for block in doc.blocks:
        if block.kind != "table" or len(block.rows) < 2:
            continue
        header = [strip_inline(c) for c in block.rows[0][1]]
        if len(header) < 2 or not all(header):
            continue
        heading = ctx.get(block.start, "")
        if len(header) == 2 and header[1].lower() in _KV_HEADERS:
            _key_value_rows(doc, block.rows[1:], heading, out)
        else:
            _table_rows(doc, header, block.rows[1:], heading, out, found)
    return out, found


def _key_value_rows(doc: Document, rows: Rows, heading: str, out: list[Claim]) -> None:
    """A two-column table of keys and values (Value, Description, …): facts of the document."""
    for line, cells in rows:
        cells = tuple(strip_inline(c) for c in cells)
        if not cells or not cells[0]:
            continue
        if len(cells) > 1 and _usable(cells[1]):
            out.append(Claim(doc.title, cells[0], cells[1], heading, "fact", "table", _ev(doc, line)))


def _table_rows(doc: Document, header: list[str], rows: Rows, heading: str, out: list[Claim],
                found: list[Entity]) -> None:
    """The rows of a table under its header: of the things the row names when a column names things
    (the first or second: a vendor list, a schedule by date), else of the document scoped by the row's
    first cell; the people its cells name."""
    column, row_type, typed = _name_column(header, rows)
    second, second_type = _product_column(header, rows, column)
    supplier = _supplier_column(header, column)
    for line, cells in rows:
        cells = tuple(strip_inline(c) for c in cells)
        if not cells or not cells[0]:
            continue
        subjects = _row_subjects(cells[column], typed, bool(row_type)) if 0 <= column < len(cells) else []
        _row_people(doc, header, cells, line, subjects[0] if subjects else "", out, found, second)
        if subjects:
            _named_row(doc, header, cells, line, column, subjects, row_type, out, found)
            products = _products(cells[second]) if 0 <= second < len(cells) else []
            for vendor in _suppliers(cells[supplier]) if 0 <= supplier < len(cells) else []:
                # the company that supplies the row's thing ("Product | Vendor | …"): a page with the row
                found.append(Entity(vendor, "company", vendor, (), _ev(doc, line)))
                out.append(Claim(vendor, f"{header[supplier]} of", subjects[0], "", "fact", "table", _ev(doc, line)))
            for product in products:  # the vendor's product the row is about: the row's cells are its facts too
                name, release = _DOTTED_RELEASE.match(product).groups()  # "Overwatch SCADA 7.4": a release of it
                _named_row(doc, header, cells, line, second, [name], second_type, out, found, skip=column)
                out.append(Claim(name, header[column], subjects[0], "", "fact", "table", _ev(doc, line)))
                if release:
                    out.append(Claim(name, "version", release, "", "fact", "table", _ev(doc, line)))
        else:
            _document_row(doc, header, cells, line, heading, out)


_DOTTED_RELEASE = re.compile(r"^(.+?)(?:\s+v?(\d+(?:\.\d+)+))?$")


def _product_column(header: list[str], rows: Rows, column: int) -> tuple[int, str]:
    """(the column right after the name column that names what each row's thing supplies, and the type
    its header gives it; -1 when none): a vendor list's "Vendor | Product | Cost | Renewal" is about the
    product as much as about the vendor. Its header types it as a thing that is no person or company
    ("Product / service", "Tool"); each of its cells written as a name names one (`_products`)."""
    second = column + 1
    if column < 0 or second >= len(header) - 1:
        return -1, ""
    words = header[second].split()
    second_type = nt.type_from_noun(words[-1]) if words else ""
    if not second_type or second_type in ("person", "company", "team"):
        return -1, ""
    cells = _name_cells(rows, second)
    return (second, second_type) if any(_products(f) for f in cells) else (-1, "")


def _supplier_column(header: list[str], column: int) -> int:
    """The column after the name column whose header types its cells as companies ("Product | Vendor |
    Renewal": the vendor of each row's product), or -1."""
    for k in range(column + 1, len(header)):
        words = header[k].split()
        if words and nt.type_from_noun(words[-1]) == "company":
            return k
    return -1


def _suppliers(cell: str) -> list[str]:
    """The companies a supplier column's cell names, each written as a name and capitalised ("Orrery
    Software"; not "in-house")."""
    return [n for n in _products(cell) if n[:1].isupper()]


def _products(cell: str) -> list[str]:
    """The names a product column's cell gives, each written as a name ("PRTG 500", "Jamf Pro (cloud)";
    not a description such as "Aruba support + on-site" or "FRMS module")."""
    parts = _row_subjects(cell, True, True)
    return parts if all(_named_cell(p) for p in parts) else []


def _named_row(doc: Document, header: list[str], cells: tuple[str, ...], line: int, column: int, subjects: list[str],
               row_type: str, out: list[Claim], found: list[Entity], skip: int = -1) -> None:
    """A row of the things its name column names: each an entity, with the row's other cells (but the
    `skip` column's) as claims."""
    tail = _PAREN_TAIL.search(cells[column]) if len(subjects) == 1 else None
    code = tail.group(0).strip(" ()") if tail else ""  # "Nuke render (nuke_r)": the name its code writes
    # (not a host's number, "Hetzner CX31 (mulberry-wp-01)": the machine, a thing of its own)
    aliases = (code,) if wd.IDENT.match(code) and not any(ch.isdigit() for ch in code) else ()
    for subject in subjects:
        found.append(Entity(subject, row_type, subject, aliases, _ev(doc, line)))
        for k, (attribute, value) in enumerate(zip(header, cells)):
            if k not in (column, skip) and _usable(value):
                out.append(Claim(subject, attribute, value, "", "fact", "table", _ev(doc, line)))


def _document_row(doc: Document, header: list[str], cells: tuple[str, ...], line: int, heading: str,
                  out: list[Claim]) -> None:
    """A row that names no thing: its cells are facts of the document, scoped by the row's first cell."""
    scope = f"{heading}: {cells[0]}" if heading else cells[0]
    for attribute, value in zip(header[1:], cells[1:]):
        if _usable(value):
            out.append(Claim(doc.title, attribute, value, scope, "fact", "table", _ev(doc, line)))


def _name_column(header: list[str], rows: Rows) -> tuple[int, str, bool]:
    """(the column that names the rows' things or -1, the type its header gives them, whether it is
    typed): the first of the first two columns where half the cells look like names on their own, or
    every cell is shaped as a name and one looks like one on its own."""
    for column in range(min(2, len(header))):
        cells = _name_cells(rows, column)
        if not cells:
            continue
        words = header[column].split()
        row_type = nt.type_from_noun(words[-1]) if words else ""
        typed = bool(row_type) or header[column].casefold() in ("name", "names")
        strict = sum(1 for f in cells if _row_name(f, typed))
        loose = sum(1 for f in cells if _row_subjects(f, True))
        if strict * 2 >= len(cells) or (strict and loose == len(cells) and (typed or strict * 3 >= len(cells))):
            return column, row_type, typed or loose == len(cells)
    return -1, "", False


def _name_cells(rows: Rows, column: int) -> list[str]:
    """The non-empty cells of a column, or none when one opens with a number (a date, a count) rather
    than a name shaped so ("3scale")."""
    cells = [strip_inline(cs[column]) for _, cs in rows if len(cs) > column and cs[column].strip()]
    if any(f[:1].isdigit() and not wd.shaped(f.split()[0]) for f in cells):
        return []
    return cells


_PAREN_TAIL = re.compile(r"\s+\([^()]*\)\s*$")


# "`orders-db`, `labels-db`", "Gaz + Raj", "Nadia / Shiv"; not inside brackets: "AWS eu-central-1 (EKS + RDS)"
_CELL_NAMES_GAP = re.compile(r"(?:,|\s[+/]\s)(?![^(]*\))")


def _row_subjects(cell: str, typed: bool, lower_ok: bool = False) -> list[str]:
    """The names a cell of the name column gives ("`orders-db`, `labels-db`", "Gaz + Raj": two each)."""
    head = _PAREN_TAIL.sub("", cell)
    if typed and head and not any(w in wd.FUNCTION_WORDS for w in head.split()):
        cell = head  # "Acme Forge (formerly Forge One)", "Kodeo sp. z o.o. (Kraków)": the name, then a remark
        # (not "PostgreSQL 14 on EC2 (r6i.2xlarge ×3, Patroni)": a phrase of names)
    parts = [p.strip().strip("`*_ ") for p in _CELL_NAMES_GAP.split(cell)]
    if all(p and (_row_name(p, typed) or (typed and _named_cell(p, lower_ok))) for p in parts):
        return parts
    return []


def _named_cell(text: str, lower_ok: bool = False) -> bool:
    """Under a name column: a capitalised or identifier-shaped cell of a few words (AWS, Linear)."""
    words = text.split()
    if len(words) > 1 and not all(w[:1].isupper() or w[:1].isdigit() or w.casefold() in wd.PARTICLES for w in words):
        return False  # "Alert policies": a phrase, not a name
    # (under a header that types the column, one rare word in lower case names a thing too: "balena")
    lower_name = lower_ok and len(words) == 1 and text.isalpha() and not wd.common_word(text)
    return 0 < len(words) <= 4 and (text[0].isupper() or wd.shaped(words[0]) or bool(wd.IDENT.match(text))
                                    or lower_name) and not VERSION.match(text) and not wd.placeholder(text)


def _row_people(doc: Document, header: list[str], cells: tuple[str, ...], line: int, row_subject: str,
                out: list[Claim], found: list[Entity], products: int = -1) -> None:
    """The people a row's cells name (not the cells of its product column: "Overwatch Historian" is no
    person); what the row says about them when it names its subject."""
    for k, (column, other) in enumerate(zip(header[1:], cells[1:]), start=1):
        if k != products and nt.person_shape(other.strip()):
            found.append(Entity(other.strip(), "person", other.strip(), (), _ev(doc, line)))
            if row_subject:  # the person's page says what the row says about them
                out.append(Claim(other.strip(), f"{column} of", row_subject, row_subject, "fact", "table",
                                 _ev(doc, line)))


def _usable(value: str) -> bool:
    return bool(value) and value not in {"-", "—", "–", "n/a", "N/A", "?"} and len(value) <= MAX_VALUE_CHARS


def glossary(doc: Document) -> tuple[list[Claim], list[Concept]]:
    """Definition lists (`Term` / `: definition`, HTML `<dl>`) and abbreviations (`*[LTS]: Long-Term Support`)."""
    claims: list[Claim] = []
    concepts: list[Concept] = []
    for block in doc.blocks:
        if block.kind == "deflist":
            for line, (term, definition) in block.rows:
                term, definition = strip_inline(term), strip_inline(definition)
                if term and _usable(definition):
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
    if not (term and len(term) <= 80 and _usable(definition)):
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
        matches = [_kv(t) for t in texts]
        if block.kind == "paragraph" and not all(matches):
            continue
        if block.kind == "item":
            matches = matches[:1]
        for i, m in enumerate(matches):
            if not m:
                continue
            key, value = m
            line = block.lines[i] if i < len(block.lines) else block.start
            out.append(Claim(doc.title, key, value, "", "fact", "kv", _ev(doc, line)))
    return out


def _kv(text: str) -> tuple[str, str] | None:
    text = text.strip()
    if text.startswith(("*[", "**", "`", ":")):
        return None
    m = _KV.match(text)
    if not m:
        return None
    key = m.group("key").strip()
    value = strip_inline(m.group("value"))
    if key.lower() in _KV_STOP or len(key.split()) > 4 or not _usable(value):
        return None
    if value[:1].islower() and nt.person_shape(key):
        return None  # "Priya Raman: write the consumer" is an action item, not a field
    if value.startswith("//") or key.endswith("."):
        return None
    return key, value
