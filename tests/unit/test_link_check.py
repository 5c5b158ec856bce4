"""The link check of a pass (`PageWriter.check_links`): every link of the new wiki to a page it does
not have is reported; after a generation whose every link resolved, only the pages written anew are
looked at — and that shortcut reports exactly what the whole check reports."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from kctui.compiler.previous.page_info import PageInfo
from kctui.compiler.previous.wiki import PreviousWiki
from kctui.compiler.steps.output import PageWriter
from kctui.core.pages import Page

_CTX = SimpleNamespace(source_slugs={}, titles={}, kinds={})


def _info(slug: str, links: tuple[str, ...] = (), kind: str = "concept") -> PageInfo:
    return PageInfo(kind, slug, slug.title(), "", (), (), "compiled", links)


def _writer(pages: list[PageInfo], resolved: bool) -> PageWriter:
    prev = PreviousWiki(pages={p.slug: p for p in pages})
    prev.generation = SimpleNamespace(derived={"links_resolve": True} if resolved else {})
    request = SimpleNamespace(link_style="wikilink", created_at="2026-12-01T00:00:00Z")
    return PageWriter(request, prev, "test/1")


def _both(pages: list[PageInfo], written: list[Page], final: list[str]) -> tuple[list[str], list[str]]:
    """The check after a resolved generation (the shortcut) and after one not known to resolve."""
    found = []
    for resolved in (True, False):
        writer = _writer(pages, resolved)
        for page in written:
            writer.keep(page, writer.render(page, None, _CTX))
        found.append(writer.check_links(dict.fromkeys(final, "concept")))
    return found[0], found[1]


def _page(slug: str, title: str, see: list[str], alias: str = "") -> Page:
    return Page(kind="concept", slug=slug, title=title, aliases=[alias] if alias else [], links={"Related Concepts": [("concept", s, s.title()) for s in see]})


def test_a_new_page_linking_nowhere_is_reported() -> None:
    fast, whole = _both([_info("a", ("b",)), _info("b")], [_page("c", "C", ["zzz", "a"])], ["a", "b", "c"])
    assert fast == whole == ["c → zzz"]


def test_a_removed_page_a_carried_page_links_to_is_reported() -> None:
    fast, whole = _both([_info("a", ("b",)), _info("b")], [], ["a"])  # b is gone: the whole wiki is checked
    assert fast == whole == ["a → b"]


def test_a_carried_dangling_link_is_only_trusted_away_after_a_resolved_generation() -> None:
    writer = _writer([_info("a", ("gone",))], resolved=False)
    assert writer.check_links({"a": "concept"}) == ["a → gone"]


@pytest.mark.parametrize("alias", ["Plain", "Odd [[x]] name", "Code `[[x]]` name", "Bracket ](/concepts/x.md)",
                                   "Ends with [", "Tick ` only"])
def test_the_shortcut_reports_what_the_whole_check_reports(alias: str) -> None:
    """An alias (written in the page's header only) that reads as a link counts as one, as the whole
    check counts it."""
    fast, whole = _both([_info("a")], [_page("c", "C", ["a"], alias)], ["a", "c"])
    assert fast == whole
    if "[[x]]" in alias and "`" not in alias:
        assert whole == ["c → x"]
