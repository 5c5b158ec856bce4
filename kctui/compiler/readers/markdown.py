"""Markdown reader: YAML frontmatter through the capped, alias-refusing loader of `kctui.core.frontmatter`,
the body through markdown-it-py (CommonMark + tables) with every block's source lines kept.

The frontmatter is *composed* (not constructed) so every scalar keeps its raw text and its line: a
claim taken from `latest: "4.3.1"` cites the very line that says 4.3.1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml
from markdown_it import MarkdownIt

from kctui.compiler.readers.base import Block, Document, clean_text, email_subject, humanise_stem
from kctui.core import frontmatter as fm

_SECTION_NAMES = frozenset({"summary", "motivation", "abstract", "introduction", "overview", "background",
                            "detailed design", "design", "drawbacks", "alternatives", "unresolved questions", "contents"})
# Blocks keep their inline source text (`inline.content`, set by the block parser); nothing reads the
# inline tokens, so the core "inline" rule that builds them (half of the parse) is not run.
_MD = MarkdownIt("commonmark", {"maxNesting": 40}).enable("table").disable("inline")


def compose_frontmatter(header: str) -> yaml.MappingNode | None:
    """Compose a frontmatter header into a node tree with the same guards as `safe_load_yaml`
    (size cap, aliases refused, nesting capped). Raises `FrontmatterError`."""
    node = fm.compose_yaml(header)
    if node is None:
        return None
    if not isinstance(node, yaml.MappingNode):
        raise fm.FrontmatterError("frontmatter is not a YAML mapping")
    return node


def scalar_text(node: Any) -> str | None:
    if isinstance(node, yaml.ScalarNode):
        return clean_text(node.value)
    return None


def mapping_get(node: Any, key: str) -> Any:
    if not isinstance(node, yaml.MappingNode):
        return None
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return v
    return None


def read_markdown(path: str, text: str, digest: str, size: int) -> Document:
    warnings: list[str] = []
    lines = text.split("\n")
    node = None
    offset = 0
    fm_lines = None
    try:
        header, body, used = fm.split_frontmatter(text)
    except fm.FrontmatterError as exc:
        header, body, used = None, text, 0
        warnings.append(f"frontmatter ignored: {exc}")
    if header is not None:
        fm_lines = (1, used)
        try:
            node = compose_frontmatter(header) if header.strip() else None
            offset = 1  # header line i (0-based) is file line i + 2
        except fm.FrontmatterError as exc:
            warnings.append(f"frontmatter refused: {exc}")
            node = None
    blocks = _blocks(body, used)
    title = None
    title_node = mapping_get(node, "title")
    if scalar_text(title_node):
        title = " ".join(scalar_text(title_node).split())  # type: ignore[union-attr]
    if not title and blocks and blocks[0].kind == "heading" and blocks[0].level == 1:
        # An opening H1 names the document, unless it is a section heading ("Summary", "Motivation").
        candidate = " ".join(blocks[0].text.split())
        if candidate.strip("#*_` ").casefold() not in _SECTION_NAMES:
            title = candidate
    if not title:  # a pasted email is named by its subject line
        title = email_subject(lines[used:]) or None
    if not title and blocks and blocks[0].kind == "heading":
        # a note that opens with a heading of another level ("## Standup 16-Nov-2026") is named by it too
        candidate = " ".join(blocks[0].text.split())
        if candidate.strip("#*_` ").casefold() not in _SECTION_NAMES and any(ch.isalpha() for ch in candidate):
            title = candidate
    doc = Document(
        path=path,
        digest=digest,
        size=size,
        kind="markdown",
        title=title or humanise_stem(path),
        lines=lines,
        blocks=blocks,
        frontmatter=node,
        frontmatter_offset=offset,
        frontmatter_lines=fm_lines,
        warnings=warnings,
    )
    return doc


def _line_numbers(content: str, first: int, last: int) -> tuple[int, ...]:
    count = content.count("\n") + 1
    span = last - first + 1
    if count == span:
        return tuple(range(first, last + 1))
    return tuple(min(first + i, last) for i in range(count))


@dataclass(slots=True)
class _Table:
    """The table being read: where it starts, its rows so far, and the row being read."""

    start: int = 0
    rows: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)
    row: list[str] = field(default_factory=list)
    row_line: int = 0


_CONTAINER_OPEN = ("blockquote_open", "list_item_open")
_CONTAINER_CLOSE = ("blockquote_close", "list_item_close")
_TEXT_OPEN = ("heading_open", "paragraph_open")
_TABLE_TOKENS = frozenset({"table_open", "tr_open", "inline", "tr_close", "table_close"})


def _blocks(body: str, base: int) -> list[Block]:
    """Blocks with 1-based file lines (`base` lines of frontmatter precede the body)."""
    tokens = _MD.parse(body)
    out: list[Block] = []
    containers: list[str] = []
    table = _Table()
    i = 0
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        t = tok.type
        if t in _CONTAINER_OPEN:
            containers.append(t)
        elif t in _CONTAINER_CLOSE:
            if containers:
                containers.pop()
        elif t in _TEXT_OPEN and i + 1 < n and tok.map:
            out.append(_text_block(tok, tokens[i + 1], base, containers))
            i += 2  # the block's inline token is read with it
            continue
        elif t in ("fence", "code_block") and tok.map:
            out.append(Block("code", base + tok.map[0] + 1, base + tok.map[1], tok.content))
        elif t in _TABLE_TOKENS:
            _table_token(table, tok, tokens[i - 1].type, base, out)
        i += 1
    return out


def _text_block(tok: Any, inline: Any, base: int, containers: list[str]) -> Block:
    """A heading, or a paragraph (a list item's or a quote's inside one), with its inline source text."""
    first, last = base + tok.map[0] + 1, base + tok.map[1]
    if tok.type == "heading_open":
        return Block("heading", first, last, inline.content.strip(), (first,), level=int(tok.tag[1:]))
    kind = "paragraph"
    if containers:
        kind = "item" if containers[-1] == "list_item_open" else "quote"
    depth = containers.count("list_item_open") if kind == "item" else 0  # an item's level: 1 top, 2 nested in one
    return Block(kind, first, last, inline.content, _line_numbers(inline.content, first, last), level=depth)


def _table_token(table: _Table, tok: Any, before: str, base: int, out: list[Block]) -> None:
    """One token of a table: a table or a row opens, a cell's text, a row or the table closes (the table
    is a block once it has a row)."""
    t = tok.type
    if t == "table_open" and tok.map:
        table.rows = []
        table.start = base + tok.map[0] + 1
    elif t == "tr_open" and tok.map:
        table.row = []
        table.row_line = base + tok.map[0] + 1
    elif t == "inline" and before in ("th_open", "td_open"):
        table.row.append(tok.content.strip())
    elif t == "tr_close":
        table.rows.append((table.row_line, tuple(table.row)))
    elif t == "table_close" and table.rows:
        out.append(Block("table", table.start, table.rows[-1][0], rows=tuple(table.rows)))
