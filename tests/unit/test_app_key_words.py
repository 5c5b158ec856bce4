"""The app never ignores a key silently (docs/app.md; QA session 30 #6 and #12): a typed key no binding
of the screen takes says so, or where it applies; keys typed before a screen showed are named once; a
long page text is told apart from a short one and rendered to plain styled lines."""

from __future__ import annotations

import pytest

from kctui.ui import keys
from kctui.ui.long_markdown import LONG_BLOCKS, block_count, is_long, render_lines
from kctui.ui.stale_keys import dropped_words
from kctui.ui.unbound_key import unbound_words


@pytest.mark.parametrize("key, character, expected", [
    ("y", "y", "y (Yes): only in a yes/no question, and none is open; ? lists the keys here"),
    ("X", "X", "X: no key here is bound to it; ? lists the keys here"),
    ("c", "c", None),  # compile: bound on the main screen
    ("question_mark", "?", None),  # help: bound app-wide
    ("down", None, None),  # not a typed character: the widgets' own
    ("space", " ", None),
])
def test_unbound_words_on_the_main_screen(key, character, expected):
    assert unbound_words(key, character, (keys.MAIN,)) == expected


def test_a_key_of_another_screen_says_where_it_applies():
    words = unbound_words("K", "K", (keys.MAIN,))
    assert words is not None and words.startswith("K (") and "only in a review item" in words


def test_dropped_words():
    assert dropped_words(["esc"]) == "esc: key typed before this screen showed; not run (press again)"
    assert dropped_words(["esc", "esc", "1", "j", "i", "w", "h", "a"]).startswith(
        "esc, esc, 1, j, i, w and 2 more: keys typed before")


def test_long_text():
    short = "# Lagos\n\n" + "".join(f"- claim {i} ^[a.md:L{i}-L{i}]\n" for i in range(20))
    long = "# Lagos\n\n" + "".join(f"- claim {i} ^[a.md:L{i}-L{i}]\n" for i in range(LONG_BLOCKS + 1))
    assert block_count(short) == 21 and not is_long(short)
    assert is_long(long)
    text = render_lines(long, 60)
    lines = text.plain.splitlines()
    assert any("Lagos" in line for line in lines[:3]) and any("claim 150" in line for line in lines)
    assert max(len(line) for line in lines) <= 60
