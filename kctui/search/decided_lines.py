"""Raw passages that state a value a person decided on (QA session 32, T; `kctui.core.decided_values`).

A conflict's decision flags every compiled claim citing a rejected line with the rejected value
(`⚑ decided against by a person on DATE, for CHOSEN`), and marks those citing the chosen line with the
chosen value (`✓ decided by a person …`). The raw passage of such a line still says what its source says;
in a context packet, and so in `ask`, it carries the same flag (one decided against ranks at half its
score), so the line is never quoted as if nobody had decided. Read from the index's claims (the flagged
ones name their lines), once until the index is next written (`kctui.search.index_memo`).
"""

from __future__ import annotations

import json
from typing import Any

from kctui.core.decided_values import holds
from kctui.core.record_tables import AGAINST_MARK, DECIDED_MARK
from kctui.search.index_memo import kept

Spans = dict[str, list[tuple[int, int, str, str]]]  # source -> (start, end, the value decided on, flag)
AGAINST_SHARE = 0.5  # a flagged passage's score, against what it had


def decided_spans(index: Any, key: str) -> Spans:
    """source -> the lines a person decided on (for or against) in the base `key`, each with the value its
    flagged claim states there and that claim's flag."""
    memo = kept(index, "decided lines")
    if key not in memo:
        out: Spans = {}
        for raw in index.claims_holding(key, "by a person"):
            try:
                claims = json.loads(raw)
            except ValueError:
                continue
            for c in claims if isinstance(claims, list) else []:
                _add(out, c)
        memo[key] = out
    return memo[key]


def _add(out: Spans, c: Any) -> None:
    value = str(c.get("value") or "") if isinstance(c, dict) else ""
    at = max(value.find(AGAINST_MARK), value.find(DECIDED_MARK))  # (a line holds one of them at most)
    lines = c.get("lines") if at > 0 else None
    if isinstance(lines, list) and len(lines) == 2:
        out.setdefault(str(c.get("source") or ""), []).append((int(lines[0]), int(lines[1]), value[:at].strip(),
                                                                 value[at:]))


def passage_flag(spans: Spans, path: str, start: int, end: int, text: str) -> str:
    """The flag a raw passage carries: that of a decided-against claim citing its lines whose value the
    passage states ("" for none)."""
    for s, e, value, flag in spans.get(path, ()):
        if start <= e and s <= end and holds(text, value):
            return flag
    return ""


__all__ = ["AGAINST_SHARE", "Spans", "decided_spans", "passage_flag"]
