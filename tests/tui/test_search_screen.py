"""The search screen (`s`) and the page view (issue 9, item 4): the demo sources compiled through the
real services (the deterministic compiler, a fake clock, a workspace folder called `notes`), twice, so
the Python page has two revisions. `s` types a query, the hits follow as you type, enter opens the page
with its status line, claims with citations and revisions, esc goes back; `s` is greyed (and says why)
on a base with no compiled wiki."""

from __future__ import annotations

import pytest

from kctui.ui.screens.main import MainScreen
from kctui.ui.screens.page_view import PageViewScreen
from kctui.ui.screens.search import SearchScreen
from tests.tui.fixtures import make_app, ready, select_base, settle, until

SIZE = (120, 36)
PYTHON = "entities/python.md"


async def open_python_page(pilot) -> PageViewScreen:
    await ready(pilot)
    await select_base(pilot, "demo")
    await pilot.press("s")
    await until(pilot, lambda: isinstance(pilot.app.screen, SearchScreen))
    search = pilot.app.screen
    await pilot.press(*"python 3.12 end of life")
    await until(pilot, lambda: search.hits and search.query_text == "python 3.12 end of life")
    assert search.hits[0]["page"] == PYTHON
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, PageViewScreen) and pilot.app.screen.data is not None)
    return pilot.app.screen  # type: ignore[return-value]


def shown(screen, *ids: str) -> str:
    return "\n".join(str(screen.query_one(f"#{i}").render()) for i in ids)


async def test_search_as_you_type_opens_the_page_view_and_esc_goes_back(svc, clock, demo):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "demo")
        assert pilot.app.main.check_action("search", ()) is True
        await pilot.press("s")
        await until(pilot, lambda: isinstance(pilot.app.screen, SearchScreen))
        search = pilot.app.screen
        assert search.focused.id == "search-input"
        await pilot.press(*"sqlite")
        await until(pilot, lambda: search.query_text == "sqlite" and search.hits)
        assert any(h["page"] == "entities/sqlite-write-ahead-logging.md" for h in search.hits)
        # as you type: the results follow the query, the last word a prefix
        await pilot.press(*["backspace"] * 6, *"pyth")
        await until(pilot, lambda: search.query_text == "pyth" and search.hits)
        assert PYTHON in [h["page"] for h in search.hits]
        assert "match “pyth”" in shown(search, "search-status")
        results = search.query_one("#search-results")
        assert "Python" in str(results.get_option_at_index(0).prompt)
        # ↓ chooses another hit; ↑ back to the first
        first = search.selected_page()
        await pilot.press("down")
        assert search.selected_page() != first
        await pilot.press("up")
        assert search.selected_page() == first
        # a query that matches nothing says so
        await pilot.press(*["backspace"] * 4, *"xylophonic")
        await until(pilot, lambda: search.query_text == "xylophonic")
        assert search.hits == [] and "no compiled page matches" in shown(search, "search-status")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, MainScreen))


async def test_page_view_shows_status_claims_citations_and_revisions(svc, clock, demo):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        page = await open_python_page(pilot)
        assert page.page == PYTHON
        head = shown(page, "page-head")
        assert "Python" in head and "⇄ contradicted" in head and "disagree" in head
        claims = shown(page, "page-claims")
        assert "Python (3.12) — end of life: 2028-10-31" in claims
        assert "^[python-release-cycle.md:L13-L13]" in claims
        assert "(disputed)" in claims and "^[team-upgrade-notes.md:L8-L8]" in claims
        revisions = shown(page, "page-revisions")
        assert "Revisions (2)" in revisions
        assert revisions.index("r2") < revisions.index("r1")  # newest first
        assert "page created" in revisions and "job-1780003600000000-2" in revisions
        # esc: back to the search with its results, esc again: the main screen
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, SearchScreen))
        assert pilot.app.screen.hits[0]["page"] == PYTHON
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, MainScreen))


async def test_search_is_greyed_without_a_compiled_wiki(svc, clock, demo):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "inbox")
        main = pilot.app.main
        assert main.check_action("search", ()) is None  # greyed out, not hidden
        assert "no compiled wiki" in main.why_not("search")
        from kctui.ui.widgets.key_bar import KeyBar

        bar = main.query_one(KeyBar)
        await until(pilot, lambda: "s Search" in bar.plain)
        span = bar.plain.index("s Search")
        assert any(s.start <= span < s.end and "dim" in str(s.style) for s in bar._content.spans)
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(pilot.app.screen, MainScreen)
        assert any("no compiled wiki" in n.message for n in pilot.app._notifications)
        # only in the queue pane: elsewhere it is hidden
        await pilot.press("3")
        assert main.check_action("search", ()) is False


def test_page_view_snapshot(snap_compare, svc, clock, demo):
    async def run_before(pilot) -> None:
        await open_python_page(pilot)
        await pilot.pause(0.05)
        await settle(pilot)

    assert snap_compare(make_app(clock), terminal_size=SIZE, run_before=run_before)


def test_search_is_in_the_registry_and_can_be_rebound():
    from kctui.ui import keys

    entry = keys.BY_ID["search"]
    assert (entry.key, entry.action, entry.group) == ("s", "search", "Queue") and keys.MAIN in entry.scopes
    assert keys.validate_keymap({"search": "f5"}) == {"search": "f5"}
    with pytest.raises(keys.KeymapError, match="bound to both"):
        keys.validate_keymap({"search": "/"})


@pytest.mark.parametrize(("snippet", "lines"), [
    # the snippet is the claim's whole text: said once, its citation after it
    ("Okta — note: the «Okta» renewal is $18,400/yr", 2),
    # a snippet of another part of the page: the claim's line follows it
    ("Okta, a «thing» mentioned in 2 sources.", 3),
])
def test_a_hit_says_its_claim_once_with_its_citation(snippet: str, lines: int) -> None:
    from kctui.ui.screens.search import hit_text

    hit = {"page": "entities/okta.md", "title": "Okta", "status": "compiled", "snippet": snippet,
           "claims": [{"text": "Okta — note: the Okta renewal is $18,400/yr", "citation": "^[standup.md:L11-L11]"}]}
    shown_text = hit_text(hit, {}).plain
    assert len(shown_text.splitlines()) == lines
    assert shown_text.count("$18,400/yr") == 1
    assert shown_text.rstrip().endswith("^[standup.md:L11-L11]")
