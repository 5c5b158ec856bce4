"""One glyph per state in the CLI and the app (QA 19): a review item's kind, a page's status."""

from __future__ import annotations

from kctui.core.glyphs import ITEM_GLYPHS, STATUS_GLYPHS, status_glyph
from kctui.ui.format import ITEM_KIND
from kctui.ui.screens.page_view import STATUS, status_mark


def test_the_app_shows_the_glyphs_the_cli_prints() -> None:
    assert {k: v[0] for k, v in ITEM_KIND.items()} == ITEM_GLYPHS
    assert all(STATUS_GLYPHS[s] == g for s, (g, _w, _t) in STATUS.items())
    assert status_mark("contradicted", {"why": "x"})[0] == status_glyph("contradicted", True) == "⇄"
    assert status_glyph("needs-review", True) == "⚠" and status_glyph("odd", True) == "⚠"
