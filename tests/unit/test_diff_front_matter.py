"""A held update's diff skips the front matter both sides share (it opened with ~20 unchanged lines)."""

from __future__ import annotations

import difflib

from kctui.ui.screens.review_detail import skip_front_matter

PAGE = ("---\ntype: Concept\ntitle: Python\nstatus: stable\n" + "".join(f"k{i}: v{i}\n" for i in range(18))
        + "---\n\n# Python\n\n- eol: 2028-10-31 ^[python.md:L2-L2]\n")


def diff(a: str, b: str) -> str:
    return "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True), "current", "proposed", n=40))


def test_unchanged_front_matter_becomes_one_line():
    out = skip_front_matter(diff(PAGE, PAGE.replace("2028-10-31", "2028-11-30")))
    lines = out.splitlines()
    assert lines[:3] == ["--- current", "+++ proposed", lines[2]] and lines[2].startswith("@@ -1,")
    assert " … 21 unchanged front-matter lines" in lines
    assert "-- eol: 2028-10-31 ^[python.md:L2-L2]" in lines and "+- eol: 2028-11-30 ^[python.md:L2-L2]" in lines
    assert not any(x.startswith(" k") for x in lines)
    assert len(lines) < 15


def test_a_changed_front_matter_line_stays_between_its_neighbours_notes():
    out = skip_front_matter(diff(PAGE, PAGE.replace("status: stable", "status: needs-review")))
    lines = out.splitlines()
    assert "-status: stable" in lines and "+status: needs-review" in lines
    assert " … 2 unchanged front-matter lines" in lines and " … 18 unchanged front-matter lines" in lines


def test_a_hunk_below_the_front_matter_is_untouched():
    long_page = PAGE + "".join(f"- fact {i}\n" for i in range(60))
    d = "".join(difflib.unified_diff(long_page.splitlines(True), long_page.replace("fact 50", "fact fifty")
                                     .splitlines(True), "a", "b", n=3))
    assert skip_front_matter(d) == d
