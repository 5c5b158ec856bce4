"""kctui.core.outputs: a kept answer's page, read back, and when it goes stale — as tables."""

from __future__ import annotations

import pytest

from kctui.core import outputs as o

SOURCE = "title: Python\n| 3.11 | 2027-10-31 |\n| 3.12 | 2028-10-31 |\n"
PAGE = "* **end of life** (3.12): 2028-10-31 ^[cycle.md:L3-L3]\n"


def _page(**over) -> str:
    cite = {"item": "1", "page": "entities/python.md", "text": "Python (3.12) — end of life: 2028-10-31",
            "source": "cycle.md", "lines": [3, 3], "digest": o.lines_digest(o.lines_of(SOURCE, 3, 3)),
            "citation": "^[cycle.md:L3-L3]", "verified": True}
    cite.update(over)
    return o.render_output(question="when does Python 3.12 reach end of life", answer="On 2028-10-31.",
                           mode="model", verified=True, citations=[cite], flags=[], asked_by="human:ana",
                           asked_at="2026-01-01T00:00:00Z", generation="job-1", model="m")


@pytest.mark.parametrize("start, end, expected", [
    (1, 1, "title: Python"), (2, 3, "| 3.11 | 2027-10-31 |\n| 3.12 | 2028-10-31 |"), (0, 1, None), (3, 2, None),
    (4, 9, None),
])
def test_lines_of(start, end, expected) -> None:
    assert o.lines_of(SOURCE, start, end) == expected


def test_an_output_page_reads_back_and_says_it_is_not_evidence() -> None:
    text = _page()
    fm, body = o.read_output(text)
    assert fm["type"] == "Output" and fm["compile_status"] == "current" and fm["asked_by"] == "human:ana"
    assert fm["generation"] == "job-1" and fm["citations"][0]["source"] == "cycle.md"
    assert o.NOT_EVIDENCE in body and "sources/cycle.md L3-L3" in body and "✓ verified" in body
    assert o.read_output("---\ntype: Concept\n---\n\nx\n") is None
    assert o.read_output("no frontmatter") is None


def test_output_path_is_a_slug_with_a_hash() -> None:
    path = o.output_path("When does Python 3.12 reach end of life?", 5)
    assert path.startswith("outputs/when-does-python-312-reach-end-of-life-") and path.endswith(".md")
    assert path != o.output_path("When does Python 3.12 reach end of life?", 6)


@pytest.mark.parametrize("source, page, reasons", [
    (SOURCE, PAGE, []),                                                                  # nothing moved
    (SOURCE.replace("2028-10-31", "2028-12-31"), PAGE, ["sources/cycle.md L3-L3 changed"]),
    ("title: Python\n", PAGE, ["sources/cycle.md L3-L3 changed"]),                       # the file got shorter
    (None, PAGE, ["sources/cycle.md L3-L3 changed"]),                                    # the source is gone
    ("x\n" + SOURCE, PAGE, ["sources/cycle.md L3-L3 changed"]),                          # the lines moved
    (SOURCE, "* other ^[cycle.md:L9-L9]\n", ["wiki/entities/python.md no longer cites ^[cycle.md:L3-L3]"]),
    (SOURCE, None, ["wiki/entities/python.md is gone"]),
])
def test_stale_reasons(source, page, reasons) -> None:
    fm, _ = o.read_output(_page())
    assert o.stale_reasons(fm, lambda rel: source, lambda rel: page) == reasons


def test_mark_stale_keeps_the_answer_and_says_why() -> None:
    text = o.mark_stale(_page(), ["sources/cycle.md L3-L3 changed"], "2026-02-01T00:00:00Z")
    fm, body = o.read_output(text)
    assert fm["compile_status"] == "stale" and fm["stale_since"] == "2026-02-01T00:00:00Z"
    assert fm["stale_why"] == ["sources/cycle.md L3-L3 changed"]
    assert body.lstrip().startswith("> **⚠ stale** since 2026-02-01T00:00:00Z: sources/cycle.md L3-L3 changed")
    assert "On 2028-10-31." in body
    assert o.mark_stale("not an output", ["x"], "t") == "not an output"
