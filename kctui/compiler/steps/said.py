"""What a page says of a source already: whether a statement about to join a page's claims is one of
them (`said`), and the claims it holds whole (`not_within`), so no page cites the same words twice."""

from __future__ import annotations

import re
from collections.abc import Iterable

from kctui.core.claims import Claim


def said(text: str, ev, claims: Iterable[Claim]) -> bool:  # noqa: ANN001
    """Whether one of `claims` cites lines of `ev` and says `text` already: it holds the whole of it (a
    leading `Label:` aside: "Action: check the date …" is the action item's claim), or it is a cell of
    that table row (the row's cells are its facts). A claim that took one value of a sentence ("version:
    5.4") or another sentence of its line does not say the rest of it."""
    folded = _folded(text)
    unlabelled = _LABEL.sub("", folded)
    return any(c.evidence.path == ev.path and c.evidence.start <= ev.end and ev.start <= c.evidence.end
               and (c.origin == "table" or folded in (value := _folded(str(c.value))) or unlabelled in value)
               for c in claims)


_LABEL = re.compile(r"^[^\s:]{1,30}:\s+")


def not_within(text: str, ev, claims: list[Claim]) -> list[Claim]:  # noqa: ANN001
    """`claims` without the notes that `text`, a statement of lines `ev` about to join them, holds whole: a
    sentence of a list item noted on its own ("Tue 01:12 — `quark-api` p99 > 800 ms for 6 min.") says
    nothing the whole item does not, and a page that cites both says it twice."""
    folded = _folded(text)
    return [c for c in claims if not (
        c.attribute == "note" and c.evidence.path == ev.path and ev.start <= c.evidence.start
        and c.evidence.end <= ev.end and len(c.value) < len(text) and _folded(str(c.value)) in folded)]


def _folded(text: str) -> str:
    """`text` as compared: its whitespace one space, its case folded."""
    return " ".join(text.split()).casefold()
