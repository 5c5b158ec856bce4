"""QA session 30 #6: a page of 340 claims froze the app 12-13 s a key, and keys typed meanwhile ran on
whatever screen came up. A long page text is rendered in a thread into ONE widget (not a widget per
block), and a key typed before the screen on top showed is not run on it: one notification names it.
Main-screen keys no binding takes (`y` with no question open, `X`) say so (#12)."""

from __future__ import annotations

from textual import events

from kctui.ui.screens.main import MainScreen
from kctui.ui.screens.page_read import PageScreen
from tests.tui.fixtures import compile_pass, make_app, make_base, notes, ready, settle, until

SIZE = (100, 30)
LONG = ("---\ntype: Entity\ntitle: Lagos\ncompile_status: compiled\nstatus: stable\n---\n\n# Lagos\n\n"
        + "".join(f"- office {i} opens in Lagos ^[s{i}.md:L1-L1]\n" for i in range(300)))


def long_base(svc, ws):
    base = make_base(svc, ws, "Big", {f"s{i}.md": f"office {i} opens in Lagos\n" for i in range(3)})
    compile_pass(svc, ws, base.id, {"entities/lagos.md": LONG})
    return base


async def test_a_long_page_renders_in_one_widget_and_stale_keys_are_not_run(svc, clock, tmp_path):
    base = long_base(svc, tmp_path)
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        before = events.Key("c", "c")  # typed while the main screen was on top (its time is now)
        screen = PageScreen(str(tmp_path), base.id, "entities/lagos.md")
        await pilot.app.push_screen(screen)
        await until(pilot, lambda: screen.data is not None and not screen.load_pending)
        long = screen.query_one("#read-long")
        assert long.display and not screen.query_one("#read-md").display
        text = str(long.render())
        assert "Lagos" in text and "office 299 opens in Lagos" in text
        assert len(list(screen.query("*"))) < 60  # not a widget per block
        # the key typed before the page showed reaches it only now: it is not run, and is named
        pilot.app.post_message(before)
        await settle(pilot)
        assert screen.section == "text" and "c: key typed before this screen showed; not run" in notes(pilot.app)
        # a key typed now runs
        await pilot.press("c")
        await settle(pilot)
        assert screen.section == "claims"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, MainScreen))


async def test_y_with_no_question_and_an_unbound_key_say_so(svc, clock, tmp_path):
    long_base(svc, tmp_path)
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert "y (Yes): only in a yes/no question, and none is open" in notes(pilot.app)
        await pilot.press("X")
        await settle(pilot)
        assert "X: no key here is bound to it; ? lists the keys here" in notes(pilot.app)
