"""The new screens' keys (issue 14): each screen is reached by a binding with an id (in the footer and
the command palette), its own keys are in the registry (rebindable, offered in the palette while it is
open, listed by `?`), and the palette's command runs on the screen it was opened on."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from kctui.ui import keys
from kctui.ui.screens.briefs import BriefsScreen
from kctui.ui.screens.help import HelpScreen
from kctui.ui.screens.main import MainScreen
from kctui.ui.screens.page_read import PageScreen
from kctui.ui.screens.pages import PagesScreen
from kctui.ui.screens.policy import PolicyScreen
from kctui.ui.widgets.key_bar import KeyBar
from tests.tui.fixtures import make_app, open_python, ready, select_base, settle, until

SIZE = (100, 30)
SCREENS = {"pages": PagesScreen, "policy": PolicyScreen, "briefs": BriefsScreen}


def test_the_screens_keys_are_registered_and_rebindable():
    for bid, key in (("pages", "g"), ("policy", "o"), ("briefs", "v")):
        k = keys.BY_ID[bid]
        assert k.key == key and keys.MAIN in k.scopes and k.show and k.palette
    for bid in ("page-text", "page-claims", "page-revisions", "page-links", "page-review"):
        assert keys.BY_ID[bid].scopes == (keys.PAGE,)
    assert keys.validate_keymap({"pages": "f7", "page-claims": "C"}) == {"pages": "f7", "page-claims": "C"}
    with pytest.raises(keys.KeymapError, match="bound to both"):
        keys.validate_keymap({"page-links": "c"})  # c is page-claims on the same screen
    with pytest.raises(keys.KeymapError, match="bound to both"):
        keys.validate_keymap({"policy-save": "f6"})


@pytest.mark.parametrize("bid", ["pages", "policy", "briefs"])
async def test_each_screen_opens_by_key_and_by_palette_and_shows_in_the_footer(svc, clock, demo, bid):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, "demo")
        bar = pilot.app.main.query_one(KeyBar)
        label = f"{keys.BY_ID[bid].key} {keys.BY_ID[bid].description}"
        await until(pilot, lambda: label in bar.plain)
        titles = [c.title for c in pilot.app.get_system_commands(pilot.app.screen)]
        assert f"{keys.BY_ID[bid].description} ({keys.BY_ID[bid].key})" in titles
        await pilot.press(keys.BY_ID[bid].key)
        await until(pilot, lambda: isinstance(pilot.app.screen, SCREENS[bid]))
        # ? lists every key and says which apply here (in the pages screen, from the list: ? types in the filter)
        if bid == "pages":
            await pilot.press("tab")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, SCREENS[bid]))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, MainScreen))
        # the palette: F2, type the command, enter
        await pilot.press("f2")
        await until(pilot, lambda: isinstance(pilot.app.screen, CommandPalette))
        await pilot.press(*keys.BY_ID[bid].description.lower(), "enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, SCREENS[bid]))


async def test_the_palette_offers_the_open_screen_s_own_keys(svc, clock, demo):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        page = await open_python(pilot)
        titles = [c.title for c in pilot.app.get_system_commands(page)]
        assert titles[:5] == ["Text (t)", "Claims (c)", "Revisions (v)", "Links (l)", "Review items (i)"]
        await pilot.press("f2")
        await until(pilot, lambda: isinstance(pilot.app.screen, CommandPalette))
        await pilot.press(*"revisions", "enter")
        await until(pilot, lambda: pilot.app.screen is page and page.section == "revisions")
        assert isinstance(pilot.app.screen, PageScreen)
        # ? on the page: its own keys apply, the others say where they do
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        state = {r.id: r.state for r in pilot.app.screen.rows}
        assert state["page-claims"] is None and state["page-links"] is None and state["back"] is None
        assert state["compile"] == "only on the main screen" and state["policy-save"] == "only in the policy screen"
        await pilot.press("escape")
        await until(pilot, lambda: pilot.app.screen is page)


async def test_the_screen_keys_do_not_apply_without_a_base(svc, clock):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        main = pilot.app.main
        for action in ("pages", "policy", "briefs"):
            assert main.check_action(action, ()) is None
            assert "no knowledge base is selected" in main.why_not(action)
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(pilot.app.screen, MainScreen)


async def test_names_in_brackets_are_shown_as_written_never_read_as_markup(svc, clock, tmp_path):
    """An earlier crash came from a `[/]` label; the base's name (given to the screens as shown), its
    page title and its claims here all hold brackets. (The base itself is named plainly: the main
    screen's panes are not what this test is about.)"""
    from tests.tui.fixtures import compile_pass, make_base, page

    ws = tmp_path / "notes"
    ws.mkdir()
    ws = ws.resolve()
    b = make_base(svc, ws, "Odd", {"a.md": "# A\nx: [/] 1\n"})
    compile_pass(svc, ws, b.id, {"concepts/odd.md": page("Weird [/] [b]title", "x", "[/] 1", "a.md:L2-L2")})
    name = "Odd [/] [bold]name"
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        for screen_type in (PagesScreen, PolicyScreen, BriefsScreen):
            pilot.app.push_screen(screen_type(str(ws), b.id, name))
            await until(pilot, lambda t=screen_type: isinstance(pilot.app.screen, t))
            await settle(pilot)
            screen = pilot.app.screen
            assert name in "\n".join(strip.text for strip in screen._compositor.render_strips())  # as written
            if screen_type is PagesScreen:
                await until(pilot, lambda s=screen: s.pages)
                assert "Weird [/] [b]title" in str(screen.query_one("#pages-list").get_option_at_index(1).prompt)
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(pilot.app.screen, PageScreen) and pilot.app.screen.data)
                md = pilot.app.screen.query_one("#read-md")
                await until(pilot, lambda m=md: len(m.children) > 0)
                await settle(pilot)
                shown = "\n".join(strip.text for strip in pilot.app.screen._compositor.render_strips())
                assert "Weird [/] [b]title" in shown and "[/] 1" in shown
                await pilot.press("escape")
                await until(pilot, lambda s=screen: pilot.app.screen is s)
                await pilot.press("tab")
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
            await pilot.press("escape")
            await until(pilot, lambda s=screen: pilot.app.screen is s)
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(pilot.app.screen, MainScreen))
