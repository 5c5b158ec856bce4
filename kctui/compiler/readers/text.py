"""Plain-text reader: paragraphs are runs of non-blank lines; a run of `- ` / `* ` lines is one item each."""

from __future__ import annotations

import re

from kctui.compiler.readers.base import Block, Document, email_subject, humanise_stem

_ITEM = re.compile(r"^\s*(?:[-*+\u2022]|\d+[.)])\s+")


def paragraph_blocks(lines: list[str], first_line: int = 1) -> list[Block]:
    """Split lines into paragraph and list-item blocks (line numbers start at `first_line`)."""
    blocks: list[Block] = []
    run: list[tuple[int, str]] = []

    def flush() -> None:
        if run:
            text = "\n".join(t for _, t in run)
            blocks.append(Block("paragraph", run[0][0], run[-1][0], text, tuple(n for n, _ in run)))
            run.clear()

    for idx, raw in enumerate(lines):
        number = first_line + idx
        line = raw.strip()
        if not line:
            flush()
            continue
        m = _ITEM.match(raw)
        if m:
            flush()
            blocks.append(Block("item", number, number, raw[m.end() :].strip(), (number,)))
            continue
        if blocks and blocks[-1].kind == "item" and not run and raw[:1].isspace():
            prev = blocks[-1]  # an indented continuation of a list item
            blocks[-1] = Block("item", prev.start, number, prev.text + "\n" + line, prev.lines + (number,))
            continue
        run.append((number, line))
    flush()
    return blocks


def read_text(path: str, text: str, digest: str, size: int) -> Document:
    lines = text.split("\n")
    blocks = paragraph_blocks(lines)
    title = email_subject(lines) or humanise_stem(path)  # a pasted email: its subject line
    return Document(path=path, digest=digest, size=size, kind="text", title=title, lines=lines, blocks=blocks)
