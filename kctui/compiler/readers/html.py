"""HTML reader (stdlib `html.parser`): headings, paragraphs, list items, quotes, tables and definition
lists, each with the source lines its text came from. Scripts, styles and comments are ignored."""

from __future__ import annotations

from html.parser import HTMLParser

from kctui.compiler.readers.base import Block, Document, humanise_stem

_BLOCK_TAGS = {
    "p": "paragraph",
    "li": "item",
    "blockquote": "quote",
    "dt": "dt",
    "dd": "dd",
    "td": "cell",
    "th": "cell",
    "pre": "code",
    "h1": "heading",
    "h2": "heading",
    "h3": "heading",
    "h4": "heading",
    "h5": "heading",
    "h6": "heading",
    "title": "title",
    "caption": "paragraph",
    "figcaption": "paragraph",
}
_SKIP = frozenset({"script", "style", "template", "noscript", "svg"})
_VOID = frozenset({"br", "hr", "img", "meta", "link", "input", "wbr", "area", "base", "col", "source"})


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self.title = ""
        self._skip = 0
        self._stack: list[tuple[str, str]] = []  # (tag, kind) of open text blocks
        self._parts: dict[int, list[str]] = {}
        self._table: list[tuple[int, tuple[str, ...]]] | None = None
        self._row: list[str] | None = None
        self._row_line = 0
        self._deflist: list[tuple[int, tuple[str, ...]]] | None = None
        self._term: tuple[int, str] | None = None
        self._depth_guard = 0

    # text collection -------------------------------------------------------------------------
    def _begin(self) -> None:
        self._parts = {}

    def _text(self) -> tuple[str, tuple[int, ...]]:
        numbers = sorted(n for n, parts in self._parts.items() if " ".join("".join(parts).split()))
        lines = [" ".join("".join(self._parts[n]).split()) for n in numbers]
        self._parts = {}
        return "\n".join(lines), tuple(numbers)

    def handle_data(self, data: str) -> None:
        if self._skip or not self._stack:
            return
        line = self.getpos()[0]
        for offset, piece in enumerate(data.split("\n")):
            self._parts.setdefault(line + offset, []).append(piece)

    # structure ------------------------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs) -> None:  # noqa: ANN001
        tag = tag.lower()
        if tag in _VOID:
            return
        if tag in _SKIP:
            self._skip += 1
            return
        if tag == "table":
            self._table = []
        elif tag == "tr":
            self._row = []
            self._row_line = self.getpos()[0]
        elif tag == "dl":
            self._deflist = []
        kind = _BLOCK_TAGS.get(tag)
        if kind and not self._stack:
            self._stack.append((tag, kind))
            self._begin()
        elif kind:
            self._stack.append((tag, "nested"))

    def handle_endtag(self, tag: str) -> None:
        tag = tag.lower()
        if tag in _SKIP:
            self._skip = max(0, self._skip - 1)
            return
        self._close_container(tag)
        kind = self._close_block(tag)
        if kind is None or kind == "nested" or self._stack:
            return
        text, numbers = self._text()
        if text:
            self._end_block(tag, kind, text, numbers)

    def _close_container(self, tag: str) -> None:
        """A table row, a table or a definition list ends: its rows are complete."""
        if tag == "tr" and self._table is not None and self._row is not None:
            if any(self._row):
                self._table.append((self._row_line, tuple(self._row)))
            self._row = None
        elif tag == "table" and self._table is not None:
            if self._table:
                self.blocks.append(Block("table", self._table[0][0], self._table[-1][0], rows=tuple(self._table)))
            self._table = None
        elif tag == "dl" and self._deflist is not None:
            if self._deflist:
                self.blocks.append(Block("deflist", self._deflist[0][0], self._deflist[-1][0], rows=tuple(self._deflist)))
            self._deflist = None

    def _close_block(self, tag: str) -> str | None:
        """Pop the open text block this tag ends (and any left open inside it) and return its kind; None
        when no open block has this tag."""
        if not self._stack or self._stack[-1][0] != tag:
            if not any(t == tag for t, _ in self._stack):
                return None
            while self._stack and self._stack[-1][0] != tag:
                self._stack.pop()
        return self._stack.pop()[1]

    def _end_block(self, tag: str, kind: str, text: str, numbers: tuple[int, ...]) -> None:
        """The text of an outermost block, complete: a block, a cell of the row, a term or its definition."""
        first, last = numbers[0], numbers[-1]
        if kind == "title":
            self.title = text.replace("\n", " ")
        elif kind == "cell":
            if self._row is not None:
                self._row.append(text.replace("\n", " "))
        elif kind == "dt":
            self._term = (first, text.replace("\n", " "))
        elif kind == "dd":
            if self._deflist is not None and self._term is not None:
                self._deflist.append((self._term[0], (self._term[1], text.replace("\n", " "))))
                self._term = None
        elif kind == "heading":
            self.blocks.append(Block("heading", first, last, text.replace("\n", " "), (first,), level=int(tag[1])))
        else:
            self.blocks.append(Block(kind, first, last, text, numbers))


def read_html(path: str, text: str, digest: str, size: int) -> Document:
    collector = _Collector()
    collector.feed(text)
    collector.close()
    blocks = sorted(collector.blocks, key=lambda b: (b.start, b.end))
    h1 = next((b.text for b in blocks if b.kind == "heading" and b.level == 1), None)
    title = collector.title or h1 or humanise_stem(path)
    return Document(path=path, digest=digest, size=size, kind="html", title=title, lines=text.split("\n"), blocks=blocks)
