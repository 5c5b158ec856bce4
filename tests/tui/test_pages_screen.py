"""The pages screen (`g`, issue 14 item 1): the demo sources compiled through the real services (the
built-in compiler, a fake clock, a workspace folder called `notes`). Every compiled page grouped by
class with its status as a glyph and a word; typing filters and says "showing N / total"; enter opens
a page (its rendered text, its links, its claims with the cited source lines, its revisions, its open
review items); a link opens the linked page and esc comes back; a review item opens its detail."""

from __future__ import annotations

from kctui.ui.screens.main import MainScreen
from kctui.ui.screens.page_read import PageScreen
from kctui.ui.screens.pages import PagesScreen
from kctui.ui.screens.review_detail import ReviewDetailScreen
from tests.tui.fixtures import PYTHON, make_app, open_pages, open_python, ready, select_base, settle, until

SIZE = (100, 30)


def text_of(screen, wid: str) -> str:
    w = screen.query_one(f"#{wid}")
    return w.plain if hasattr(w, "plain") else str(w.render())


def options(screen, wid: str) -> list[str]:
    listing = screen.query_one(f"#{wid}")
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


async def test_pages_are_grouped_by_class_with_status_glyph_and_word_and_filter_counts(svc, clock, demo):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        pages = await open_pages(pilot)
        rows = options(pages, "pages-list")
        heads = [r for r in rows if r.startswith(("Sources", "Concepts", "Entities"))]
        assert heads == ["Sources (5)", "Concepts (4)", "Entities (5)"] or [h.split(" ")[0] for h in heads] == [
            "Sources", "Concepts", "Entities"]
        assert rows.index(heads[0]) < rows.index(heads[1]) < rows.index(heads[2])
        python = next(r for r in rows if PYTHON in r)
        assert "⇄ contradicted" in python and "1 open review item" in python
        assert any("✔ compiled" in r for r in rows)
        total = len(pages.pages)
        assert text_of(pages, "pages-count").startswith(f"showing {total} / {total} pages")
        # typing filters; the count says how many are shown
        await pilot.press(*"sqlite")
        await settle(pilot)
        shown = [r for r in options(pages, "pages-list") if "  " in r and not r.startswith(("Sources", "Concepts", "Entities"))]
        assert shown and all("sqlite" in r.lower() for r in shown)
        assert text_of(pages, "pages-count").startswith(f"showing {len(shown)} / {total} pages")
        # a status word filters too
        await pilot.press(*["backspace"] * 6, *"contradicted")
        await settle(pilot)
        assert pages.selected_page() == PYTHON, (pages.needle, pages.shown, pilot.app.focused)
        assert text_of(pages, "pages-count").startswith(f"showing 1 / {total} pages")
        # nothing matches: said, and enter opens nothing
        await pilot.press(*"zzz")
        await settle(pilot)
        assert pages.selected_page() is None and "matches none" in text_of(pages, "pages-count")
        await pilot.press("enter")
        await settle(pilot)
        assert pilot.app.screen is pages
        # esc clears the filter, esc again goes back
        await pilot.press("escape")
        await settle(pilot)
        assert text_of(pages, "pages-count").startswith(f"showing {total} / {total}")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, MainScreen))


async def test_open_a_page_read_its_text_claims_revisions_and_follow_a_link_and_back(svc, clock, demo):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        page = await open_python(pilot)
        head = text_of(page, "read-head")
        assert "Python" in head and "contradicted" in head
        # the text, rendered as Markdown (no front matter)
        md = page.query_one("#read-md")
        await until(pilot, lambda: len(md.children) > 0)
        assert "type: Entity" not in page.data["markdown"] and "# Python" in page.data["markdown"]
        # claims with the cited source lines
        await pilot.press("c")
        claims = text_of(page, "read-claims")
        assert "Python (3.12) — end of life: 2028-10-31" in claims
        assert "^[python-release-cycle.md:L13-L13]" in claims
        assert "13  | 3.12  | 2023-10-02   | 2028-10-31  |" in claims  # the cited line itself
        assert "(disputed)" in claims
        # revisions, newest first
        await pilot.press("v")
        assert "Revisions (2)" in text_of(page, "read-revisions")
        # links: enter opens the linked page, esc comes back to this one
        await pilot.press("l")
        links = options(page, "sec-links")
        assert links and any("sources/python-release-cycle-md.md" in x for x in links)
        target = page.data["links"][0]["page"]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, PageScreen) and pilot.app.screen is not page
                    and pilot.app.screen.data is not None)
        assert pilot.app.screen.page == target and pilot.app.screen.data["page"] == target
        await pilot.press("escape")
        await until(pilot, lambda: pilot.app.screen is page)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, PagesScreen))


async def test_jump_from_a_page_to_its_open_review_item(svc, clock, demo):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        page = await open_python(pilot)
        # enter in the text section does nothing but say why
        assert page.check_action("open", ()) is None
        await pilot.press("i")
        items = options(page, "sec-review")
        assert len(items) == 1 and "⇄ conflict" in items[0]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, ReviewDetailScreen))
        assert pilot.app.screen.item_id == page.data["openItems"][0]["id"]
        await pilot.press("escape")
        await until(pilot, lambda: pilot.app.screen is page)


