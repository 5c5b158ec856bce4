"""A renamed source's citations moved on a page (kctui.compiler.steps.renames): claims, mentions, kept
values and people's statements cite the new path; a page citing no moved path is the same object."""

from __future__ import annotations

from kctui.compiler.steps.renames import moved_page, moved_source_page, moves_of, read_anew
from kctui.core.claims import Claim, Evidence
from kctui.core.pages import KEPT_KEY, Mention, Page, SourceRef
from kctui.core.trust import TrustPolicy

MOVES = {"old.md": "new.md"}


def _page() -> Page:
    ev = Evidence("old.md", 3, 3, "sha256:a")
    return Page(kind="entity", slug="pg", title="pg", sources=[SourceRef("old.md", "sha256:a", "old-md"),
                                                               SourceRef("other.md", "sha256:b", "other-md")],
                claims=[Claim("pg", "version", "16", "", "fact", "statement", ev),
                        Claim("pg", "owner", "Mara", "", "fact", "statement", Evidence("other.md", 1, 1, "sha256:b"))],
                mentions=[Mention("pg", ev)],
                extra={KEPT_KEY: [{"citation": "old.md:L3-L3", "source": "old.md", "value": "15"}]},
                history=["* created"])


def test_citations_move() -> None:
    page = _page()
    moved = moved_page(page, MOVES, {"new.md": "new-md"})
    assert [c.evidence.path for c in moved.claims] == ["new.md", "other.md"]
    assert [m.evidence.path for m in moved.mentions] == ["new.md"]
    assert [(s.resource, s.id) for s in moved.sources] == [("new.md", "new-md"), ("other.md", "other-md")]
    assert moved.extra[KEPT_KEY] == [{"citation": "new.md:L3-L3", "source": "new.md", "value": "15"}]
    assert page.claims[0].evidence.path == "old.md" and page.extra[KEPT_KEY][0]["source"] == "old.md"  # not changed in place


def test_a_page_citing_no_moved_path_is_itself() -> None:
    page = _page()
    assert moved_page(page, {"x.md": "y.md"}) is page
    assert moved_page(None, MOVES) is None


def test_the_source_page_moves_with_a_history_line() -> None:
    page = _page()
    moved = moved_source_page(page, "old.md", "new.md", "new-md", "2026-01-02T00:00:00Z")
    assert moved.slug == "new-md" and moved.history[-1].startswith("* 2026-01-02T00:00:00Z: renamed `old.md` → `new.md`")
    assert page.history == ["* created"]


def test_which_renames_move() -> None:
    page = Page(kind="source", slug="old-md", title="Old")
    assert moves_of([("old.md", "new.md")], {"new.md"}, None, lambda p: page) == MOVES
    assert moves_of([("old.md", "new.md")], set(), None, lambda p: page) == {}  # the new file was skipped
    assert moves_of([("old.md", "new.md")], {"new.md"}, TrustPolicy(), lambda p: page) == MOVES  # guarded
    assert moves_of([("old.md", "new.md")], {"new.md"}, TrustPolicy(autonomy="suggest"), lambda p: page) == {}


def test_a_renamed_source_is_not_read_anew() -> None:
    """The compile-loss guard judges only the sources whose bytes a pass read for the first time."""
    by_path = {"new.md": ("2026",), "changed.md": ("42",), "added.md": ("7",)}
    assert read_anew(by_path, [("old.md", "new.md")]) == {"changed.md": ("42",), "added.md": ("7",)}
    assert read_anew(by_path, []) == by_path
