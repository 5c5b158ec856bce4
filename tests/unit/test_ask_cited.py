"""QA session 30 #2: an extractive answer's citation is verified only when its cited source lines hold
what it states now (kctui.services.ask_cited)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kctui.search.answer import Cited
from kctui.services.ask_cited import (
    HELD_WHY,
    UNCHECKED_WHY,
    check,
    check_citations,
    lines_of,
    merge_refs,
    refs,
    stated_value,
    where,
)


@pytest.mark.parametrize("kind, text, value", [
    ("claim", "service owner: Aisha Bello", "Aisha Bello"),
    ("claim", "Python (3.12) — end of life: 2028-10-31", "2028-10-31"),
    ("claim", "note: Aisha Bello: schedule a game day.", "Aisha Bello: schedule a game day."),
    ("claim", "date: 21 December 2026 (⚑ kept by a person on 2026-12-07: the source now says 22 December 2026)",
     "21 December 2026"),
    ("passage", "If lag is high: scale to 6 replicas.", "If lag is high: scale to 6 replicas."),
])
def test_stated_value(kind, text, value) -> None:
    assert stated_value(kind, text) == value


@pytest.mark.parametrize("kind, text, cited, ok, why", [
    ("claim", "service owner: Aisha Bello", "The service owner of ledger-writer is Aisha Bello.", True, ""),
    ("claim", "service owner: Aisha Bello", "The service owner of ledger-writer is Jonas Weber.", False,
     "the cited lines no longer say “Aisha Bello”"),
    ("claim", "Monthly cost: $6,100", "| Datadog | metrics | $61 |", False, "the cited lines no longer say “$6,100”"),
    ("claim", "service owner: Aisha Bello", "The  service owner is AISHA   bello.", True, ""),
    ("passage", "Escalate to the database team.", "- **Escalate** to the database team.", True, ""),
    ("passage", "Escalate to the database team.", "Escalate to the network team.", False,
     "the cited lines no longer say “Escalate to the database team.”"),
    ("claim", "owner: Aisha Bello", None, False, "the cited lines are gone (the source no longer has them)"),
])
def test_check(kind, text, cited, ok, why) -> None:
    verified, reason = check(kind, text, cited)
    assert verified is ok and (not why or reason == why)


def test_lines_of_stays_inside_the_root(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("one\ntwo\nthree\n", encoding="utf-8")
    assert lines_of(tmp_path, "a.md", (2, 3)) == "two three"
    assert lines_of(tmp_path, "../a.md", (1, 1)) is None and lines_of(tmp_path, "gone.md", (1, 1)) is None


def test_check_citations_never_calls_an_unchecked_one_verified(tmp_path: Path) -> None:
    (tmp_path / "r.md").write_text("# R\nThe owner is Jonas Weber.\n", encoding="utf-8")
    chosen = [Cited("1", "claim", "owner: Aisha Bello", "wiki/entities/r.md", "r.md", (2, 2)),
              Cited("1", "description", "R is a runbook", "wiki/entities/r.md", "", None),
              Cited("2", "passage", "The owner is Jonas Weber.", "sources/r.md", "r.md", (2, 2))]
    result = {"citations": [{"item": s.item} for s in chosen]}
    check_citations(result, chosen, tmp_path)
    assert [c["verified"] for c in result["citations"]] == [False, False, True]
    assert result["citations"][1]["why"] == UNCHECKED_WHY and result["verified"] is False


def test_refs_number_each_cited_place_once_and_merge_keeps_the_worst() -> None:
    """QA s30 #12: two different citations never share [1]; one place cited twice is one citation."""
    a = Cited("1", "claim", "owner: A", "wiki/entities/x.md", "r.md", (4, 4))
    b = Cited("1", "claim", "note: B", "wiki/entities/x.md", "o.md", (3, 3))
    c = Cited("1", "claim", "context: A", "wiki/entities/x.md", "r.md", (4, 4))
    d = Cited("2", "passage", "A.", "sources/r.md", "r.md", (4, 4))
    assert refs([a, b, c, d]) == ["1", "2", "1", "3"]
    result = {"citations": [{"ref": "1", "item": "1", "verified": True, "why": HELD_WHY},
                            {"ref": "2", "item": "1", "verified": True, "why": HELD_WHY},
                            {"ref": "1", "item": "1", "verified": False, "why": "the cited lines no longer say “A”"}]}
    merge_refs(result)
    assert [(c["ref"], c["verified"]) for c in result["citations"]] == [("1", False), ("2", True)]


@pytest.mark.parametrize("c, text", [
    ({"path": "wiki/entities/x.md", "source": "sources/r.md", "lines": [3, 4]}, "wiki/entities/x.md ← sources/r.md L3-L4"),
    ({"path": "sources/r.md", "source": "sources/r.md", "lines": [3, 3]}, "sources/r.md L3-L3"),
    ({"path": "wiki/entities/x.md", "source": "", "lines": None}, "wiki/entities/x.md"),
])
def test_where(c, text) -> None:
    assert where(c) == text