async def test_pages_key_needs_a_compiled_base(svc, clock, demo):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "inbox")
        main = pilot.app.main
        assert main.check_action("pages", ()) is None and "no compiled wiki" in main.why_not("pages")
        await pilot.press("g")
        await settle(pilot)
        assert isinstance(pilot.app.screen, MainScreen)


def test_a_link_target_is_a_wiki_page_path():
    from kctui.services.pages import link_path, readable_markdown

    assert link_path("/concepts/x.md") == "concepts/x.md"
    assert link_path("../entities/y.md", "concepts/x.md") == "entities/y.md"
    assert link_path("sources/a-md.md") == "sources/a-md.md"
    assert link_path("https://example.com/a.md") is None
    assert link_path("../../etc/passwd.md", "concepts/x.md") is None
    assert link_path("#top") is None
    text, linked = readable_markdown("---\ntitle: X\n---\n\n# X\n\n* [[y|Why \\[1\\]]] and [[gone|Gone]] and "
                                     "[Z](/entities/z.md)\n", "concepts/x.md",
                                     {"y": "entities/y.md", "z": "entities/z.md"})
    assert text.startswith("# X") and "title:" not in text
    assert "[Why \\[1\\]](entities/y.md)" in text and "Gone" in text and "[[gone" not in text
    assert "[Z](entities/z.md)" in text and linked == ["entities/y.md", "entities/z.md"]


def test_the_cli_lists_the_same_pages(svc, clock, demo):
    import json

    from click.testing import CliRunner

    from kctui.cli import main
    from kctui.services.pages import list_pages

    out = CliRunner().invoke(main, ["page", "list", str(demo["ws"]), "demo", "--json"])
    assert out.exit_code == 0, out.output
    # the CLI runs on the real clock (the app here on the fake one), so compare what does not age
    same = ("page", "title", "pageClass", "openItems")
    assert [{k: p[k] for k in same} for p in json.loads(out.output)["items"]] == \
        [{k: p[k] for k in same} for p in list_pages(svc, demo["ws"], "demo")["items"]]
    text = CliRunner().invoke(main, ["page", "list", str(demo["ws"]), "demo"])
    # 13 pages: "It was added in Linux 3.15." gives Linux a page with that version (issue 31)
    assert "entities/python.md" in text.output and "contradicted" in text.output and "13 pages:" in text.output


async def test_a_long_list_is_listed_in_batches_as_the_highlight_moves(svc, clock):
    """Thousands of pages: the filter and count cover all of them; the rows are added 200 at a time."""
    from kctui.ui.screens.pages import BATCH, MORE

    items = [{"page": f"concepts/p{i:04d}.md", "slug": f"p{i:04d}", "title": f"Page {i}", "pageClass": "concept",
              "status": "compiled", "why": "", "description": "", "openItems": 0} for i in range(1000)]
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        screen = PagesScreen("/nowhere", "kb", "KB")
        screen.load = lambda: screen.show_pages({"items": items})  # no store: the rows are the point here
        pilot.app.push_screen(screen)
        await until(pilot, lambda: screen.pages is not None)
        assert text_of(screen, "pages-count").startswith("showing 1000 / 1000 pages")
        assert screen.shown[-1] == MORE and len([p for p in screen.shown if p not in (None, MORE)]) == BATCH
        assert "800 more" in options(screen, "pages-list")[-1]
        await pilot.press("tab", *["down"] * (BATCH + 5))
        assert len([p for p in screen.shown if p not in (None, MORE)]) == 2 * BATCH
        assert screen.selected_page() == f"concepts/p{BATCH + 5:04d}.md"  # no page skipped where a batch joins
        assert [p for p in screen.shown if p not in (None, MORE)] == [p["page"] for p in items[:2 * BATCH]]
        # the filter reaches every page, not only the rows listed
        await pilot.press("slash", *"p0999")
        await settle(pilot)
        assert screen.selected_page() == "concepts/p0999.md"
        assert text_of(screen, "pages-count").startswith("showing 1 / 1000 pages")


async def test_a_link_clicked_in_the_text_opens_the_linked_page(svc, clock, demo):
    from textual.widgets import Markdown

    async with make_app(clock).run_test(size=SIZE) as pilot:
        page = await open_python(pilot)
        md = page.query_one("#read-md", Markdown)
        target = page.data["links"][-1]["page"]
        assert f"]({target})" in page.data["markdown"]  # the rendered text links to it by its page path
        md.post_message(Markdown.LinkClicked(md, "https://example.com/x.md"))  # not a page: nothing opens
        await settle(pilot)
        assert pilot.app.screen is page
        md.post_message(Markdown.LinkClicked(md, target))
        await until(pilot, lambda: isinstance(pilot.app.screen, PageScreen) and pilot.app.screen is not page
                    and pilot.app.screen.data is not None)
        assert pilot.app.screen.page == target
        await pilot.press("escape")
        await until(pilot, lambda: pilot.app.screen is page)
