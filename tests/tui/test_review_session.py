"""Pilot tests of issue 35's review session: hunks marked and decided in the review detail (a partial
approval publishes exactly the accepted claims), `z` undoing the session's decisions back to the page
byte for byte, reviewed marks (the pane's unread count follows opening and a source change, `N` opens
the next unread item), `e` / `E` running a fake `$EDITOR` / `$PAGER` with the right file and line, and
the split / unified diff toggle (snapshots at 80×24 and 160×50)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from kctui import paths
from kctui.core.pages import kept_entries, parse_page
from kctui.services import review
from kctui.ui.screens.confirm import ConfirmScreen
from kctui.ui.screens.main import MainScreen
from kctui.ui.screens.review_detail import ReviewDetailScreen
from tests.helpers.hunks import NEW, OLD, PAGE, hold, make_three_hunks
from tests.tui.fixtures import SIZE, make_app, notes, open_detail, ready, settle, until


@pytest.fixture
def three(svc, tmp_path):
    ws = (tmp_path / "notes")
    ws.mkdir()
    ws = ws.resolve()
    b = make_three_hunks(svc, ws)
    [item] = review.list_items(svc, kb_id=b.id)
    return ws, b, item


def live(ws: Path, b) -> bytes:  # noqa: ANN001
    return (paths.wiki_path(ws, b.id) / PAGE).read_bytes()


def claims(ws: Path, b) -> dict[str, str]:  # noqa: ANN001
    page = parse_page(live(ws, b).decode(), "lang")
    return {c.attribute: c.value for c in page.claims}


async def test_partial_approval_of_a_three_hunk_item_publishes_exactly_the_accepted_claims(svc, clock, three):
    ws, b, item = three
    async with make_app(clock).run_test(size=SIZE) as pilot:
        detail = await open_detail(pilot)
        assert len(detail.data["hunks"]) == 3
        await pilot.press("space")  # marks hunk 1, moves to hunk 2
        await pilot.press("right_square_bracket")  # to hunk 3
        await pilot.press("space")
        assert detail.marked == {1, 3} and detail.chosen_hunks() == [1, 3]
        await pilot.press("a")  # picked hunks: asked first, with the counts (QA s29 item 2)
        await settle(pilot)
        assert isinstance(pilot.app.screen, ConfirmScreen)
        assert pilot.app.screen.title_text == f"Approve 2 of 3 hunks of item #{item.id}?"
        assert "Hunks 1, 3: published. The other 1: left as the current page" in str(pilot.app.screen.body)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(pilot.app.screen, MainScreen)
        assert f"item #{item.id} approved 2 of 3 hunks; 1 left as the current page" in notes(pilot.app)
    assert review.get_item(svc, item.id).state == "approved"
    assert claims(ws, b) == {"eol": NEW[0], "latest": OLD[1], "owner": NEW[2]}
    page = parse_page(live(ws, b).decode(), "lang")
    assert [e["attribute"] for e in kept_entries(page.extra)] == ["latest"]  # the rejected one: kept, flagged


async def test_no_to_a_partial_decision_changes_nothing_and_keeps_the_marks(svc, clock, three):
    ws, b, item = three
    before = live(ws, b)
    async with make_app(clock).run_test(size=SIZE) as pilot:
        detail = await open_detail(pilot)
        await pilot.press("right_square_bracket", "right_square_bracket", "r")  # the current hunk, 2
        await settle(pilot)
        assert pilot.app.screen.title_text == f"Reject 1 of 3 hunks of item #{item.id}?"
        await pilot.press("n")
        await settle(pilot)
        assert pilot.app.screen is detail and detail.chosen_hunks() == [2]
    assert live(ws, b) == before and review.get_item(svc, item.id).state == "open"


@pytest.mark.parametrize("key", ["a", "r"])
async def test_z_undoes_an_approval_or_a_rejection_byte_for_byte_and_reopens(svc, clock, three, key):
    ws, b, item = three
    before = live(ws, b)
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await open_detail(pilot)
        await pilot.press(key)
        await settle(pilot)
        assert review.get_item(svc, item.id).state in ("approved", "rejected") and live(ws, b) != before
        assert len(pilot.app.session_decisions) == 1
        await pilot.press("z")
        await settle(pilot)
        assert "is open again" in notes(pilot.app)
        assert pilot.app.session_decisions == []
        await pilot.press("z")  # nothing left of this session: said in words
        await settle(pilot)
        assert "no decision of this session to undo" in notes(pilot.app)
    assert live(ws, b) == before and review.get_item(svc, item.id).state == "open"


async def test_z_goes_back_through_the_session(svc, clock, three):
    ws, b, first = three
    other = make_three_hunks(svc, ws, name="Second")
    [second] = review.list_items(svc, kb_id=other.id)
    before = (live(ws, b), live(ws, other))
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await open_detail(pilot)  # the first item
        await pilot.press("right_square_bracket", "a")  # its hunk 1 only
        await settle(pilot)
        await pilot.press("y")  # (asked first: 1 of 3 hunks)
        await settle(pilot)
        await pilot.press("enter")  # the second item (the first left the list)
        await settle(pilot)
        assert pilot.app.screen.item_id == second.id
        await pilot.press("r")
        await settle(pilot)
        assert [review.get_item(svc, i.id).state for i in (first, second)] == ["approved", "rejected"]
        await pilot.press("z")  # the last decision first
        await settle(pilot)
        assert review.get_item(svc, second.id).state == "open" and live(ws, other) == before[1]
        assert review.get_item(svc, first.id).state == "approved"
        await pilot.press("z")  # then the one before
        await settle(pilot)
    assert (live(ws, b), live(ws, other)) == before
    assert [review.get_item(svc, i.id).state for i in (first, second)] == ["open", "open"]


async def test_unread_count_follows_opening_and_a_source_change(svc, clock, three):
    ws, b, item = three
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        pane = pilot.app.main.query_one("#review")
        assert str(pane.border_subtitle).endswith("1 unread / 1")
        await pilot.press("3", "enter")
        await settle(pilot)
        await pilot.press("escape")
        pilot.app.poller.poll_now()
        await until(pilot, lambda: str(pane.border_subtitle).endswith("0 unread / 1"))
        await pilot.press("N")  # every item read: said in words
        await settle(pilot)
        assert "has been read" in notes(pilot.app)
        hold(svc, ws, b, OLD, ("2031", "3.0", "Cy"))  # the source changed again: the item's content too
        pilot.app.poller.poll_now()
        await until(pilot, lambda: str(pane.border_subtitle).endswith("1 unread / 1"))
        await pilot.press("N")  # the next unread item opens
        await settle(pilot)
        assert isinstance(pilot.app.screen, ReviewDetailScreen) and pilot.app.screen.item_id == item.id
    assert review.get_item(svc, item.id).state == "open"


def fake_program(tmp_path: Path, name: str) -> tuple[str, Path]:
    """A script that records its arguments (JSON) where the test reads them."""
    out = tmp_path / f"{name}.json"
    script = tmp_path / f"fake-{name}"
    script.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {out}\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script), out


@pytest.mark.parametrize("key, var", [("e", "EDITOR"), ("E", "PAGER")])
async def test_e_and_E_run_the_editor_and_pager_at_the_cited_line(svc, clock, three, tmp_path, monkeypatch, key,
                                                                    var):
    ws, b, _ = three
    program, out = fake_program(tmp_path, var.lower())
    monkeypatch.setenv(var, program)
    monkeypatch.delenv("VISUAL", raising=False)
    async with make_app(clock).run_test(size=SIZE) as pilot:
        detail = await open_detail(pilot)
        await pilot.press(key)  # no current hunk: the page itself, at its top
        await settle(pilot)
        assert out.read_text().split("\n")[:2] == ["+1", str(paths.wiki_path(ws, b.id) / PAGE)]
        await pilot.press("right_square_bracket", "right_square_bracket", key)  # hunk 2 cites lang.md:L3
        await settle(pilot)
        assert out.read_text().split("\n")[:2] == ["+3", str(paths.sources_path(ws, b.id) / "lang.md")]
        assert pilot.app.screen is detail  # the app resumed where it was


async def test_a_missing_editor_is_said_in_one_line(svc, clock, three, monkeypatch):
    monkeypatch.setenv("EDITOR", "/nonexistent/editor")
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await open_detail(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert "cannot run /nonexistent/editor" in notes(pilot.app)


SIZES = [(80, 24), (160, 50)]


@pytest.mark.parametrize("mode", ["unified", "split"])
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x50"])
def test_diff_views(snap_compare, svc, clock, three, size, mode):
    async def run_before(pilot) -> None:
        detail = await open_detail(pilot)
        await pilot.press("right_square_bracket")
        if mode == "split":
            await pilot.press("s")
        assert detail.mode == mode
        if size == (80, 24):  # the page diff, at the bottom
            detail.query_one("#detail-body").scroll_end(animate=False, immediate=True)
        await pilot.pause(0.1)
        await settle(pilot)

    assert snap_compare(make_app(clock), terminal_size=size, run_before=run_before)


async def test_z_on_the_page_screen_undoes_a_decision_older_than_the_session(svc, clock, three):
    from kctui.ui.screens.page_read import PageScreen

    ws, b, item = three
    before = live(ws, b)
    review.resolve(svc, item.id, "approve", hunks=[2], actor="human:ada")  # before the app started
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("z")  # not this session's: said, nothing changed
        await settle(pilot)
        assert "no decision of this session to undo" in notes(pilot.app) and live(ws, b) != before
        pilot.app.push_screen(PageScreen(str(ws), b.id, PAGE))
        await settle(pilot)
        await pilot.press("v", "z")
        await settle(pilot)
        assert "is back at revision 2" in notes(pilot.app)
        await pilot.press("z")  # nothing left that wrote this page
        await settle(pilot)
        assert "no review decision that wrote entities/lang.md is left to undo" in notes(pilot.app)
    assert live(ws, b) == before and review.get_item(svc, item.id).state == "open"


async def test_the_new_keys_are_in_the_footer_help_and_palette(svc, clock, three):
    from kctui.ui import keys
    from kctui.ui.screens.help import HelpScreen

    new = ["mark-hunk", "next-hunk", "prev-hunk", "diff-view", "editor", "pager", "undo", "next-unread", "keep-here"]
    async with make_app(clock).run_test(size=(160, 50)) as pilot:
        detail = await open_detail(pilot)
        ids = {b.id for b in detail.BINDINGS if getattr(b, "id", None)}
        assert set(new) <= ids  # each a binding with its id on the review item's screen
        titles = {c.title for c in pilot.app.get_system_commands(detail)}
        for bid in new:
            k = keys.BY_ID[bid]
            assert f"{k.description} ({keys.keys_text(k)})" in titles, bid
        from kctui.ui.widgets.key_bar import KeyBar

        footer = detail.query_one(KeyBar).plain
        for word in ("Mark hunk", "Split/unified", "Editor", "Undo", "Next unread"):
            assert word in footer, word
        await pilot.press("escape")  # ? on the main screen: every key, and where it applies
        await settle(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        state = {r.id: r.state for r in pilot.app.screen.rows}
        assert all(state[b] == "only in a review item" for b in ("mark-hunk", "diff-view", "editor", "pager", "keep-here"))
        assert state["next-unread"] == "every open review item has been read"  # it was just opened
        assert state["undo-page"] == "only in a page opened from the pages screen"
        assert state["undo"] == "no decision of this session to undo (older ones: v on the page screen, or " \
                                "`kctui review undo`)"
