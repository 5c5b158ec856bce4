"""kctui.core.values.strip_inline skips the patterns a text cannot match and collapses whitespace with
str.split: the text the three substitutions and the whitespace regex gave, for every input."""

from __future__ import annotations

import re

import pytest

from kctui.core import values

_WS = re.compile(r"\s+")


def _by_the_patterns(text: str) -> str:
    """The rule as first written: all three patterns whenever a bracket or an angle bracket is there."""
    if "[" in text or "<" in text:
        text = values._LINK.sub(r"\1", text)
        text = values._REF_LINK.sub(r"\1", text)
        text = values._AUTOLINK.sub(r"\1", text)
    return _WS.sub(" ", text).strip()


CASES = [
    ("plain  text\twith\nspace ", "plain text with space"),
    ("see [the docs](https://x.org/a_(b)) now", "see the docs now"),
    ("![logo](img.png \"Logo\") and [ref][1]", "logo and ref"),
    ("[[x](y)][z]", "x"),  # the link's text, then the reference link it made
    ("<https://example.org> and <b>bold</b>", "https://example.org and <b>bold</b>"),
    ("[not a link] (x)", "[not a link] (x)"),
    ("a\u00a0b\u2028c\x1cd\u3000e\x85f", "a b c d e f"),  # Unicode whitespace, as the regex \s
    ("\u200bzero-width", "\u200bzero-width"),  # not whitespace
    ("", ""),
    ("  ", ""),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_strip_inline(text: str, expected: str) -> None:
    assert values.strip_inline(text) == expected == _by_the_patterns(text)


def test_whitespace_is_what_the_regex_calls_whitespace() -> None:
    every = "".join(chr(c) for c in range(0x3100))
    assert values.strip_inline("x" + every + "x") == _by_the_patterns("x" + every + "x")
