"""Speed-ups of the extraction rules change no answer: each is checked against the rule as first written."""

from __future__ import annotations

import re

import pytest

from kctui.compiler.builtin import sentences, stated_values
from kctui.compiler.readers.base import Block
from kctui.core.values import fact_tokens

TEXTS = [
    "Postgres 16 was released on Monday, 2026-03-02, and EOL is in May.",
    "the meeting moved from mon to Tue; Sept and SEPT and Sep. and June1 and 1June",
    "Ma Jun Jul July Decemberish Wednesdays",
    "ÉMay Über-May xMay May-June",
    "",
]


def _value_spans_as_written(text: str) -> list[tuple[int, int]]:
    out = [(m.start(), m.end()) for m in stated_values._DIGIT_TOKEN.finditer(text)]
    out += [(m.start(), m.end()) for m in re.finditer(r"[A-Za-z]+", text) if stated_values.calendar_word(m.group(0))]
    return out


@pytest.mark.parametrize("text", TEXTS)
def test_value_spans_looks_at_capitalised_words_only(text: str) -> None:
    assert stated_values.value_spans(text) == _value_spans_as_written(text)


def _sentences_as_written(block: Block) -> list[tuple[str, int, int]]:
    """sentences() with each sentence's first line found by stripping the rest of the block."""
    flat = block.text
    starts, pos = [], 0
    for t in flat.split("\n"):
        starts.append(pos)
        pos += len(t) + 1

    def line_at(offset: int) -> int:
        idx = max(sum(1 for s in starts if s <= offset) - 1, 0)
        return block.lines[idx] if idx < len(block.lines) else block.end

    out, begin = [], 0
    for m in sentences._SENTENCE_END.finditer(flat):
        head = flat[begin:m.start()].rstrip()
        if head.endswith(sentences._ABBREVIATIONS):
            continue
        if head.strip():
            out.append((head.strip(), line_at(begin + len(flat[begin:]) - len(flat[begin:].lstrip())),
                        line_at(m.start() - 1)))
        begin = m.end()
    if flat[begin:].strip():
        out.append((flat[begin:].strip(), line_at(begin + len(flat[begin:]) - len(flat[begin:].lstrip())),
                    line_at(len(flat) - 1)))
    return out


BLOCKS = [
    Block("paragraph", 3, 5, "One sentence. Two\nsentences here.\n  Three on\u00a0the third line.", (3, 4, 5)),
    Block("paragraph", 1, 3, "Ends with e.g. A capital.   \n\n   \nNext: a label line", (1, 2, 3)),
    Block("item", 7, 7, "   ", (7,)),
    Block("quote", 9, 10, "Spaces\u2003after. Then\u3000more.", (9, 10)),
]


@pytest.mark.parametrize("block", BLOCKS)
def test_sentences_find_each_first_line_without_copying_the_rest(block: Block) -> None:
    assert list(sentences.sentences(block)) == _sentences_as_written(block)


LINES = [
    ["Released 2026-03-02, version 4.3.1", "see https://x.org/v1.2.3 and www.a.io/2024", "12,000 users; 3.5x"],
    ["ends with a dot 1.2.", "v2.0", ".5 and 5.", "1,23 and 1,234,567.89"],
    ["a\r", "2026-01-01\r", "x.1.2 y_1.2 1.2z"],
]


@pytest.mark.parametrize("lines", LINES)
def test_the_fact_tokens_of_lines_joined_are_those_of_each_line(lines: list[str]) -> None:
    """unreached_facts reads a document's lines in one call: no token spans a line break."""
    assert fact_tokens("\n".join(lines)) == set().union(*(fact_tokens(line) for line in lines))
