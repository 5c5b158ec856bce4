"""The previous wiki's lookups by source (kctui.compiler.previous.tables): what one walk over the pages
makes, and that a carried-forward table patched with the changed pages is the one a walk makes."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from kctui.compiler.previous.page_info import PageInfo
from kctui.compiler.previous.tables import WikiTables


def _page(kind: str, slug: str, sources: tuple = (), links: tuple = (), status: str = "compiled") -> PageInfo:
    return PageInfo(kind, slug, slug.title(), "", (), tuple(sources), status, tuple(links))


def _generation(pages: list[PageInfo], styles: dict | None = None) -> SimpleNamespace:
    by_slug = {p.slug: p for p in pages}
    return SimpleNamespace(pages=by_slug, styles=styles or {slug: (True, False) for slug in by_slug})


def test_one_walk_makes_every_table() -> None:
    pages = [
        _page("source", "a-md", [("a.md", "d1")], links=("gizmo", "widgets", "b-md")),
        _page("source", "b-md", [("b.md", "d2")], links=("nowhere",)),
        _page("source", "old-md", [("old.md", "d3")], status="archived"),
        _page("concept", "widgets", [("a.md", "d1"), ("b.md", "d2")]),
        _page("entity", "gizmo", [("a.md", "d1")]),
    ]
    styles = {"a-md": (True, False), "b-md": (False, True), "old-md": (False, False), "widgets": (True, True),
              "gizmo": (True, False)}
    t = WikiTables(_generation(pages).pages, styles)
    assert t.page_of == {"a.md": "a-md", "b.md": "b-md", "old.md": "old-md"}
    assert t.digest_of == {"a.md": "d1", "b.md": "d2", "old.md": "d3"}
    assert t.citing == {"a.md": {"widgets", "gizmo"}, "b.md": {"widgets"}}
    assert t.fed["a-md"] == {"gizmo", "widgets"}  # not the source page it links to
    assert t.outside == {"b-md"}  # a link to no page: decided when the pass knows its new pages
    assert t.archived == {"old-md"}
    assert t.restyle("markdown") == {"a-md", "widgets", "gizmo"}  # the pages holding wikilinks
    assert t.restyle("wikilink") == {"b-md", "widgets"}
    assert WikiTables(_generation(pages).pages).restyle("wikilink") is None  # no styles given: not known


def test_the_last_source_page_of_a_source_wins_and_then_a_change_to_it_is_made_again() -> None:
    pages = [_page("source", "a-md", [("a.md", "d1")]), _page("source", "a2-md", [("a.md", "d2")])]
    before = _generation(pages)
    t = WikiTables(before.pages)
    assert t.page_of == {"a.md": "a2-md"} and t.digest_of == {"a.md": "d2"}
    after = _generation([pages[0]._replace(sources=(("a.md", "d9"),)), pages[1]])
    assert t.patch(before, after, ["a-md"]) is False  # two pages cite it: the listing order decides


def test_a_source_page_citing_another_source_is_made_again() -> None:
    before = _generation([_page("source", "a-md", [("a.md", "d1")])])
    after = _generation([_page("source", "a-md", [("b.md", "d1")])])
    assert WikiTables(before.pages).patch(before, after, ["a-md"]) is False


_SLUGS = [f"p{i}" for i in range(8)]
_RESOURCES = [f"r{i}.md" for i in range(5)]


@st.composite
def _wiki(draw, kinds: list[str] | None = None):  # noqa: ANN001, ANN202
    kinds = kinds or draw(st.lists(st.sampled_from(["source", "concept", "entity"]), min_size=8, max_size=8))
    pages = []
    for slug, kind in zip(_SLUGS, kinds, strict=True):
        n = 1 if kind == "source" else draw(st.integers(0, 3))
        sources = tuple((r, draw(st.sampled_from(["d1", "d2"]))) for r in draw(
            st.lists(st.sampled_from(_RESOURCES), min_size=n, max_size=n, unique=True)))
        links = tuple(sorted(draw(st.sets(st.sampled_from([*_SLUGS, "elsewhere"]), max_size=4))))
        status = draw(st.sampled_from(["compiled", "archived"])) if kind == "source" else "compiled"
        pages.append(_page(kind, slug, sources, links, status))
    styles = {slug: (draw(st.booleans()), draw(st.booleans())) for slug in _SLUGS}
    return kinds, pages, styles


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_patched_table_is_the_one_a_walk_makes(data) -> None:  # noqa: ANN001
    kinds, pages, styles = data.draw(_wiki())
    _, changed_pages, changed_styles = data.draw(_wiki(kinds))
    changed = data.draw(st.lists(st.sampled_from(_SLUGS), unique=True))
    after_pages = [changed_pages[i] if slug in changed else page for i, (slug, page) in enumerate(zip(_SLUGS, pages, strict=True))]
    after_styles = {slug: changed_styles[slug] if slug in changed else styles[slug] for slug in _SLUGS}
    before, after = _generation(pages, styles), _generation(after_pages, after_styles)
    table = WikiTables(before.pages, before.styles)
    if table.patch(before, after, changed):
        assert table.same_as(WikiTables(after.pages, after.styles))


def test_the_generator_reaches_patched_tables() -> None:
    """The property above checks patched tables, not only refusals (a generator that never reached
    `patch` returning True would let it pass without checking anything)."""
    reached = []

    @settings(max_examples=100, deadline=None, database=None)
    @given(st.data())
    def probe(data) -> None:  # noqa: ANN001
        kinds, pages, styles = data.draw(_wiki())
        _, changed_pages, _ = data.draw(_wiki(kinds))
        slug = data.draw(st.sampled_from(_SLUGS))
        after = [changed_pages[i] if p.slug == slug else p for i, p in enumerate(pages)]
        before_g, after_g = _generation(pages, styles), _generation(after, styles)
        reached.append(WikiTables(before_g.pages, styles).patch(before_g, after_g, [slug]))

    probe()
    assert reached.count(True) >= 20
