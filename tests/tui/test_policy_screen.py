"""The policy screen (`o`, issue 14 item 2): the base's compilation and trust policy as a form. F5
saves through the service `kctui kb policy` uses, after the same rules; a bad value gets one line
under its field and nothing is saved (not even the good fields); guards are added (enter) and removed
(delete on the list); F6 queues a manual compile. Asserted on the store."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from kctui.services import bases, jobs
from kctui.services import policy as policy_svc
from kctui.ui.screens.main import MainScreen
from kctui.ui.screens.policy import PolicyScreen, field_id
from tests.tui.fixtures import make_app, make_base, ready, select_base, settle, until

SIZE = (100, 30)


@pytest.fixture
def base(svc, tmp_path):
    ws = tmp_path / "notes"
    ws.mkdir()
    ws = ws.resolve()
    b = make_base(svc, ws, "Langs", {"python.md": "# Python\neol: 2028-10-31\n"})
    return {"ws": ws, "id": b.id}


async def open_policy(pilot) -> PolicyScreen:
    await ready(pilot)
    await select_base(pilot, "langs")
    await pilot.press("o")
    await until(pilot, lambda: isinstance(pilot.app.screen, PolicyScreen) and pilot.app.screen.data is not None)
    return pilot.app.screen  # type: ignore[return-value]


async def type_into(pilot, screen, name: str, text: str) -> None:
    w = screen.query_one(f"#{field_id(name)}")
    w.focus()
    await pilot.pause()
    w.value = ""
    await pilot.press(*text)


def error_of(screen, name: str) -> str:
    w = screen.query_one(f"#err-{name}")
    return str(w.render()) if w.display else ""


def stored(svc, base) -> dict:
    return policy_svc.policy_json(svc, base["ws"], base["id"])


async def test_the_form_shows_the_stored_policy_and_a_valid_save_stores_every_field(svc, clock, base):
    policy_svc.update_policy(svc, base["ws"], base["id"], never_auto=["tag:finance"])
    async with make_app(clock).run_test(size=SIZE) as pilot:
        screen = await open_policy(pilot)
        assert screen.query_one(f"#{field_id('compilation')}").value == "manual"
        assert screen.query_one(f"#{field_id('autonomy')}").value == "guarded"
        assert screen.query_one(f"#{field_id('min-confidence')}").value == "0.6"
        assert screen.query_one(f"#{field_id('stale-days')}").value == "90"
        assert screen.guards == ["tag:finance"]
        # every field says what it does, in one line
        helps = [str(w.render()) for w in screen.query(".pol-help")]
        assert len(helps) == 7 and all(h and "\n" not in h for h in helps)
        screen.query_one(f"#{field_id('compilation')}").value = "smart_auto"
        screen.query_one(f"#{field_id('autonomy')}").value = "auto"
        screen.query_one(f"#{field_id('link-style')}").value = "markdown"
        await type_into(pilot, screen, "min-confidence", "0.8")
        await type_into(pilot, screen, "stale-days", "30")
        await type_into(pilot, screen, "never-auto", "class:entity")
        await pilot.press("enter")  # adds the guard to the form, saves nothing yet
        await settle(pilot)
        assert screen.guards == ["tag:finance", "class:entity"]
        assert stored(svc, base)["neverAuto"] == ["tag:finance"]
        await pilot.press("f5")
        await until(pilot, lambda: not screen.saving)
        data = stored(svc, base)
        assert (data["compilation"], data["autonomy"], data["linkStyle"], data["minConfidence"], data["staleDays"],
                data["neverAuto"]) == ("smart_auto", "auto", "markdown", 0.8, 30, ["tag:finance", "class:entity"])
        assert bases.get_base(svc, base["ws"], base["id"]).policy == "smart_auto"
        assert "saved" in screen.query_one("#pol-status").plain
        # remove a guard: delete on the list, then F5
        screen.query_one("#pol-guards").focus()
        await pilot.pause()
        screen.query_one("#pol-guards").highlighted = 0
        await pilot.press("delete")
        await settle(pilot)
        assert screen.guards == ["class:entity"]
        await pilot.press("f5")
        await until(pilot, lambda: not screen.saving)
        assert stored(svc, base)["neverAuto"] == ["class:entity"]
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, MainScreen))


@pytest.mark.parametrize("field, text, words", [
    ("min-confidence", "1.5", "min-confidence must be between 0 and 1"),
    ("min-confidence", "abc", "min-confidence must be a number from 0 to 1"),
    ("stale-days", "0", "stale-days must be between 1 and 36500"),
    ("stale-days", "2.5", "stale-days must be a whole number"),
])
async def test_a_bad_value_is_named_under_its_field_and_nothing_is_saved(svc, clock, base, field, text, words):
    before = stored(svc, base)
    async with make_app(clock).run_test(size=SIZE) as pilot:
        screen = await open_policy(pilot)
        screen.query_one(f"#{field_id('autonomy')}").value = "suggest"  # a good change beside the bad one
        await type_into(pilot, screen, field, text)
        await pilot.press("f5")
        await settle(pilot)
        assert words in error_of(screen, field)
        assert all(not error_of(screen, f) for f in ("compilation", "autonomy", "extractor") if f != field)
        assert "not saved" in screen.query_one("#pol-status").plain
        assert stored(svc, base) == before  # nothing saved, not even the good field
        # fixing the value clears the error and saves
        await type_into(pilot, screen, field, "0.5" if field == "min-confidence" else "10")
        await pilot.press("f5")
        await until(pilot, lambda: not screen.saving and stored(svc, base) != before)
        assert not error_of(screen, field) and stored(svc, base)["autonomy"] == "suggest"


async def test_a_bad_guard_is_refused_with_the_cli_s_words(svc, clock, base):
    runner = CliRunner()
    from kctui.cli import main

    cli = runner.invoke(main, ["kb", "policy", str(base["ws"]), base["id"], "--never-auto", "kind:x"])
    assert cli.exit_code != 0
    async with make_app(clock).run_test(size=SIZE) as pilot:
        screen = await open_policy(pilot)
        await type_into(pilot, screen, "never-auto", "kind:x")
        await pilot.press("enter")
        await settle(pilot)
        shown = error_of(screen, "never-auto")
        assert "never-auto guard kind 'kind' must be class, tag or title" in shown
        assert shown.removeprefix("✘ ") in cli.output  # the same rule, the same words
        assert screen.guards == [] and stored(svc, base)["neverAuto"] == []


async def test_compile_now_queues_a_manual_compile(svc, clock, base):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        screen = await open_policy(pilot)
        await pilot.press("f6")
        await settle(pilot)
        queued = [j for j in jobs.list_jobs(svc, workspace=base["ws"], kb_id=base["id"])]
        assert len(queued) == 1 and queued[0].trigger == "manual" and queued[0].phase == "queued"
        assert "queued" in screen.query_one("#pol-status").plain


def test_check_changes_names_the_field():
    from kctui.services.policy import PolicyFieldError, check_changes

    for kwargs, field in [({"autonomy": "yolo"}, "autonomy"), ({"min_confidence": -0.1}, "min-confidence"),
                          ({"stale_days": 0}, "stale-days"), ({"never_auto": ["title:("]}, "never-auto"),
                          ({"link_style": "html"}, "link-style"), ({"extractor": "gpt"}, "extractor")]:
        with pytest.raises(PolicyFieldError) as exc:
            check_changes(**kwargs)
        assert exc.value.field == field
    assert check_changes(min_confidence=1.0, stale_days=1) == {"min_confidence": 1.0, "stale_days": 1}
