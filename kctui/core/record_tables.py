# size: the record tables' writer and reader stay in one module, so a table always reads back as the claims it was written from.
"""Record tables (issue 12): a list of records in a source's header — mappings that share an identifying
key, like the release cycles of a product — shows on a page as one Markdown table, one cited row per
record, instead of one claim line per value:

    **Apache Kafka** — one row per releaseCycle:

    | releaseCycle | eoes | eol | latest | Source |
    | --- | --- | --- | --- | --- |
    | 4.3 | 2028-06-17 | false | 4.3.1 | ^[products/apache-kafka.md:L35-L41] |

The claims stay one per value underneath; a table is only another way of writing their claim lines, and
it is computed from the claims alone, so a page read back gives the same claims and renders the same
table again. A *row* is the facts of one subject and one scope citing the same lines, one of which (the
identifying claim) has the scope as its value (`releaseCycle: 4.3`, scope 4.3); a *table* is two or more
rows of one subject and one source with the same identifying key. Rows go in source order; columns are
the identifying key, then the other keys in first-seen order (within a row by key), then `Source`.

A claim that must stay visibly flagged — kept by a person, or the page's side of an open disagreement —
is never a cell: it keeps its own claim line (with its flag), and its cell in the row shows `⚑`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from kctui.core.claims import (
    Claim,
    _esc_subject,
    _unesc,
    citation,
    claim_line,
    claim_sig,
    escape_text,
    parse_citation_suffix,
    parse_claim_line,
    unescape_text,
)
from kctui.core.values import attribute_key

# The sections of a page that hold claim lines (every page class).
CLAIM_SECTIONS = frozenset({"Key Claims", "Definition", "Why It Matters", "Description", "Key Positions/Products/Claims"})
SOURCE_COLUMN = "Source"
FLAG_CELL = "⚑"
KEPT_MARK = " (⚑ kept by a person"  # kctui.core.pages.KEPT_MARK (that module imports this one)
# a claim stating the value a person decided against in a conflict, and one stating the value they chose
# (kctui.core.decided_values): flags like the kept one, before the citation, never a table cell
AGAINST_MARK = " (⚑ decided against by a person"
DECIDED_MARK = " (✓ decided by a person"
FLAG_MARKS = (KEPT_MARK, AGAINST_MARK, DECIDED_MARK)


def mark_at(line: str) -> int:
    """Where the first flag of a person's decision starts in a claim line (-1: none)."""
    found = [i for i in (line.find(m) for m in FLAG_MARKS) if i >= 0]
    return min(found) if found else -1
_CAPTION_START = "**"  # every caption's first characters (a claim line starts "* **")
_CAPTION = re.compile(r"^\*\*(?P<subject>(?:\\.|[^*\\])+)\*\* — one row per .+:$")
_SEPARATOR = re.compile(r"^:?-{3,}:?$")
_CITATION_CELL = re.compile(r"^\^\[.*\]$")

Item = tuple[str, "Claim | None"]  # a section line and the claim it writes (None: not a claim line)


def _cell_ok(text: str) -> bool:
    """Text a cell can hold and give back exactly (one line, no edge spaces, no backslash with a pipe)."""
    return (bool(text) and text == text.strip() and "\n" not in text and "\r" not in text and text != FLAG_CELL
            and not ("\\" in text and "|" in text))


def _cell(text: str) -> str:
    return escape_text(text).replace("|", "\\|")


def _uncell(text: str) -> str:
    return unescape_text(text.replace("\\|", "|")) if "\\" in text else text


class _Table:
    __slots__ = ("subject", "key", "rows", "columns", "first")

    def __init__(self, subject: str, key: str, rows: list[tuple[str, Claim, dict[str, Claim], set[str]]], first: int):
        self.subject, self.key, self.first = subject, key, first
        self.rows = rows  # (scope, a claim of the row for its evidence, attribute -> claim, flagged attributes)
        columns: list[str] = [key]
        seen = {key}
        for _, _, cells, flagged in rows:
            for attr in sorted(set(cells) | flagged, key=lambda a: (attribute_key(a), a)):
                if attr not in seen:
                    seen.add(attr)
                    columns.append(attr)
        self.columns = columns

    def lines(self) -> list[str]:
        out = [f"**{_esc_subject(self.subject)}** — one row per {_cell(self.key)}:", "",
               "| " + " | ".join(_cell(c) for c in self.columns) + f" | {SOURCE_COLUMN} |",
               "| " + " | ".join("---" for _ in range(len(self.columns) + 1)) + " |"]
        for _, claim, cells, flagged in self.rows:
            values = [_cell(cells[c].value) if c in cells else FLAG_CELL if c in flagged else "" for c in self.columns]
            out.append("| " + " | ".join(values) + f" | {citation(claim.evidence)} |")
        return out


