"""Facts in tables: a table's rows as claims about the thing each row names (its name column: a vendor,
a service, a host; the columns' headers as the claims' attributes, a version in the name cell as its own
claim), its people (a cell shaped as a person's name says what the row says about them), its suppliers
(a column of the company that supplies the row's product), and a two-column table of keys and values as
facts of the document (kctui.compiler.builtin.facts reads the rest of a document's structure)."""

from __future__ import annotations

import re

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.sentences import ev
from kctui.compiler.extraction import Entity
from kctui.compiler.readers import Document
from kctui.core.claims import Claim
from kctui.core.values import VERSION, strip_inline

MAX_VALUE_CHARS = 300


def usable_value(value: str) -> bool:
    """A cell's or a line's value worth a claim: not empty, not a dash or "n/a", at most MAX_VALUE_CHARS."""
    return bool(value) and value not in {"-", "—", "–", "n/a", "N/A", "?"} and len(value) <= MAX_VALUE_CHARS


def _heading_context(doc: Document) -> dict[int, str]:
    """For each block start line, the nearest heading above it (level 2+), by start line."""
    ctx: dict[int, str] = {}
    current = ""
    for block in doc.blocks:
        if block.kind == "heading":
            current = strip_inline(block.text) if block.level >= 2 else ""
        ctx[block.start] = current
    return ctx


def row_name(cell: str, typed: bool = False) -> bool:
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
        if len(cells) > 1 and usable_value(cells[1]):
            out.append(Claim(doc.title, cells[0], cells[1], heading, "fact", "table", ev(doc, line, line)))


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
                found.append(Entity(vendor, "company", vendor, (), ev(doc, line, line)))
                out.append(Claim(vendor, f"{header[supplier]} of", subjects[0], "", "fact", "table", ev(doc, line, line)))
            for product in products:  # the vendor's product the row is about: the row's cells are its facts too
                name, release = _DOTTED_RELEASE.match(product).groups()  # "Overwatch SCADA 7.4": a release of it
                _named_row(doc, header, cells, line, second, [name], second_type, out, found, skip=column)
                out.append(Claim(name, header[column], subjects[0], "", "fact", "table", ev(doc, line, line)))
                if release:
                    out.append(Claim(name, "version", release, "", "fact", "table", ev(doc, line, line)))
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
        found.append(Entity(subject, row_type, subject, aliases, ev(doc, line, line)))
        for k, (attribute, value) in enumerate(zip(header, cells)):
            if k not in (column, skip) and usable_value(value):
                out.append(Claim(subject, attribute, value, "", "fact", "table", ev(doc, line, line)))


def _document_row(doc: Document, header: list[str], cells: tuple[str, ...], line: int, heading: str,
                  out: list[Claim]) -> None:
    """A row that names no thing: its cells are facts of the document, scoped by the row's first cell."""
    scope = f"{heading}: {cells[0]}" if heading else cells[0]
    for attribute, value in zip(header[1:], cells[1:]):
        if usable_value(value):
            out.append(Claim(doc.title, attribute, value, scope, "fact", "table", ev(doc, line, line)))


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
        strict = sum(1 for f in cells if row_name(f, typed))
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


# what a name never holds: a question's mark, a dash between words (a remark after it), emphasis inside
_REMARK = re.compile(r"\?|\s[—–]\s|\*\*")
_STRESSED = re.compile(r"\*\*([^*]+)\*\*")


def _row_subjects(cell: str, typed: bool, lower_ok: bool = False) -> list[str]:
    """The names a cell of the name column gives ("`orders-db`, `labels-db`", "Gaz + Raj": two each)."""
    head = _PAREN_TAIL.sub("", cell)
    if typed and head and not any(w in wd.FUNCTION_WORDS for w in head.split()):
        cell = head  # "Acme Forge (formerly Forge One)", "Kodeo sp. z o.o. (Kraków)": the name, then a remark
        # (not "PostgreSQL 14 on EC2 (r6i.2xlarge ×3, Patroni)": a phrase of names)
    parts = [p.strip().strip("`*_ ") for p in _CELL_NAMES_GAP.split(cell)]
    if any(_REMARK.search(p) for p in parts):
        # "Ambersil? no — **Stage Depot**": a remark, no name; the name it stresses is the row's ("Stage Depot")
        stressed = _STRESSED.findall(cell)
        return _row_subjects(stressed[0], typed, lower_ok) if len(stressed) == 1 else []
    if all(p and (row_name(p, typed) or (typed and _named_cell(p, lower_ok))) for p in parts):
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
            found.append(Entity(other.strip(), "person", other.strip(), (), ev(doc, line, line)))
            if row_subject:  # the person's page says what the row says about them
                out.append(Claim(other.strip(), f"{column} of", row_subject, row_subject, "fact", "table",
                                 ev(doc, line, line)))
