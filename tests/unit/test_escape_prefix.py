"""esc and a key typed fast reach the app as one alt+key (ESC c): the key typed after esc, by name."""

from __future__ import annotations

import pytest

from kctui.ui.escape_prefix import after_escape


@pytest.mark.parametrize(("key", "after"), [
    ("alt+c", "c"),
    ("alt+shift+d", "D"),
    ("alt+1", "1"),
    ("alt+j", "j"),
    ("c", None),  # a plain key
    ("escape", None),
    ("alt+enter", None),  # not a key typed after esc that Textual can tell apart
    ("alt+question_mark", None),
    ("ctrl+c", None),
    ("alt+é", None),
])
def test_the_key_typed_after_esc(key: str, after: str | None) -> None:
    assert after_escape(key) == after
