"""A person's kept value is never a verified citation (QA session 29, item 1).

A claim is kept on a page only while its cited lines contain its value; a value a person kept against
a source that now says otherwise stays on the page flagged (`⚑ kept by a person …: the source now says
…`). An answer quoting it cites lines that no longer hold it: that citation is shown unverified, with
why, in the model's answer and the extractive one alike.
"""

from __future__ import annotations

from typing import Any

from kctui.core.record_tables import KEPT_MARK
from kctui.search import answer as answers

KEPT_WHY = "a person kept this value; its cited source lines now say otherwise"


def unverify_kept(result: dict[str, Any], items: list[dict[str, Any]]) -> None:
    """Mark unverified each citation of `result` whose cited statements are all kept values (and the
    answer as a whole with it). Mutates `result`."""
    stmts = answers.statements(items)
    for c in result.get("citations") or []:
        lines = tuple(c["lines"]) if c.get("lines") else None
        at = answers.at_lines(stmts, str(c.get("item")), lines)  # type: ignore[arg-type]
        if at and all(KEPT_MARK in s.text for s in at):
            c["verified"], c["why"] = False, KEPT_WHY
            result["verified"] = False


__all__ = ["KEPT_WHY", "unverify_kept"]