RowKey = tuple[str, str, str, int, int]  # a row: (subject, scope, path, start line, end line)


def find_tables(claims: Sequence[Claim | str | None], loose: set[tuple] | frozenset[tuple] = frozenset()) -> tuple[list[_Table], dict[int, int]]:
    """The record tables among `claims` (a section's claims in page order; other entries are other lines)
    and, for each claim index that is a cell, its table. `loose`: signatures of claims that keep their
    own line (flagged)."""
    rows, odd = _rows(claims)
    groups = _group_rows(_identifying_keys(claims, rows, odd, loose))
    tables: list[_Table] = []
    member: dict[int, int] = {}
    for (subject, _path, key), rks in groups.items():
        if len(rks) < 2:
            continue
        rks.sort(key=lambda rk: (rk[3], rk[4], rk[1]))
        table, cells_of = _build_table(claims, rows, subject, key, rks, loose)
        tables.append(table)
        for i in cells_of:
            member[i] = len(tables) - 1
    return tables, member


def _rows(claims: Sequence[Claim | str | None]) -> tuple[dict[RowKey, list[int]], set[RowKey]]:
    """The scoped line-cited facts by row (their indexes in `claims`), and the rows with a value no cell
    can give back exactly (their claims keep their lines)."""
    rows: dict[RowKey, list[int]] = {}
    odd: set[RowKey] = set()
    names: dict[str, bool] = {}  # attributes and scopes recur: checked once
    for i, c in enumerate(claims):
        if not isinstance(c, Claim) or not c.scope or c.form != "fact" or c.evidence.unit != "line":
            continue
        ev = c.evidence
        rk = (c.subject, c.scope, ev.path, ev.start, ev.end)
        rows.setdefault(rk, []).append(i)
        for name in (c.attribute, c.scope):
            if name not in names:
                names[name] = _cell_ok(name)
        if not (_cell_ok(c.value) and names[c.attribute] and names[c.scope]):
            odd.add(rk)
    return rows, odd


def _identifying_keys(claims: Sequence[Claim | str | None], rows: dict[RowKey, list[int]], odd: set[RowKey],
                      loose: set[tuple] | frozenset[tuple]) -> dict[RowKey, list[str]]:
    """For each row that can be one (two or more firm claims, no attribute twice, nothing odd), the
    attributes whose value is the row's scope, sorted; rows with none are left out."""
    candidates: dict[RowKey, list[str]] = {}
    for rk, idx in rows.items():
        if len(idx) < 2:
            continue
        attrs = [claims[i].attribute for i in idx]  # type: ignore[union-attr]
        firm = [i for i in idx if claim_sig(claims[i]) not in loose] if loose else idx  # type: ignore[arg-type]
        if rk in odd or len(set(attrs)) != len(attrs) or len(firm) < 2:
            continue
        found = sorted({claims[i].attribute for i in firm if claims[i].value == rk[1]})  # type: ignore[union-attr]
        if found:
            candidates[rk] = found
    return candidates


def _group_rows(candidates: dict[RowKey, list[str]]) -> dict[tuple[str, str, str], list[RowKey]]:
    """The rows by (subject, source path, identifying key). A row with more than one possible key takes
    the one most rows of its subject and source have alone (then the first by name)."""
    votes = Counter((rk[0], rk[2], found[0]) for rk, found in candidates.items() if len(found) == 1)
    groups: dict[tuple[str, str, str], list[RowKey]] = {}
    for rk, found in sorted(candidates.items()):
        key = min(found, key=lambda a: (-votes[(rk[0], rk[2], a)], a))
        groups.setdefault((rk[0], rk[2], key), []).append(rk)
    return groups


