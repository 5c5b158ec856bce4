"""The notes benchmark's "lines on the wrong page" (benchmarks/notes_trust.py, printed by
benchmarks/notes_eval.py): a cited line on a labelled thing's page that states another thing's fact and
nothing of the page's own."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

LABELS = {"notes": [{"file": "standup.md", "things": [
    {"name": "Tom Reyes", "aliases": ["Tom"], "facts": [{"value": "on leave 3 Nov", "statement": "", "line": 4}]},
    {"name": "Fastly", "facts": [{"value": "£2,150/mo", "statement": "", "line": 5}]},
    {"name": "Stripe", "facts": [{"value": "12 Nov", "statement": "", "line": 6}]},
], "decisions": [], "actions": []}]}

PAGE = """---
title: Tom Reyes
aliases: [Tom]
---

# Tom Reyes

* **Tom Reyes** — note: on leave 3 Nov ^[standup.md:L4]
* **Tom Reyes** — note: Fastly quote came in, £2,150/mo ^[standup.md:L5]
* **Tom Reyes** — note: Tom to sort Stripe keys by 12 Nov ^[standup.md:L6]
* **Tom Reyes** — note: lunch at noon ^[standup.md:L7]
* **Tom Reyes** — note: on leave, Fastly quote in ^[standup.md:L4-L5]
"""


@pytest.fixture
def notes_eval(monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import notes_eval

    yield notes_eval
    for name in ("notes_eval", "notes_trust", "notes_context", "conversations_eval", "quality"):
        sys.modules.pop(name, None)


@pytest.mark.parametrize(("line", "wrong"), [
    ("* **Tom Reyes** — note: on leave 3 Nov ^[standup.md:L4]", False),  # the page's thing's fact
    ("* **Tom Reyes** — note: Fastly quote came in, £2,150/mo ^[standup.md:L5]", True),  # another's alone
    ("* **Tom Reyes** — note: Tom to sort Stripe keys by 12 Nov ^[standup.md:L6]", False),  # names the page's
    ("* **Tom Reyes** — note: lunch at noon ^[standup.md:L7]", False),  # no labelled fact: not counted wrong
    ("* **Tom Reyes** — note: on leave, Fastly quote in ^[standup.md:L4-L5]", False),  # cites its own fact too
])
def test_a_line_is_on_the_wrong_page_when_it_states_another_things_fact_and_nothing_of_the_pages(
        notes_eval, tmp_path: Path, line: str, wrong: bool) -> None:  # noqa: ANN001
    page = tmp_path / "wiki" / "entities" / "tom-reyes.md"
    page.parent.mkdir(parents=True)
    page.write_text(PAGE.split("# Tom Reyes")[0] + f"# Tom Reyes\n\n{line}\n", encoding="utf-8")
    pages = notes_eval.read_wiki(tmp_path / "wiki")
    assert notes_eval.measure(LABELS, pages)["wrong_page"][:2] == (int(wrong), 1)


def test_the_wrong_lines_are_counted_of_the_cited_lines_on_labelled_things_pages(notes_eval, tmp_path: Path) -> None:  # noqa: ANN001
    wiki = tmp_path / "wiki"
    (wiki / "entities").mkdir(parents=True)
    (wiki / "entities" / "tom-reyes.md").write_text(PAGE, encoding="utf-8")
    (wiki / "entities" / "lunch.md").write_text(  # a page no labelled thing has: not counted
        "---\ntitle: Lunch\n---\n\n* **Lunch** — note: Fastly quote came in ^[standup.md:L5]\n", encoding="utf-8")
    wrong, lines, misses = notes_eval.measure(LABELS, notes_eval.read_wiki(wiki))["wrong_page"]
    assert (wrong, lines) == (1, 5)
    assert misses == [(0, "Tom Reyes <- standup.md:L5 (a fact of Fastly): "
                          "'* **Tom Reyes** — note: Fastly quote came in, £2,150/mo ^[standup.md:L5]'")]
