"""Issue 35's review item drawing and editor command, as pure functions: changed words highlighted
(bold reversed, so they show without colour), − / + markers on both views, the split view's two columns
within the width, and `$EDITOR +LINE FILE` built the way a shell splits it."""

from __future__ import annotations

from pathlib import Path

from kctui.ui.outside import command
from kctui.ui.screens.review_view import split, unified, word_pair

TONES = {"error": "red", "success": "green", "muted": "grey50"}


def test_only_the_changed_words_are_highlighted() -> None:
    left, right = word_pair("eol: 2028 ^[a.md:L2-L2]", "eol: 2029 ^[a.md:L2-L2]", TONES)
    hot = [(left.plain[s.start:s.end], str(s.style)) for s in left.spans]
    assert hot == [("2028", "bold reverse red")]
    assert [right.plain[s.start:s.end] for s in right.spans] == ["2029"]


def test_both_views_mark_lines_with_minus_and_plus() -> None:
    cur = ["# T", "", "* eol: 2028", "* keep: x"]
    new = ["# T", "", "* eol: 2029", "* keep: x", "* added: y"]
    u = unified(cur, new, TONES).plain.splitlines()
    assert "− * eol: 2028" in u and "+ * eol: 2029" in u and "+ * added: y" in u and "  * keep: x" in u
    rows = split(cur, new, TONES, 60).plain.splitlines()
    assert any(r.startswith("− * eol: 2028") and "│ + * eol: 2029" in r for r in rows)
    assert all(len(r) <= 60 for r in rows)


def test_the_editor_command(tmp_path: Path) -> None:
    f = tmp_path / "a b.md"
    assert command("editor", f, 7, {"EDITOR": "code --wait"}) == ["code", "--wait", "+7", str(f)]
    assert command("editor", f, 0, {"VISUAL": "nvim"}) == ["nvim", "+1", str(f)]
    assert command("pager", f, 3, {}) == ["less", "+3", str(f)]
