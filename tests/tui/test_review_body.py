"""The review item's body draws line by line (kctui/ui/widgets/review_body.py): a key in the item repaints
what it changed and nothing else, without laying the screen out again — marking a hunk draws the two
hunk lines whose glyphs changed, s swaps the diff's lines and shows the diff's top, ] scrolls the
current hunk into view where long lines wrap (80×24). What it shows is held by the snapshot tests of
test_review_session.py and test_snapshots.py."""

from __future__ import annotations

import pytest

from kctui.services import review
from kctui.ui.widgets.review_body import ReviewBody
from tests.helpers.hunks import make_three_hunks
from tests.tui.fixtures import make_app, open_detail, settle


@pytest.fixture
def three(svc, tmp_path):
    ws = (tmp_path / "notes")
    ws.mkdir()
    b = make_three_hunks(svc, ws.resolve())
    [item] = review.list_items(svc, kb_id=b.id)
    return item


class Watch:
    """Counts the screen's layouts and the body lines drawn (by their line on screen)."""

    def __init__(self, screen, body: ReviewBody, monkeypatch) -> None:
        self.layouts = 0
        self.drawn: list[int] = []
        layout, draw = type(screen)._refresh_layout, ReviewBody.render_line

        def counted_layout(s, *a, **k):  # noqa: ANN001, ANN002, ANN003
            self.layouts += 1
            return layout(s, *a, **k)

        def counted_draw(widget, y: int):  # noqa: ANN001
            self.drawn.append(y)
            return draw(widget, y)

        monkeypatch.setattr(type(screen), "_refresh_layout", counted_layout)
        monkeypatch.setattr(ReviewBody, "render_line", counted_draw)

    def reset(self) -> None:
        self.layouts, self.drawn = 0, []


def row_of(body: ReviewBody, text: str) -> int:
    """The line on screen (0 = the body's first) showing `text`."""
    top = body.scroll_offset.y
    for y in range(body.size.height):
        if text in body.render_line(y).text:
            return y
    raise AssertionError(f"{text!r} is not on screen (scrolled to {top})")


async def test_marking_a_hunk_draws_only_the_two_lines_it_changed(clock, three, monkeypatch):
    async with make_app(clock).run_test(size=(160, 50)) as pilot:
        detail = await open_detail(pilot)
        body = detail.query_one("#detail-body", ReviewBody)
        await pilot.press("right_square_bracket")  # the cursor on hunk 1
        await settle(pilot)
        first, second = row_of(body, "▸ [ ] 1 claim revised"), row_of(body, "[ ] 2 claim revised")
        watch = Watch(detail, body, monkeypatch)
        await pilot.press("space")  # marks hunk 1, the cursor moves to hunk 2
        await settle(pilot)
        assert detail.marked == {1} and detail.cursor == 1
        assert watch.layouts == 0 and sorted(set(watch.drawn)) == [first, second]
        assert row_of(body, "  [x] 1 claim revised") == first and row_of(body, "▸ [ ] 2 claim revised") == second


async def test_s_swaps_the_diff_without_a_layout_and_shows_its_top(clock, three, monkeypatch):
    async with make_app(clock).run_test(size=(80, 24)) as pilot:
        detail = await open_detail(pilot)
        body = detail.query_one("#detail-body", ReviewBody)
        watch = Watch(detail, body, monkeypatch)
        for mode in ("split", "unified", "split"):
            watch.reset()
            await pilot.press("s")
            await settle(pilot)
            assert detail.mode == mode and watch.layouts == 0  # the scroll bar stays: no layout
            gap = body.part_start(1)  # the blank line above the diff: at the top, as far as the body scrolls
            assert body.scroll_offset.y == min(gap, body.max_scroll_y) > 0
            assert row_of(body, f"Page diff ({mode};") == gap + 1 - body.scroll_offset.y
            if mode == "split":
                assert " │ " in body.render_line(row_of(body, "# Lang")).text  # side by side


async def test_the_current_hunk_scrolls_into_view_where_lines_wrap(clock, three):
    async with make_app(clock).run_test(size=(80, 24)) as pilot:
        detail = await open_detail(pilot)
        body = detail.query_one("#detail-body", ReviewBody)
        for n in (1, 2, 3):
            await pilot.press("right_square_bracket")
            await settle(pilot)
            row = row_of(body, f"▸ [ ] {n} claim revised")  # (its header wraps to two lines at 80 columns)
            assert 0 <= row <= body.size.height - 4  # with the lines below it


async def test_a_new_theme_redraws_the_lines_in_its_colours(clock, three):
    async with make_app(clock).run_test(size=(120, 36)) as pilot:
        detail = await open_detail(pilot)
        body = detail.query_one("#detail-body", ReviewBody)

        def background() -> object:
            return body.render_line(0)._segments[0].style.bgcolor

        before = background()
        pilot.app.theme = next(t for t in pilot.app.available_themes if t != pilot.app.theme and "light" in t)
        await settle(pilot)
        assert background() != before and background() == body.visual_style.rich_style.bgcolor


async def test_a_mouse_selection_copies_the_text_it_covers_and_shows(clock, three):
    async with make_app(clock).run_test(size=(160, 50)) as pilot:
        detail = await open_detail(pilot)
        body = detail.query_one("#detail-body", ReviewBody)
        row = row_of(body, "Page diff (unified;")
        x0, y0 = body.content_region.offset  # the body's text on screen
        await pilot.mouse_down(offset=(x0 + 2, y0 + row))  # from "ge diff …"
        await pilot.hover(offset=(x0 + 5, y0 + row + 1))
        await pilot.mouse_up(offset=(x0 + 5, y0 + row + 1))  # to "── ent" (the character under the pointer)
        await settle(pilot)
        assert detail.get_selected_text() == "ge diff (unified; s switches to split)\n── ent"
        selected = body.screen.get_component_rich_style("screen--selection").bgcolor
        cells = [(seg.text, seg.style.bgcolor) for seg in body.render_line(row)._segments]
        assert cells[0] == ("Pa", cells[0][1]) and cells[0][1] != selected
        assert all(bg == selected for text, bg in cells[1:] if text.strip())
