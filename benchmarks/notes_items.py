"""Decisions and action items as typed claims (issue 31, point 3), for the notes benchmark.

notes_eval's "decisions and actions" counts a labelled decision or action item as met when SOME cited
statement covers its line (a plain "note" does). This measure is strict: a labelled decision is met when a
claim typed as a decision (attribute decision / alternative / reason) cites its line, a labelled action item
when a claim typed as an action (to do / done / action item / action / due / owner) does, on any page.

    measure(labels, pages) -> {"decision": (hits, total, misses), "action": (hits, total, misses)}
    report(results, writers) prints one line: overall, the decisions / actions split, and per writer.

`pages` are notes_eval.read_wiki's: each statement keeps its wiki line ("* **Subject** — attribute: value
^[file:L1-L2]"), whose attribute is read here.
"""

from __future__ import annotations

import re

TYPED = {
    "decision": frozenset({"decision", "alternative", "reason"}),
    "action": frozenset({"to do", "done", "action item", "action", "due", "owner"}),
}
_CLAIM = re.compile(r"^\*\s+\*\*.+?\*\*(?:\s+\(.*?\))?\s+—\s+(?P<attribute>[^:^]{1,60}?):\s")


def attribute_of(line: str) -> str:
    """The attribute of a claim's wiki line ("* **Dev** — to do: … ^[…]" -> "to do", a scope in brackets after the subject allowed), or ""."""
    m = _CLAIM.match(line.strip())
    return m.group("attribute").strip() if m else ""


def typed_lines(pages: list[dict]) -> set[tuple[str, int, str]]:
    """(file, line, kind) for every line a claim of a kind's attributes cites."""
    out: set[tuple[str, int, str]] = set()
    for page in pages:
        for statement in page["statements"]:
            attribute = attribute_of(statement.get("line", ""))
            kind = next((k for k, attrs in TYPED.items() if attribute in attrs), None)
            if kind is None:
                continue
            for path, start, end in statement["cites"]:
                out |= {(path, n, kind) for n in range(start, end + 1)}
    return out


def measure(labels: dict, pages: list[dict]) -> dict[str, tuple[int, int, list[str]]]:
    """Per kind: (labelled items met by a typed claim citing their line, labelled items, the misses as
    "file:Lline: statement")."""
    typed = typed_lines(pages)
    out: dict[str, tuple[int, int, list[str]]] = {}
    for kind, key in (("decision", "decisions"), ("action", "actions")):
        hits, total, misses = 0, 0, []
        for note in labels["notes"]:
            for item in note.get(key) or []:
                total += 1
                if (note["file"], item["line"], kind) in typed:
                    hits += 1
                else:
                    misses.append(f"{note['file']}:L{item['line']}: {item.get('statement', '')[:100]!r}")
        out[kind] = (hits, total, misses)
    return out


def _pct(hits: int, total: int) -> str:
    return f"{hits / total:.1%} ({hits}/{total})" if total else "— (0/0)"


def report(results: dict[str, dict[str, tuple[int, int, list[str]]]], writers: list[str]) -> dict:
    """Print the line of the strict measure (overall, the split, per writer); return its shares."""
    sums = {kind: [sum(results[w][kind][i] for w in writers) for i in (0, 1)] for kind in TYPED}
    overall = [sums["decision"][i] + sums["action"][i] for i in (0, 1)]
    per = []
    for w in writers:
        hits = results[w]["decision"][0] + results[w]["action"][0]
        total = results[w]["decision"][1] + results[w]["action"][1]
        per.append(f"{w} {hits / total:.0%}" if total else f"{w} —")
    print(f"  decisions and actions as typed claims: {_pct(*overall)}; decisions {_pct(*sums['decision'])}, "
          f"actions {_pct(*sums['action'])}; per writer: " + ", ".join(per))
    return {"share": overall[0] / overall[1] if overall[1] else 0.0,
            "decisions": sums["decision"], "actions": sums["action"]}
