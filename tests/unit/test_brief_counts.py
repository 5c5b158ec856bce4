"""`brief_counts` reads back what `render_brief` wrote: the counts `compile --wait` ends with."""

from __future__ import annotations

import pytest

from kctui.core.brief import BriefData, BriefPage, brief_counts, render_brief


def page(kind: str, slug: str = "a") -> BriefPage:
    return BriefPage("concept", slug, slug.title(), kind)


@pytest.mark.parametrize("pages, skipped, warnings, policy", [
    ([], 0, 0, None),
    ([page("create")] * 3 + [page("revise", "b"), page("supersede", "c"), page("remove", "d")], 0, 0, "guarded"),
    ([page("append")], 1, 2, "auto"),
    ([page("create")] * 50, 45, 41, "suggest"),  # more than a section lists: "… and N more"
])
def test_counts_round_trip(pages, skipped, warnings, policy):
    b = BriefData("job-1-1", "manual", "2026-01-01T00:00:00Z", "sha256:" + "0" * 64, "builtin", pages=pages,
                  skipped=[(f"f{i}.bin", "binary", "") for i in range(skipped)],
                  warnings=[f"warning {i}" for i in range(warnings)], policy=policy)
    assert brief_counts(render_brief(b)) == {"pages": len(pages), "skipped": skipped, "warnings": warnings}


def test_a_brief_in_another_shape_has_no_counts():
    assert brief_counts("# What my compiler did\n\n* wrote 3 pages\n") is None
