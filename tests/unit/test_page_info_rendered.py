"""A page just rendered is summarised from the page itself (`info_of_rendered`), never differently from
reading its text back (`page_info`); where the text might read back otherwise, it is read back."""

from __future__ import annotations

import pytest

from kctui.compiler.previous.page_info import info_of_rendered, page_info
from kctui.core.claims import Claim, Evidence
from kctui.core.pages import (
    MAX_FRONTMATTER_SOURCES,
    MENTIONED_ONCE_KEY,
    OWN_NAMES_KEY,
    RECURRING_KEY,
    Page,
    SourceRef,
    render_body,
    render_page,
)

EV = Evidence("notes/a.md", 1, 2, "sha256:" + "a" * 64)


def _page(kind: str = "entity", **kw) -> Page:  # noqa: ANN003
    page = Page(kind=kind, slug=kw.pop("slug", "ada"), title=kw.pop("title", "Ada Tool"), **kw)
    page.claims = [Claim(page.title, "is", "a tool that links [[sqlite]]", "", "statement", "statement", EV)]
    page.generated_by = "kctui/test"
    return page


def _both(page: Page):  # noqa: ANN202
    body = render_body(page, {}, "wikilink")
    text = render_page(page, {}, "wikilink", body)
    return info_of_rendered(page, body, text), page_info(text, page.slug)


@pytest.mark.parametrize("page", [
    _page(),
    _page(aliases=["Ada", "ADA tool"], description="Ada Tool is a tool: it says “yes”.", compile_status="contradicted"),
    _page("concept", slug="gear", title="Gear", sources=[SourceRef("notes/a.md", "sha256:" + "b" * 64, "notes-a-md")]),
    _page("source", slug="notes-a-md", title="Notes A", sources=[SourceRef("notes/a.md", "d", "notes-a-md")],
          extra={MENTIONED_ONCE_KEY: ["Opsgenie", "Vault"], RECURRING_KEY: ["Vault"], OWN_NAMES_KEY: ["Kwame", "PRTG"]}),
    _page("source", slug="notes-a-md", title="Notes A", sources=[SourceRef("notes/a.md", "d", "notes-a-md")],
          extra={OWN_NAMES_KEY: []}),  # recorded: none (not the same as a page of an older pass, without the key)
    _page(title="true"), _page(title="2026-01-02"), _page(title="C++ & C#: 'quoted' — ünïcode 🚀"), _page(title=" spaced "),
    _page(sources=[SourceRef(f"n/{i}.md", f"sha256:{i}", f"n-{i}") for i in range(MAX_FRONTMATTER_SOURCES + 5)]),
])
def test_the_summary_of_a_rendered_page_is_what_reading_it_back_gives(page: Page) -> None:
    fast, read = _both(page)
    assert fast is not None and fast == read


@pytest.mark.parametrize("page", [
    _page(title="line\nbreak"),
    _page(title="tab\there"),
    _page(description="\ufeffbom"),
    _page("source", slug="s", title="S", extra={MENTIONED_ONCE_KEY: "not a list"}),
    _page("source", slug="s", title="S", extra={MENTIONED_ONCE_KEY: [1, 2]}),
    _page("source", slug="s", title="S", extra={OWN_NAMES_KEY: "Kwame"}),
])
def test_a_text_that_might_read_back_otherwise_is_read_back(page: Page) -> None:
    fast, read = _both(page)
    assert fast is None
    assert read.slug == page.slug


def test_a_source_page_says_whether_it_records_its_own_names() -> None:
    """`own_names: []` records none; a page without the key (an older pass's) records nothing (None)."""
    src = [SourceRef("notes/a.md", "d", "notes-a-md")]
    for extra, own in (({OWN_NAMES_KEY: []}, ()), ({}, None), ({OWN_NAMES_KEY: ["Kwame"]}, ("Kwame",))):
        fast, read = _both(_page("source", slug="notes-a-md", title="Notes A", sources=src, extra=extra))
        assert fast.own == read.own == own
    assert _both(_page(extra={OWN_NAMES_KEY: ["Kwame"]}))[1].own is None  # only a source page's counts


def test_shared_values_the_emitter_would_anchor_are_read_back() -> None:
    shared = ["x", "y"]
    page = _page(extra={"a": shared, "b": shared})  # the YAML emitter writes &id001 / *id001, which the loader refuses
    body = render_body(page, {}, "wikilink")
    text = render_page(page, {}, "wikilink", body)
    assert "&id001" in text and info_of_rendered(page, body, text) is None