def _build_table(claims: Sequence[Claim | str | None], rows: dict[RowKey, list[int]], subject: str, key: str,
                 rks: list[RowKey], loose: set[tuple] | frozenset[tuple]) -> tuple[_Table, list[int]]:
    """The table of rows `rks` (in order) and the indexes of the claims that are its cells (a loose
    claim is a flagged cell and keeps its line)."""
    table_rows = []
    cells_of: list[int] = []
    for rk in rks:
        cells: dict[str, Claim] = {}
        flagged: set[str] = set()
        for i in rows[rk]:
            c = claims[i]
            if loose and claim_sig(c) in loose:  # type: ignore[arg-type]
                flagged.add(c.attribute)  # type: ignore[union-attr]
            else:
                cells[c.attribute] = c  # type: ignore[union-attr,index]
                cells_of.append(i)
        table_rows.append((rk[1], cells[key], cells, flagged))
    return _Table(subject, key, table_rows, min(cells_of)), cells_of


def tabulate(entries: Sequence[Claim | str], line_of: Callable[[Claim], str] = claim_line,
             loose: set[tuple] | frozenset[tuple] = frozenset()) -> list[str]:
    """A section's lines — `entries` are its claims (written by `line_of`) and other lines (as they are) —
    with its record tables in place of their claims' lines (each table where its first claim was, set off
    by blank lines)."""
    tables, member = find_tables(entries, loose)
    if not tables:
        return [e if isinstance(e, str) else line_of(e) for e in entries]
    out: list[str] = []
    for i, entry in enumerate(entries):
        t = member.get(i)
        if t is None:
            line = entry if isinstance(entry, str) else line_of(entry)
            if out and out[-1] == "" and not line:
                continue
            out.append(line)
        elif tables[t].first == i:
            if out and out[-1] != "":
                out.append("")
            out += tables[t].lines()
            out.append("")
    while out and out[-1] == "":
        out.pop()
    return out


# -- reading a table back -------------------------------------------------------------------------


def _split_row(line: str) -> list[str] | None:
    text = line.strip()
    if len(text) < 2 or not (text.startswith("|") and text.endswith("|")):
        return None
    if "\\" not in text:  # no escapes: every pipe ends a cell (the text ends with one)
        return [cell.strip() for cell in text[1:-1].split("|")]
    cells: list[str] = []
    cur: list[str] = []
    i, n = 1, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            cur.append(text[i: i + 2])
            i += 2
            continue
        if ch == "|":
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    return None if "".join(cur).strip() else cells


def _read_table(lines: list[str], start: int, subject: str,
                digests: dict[str, str] | None = None) -> tuple[list[Claim], int] | None:
    """The claims of the table whose header row is `lines[start]`, and the index after its last row (each
    citation's digest from `digests`, the page's sources, as a claim line's is)."""
    header = _table_header(lines, start)
    if header is None:
        return None
    columns = [_uncell(h) for h in header[:-1]]
    out: list[Claim] = []
    i = start + 2
    while i < len(lines):
        claims = _row_claims(lines[i], len(header), columns, subject, digests or {})
        if claims is None:
            break
        out += claims
        i += 1
    return out, i


def _table_header(lines: list[str], start: int) -> list[str] | None:
    """The cells of a record table's header row `lines[start]` (its separator row follows), else None."""
    if start + 1 >= len(lines):
        return None
    header = _split_row(lines[start])
    sep = _split_row(lines[start + 1])
    if not header or len(header) < 3 or header[-1] != SOURCE_COLUMN or not sep or len(sep) != len(header):
        return None
    if not all(_SEPARATOR.match(s) for s in sep):
        return None
    return header


def _row_claims(line: str, width: int, columns: list[str], subject: str,
                digests: dict[str, str]) -> list[Claim] | None:
    """The claims of one table row (its scope, then each value cell), or None when `line` is no row."""
    cells = _split_row(line)
    if cells is None or len(cells) != width or not _CITATION_CELL.match(cells[-1]):
        return None
    split = parse_citation_suffix(" " + cells[-1], digests)
    if split is None or split[0] or not cells[0]:
        return None
    ev = split[1]
    scope = _uncell(cells[0])
    out = [Claim(subject, columns[0], scope, scope, "fact", "fact", ev)]
    for attr, cell in zip(columns[1:], cells[1:-1]):
        if cell and cell != FLAG_CELL:
            out.append(Claim(subject, attr, _uncell(cell), scope, "fact", "fact", ev))
    return out


def explode_lines(lines: list[str]) -> tuple[list[str], bool]:
    """Lines with every record table (caption, header, rows) written as the claim lines it stands for,
    in row order; True when there was one."""
    entries, found = read_entries(lines)
    return [e if isinstance(e, str) else claim_line(e) for e in entries], found


