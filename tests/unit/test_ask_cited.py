"""QA session 30 #2: an extractive answer's citation is verified only when its cited source lines hold
what it states now (kctui.services.ask_cited)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kctui.search.answer import Cited
from kctui.services.ask_cited import UNCHECKED_WHY, check, check_citations, lines_of, stated_value


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
