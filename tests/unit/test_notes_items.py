"""The strict measure of decisions and action items (benchmarks/notes_items.py): a labelled item is met
only by a claim typed as its kind that cites its line, on any page; a plain note does not count."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "notes_items", Path(__file__).resolve().parents[2] / "benchmarks" / "notes_items.py")
assert _SPEC is not None and _SPEC.loader is not None
notes_items = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(notes_items)


@pytest.mark.parametrize("line, attribute", [
    ("* **Dev** — to do: Dev — draft the ADR — by Nov 12 ^[m.md:L50-L50]", "to do"),
    ("* **Sync** (action items: 1) — owner: Marcus ^[p.md:L45-L45]", "owner"),  # a scope in brackets
    ("* **Sync** — note: we talked about the rack ^[m.md:L3-L3]", "note"),
    ("Mentioned as a passing name ^[m.md:L3-L3]", ""),
])
def test_attribute_of(line: str, attribute: str) -> None:
    assert notes_items.attribute_of(line) == attribute


def _statement(line: str, path: str, start: int, end: int) -> dict:
    return {"line": line, "cites": [(path, start, end)], "text": ""}


def test_measure_counts_only_typed_claims_of_the_kind() -> None:
    labels = {"notes": [{"file": "m.md",
                         "decisions": [{"line": 3, "statement": "use the queue"}, {"line": 4, "statement": "keep it"}],
                         "actions": [{"line": 6, "statement": "order the rack"}, {"line": 7, "statement": "write it"}]}]}
    pages = [{"statements": [
        _statement("* **Sync** — decision: use the queue ^[m.md:L3-L3]", "m.md", 3, 3),
        _statement("* **Sync** — note: keep it ^[m.md:L4-L4]", "m.md", 4, 4),  # a note: no decision
        _statement("* **Quen** — action item: order the rack ^[m.md:L5-L6]", "m.md", 5, 6),  # a range cites line 6
        _statement("* **Sync** — decision: write it ^[m.md:L7-L7]", "m.md", 7, 7),  # the wrong kind
    ]}]
    got = notes_items.measure(labels, pages)
    assert got["decision"][:2] == (1, 2)
    assert got["action"][:2] == (1, 2)
    assert got["action"][2] == ["m.md:L7: 'write it'"]


def test_report_line(capsys: pytest.CaptureFixture[str]) -> None:
    results = {"a": {"decision": (1, 2, []), "action": (3, 4, [])}, "b": {"decision": (0, 0, []), "action": (0, 0, [])}}
    shares = notes_items.report(results, ["a", "b"])
    out = capsys.readouterr().out
    assert "decisions and actions as typed claims: 66.7% (4/6); decisions 50.0% (1/2), actions 75.0% (3/4)" in out
    assert "a 67%, b —" in out
    assert shares["decisions"] == [1, 2]