def read_entries(lines: list[str], digests: dict[str, str] | None = None) -> tuple[list[str | Claim], bool]:
    """`explode_lines` without writing the tables' claims out: the lines, with each record table's
    claims in its place (a table row is read straight into the claims its line would parse to); True
    when there was a table."""
    if not any(line.startswith(_CAPTION_START) for line in lines):
        return list(lines), False
    out: list[str | Claim] = []
    found = False
    i = 0
    while i < len(lines):
        m = _CAPTION.match(lines[i])
        if m:
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            read = _read_table(lines, j, _unesc(m.group("subject")), digests)
            if read is not None:
                claims, i = read
                out += claims
                found = True
                continue
        out.append(lines[i])
        i += 1
    return out, found


def _section_spans(lines: list[str]) -> list[tuple[int, int]]:
    """(first, end) line indexes of the content of each claim section."""
    spans: list[tuple[int, int]] = []
    current: int | None = None
    for i, line in enumerate(lines):
        if line.startswith("## "):
            if current is not None:
                spans.append((current, i))
            current = i + 1 if line[3:].strip() in CLAIM_SECTIONS else None
    if current is not None:
        spans.append((current, len(lines)))
    return spans


def explode(body: str) -> str:
    """A page body with the record tables of its claim sections written as claim lines (the grammar every
    line reader knows); the body itself when it has none."""
    if "| " + SOURCE_COLUMN + " |" not in body:
        return body
    lines = body.split("\n")
    out: list[str] = []
    pos = 0
    changed = False
    for first, end in _section_spans(lines):
        new, found = explode_lines(lines[first:end])
        out += lines[pos:first] + (new if found else lines[first:end])
        pos = end
        changed = changed or found
    return "\n".join(out + lines[pos:]) if changed else body


def section_items(lines: Iterable[str]) -> tuple[list[Item], set[tuple]]:
    """A claim section's non-blank lines as (line, claim) items, and the signatures of its flagged
    (kept) claims."""
    items: list[Item] = []
    kept: set[tuple] = set()
    for line in lines:
        if not line.strip():
            continue
        claim = None
        if line.startswith("* "):
            marked = mark_at(line)
            if marked >= 0:
                cut = line.rfind(" ^[")
                claim = parse_claim_line(line[:marked] + line[cut:] if cut > marked else line, {})
                if claim is not None:
                    kept.add(claim_sig(claim))
            else:
                claim = parse_claim_line(line, {})
        items.append((line, claim))
    return items, kept


def implode(body: str, flagged_lines: Iterable[str] | None = None) -> str:
    """A body edited line by line (after `explode`) with its record tables written again, exactly as a
    page rendered from its claims has them (tables still in it are read and written again). `flagged_lines`: the claim lines of the open disagreements
    (default: the body's status block); with the kept claims they keep their own lines."""
    from kctui.core.page_status import block_claim_lines  # noqa: PLC0415 - page_status imports nothing of ours

    lines = body.split("\n")
    spans = _section_spans(lines)
    if not spans:
        return body
    disputed = {claim_sig(c) for c in (parse_claim_line(ln, {}) for ln in
                                       (block_claim_lines(body) if flagged_lines is None else flagged_lines)) if c}
    out: list[str] = []
    pos = 0
    for first, end in spans:
        out += lines[pos:first]
        out += _implode_section(lines[first:end], disputed)
        pos = end
    return "\n".join(out + lines[pos:])


def _implode_section(section: list[str], disputed: set[tuple]) -> list[str]:
    """One claim section with its record tables written again (the section itself when nothing changes);
    the blank lines around its content stay."""
    lead = 0
    while lead < len(section) and not section[lead].strip():
        lead += 1
    tail = len(section)
    while tail > lead and not section[tail - 1].strip():
        tail -= 1
    flat, had = explode_lines(section[lead:tail])
    items, kept = section_items(flat)
    written = {id(c): ln for ln, c in items if c is not None}
    new = tabulate([ln if c is None else c for ln, c in items], lambda c: written[id(c)], disputed | kept)
    if new == [ln for ln, _ in items] and not had and "" not in flat:
        return section
    return section[:lead] + new + section[tail:]


__all__ = ["CLAIM_SECTIONS", "FLAG_CELL", "SOURCE_COLUMN", "explode", "explode_lines", "find_tables", "implode",
           "read_entries", "section_items", "tabulate"]
